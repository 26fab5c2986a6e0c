//! `daldos best` (and `daldos show --best`, the game's hint, Python's
//! `best`): the best play for a throw by expectiminimax, or without a throw
//! the expected value before the throw and the best play for each of the
//! 16 throws, within a node budget and with the solved tables wherever
//! they cover a position the search reaches.
//!
//! This is the one library entry for "the best play and value of a
//! position under a budget": [`BestRequest::run`] with an [`Analyst`] (the
//! engine of a board and rules with the tables found for them).
//!
//! Depth counts throws: depth 1 chooses among the plays of the throw by the
//! static value of their results; each further unit averages over one more
//! throw and lets the thrower choose. Values are the mover's win
//! probability. A value is exact only when it is the game's value: every
//! line the search needed for it ended in a finished game or in the tables
//! (`engine::search`, "Exact values"); any other value is an estimate.
//!
//! Solved tables (docs/cli.md, "Daldøs solved") are read from a folder
//! ([`super::tables_dir`]): every layer of the position's board and rules
//! found there. Wherever
//! the search reaches a position they cover, it takes the tables' value
//! instead of searching or evaluating it, and that value is exact (to
//! 1e-12, the tables' precision; with table values in a sum the search's
//! arithmetic rounds, see `engine::search`, "Known values"). A position
//! the tables cover is thus answered exactly at any depth. Without tables
//! (none found) the answer is what it was before there were tables.
//!
//! The answer comes within a node budget: the search deepens 1, 2, … up to
//! the depth asked (`engine::deepen`), and when a depth runs out of nodes
//! the answer is that of the deepest depth that finished, with
//! `complete: false`. Depth 1 always finishes.
//!
//! With rollouts ([`BestRequest::with_rollouts`], `--rollouts N`) every
//! play the report lists also gets the mean and standard error of N
//! seeded games of the engine against itself from the position after it
//! ([`super::rollout`]); without them the report is as it was.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use dalkon_rules::daldos::{Board, Play, Position, Throw, Variants};
use dalkon_store::memory::available_memory;
use serde::Serialize;

use crate::engine::{
    deepen, Analysis, Daldos, DeepenError, DeepenOptions, DeepenProgress, Deepened, RootMode,
    Stats, ThrowAnalysis, MAX_DEPTH,
};
use crate::solved::{missing_layer, TableError, Tables};

use super::rollout::{RolloutProgress, RolloutReport, RolloutRequest, RolloutSettings};

/// The depth asked when none is given (the engine's [`DEFAULT_DEPTH`]).
pub use crate::engine::DEFAULT_DEPTH;

/// The default node budget of `daldos best` (all depths together).
/// Measured on 2 cores: depth 3 of the benchmark's 16-against-16 middle
/// game without a throw visits 8.6 million nodes, but as the budget is
/// shared equally between the root plays it needs a budget between 15 and
/// 20 million to finish (two other middle games finished depth 3 within 30
/// million with 5.7 and 5.3 million nodes). The search visits 0.6 to 2
/// million nodes a second, depending on the load, so depth 8 stops after
/// 30 million nodes in 15 to 50 s.
pub const DEFAULT_MAX_NODES: u64 = 30_000_000;

/// The default node budget of `daldos show --best`: a second or two.
pub const SHOW_MAX_NODES: u64 = 2_000_000;

/// Plays the text lists for a throw when no number is asked; without a
/// throw it lists each throw's best play only.
pub const TEXT_TOP: usize = 10;

/// Why a best-play request has no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BestError {
    /// The depth is 0 or above [`MAX_DEPTH`].
    #[error("search depth {0} is out of range 1..={MAX_DEPTH}")]
    Depth(u32),
    /// The search has no answer (the game is over, the budget, a stop).
    #[error(transparent)]
    Deepen(#[from] DeepenError),
    /// The stop flag was raised during the rollouts.
    #[error("the rollouts were interrupted")]
    Interrupted,
}

/// The engine of one board and rules with the solved tables found for
/// them (none: the engine alone, and the tables name the folder searched).
#[derive(Debug, Clone)]
pub struct Analyst {
    game: Daldos,
    tables: Arc<Tables>,
}

