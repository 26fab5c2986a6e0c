//! `best`: the value and best moves of a position within a budget — the one
//! request behind `dakon best`, `dakon show --best`, the game's hint and
//! engine move, and Python's `solve`.
//!
//! With `multipv` (UCI's MultiPV) the report also has the K best moves as
//! [`Line`]s, each with its own value and principal variation. How the
//! budget is shared: the analysis of the position takes it as without
//! `multipv` (with more than one line it is the analysis of `every_move`,
//! which gives every move a value); then each line's variation is walked
//! from the position after its move, best line first, in the same table
//! and within what is left of the budget (nodes and time; at least one
//! node and one millisecond each, so a spent budget still gives every line
//! its move and what the table knows). The proofs the analysis left in the
//! table answer these walks at once, so an exact line costs little more.
//! `nodes` and `seconds` count all of it.

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use dalkon_rules::dakon::{Position, Rules};
use serde::Serialize;

use crate::best::{analyse_with, engine_move, Analysis, EngineMove, Options};
use crate::error::SolveError;
use crate::label::{Label, MoveValue, RankedMove};
use crate::progress::{NoProgress, Progress};
use crate::rank::MAX_LEVEL;
use crate::retro::Databases;
use crate::search::answer::{answer, Session};
use crate::search::{self, Limits, SearchProgress};
use crate::solve::search_limits;

/// Plies of the estimate that picks the move when the budget ends before
/// anything is proved.
pub const DEFAULT_ESTIMATE_DEPTH: u32 = 6;

/// Lines of play a request asks for by default: none (`None`: the report
/// has no [`BestReport::lines`]). `Some(k)` asks for the `k` best moves,
/// each with its variation ([`BestRequest::multipv`]).
pub const DEFAULT_MULTIPV: Option<usize> = None;

pub use crate::error::MAX_SECONDS;

/// A search time of `seconds`, checked: more than 0, at most
/// [`MAX_SECONDS`].
pub fn seconds(seconds: f64) -> Result<Duration, SolveError> {
    if seconds > 0.0 && seconds <= MAX_SECONDS {
        Ok(Duration::from_secs_f64(seconds))
    } else {
        Err(SolveError::Time)
    }
}

/// What to ask of a position, and within which budget (validated by its
/// setters; the position is given to [`BestRequest::run`], so that one
/// request serves a batch or a game).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BestRequest {
    /// The rule set.
    pub rules: Rules,
    /// Stop after about this long (`None`: no limit).
    pub time: Option<Duration>,
    /// Stop after about this many nodes (`None`: no limit).
    pub max_nodes: Option<u64>,
    /// Also solve every move that is not best.
    pub every_move: bool,
    /// Plies of the fallback estimate.
    pub estimate_depth: u32,
    /// Transposition-table memory in MiB (`None`: half the available
    /// memory, at most 4096).
    pub tt_mb: Option<usize>,
    /// The number of best moves to give as [`Line`]s (`None`: no lines);
    /// at least 1, and more than the legal moves gives every legal move.
    /// Checked by [`BestRequest::multipv`] and again by the run.
    pub multipv: Option<usize>,
    /// Answer every position with at most this many seeds on the board
    /// from the endgame (retrograde) databases, loaded from `db_dir` or
    /// built into it once (`None` or 0: none). The answers are the same;
    /// the hard positions of real games are proved many times faster
    /// (README: 7×7 with 18 seeds, 450 MB built once in about a minute).
    pub probe_seeds: Option<u32>,
    /// The databases' folder (`None`: [`dalkon_store::data_dir`]'s
    /// default).
    pub db_dir: Option<PathBuf>,
}

impl BestRequest {
    /// Exact (no budget), best moves only, the default estimate depth and
    /// table.
    pub fn new(rules: Rules) -> BestRequest {
        BestRequest {
            rules,
            time: None,
            max_nodes: None,
            every_move: false,
            estimate_depth: DEFAULT_ESTIMATE_DEPTH,
            tt_mb: None,
            multipv: DEFAULT_MULTIPV,
            probe_seeds: None,
            db_dir: None,
        }
    }