impl Analyst {
    /// The engine with every layer of `board` under `variants` in `dir`.
    pub fn load(dir: &Path, board: Board, variants: Variants) -> Result<Analyst, TableError> {
        Ok(Analyst::with_tables(Arc::new(super::load_tables(
            dir, board, variants,
        )?)))
    }

    /// The engine with `tables` (used only if they hold a layer).
    pub fn with_tables(tables: Arc<Tables>) -> Analyst {
        let game = if tables.stats().is_empty() {
            Daldos::new(tables.variants())
        } else {
            Daldos::with_tables(Arc::clone(&tables))
        };
        Analyst { game, tables }
    }

    /// The engine without tables.
    pub fn without_tables(board: Board, variants: Variants) -> Analyst {
        Analyst::with_tables(Arc::new(Tables::new(board, variants, None)))
    }

    /// The game the search plays (with its tables, if any).
    pub fn game(&self) -> &Daldos {
        &self.game
    }

    /// The tables found (possibly none).
    pub fn tables(&self) -> &Arc<Tables> {
        &self.tables
    }
}

/// The analysts of each board met, loaded once per board from one folder
/// (`--position -` reads positions of any board).
#[derive(Debug)]
pub struct Analysts {
    dir: PathBuf,
    variants: Variants,
    boards: HashMap<Board, Analyst>,
}

impl Analysts {
    /// Analysts reading the tables in `dir`.
    pub fn new(dir: PathBuf, variants: Variants) -> Analysts {
        Analysts {
            dir,
            variants,
            boards: HashMap::new(),
        }
    }

    /// The folder the tables are read from.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The analyst of `board`, its tables loaded at the first call.
    pub fn get(&mut self, board: Board) -> Result<&Analyst, TableError> {
        if !self.boards.contains_key(&board) {
            let a = Analyst::load(&self.dir, board, self.variants)?;
            self.boards.insert(board, a);
        }
        Ok(&self.boards[&board])
    }
}

/// What one answer asks besides the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BestRequest {
    throw: Option<Throw>,
    depth: u32,
    max_nodes: Option<u64>,
    prune: bool,
    mode: RootMode,
    top: usize,
    rollouts: Option<RolloutRequest>,
}

impl BestRequest {
    /// The best play of `throw` (or without it the value before the
    /// throw) to `depth` throws within `max_nodes` nodes (`None` or 0: no
    /// limit); `fast` values only the best play (the others get upper
    /// bounds); `prune` switches Star1 / alpha-beta pruning; the report
    /// lists at most `top` plays per throw (`None`: every play).
    pub fn new(
        throw: Option<Throw>,
        depth: u32,
        max_nodes: Option<u64>,
        fast: bool,
        prune: bool,
        top: Option<usize>,
    ) -> Result<BestRequest, BestError> {
        if depth == 0 || depth > MAX_DEPTH {
            return Err(BestError::Depth(depth));
        }
        Ok(BestRequest {
            throw,
            depth,
            max_nodes: max_nodes.filter(|&m| m > 0),
            prune,
            mode: if fast {
                RootMode::BestOnly
            } else {
                RootMode::AllExact
            },
            top: top.unwrap_or(usize::MAX),
            rollouts: None,
        })
    }

    /// This request with (or without) rollouts of every play it lists.
    pub fn with_rollouts(self, rollouts: Option<RolloutRequest>) -> BestRequest {
        BestRequest { rollouts, ..self }
    }

    /// The rollouts asked, if any.
    pub fn rollouts(&self) -> Option<RolloutRequest> {
        self.rollouts
    }

    /// The throw asked, if any.
    pub fn throw(&self) -> Option<Throw> {
        self.throw
    }

    /// The answer for `pos`: iterative deepening within the node budget,
    /// `progress` hearing of each depth and root play, `stop` ending the
    /// search when raised.
    pub fn run(
        &self,
        analyst: &Analyst,
        pos: &Position,
        progress: &dyn DeepenProgress,
        stop: Option<&AtomicBool>,
    ) -> Result<BestReport, BestError> {
        self.run_with(analyst, pos, progress, &(), stop)
    }

    /// [`BestRequest::run`], `rollout_progress` hearing of each rollout
    /// game.
    pub fn run_with(
        &self,
        analyst: &Analyst,
        pos: &Position,
        progress: &dyn DeepenProgress,
        rollout_progress: &dyn RolloutProgress,
        stop: Option<&AtomicBool>,
    ) -> Result<BestReport, BestError> {
        let opts = DeepenOptions {
            depth: self.depth,
            max_nodes: self.max_nodes,
            prune: self.prune,
            mode: self.mode,
        };
        let d = deepen(&analyst.game, pos, self.throw, opts, progress, stop)?;
        let mut report = self.report(analyst, pos, &d);
        if let Some(r) = self.rollouts {
            roll_out(&r, analyst, pos, &mut report, rollout_progress, stop)?;
        }
        Ok(report)
    }

    fn report(&self, analyst: &Analyst, pos: &Position, d: &Deepened) -> BestReport {
        let board = pos.board();
        let found = &analyst.tables;
        let tables = analyst.game.tables.as_ref().map_or(0, |t| t.stats().len());
        let stats = d.analysis.stats();
        let (best, plays, plays_total, throws, distinct) = match &d.analysis {
            Analysis::Throw(a) => (
                Some(a.plays[0].play.notation(board)),
                play_rows(a, board, self.top),
                a.plays.len(),
                None,
                Vec::new(),
            ),
            Analysis::Position(a) => {
                let row = |ta: &ThrowAnalysis<Daldos>, dice: String| ThrowRow {
                    dice,
                    value: ta.value,
                    exact: ta.exact,
                    best: ta.plays[0].play.notation(board),
                    plays: play_rows(ta, board, self.top),
                    plays_total: ta.plays.len(),
                    throw: ta.throw,
                };
                let throws = Throw::ALL
                    .iter()
                    .map(|t| {
                        let (ta, _) = a
                            .throws
                            .iter()
                            .find(|(ta, _)| ta.throw == t.sorted())
                            .expect("every throw sorts to a distinct throw");
                        row(ta, t.to_string())
                    })
                    .collect();
                let distinct = a
                    .throws
                    .iter()
                    .map(|(ta, w)| (row(ta, ta.throw.to_string()), *w))
                    .collect();
                (None, Vec::new(), 0, Some(throws), distinct)
            }
        };
        let (throw, best_play) = match &d.analysis {
            Analysis::Throw(a) => (Some(a.throw), Some(a.plays[0].play.clone())),
            Analysis::Position(_) => (None, None),
        };
        BestReport {
            value: d.analysis.value(),
            exact: d.analysis.exact(),
            best,
            plays,
            plays_total,
            depth: d.depth,
            depth_asked: self.depth,
            complete: d.complete,
            nodes: stats.nodes(),
            nodes_total: d.nodes_total,
            prune: self.prune,
            stats: stats.into(),
            tables,
            db_dir: found
                .dir()
                .map(|d| d.display().to_string())
                .unwrap_or_default(),
            missing_tables: missing_layer(found, pos, available_memory())
                .map(|m| MissingTables {
                    layer: format!("{}v{}", m.key.a, m.key.b),
                    command: m.command,
                    pieces: (m.key.a, m.key.b),
                })
                .into_iter()
                .collect(),
            throws,
            throw,
            best_play,
            distinct,
            rollouts: None,
        }
    }
}

/// Every play `report` lists rolled out by `r` (each distinct throw's
/// once, copied to the throws that sort to it), in one run so that the
/// progress counts every game.
fn roll_out(
    r: &RolloutRequest,
    analyst: &Analyst,
    pos: &Position,
    report: &mut BestReport,
    progress: &dyn RolloutProgress,
    stop: Option<&AtomicBool>,
) -> Result<(), BestError> {
    let mut rows: Vec<&mut PlayRow> = report.plays.iter_mut().collect();
    rows.extend(
        report
            .distinct
            .iter_mut()
            .flat_map(|(t, _)| t.plays.iter_mut()),
    );
    let results: Vec<Position> = rows.iter().map(|p| p.result).collect();
    let out = r
        .run(analyst.game(), pos, &results, progress, stop)
        .ok_or(BestError::Interrupted)?;
    for (row, o) in rows.into_iter().zip(out) {
        row.rollout = Some(o);
    }
    if let Some(throws) = report.throws.as_mut() {
        for t in throws {
            let (d, _) = report
                .distinct
                .iter()
                .find(|(d, _)| d.throw == t.throw)
                .expect("every throw sorts to a distinct throw");
            t.plays.clone_from(&d.plays);
        }
    }
    report.rollouts = Some(r.settings());
    Ok(())
}