    /// The same request probing databases of up to `k` seeds on the board
    /// (`None` or 0: none) in `dir` (`None`: the default folder), checked:
    /// `k` is at most [`MAX_LEVEL`].
    pub fn probe(self, k: Option<u32>, dir: Option<PathBuf>) -> Result<BestRequest, SolveError> {
        check_probe_seeds(k)?;
        Ok(BestRequest {
            probe_seeds: k.filter(|&k| k > 0),
            db_dir: dir,
            ..self
        })
    }

    /// The same request asking for the `k` best moves as lines of play
    /// (`None`: none), checked: `k` is at least 1. A `k` above the number
    /// of legal moves of a position gives all of them (as UCI's MultiPV
    /// does), so that one request serves every position of a batch.
    pub fn multipv(self, k: Option<usize>) -> Result<BestRequest, SolveError> {
        check_multipv(k)?;
        Ok(BestRequest { multipv: k, ..self })
    }

    /// The same request with a node budget (`0` or `None`: no limit).
    pub fn max_nodes(self, max_nodes: Option<u64>) -> BestRequest {
        BestRequest {
            max_nodes: max_nodes.filter(|&n| n > 0),
            ..self
        }
    }

    /// The same request with a time budget in seconds, checked
    /// ([`seconds`]).
    pub fn time(self, time: Option<f64>) -> Result<BestRequest, SolveError> {
        Ok(BestRequest {
            time: time.map(seconds).transpose()?,
            ..self
        })
    }

    /// The search limits for a board of `holes` holes a row (the table
    /// sized and checked).
    pub fn limits(&self, holes: usize) -> Result<Limits, SolveError> {
        Ok(Limits {
            time: self.time,
            ..search_limits(holes, self.tt_mb, self.max_nodes)?
        })
    }

    /// More than one line needs every move's value: the analysis of
    /// `every_move`.
    fn options(&self) -> Options {
        Options {
            every_move: self.every_move || self.multipv.is_some_and(|k| k > 1),
            estimate_depth: self.estimate_depth,
        }
    }

    /// Analyse `pos` with a table of its own.
    pub fn run(
        &self,
        pos: &Position,
        progress: Option<&SearchProgress>,
    ) -> Result<BestReport, SolveError> {
        Analyst::default().run(self, pos, progress)
    }
}

/// `--probe-seeds` is at most [`MAX_LEVEL`].
pub(super) fn check_probe_seeds(k: Option<u32>) -> Result<(), SolveError> {
    match k {
        Some(k) if k > MAX_LEVEL => Err(SolveError::ProbeSeeds { k, max: MAX_LEVEL }),
        _ => Ok(()),
    }
}

/// `--multipv` must be at least 1.
fn check_multipv(k: Option<usize>) -> Result<(), SolveError> {
    match k {
        Some(0) => Err(SolveError::OutOfRange {
            flag: "--multipv",
            range: "at least 1 (the number of best moves to show)",
        }),
        _ => Ok(()),
    }
}

/// Requests answered one after another with one table, kept while the
/// board and the budget (rules, time, nodes, table) stay the same: every
/// bound in it is proved, so later positions reuse the work (a batch, a
/// game).
#[derive(Default)]
pub struct Analyst {
    session: Option<(Session, Limits, BudgetKey)>,
    /// The databases the session probes, and what they were opened for.
    databases: Option<(Arc<Databases>, ProbeKey)>,
}

/// What a set of databases is opened for: board, rules, seeds, folder.
type ProbeKey = (usize, Rules, u32, Option<PathBuf>);

/// What a session's table depends on (and whether it probes databases).
type BudgetKey = (
    Rules,
    Option<Duration>,
    Option<u64>,
    Option<usize>,
    Option<u32>,
);

fn key(r: &BestRequest) -> BudgetKey {
    (r.rules, r.time, r.max_nodes, r.tt_mb, r.probe_seeds)
}

impl std::fmt::Debug for Analyst {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Analyst")
            .field("limits", &self.session.as_ref().map(|s| s.1))
            .field("probe", &self.databases.as_ref().map(|d| &d.1))
            .finish()
    }
}