/// The first `top` plays of a throw, best first.
fn play_rows(a: &ThrowAnalysis<Daldos>, board: Board, top: usize) -> Vec<PlayRow> {
    a.plays
        .iter()
        .take(top)
        .map(|p| PlayRow {
            play: p.play.notation(board),
            value: p.value,
            exact: p.exact,
            upper_bound: p.bound,
            step: p.play.clone(),
            result: p.result,
            rollout: None,
        })
        .collect()
}

/// How a value is labelled: the game's value, an estimate, or (fast mode)
/// an upper bound.
pub fn label(exact: bool, upper_bound: bool) -> &'static str {
    match (exact, upper_bound) {
        (_, true) => "upper bound",
        (true, false) => "exact",
        (false, false) => "estimate",
    }
}

/// One play and its value.
#[derive(Debug, Clone, Serialize)]
pub struct PlayRow {
    pub play: String,
    pub value: f64,
    /// `value` is the play's value in the game (every line ended).
    pub exact: bool,
    /// `value` is only an upper bound (fast mode).
    pub upper_bound: bool,
    /// The play itself.
    #[serde(skip)]
    pub step: Play,
    /// The position after it.
    #[serde(skip)]
    pub result: Position,
    /// Its rollout, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rollout: Option<RolloutReport>,
}

impl PlayRow {
    /// "exact", "estimate" or "upper bound".
    pub fn label(&self) -> &'static str {
        label(self.exact, self.upper_bound)
    }
}

/// Node counts by kind (`table_hits`: the positions valued by the tables).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct StatsReport {
    pub chance_nodes: u64,
    pub throw_nodes: u64,
    pub leaves: u64,
    pub terminals: u64,
    pub ordering_evals: u64,
    pub tt_hits: u64,
    pub cutoffs: u64,
    pub table_hits: u64,
}

impl From<Stats> for StatsReport {
    fn from(s: Stats) -> Self {
        StatsReport {
            chance_nodes: s.chance_nodes,
            throw_nodes: s.throw_nodes,
            leaves: s.leaves,
            terminals: s.terminals,
            ordering_evals: s.ordering_evals,
            tt_hits: s.tt_hits,
            cutoffs: s.cutoffs,
            table_hits: s.table_hits,
        }
    }
}