impl Analyst {
    /// An analyst probing `databases`, opened already (a server keeps them
    /// between requests): a request whose `probe_seeds` is their highest
    /// level and whose `db_dir` is `dir` uses them; any other opens its
    /// own.
    pub fn probing(databases: Arc<Databases>, dir: Option<PathBuf>) -> Analyst {
        let want: ProbeKey = (databases.holes(), databases.rules(), databases.max_k(), dir);
        Analyst {
            session: None,
            databases: Some((databases, want)),
        }
    }

    /// Open (or build, then keep in the folder) the databases `request`
    /// probes on boards of `holes` holes a row, unless they are open
    /// already; `progress` hears of every level loaded or built. [`run`]
    /// calls it (with no progress) when a front end has not.
    ///
    /// [`run`]: Analyst::run
    pub fn open_databases(
        &mut self,
        request: &BestRequest,
        holes: usize,
        progress: &dyn Progress,
    ) -> Result<(), SolveError> {
        check_probe_seeds(request.probe_seeds)?;
        let Some(k) = request.probe_seeds.filter(|&k| k > 0) else {
            return Ok(());
        };
        let want: ProbeKey = (holes, request.rules, k, request.db_dir.clone());
        if self.databases.as_ref().is_some_and(|d| d.1 == want) {
            return Ok(());
        }
        self.databases = None;
        self.session = None;
        let dir = dalkon_store::data_dir(request.db_dir.clone())?;
        let db = Databases::open_or_build(&dir, holes, request.rules, k, progress)
            .map_err(SolveError::Probe)?;
        self.databases = Some((Arc::new(db), want));
        Ok(())
    }

    /// The session for `request` on `pos`'s board, made anew (its limits
    /// computed and checked) when it does not serve it.
    fn session(
        &mut self,
        request: &BestRequest,
        pos: &Position,
    ) -> Result<(&Session, Limits), SolveError> {
        self.open_databases(request, pos.holes(), &NoProgress)?;
        let probing = request.probe_seeds.is_some_and(|k| k > 0);
        let keep = matches!(&self.session,
            Some((s, _, k)) if s.serves(pos, &request.rules) && *k == key(request));
        if !keep {
            let limits = request.limits(pos.holes())?;
            let databases = self
                .databases
                .as_ref()
                .filter(|_| probing)
                .map(|d| Arc::clone(&d.0));
            let s = Session::new(pos.holes(), request.rules, &limits).with_databases(databases);
            self.session = Some((s, limits, key(request)));
        }
        let (s, l, _) = self.session.as_ref().expect("made above");
        Ok((s, *l))
    }

    /// Answer `request` for `pos`.
    pub fn run(
        &mut self,
        request: &BestRequest,
        pos: &Position,
        progress: Option<&SearchProgress>,
    ) -> Result<BestReport, SolveError> {
        check_multipv(request.multipv)?;
        let start = Instant::now();
        let options = request.options();
        let (session, limits) = self.session(request, pos)?;
        let mut a = analyse_with(
            pos,
            &request.rules,
            &limits,
            Some(session),
            progress,
            options,
        )?;
        let lines = match request.multipv {
            None => None,
            Some(k) => {
                let walk = Walk {
                    pos,
                    rules: &request.rules,
                    limits: &limits,
                    session,
                    progress,
                    start,
                    estimate_depth: request.estimate_depth,
                };
                Some(walk.lines(&mut a, k)?)
            }
        };
        if lines.is_some() {
            a.seconds = start.elapsed().as_secs_f64();
        }
        Ok(BestReport {
            lines,
            ..BestReport::from(a)
        })
    }

    /// The engine's move in `pos` under `request`'s budget: the first best
    /// move of the same analysis (best moves only), or `None` when the game
    /// is over.
    pub fn engine_move(
        &mut self,
        request: &BestRequest,
        pos: &Position,
    ) -> Result<Option<EngineMove>, SolveError> {
        let (session, limits) = self.session(request, pos)?;
        engine_move(
            pos,
            &request.rules,
            &limits,
            Some(session),
            request.estimate_depth,
        )
    }
}

/// What the lines of a `multipv` request are walked with.
struct Walk<'a> {
    pos: &'a Position,
    rules: &'a Rules,
    limits: &'a Limits,
    session: &'a Session,
    progress: Option<&'a SearchProgress>,
    start: Instant,
    estimate_depth: u32,
}

impl Walk<'_> {
    /// What is left of the budget after `spent` nodes: at least one node
    /// and one millisecond.
    fn remaining(&self, spent: u64) -> Limits {
        Limits {
            max_nodes: self
                .limits
                .max_nodes
                .map(|n| n.saturating_sub(spent).max(1)),
            time: self.limits.time.map(|t| {
                t.saturating_sub(self.start.elapsed())
                    .max(Duration::from_millis(1))
            }),
            ..*self.limits
        }
    }

    /// The `k` best moves of `a` as lines, in the order of
    /// [`Analysis::ranked`]; the work is added to `a`'s nodes.
    fn lines(&self, a: &mut Analysis, k: usize) -> Result<Vec<Line>, SolveError> {
        let ranked = a.ranked();
        let stopped = || {
            self.progress
                .is_some_and(|p| p.stop.load(Ordering::Relaxed))
        };
        // The value given to a line that is not exact: the shallow
        // estimate of its move, as the answer's own value when not exact.
        let inexact = ranked.iter().take(k).any(|m| !m.value.is_exact());
        if inexact && a.estimates.is_empty() && !stopped() {
            let est = search::estimate_until(
                self.pos,
                self.rules,
                self.estimate_depth,
                search::ESTIMATE_MAX_NODES,
                self.limits.time.map(|t| self.start + t),
            );
            a.nodes += est.nodes;
            a.estimates = est.moves;
        }
        let mover = self.pos.side_to_move();
        let mut lines = Vec::new();
        for m in ranked.iter().take(k) {
            let child = self
                .pos
                .play(m.hole, self.rules)
                .expect("a ranked move is legal");
            let mut pv = vec![m.hole];
            if a.exact && a.pv.first() == Some(&m.hole) && m.value.is_exact() {
                pv = a.pv.clone();
            } else if !child.is_over() {
                let limits = self.remaining(a.nodes);
                let next = answer(
                    &child,
                    self.rules,
                    &limits,
                    Some(self.session),
                    self.progress,
                    false,
                )
                .map_err(SolveError::Search)?;
                a.nodes += next.nodes;
                a.positions = next.positions;
                debug_assert!(
                    !(next.exact && m.value.is_exact())
                        || MoveValue::Exact(if child.side_to_move() == mover {
                            next.lower
                        } else {
                            -next.lower
                        }) == m.value,
                    "the line of {} keeps its value",
                    m.hole
                );
                pv.extend(next.pv);
            }
            let bounds = a
                .move_bounds
                .iter()
                .find(|b| b.hole == m.hole)
                .expect("every move has bounds");
            lines.push(match m.value {
                MoveValue::Exact(v) => Line {
                    hole: m.hole,
                    value: v,
                    exact: true,
                    lower: None,
                    upper: None,
                    pv,
                    known: m.value,
                },
                MoveValue::AtMost(hi) | MoveValue::Between(_, hi) => {
                    let lo = bounds.lower.min(hi);
                    let guess = a.estimates.iter().find(|e| e.0 == m.hole).map(|e| e.1);
                    let value = match (a.best_moves.first(), guess) {
                        (Some(&best), _) if best == m.hole && !a.exact => a.value,
                        (_, Some(g)) => g,
                        (_, None) => lo,
                    };
                    Line {
                        hole: m.hole,
                        value: value.clamp(lo, hi),
                        exact: false,
                        lower: Some(lo),
                        upper: Some(hi),
                        pv,
                        known: m.value,
                    }
                }
            });
        }
        Ok(lines)
    }
}