impl StatsReport {
    /// The counts by name, in the JSON's order.
    pub fn named(&self) -> [(&'static str, u64); 8] {
        [
            ("chance_nodes", self.chance_nodes),
            ("throw_nodes", self.throw_nodes),
            ("leaves", self.leaves),
            ("terminals", self.terminals),
            ("ordering_evals", self.ordering_evals),
            ("tt_hits", self.tt_hits),
            ("cutoffs", self.cutoffs),
            ("table_hits", self.table_hits),
        ]
    }
}

/// One throw of an answer without a throw asked.
#[derive(Debug, Clone, Serialize)]
pub struct ThrowRow {
    pub dice: String,
    pub value: f64,
    pub exact: bool,
    pub best: String,
    pub plays: Vec<PlayRow>,
    /// The plays before `top` cut the list.
    pub plays_total: usize,
    /// The throw searched (larger die first).
    #[serde(skip)]
    pub throw: Throw,
}

/// The position's layer when its table is not in the folder (and could be
/// built here), with the command that builds it.
#[derive(Debug, Clone, Serialize)]
pub struct MissingTables {
    /// `2v1`: pieces of the side to throw v the other.
    pub layer: String,
    pub command: String,
    /// The layer's pieces, for the text.
    #[serde(skip)]
    pub pieces: (u8, u8),
}

/// The answer: docs/cli.md's `value`, `best`, `plays`, `depth`, `nodes`,
/// and `exact` (for the value, each throw and each play), `plays_total`,
/// `depth_asked` and `complete` (whether `depth` is the depth asked),
/// `nodes_total` (every depth searched), `stats`, `prune`, `tables`
/// (layers used, 0 for none), `db_dir` and `missing_tables`; without a
/// throw, `best` is null, `plays` empty and `throws` one entry per ordered
/// throw.
#[derive(Debug, Clone, Serialize)]
pub struct BestReport {
    pub value: f64,
    pub exact: bool,
    pub best: Option<String>,
    pub plays: Vec<PlayRow>,
    pub plays_total: usize,
    pub depth: u32,
    pub depth_asked: u32,
    pub complete: bool,
    pub nodes: u64,
    pub nodes_total: u64,
    pub prune: bool,
    pub stats: StatsReport,
    /// Layers of solved tables the search used (0: none).
    pub tables: usize,
    /// The folder the tables were looked for in.
    pub db_dir: String,
    pub missing_tables: Vec<MissingTables>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub throws: Option<Vec<ThrowRow>>,
    /// The throw asked, as given.
    #[serde(skip)]
    pub throw: Option<Throw>,
    /// Its best play.
    #[serde(skip)]
    pub best_play: Option<Play>,
    /// Without a throw: each distinct throw once, with its weight out of
    /// 16, in the search's order.
    #[serde(skip)]
    pub distinct: Vec<(ThrowRow, u32)>,
    /// The rollouts' settings, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rollouts: Option<RolloutSettings>,
}

impl BestReport {
    /// The label of the answer's value: "exact" or "estimate".
    pub fn label(&self) -> &'static str {
        label(self.exact, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The best play of a small position, as `daldos show --best` draws it.
    #[test]
    fn best_play_of_a_throw() {
        let pos: Position = "AAA./.b.a./BBB. a".parse().unwrap();
        let q = BestRequest::new(
            Some("2,1".parse().unwrap()),
            2,
            Some(100_000),
            false,
            true,
            None,
        )
        .unwrap();
        let a = Analyst::without_tables(pos.board(), Variants::default());
        let r = q.run(&a, &pos, &(), None).unwrap();
        assert_eq!(r.best.as_deref(), Some("M3-M1x A3-A4"));
        assert_eq!(r.tables, 0);
        assert_eq!(r.depth, 2);
    }

    #[test]
    fn the_depth_is_checked_on_construction() {
        for d in [0, MAX_DEPTH + 1] {
            assert_eq!(
                BestRequest::new(None, d, None, false, true, None),
                Err(BestError::Depth(d))
            );
        }
    }

    /// Every listed play gets a rollout; the same seed gives the same
    /// answer on one thread and on two, and another seed another one.
    #[test]
    fn rollouts_are_seeded_and_independent_of_the_thread_count() {
        let pos: Position = "AAA./.b.a./BBB. a".parse().unwrap();
        let analyst = Analyst::without_tables(pos.board(), Variants::default());
        let q = BestRequest::new(Some("2,1".parse().unwrap()), 2, None, false, true, Some(4))
            .unwrap()
            .with_rollouts(Some(RolloutRequest::new(200, Some(3), None).unwrap()));
        let on = |threads: usize, q: &BestRequest| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let r = pool.install(|| q.run(&analyst, &pos, &(), None)).unwrap();
            serde_json::to_value(&r).unwrap()
        };
        let one = on(1, &q);
        assert_eq!(one, on(2, &q));
        let plays = one["plays"].as_array().unwrap();
        assert_eq!(plays.len(), 2, "both plays of the throw");
        for p in plays {
            let r = &p["rollout"];
            assert_eq!(r["games"], 200);
            let (m, s) = (r["mean"].as_f64().unwrap(), r["stderr"].as_f64().unwrap());
            assert!((0.0..=1.0).contains(&m) && s > 0.0 && s < 0.04, "{p}");
        }
        assert_eq!(one["rollouts"]["seed"], 3);
        let other = q.with_rollouts(Some(RolloutRequest::new(200, Some(4), None).unwrap()));
        assert_ne!(one["plays"], on(1, &other)["plays"]);
        // Without rollouts the JSON has no rollout fields.
        let plain = on(1, &q.with_rollouts(None));
        assert!(plain.get("rollouts").is_none() && plain["plays"][0].get("rollout").is_none());
        assert_eq!(plain["plays"][0]["value"], one["plays"][0]["value"]);
    }
}