/// One of the best moves of a `multipv` request ([`BestReport::lines`]):
/// its value and its line of play. Serialized, an item of the `lines` of
/// `dakon best --multipv`'s JSON (docs/cli.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Line {
    /// The move (a hole of the side to move).
    #[serde(rename = "move")]
    pub hole: usize,
    /// Its value (final store difference for the side to move): exact
    /// when `exact`, else the shallow estimate within `lower..=upper`.
    pub value: i32,
    /// Whether `value` is proved.
    pub exact: bool,
    /// Proved lower bound, when not exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lower: Option<i32>,
    /// Proved upper bound, when not exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upper: Option<i32>,
    /// The line of play, starting with the move: both sides' moves, bonus
    /// moves included, each a hole of the side to move at that point.
    /// Exact: the move, then the principal variation of the position after
    /// it, so that replaying it ends the game at exactly `value` (unless
    /// the budget ran out while it was walked: then it stops early, as
    /// [`BestReport::pv`] does). Not exact: the move, then the line the
    /// table prefers, which may stop early.
    pub pv: Vec<usize>,
    /// What is proved of the value, as the ranked table prints it.
    #[serde(skip)]
    pub known: MoveValue,
}

/// One move of a [`BestReport`]: its exact value, or the bounds proved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MoveReport {
    /// The hole.
    #[serde(rename = "move")]
    pub hole: usize,
    /// Its exact value, where proved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<i32>,
    /// Proved lower bound, where the value is not exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lower: Option<i32>,
    /// Proved upper bound, where the value is not exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upper: Option<i32>,
}

/// The answer of a [`BestRequest`]; serialized, the JSON of `dakon best`
/// (docs/cli.md).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BestReport {
    /// Final store difference for the side to move.
    pub value: i32,
    /// The best moves (see [`Analysis::best_moves`]).
    pub best_moves: Vec<usize>,
    /// Every legal move: exact value or proved bounds.
    pub moves: Vec<MoveReport>,
    /// Whether `value` and `best_moves` are proved.
    pub exact: bool,
    /// The principal variation.
    pub pv: Vec<usize>,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Proved lower bound, when not exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lower: Option<i32>,
    /// Proved upper bound, when not exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upper: Option<i32>,
    /// Plies of the estimate that chose the move, when nothing was proved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimate_depth: Option<u32>,
    /// With `multipv` (and only then): the best moves, each with its value
    /// and its line, best first as [`BestReport::ranked`] ranks them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<Line>>,
    /// The whole analysis (bounds of every move, table size).
    #[serde(skip)]
    pub analysis: Analysis,
}

impl From<Analysis> for BestReport {
    fn from(a: Analysis) -> BestReport {
        let moves = a
            .move_bounds
            .iter()
            .map(|m| {
                if m.is_exact() && (a.exact || a.moves.iter().any(|e| e.0 == m.hole)) {
                    MoveReport {
                        hole: m.hole,
                        value: Some(m.lower),
                        lower: None,
                        upper: None,
                    }
                } else {
                    MoveReport {
                        hole: m.hole,
                        value: None,
                        lower: Some(m.lower),
                        upper: Some(m.upper),
                    }
                }
            })
            .collect();
        let inexact = |v: i32| (!a.exact).then_some(v);
        BestReport {
            value: a.value,
            best_moves: a.best_moves.clone(),
            moves,
            exact: a.exact,
            pv: a.pv.clone(),
            nodes: a.nodes,
            seconds: a.seconds,
            lower: inexact(a.lower),
            upper: inexact(a.upper),
            estimate_depth: if a.exact { None } else { a.estimate_depth },
            lines: None,
            analysis: a,
        }
    }
}

impl BestReport {
    /// How far the value is proved.
    pub fn label(&self) -> Label {
        self.analysis.label()
    }

    /// Every legal move, best first, by what is proved.
    pub fn ranked(&self) -> Vec<RankedMove> {
        self.analysis.ranked()
    }

    /// The work done, or that the answer is not exact and why: the last
    /// line of `dakon best`'s text.
    pub fn note(&self) -> String {
        let a = &self.analysis;
        let work = format!(
            "{} nodes, {} positions in the table, {:.3} s",
            a.nodes, a.positions, a.seconds
        );
        match (a.exact, a.estimate_depth) {
            (true, _) => work,
            (false, None) => format!(
                "budget reached ({work}): NOT exact; the value lies in [{:+}, {:+}]",
                a.lower, a.upper
            ),
            (false, Some(depth)) => format!(
                "budget reached ({work}) before anything was proved: the move is an estimate {depth} plies deep, NOT exact"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Databases probed by the search change the work, never the answer:
    /// on 5-hole game positions (and with every move solved), probing
    /// levels up to 12 seeds gives the value, best moves, every move's
    /// bounds and the principal variation of the plain search; the levels
    /// are written to the folder once and loaded by a second analyst; a
    /// level past what a byte holds is refused before anything is built.
    #[test]
    fn probing_databases_gives_the_same_answers() {
        let dir = std::env::temp_dir().join(format!("dalkon-probe-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let rules = Rules::default();
        let plain = BestRequest {
            tt_mb: Some(64),
            ..BestRequest::new(rules)
        };
        let probing = plain.clone().probe(Some(12), Some(dir.clone())).unwrap();
        let cases = [
            ("3,0,4,1,2/0,5,1,3,2/20,9 0", false),
            ("0,2,0,6,1/2,0,3,1,4/15,16 1", true),
            ("1,1,0,0,2/0,1,3,0,1/22,19 0", false),
        ];
        let mut analyst = Analyst::default();
        let (mut nodes_plain, mut nodes_probing) = (0, 0);
        for (text, every_move) in cases {
            let pos: Position = text.parse().unwrap();
            let with = |r: &BestRequest| BestRequest {
                every_move,
                ..r.clone()
            };
            let a = Analyst::default().run(&with(&plain), &pos, None).unwrap();
            let b = analyst.run(&with(&probing), &pos, None).unwrap();
            assert!(a.exact && b.exact, "{text}");
            nodes_plain += a.nodes;
            nodes_probing += b.nodes;
            assert_eq!(
                (a.value, &a.best_moves, &a.moves, &a.pv),
                (b.value, &b.best_moves, &b.moves, &b.pv),
                "{text}"
            );
        }
        assert!(
            nodes_probing * 2 < nodes_plain,
            "{nodes_probing} against {nodes_plain}"
        );
        let files = std::fs::read_dir(&dir).unwrap().count();
        assert_eq!(files, 13, "levels 0 to 12, one file each");
        let db = Databases::open_or_build(&dir, 5, rules, 12, &NoProgress).unwrap();
        assert_eq!(db.built(), 0, "every level loaded");
        let e = plain.probe(Some(128), None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--probe-seeds 128 must be between 0 and 127 (a database entry is one signed byte, \
             so a level holds at most 127 seeds on the board)"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn times_outside_the_range_are_refused() {
        for bad in [0.0, -1.0, 1e8, f64::NAN] {
            let e = BestRequest::new(Rules::default())
                .time(Some(bad))
                .unwrap_err();
            assert_eq!(
                e.to_string(),
                "--time must be more than 0 seconds and at most 10000000"
            );
            assert!(e.is_bad_input());
        }
        let r = BestRequest::new(Rules::default()).time(Some(0.5)).unwrap();
        assert_eq!(r.time, Some(Duration::from_millis(500)));
        assert_eq!(r.max_nodes(Some(0)).max_nodes, None);
    }

    /// The report's JSON: exact moves carry a value, the others bounds; the
    /// position's bounds only when not exact.
    #[test]
    fn the_report_serializes_as_the_cli_json() {
        let pos = Position::start(4, 4).unwrap();
        let r = BestRequest::new(Rules::default()).run(&pos, None).unwrap();
        let j = serde_json::to_value(&r).unwrap();
        assert_eq!(j["value"], 32);
        assert_eq!(j["moves"][0], serde_json::json!({"move": 1, "value": 32}));
        assert_eq!(j["moves"][1]["value"], serde_json::Value::Null);
        assert!(j["moves"][1]["upper"].as_i64().unwrap() < 32);
        assert!(j.get("lower").is_none() && j.get("estimate_depth").is_none());
        let cut = BestRequest::new(Rules::default())
            .max_nodes(Some(1))
            .run(&Position::start(7, 7).unwrap(), None)
            .unwrap();
        let j = serde_json::to_value(&cut).unwrap();
        assert_eq!(j["exact"], false);
        assert!(j["lower"].is_i64() && j["upper"].is_i64(), "{j}");
    }

    /// `multipv`: 0 refused by the setter and by the run; more than the
    /// legal moves gives them all; each line starts with its move and,
    /// exact, replays to its value; without it, no `lines` in the JSON.
    #[test]
    fn multipv_gives_the_best_moves_with_their_lines() {
        let rules = Rules::default();
        let e = BestRequest::new(rules).multipv(Some(0)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--multipv must be at least 1 (the number of best moves to show)"
        );
        assert!(e.is_bad_input());
        let pos = Position::start(4, 4).unwrap();
        let unchecked = BestRequest {
            multipv: Some(0),
            ..BestRequest::new(rules)
        };
        assert!(unchecked.run(&pos, None).is_err());
        let plain = BestRequest::new(rules).run(&pos, None).unwrap();
        assert_eq!(plain.lines, None);
        assert!(serde_json::to_value(&plain).unwrap().get("lines").is_none());
        let r = BestRequest::new(rules)
            .multipv(Some(9))
            .unwrap()
            .run(&pos, None)
            .unwrap();
        let lines = r.lines.as_ref().unwrap();
        // The 4 × 4 start's moves, ranked: solved by `--every-move`.
        let values: Vec<_> = lines.iter().map(|l| (l.hole, l.value)).collect();
        assert_eq!(values, vec![(1, 32), (2, 6), (4, -10), (3, -22)]);
        assert_eq!(lines[0].pv, r.pv);
        for l in lines {
            assert!(l.exact && l.lower.is_none() && l.upper.is_none());
            assert_eq!(l.pv[0], l.hole);
            let mut p = pos;
            for &h in &l.pv {
                p = p.play(h, &rules).unwrap();
            }
            assert!(p.is_over(), "{:?}", l.pv);
            let me = pos.side_to_move();
            let end = i32::from(p.store(me)) - i32::from(p.store(me.other()));
            assert_eq!(end, l.value, "{:?}", l.pv);
        }
        let j = serde_json::to_value(&r).unwrap();
        assert_eq!(j["lines"][1]["move"], 2);
        assert_eq!(j["lines"][1]["exact"], true);
        assert!(j["lines"][1].get("known").is_none());
        // One line: the best move, without the work of every move.
        let one = BestRequest::new(rules)
            .multipv(Some(1))
            .unwrap()
            .run(&pos, None)
            .unwrap();
        assert_eq!(one.lines.as_ref().unwrap()[..], lines[..1]);
        assert!(one.nodes < r.nodes, "{} vs {}", one.nodes, r.nodes);
        // A finished game has no lines.
        let over: Position = "0,0/1,1/0,0 0".parse().unwrap();
        let r = BestRequest::new(rules)
            .multipv(Some(2))
            .unwrap()
            .run(&over, None)
            .unwrap();
        assert_eq!(r.lines, Some(vec![]));
    }

    /// Past the budget: lines not proved carry their bounds and a value
    /// within them; the ranking puts the proved best move first.
    #[test]
    fn multipv_lines_past_the_budget_carry_bounds() {
        let rules = Rules::default();
        let pos = Position::start(7, 7).unwrap();
        let r = BestRequest::new(rules)
            .max_nodes(Some(20_000))
            .multipv(Some(7))
            .unwrap()
            .run(&pos, None)
            .unwrap();
        let lines = r.lines.as_ref().unwrap();
        assert_eq!(lines.len(), 7);
        for l in lines.iter().filter(|l| !l.exact) {
            let (lo, hi) = (l.lower.unwrap(), l.upper.unwrap());
            assert!(lo <= l.value && l.value <= hi, "{l:?}");
            assert_eq!(l.pv[0], l.hole);
        }
        let ranked: Vec<_> = r.ranked().iter().map(|m| m.hole).collect();
        let holes: Vec<_> = lines.iter().map(|l| l.hole).collect();
        assert_eq!(holes, ranked);
    }
}
