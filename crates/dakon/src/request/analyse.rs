//! `analyse`: every decision of a whole game judged (`dakon analyse`,
//! docs/cli.md "Analysing a game"): the value of the position, the best
//! moves, the value of the move played and what it lost, with a mark where
//! the loss is proved large enough.
//!
//! Each decision is the request of `dakon best --every-move` under the
//! analysis's budget, one [`Analyst`] (one table) for the whole game: every
//! bound in the table is proved, so each search reuses the others' work.
//! The positions are searched from the last to the first, so that the
//! endgame, cheap to prove, fills the table before the longer searches of
//! the opening need it.
//!
//! The value of the move played is the value of the next position (the
//! same side's after a bonus move, negated when the turn passes; exact at
//! the end of the game): the search of each position bounds it, and so
//! does the search of the position before it (the played move's bounds
//! there), so each narrows the other. When every search finishes, every
//! number is exactly what `dakon best --every-move` gives at that
//! position.

use std::path::PathBuf;
use std::time::Duration;

use dalkon_rules::dakon::{Position, Rules};
use serde::{Serialize, Serializer};

use super::best::{seconds, Analyst, BestReport, BestRequest, DEFAULT_ESTIMATE_DEPTH};
use crate::error::SolveError;
use crate::search::SearchProgress;

/// The default search time of one decision, in seconds: on two shared
/// cores a random 65-ply game on the standard 7 × 7 board took 65 s (57 of
/// its 61 decisions exact, against 51 at 2 s and 59 at 5 s, which took
/// 93 s), 49-ply engine games 43 and 65 s; a 60-move game takes at most
/// about 6 minutes (docs/cli.md "Analysing a game" has the measurements).
pub const DEFAULT_ANALYSE_SECONDS: f64 = 3.0;

/// The smallest loss, in seeds of final store difference, marked an
/// inaccuracy.
pub const INACCURACY_SEEDS: i32 = 2;

/// The smallest loss, in seeds, marked a mistake.
pub const MISTAKE_SEEDS: i32 = 6;

/// The smallest loss, in seeds, marked a blunder.
pub const BLUNDER_SEEDS: i32 = 12;

/// How bad a move was: its loss reached the mark's threshold
/// ([`INACCURACY_SEEDS`], [`MISTAKE_SEEDS`], [`BLUNDER_SEEDS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    /// At least [`INACCURACY_SEEDS`] lost.
    Inaccuracy,
    /// At least [`MISTAKE_SEEDS`] lost.
    Mistake,
    /// At least [`BLUNDER_SEEDS`] lost.
    Blunder,
}

impl Mark {
    /// The mark of a loss of `seeds` (`None` below [`INACCURACY_SEEDS`]).
    pub fn of_loss(seeds: i32) -> Option<Mark> {
        if seeds >= BLUNDER_SEEDS {
            Some(Mark::Blunder)
        } else if seeds >= MISTAKE_SEEDS {
            Some(Mark::Mistake)
        } else if seeds >= INACCURACY_SEEDS {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    /// Its name as the JSON spells it: `inaccuracy`, `mistake`, `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

/// A whole game to analyse, and the budget of each decision (validated by
/// its setters, as [`BestRequest`]'s; the game is given to
/// [`AnalyseRequest::run`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalyseRequest {
    /// The rule set.
    pub rules: Rules,
    /// Search time of each decision (`None`: no limit, every decision
    /// exact).
    pub time: Option<Duration>,
    /// Nodes of each decision's search (`None`: no limit).
    pub max_nodes: Option<u64>,
    /// Plies of the estimate that picks the move when a decision's budget
    /// ends before anything is proved.
    pub estimate_depth: u32,
    /// Transposition-table memory in MiB (`None`: as `best`'s default).
    pub tt_mb: Option<usize>,
    /// Probe the endgame databases of up to this many seeds on the board,
    /// as [`BestRequest::probe_seeds`] (`None`: none).
    pub probe_seeds: Option<u32>,
    /// Their folder, as [`BestRequest::db_dir`].
    pub db_dir: Option<PathBuf>,
}

impl AnalyseRequest {
    /// [`DEFAULT_ANALYSE_SECONDS`] a decision, no node limit, the default
    /// estimate depth and table.
    pub fn new(rules: Rules) -> AnalyseRequest {
        AnalyseRequest {
            rules,
            time: Some(Duration::from_secs_f64(DEFAULT_ANALYSE_SECONDS)),
            max_nodes: None,
            estimate_depth: DEFAULT_ESTIMATE_DEPTH,
            tt_mb: None,
            probe_seeds: None,
            db_dir: None,
        }
    }

    /// The same request probing databases of up to `k` seeds on the board
    /// in `dir`, checked as [`BestRequest::probe`].
    pub fn probe(self, k: Option<u32>, dir: Option<PathBuf>) -> Result<AnalyseRequest, SolveError> {
        super::best::check_probe_seeds(k)?;
        Ok(AnalyseRequest {
            probe_seeds: k.filter(|&k| k > 0),
            db_dir: dir,
            ..self
        })
    }

    /// The same request with a time per decision in seconds, checked
    /// ([`seconds`]); `None`: no time limit.
    pub fn time(self, time: Option<f64>) -> Result<AnalyseRequest, SolveError> {
        Ok(AnalyseRequest {
            time: time.map(seconds).transpose()?,
            ..self
        })
    }

    /// The same request with a node budget per decision (`0` or `None`: no
    /// limit).
    pub fn max_nodes(self, max_nodes: Option<u64>) -> AnalyseRequest {
        AnalyseRequest {
            max_nodes: max_nodes.filter(|&n| n > 0),
            ..self
        }
    }

    /// The request of one decision: `dakon best --every-move` under this
    /// budget.
    pub fn best(&self) -> BestRequest {
        BestRequest {
            time: self.time,
            every_move: true,
            estimate_depth: self.estimate_depth,
            tt_mb: self.tt_mb,
            probe_seeds: self.probe_seeds,
            db_dir: self.db_dir.clone(),
            ..BestRequest::new(self.rules).max_nodes(self.max_nodes)
        }
    }

    /// Analyse the game of `moves` (holes, each of the side to move at that
    /// point) from `start`. The moves are checked first: the first illegal
    /// one is refused ([`SolveError::Move`], its index the 1-based ply).
    /// `progress` hears `(searches done, searches in all)` after each
    /// search (the decisions that are not forced, and the end of a game not
    /// over); `search` gets each search's live counters, and setting its
    /// `stop` flag ends the analysis early: the report then holds the
    /// decisions analysed so far with [`AnalyseReport::stopped`] set.
    pub fn run(
        &self,
        start: &Position,
        moves: &[usize],
        progress: Option<&dyn Fn(usize, usize)>,
        search: Option<&SearchProgress>,
    ) -> Result<AnalyseReport, SolveError> {
        self.run_in(&mut Analyst::default(), start, moves, progress, search)
    }

    /// [`run`](AnalyseRequest::run) with `analyst`: its databases opened
    /// already (by [`Analyst::open_databases`] with a progress bar, or kept
    /// by a server), its table reused.
    pub fn run_in(
        &self,
        analyst: &mut Analyst,
        start: &Position,
        moves: &[usize],
        progress: Option<&dyn Fn(usize, usize)>,
        search: Option<&SearchProgress>,
    ) -> Result<AnalyseReport, SolveError> {
        let started = std::time::Instant::now();
        let request = self.best();
        request.limits(start.holes())?;
        let positions = replay(start, moves, &self.rules)?;
        // Which positions get a search: the decisions with a choice, and
        // the end when the game is not over (it narrows the last value).
        let n = moves.len();
        let searched: Vec<usize> = (0..=n)
            .filter(|&i| {
                let p = &positions[i];
                if i == n {
                    !p.is_over()
                } else {
                    p.moves().nth(1).is_some()
                }
            })
            .collect();
        let mut analyses: Vec<Option<BestReport>> = vec![None; n + 1];
        let mut stopped = false;
        let stop_asked =
            || search.is_some_and(|s| s.stop.load(std::sync::atomic::Ordering::Relaxed));
        // Last to first: see the module's documentation.
        for (done, &i) in searched.iter().rev().enumerate() {
            if stop_asked() {
                stopped = true;
                break;
            }
            let r = analyst.run(&request, &positions[i], search)?;
            if stop_asked() {
                // Answered at once with what was proved so far: not kept.
                stopped = true;
                break;
            }
            analyses[i] = Some(r);
            if let Some(f) = progress {
                f(done + 1, searched.len());
            }
        }
        let mut report = judge(&positions, moves, &analyses);
        report.rules = self.rules;
        if stopped {
            // The decisions before the first one analysed were not reached.
            let first = searched
                .iter()
                .copied()
                .filter(|&i| analyses[i].is_some())
                .min()
                .unwrap_or(n);
            report.decisions.drain(..first.min(report.decisions.len()));
            report.summary = Summary::of(&report.decisions);
        }
        report.stopped = stopped;
        report.seconds = started.elapsed().as_secs_f64();
        Ok(report)
    }
}

/// The positions of the game: the start, then the one after each move.
fn replay(start: &Position, moves: &[usize], rules: &Rules) -> Result<Vec<Position>, SolveError> {
    let mut positions = vec![*start];
    let mut p = *start;
    for (i, &hole) in moves.iter().enumerate() {
        p = p.play(hole, rules).map_err(|source| SolveError::Move {
            index: i + 1,
            hole,
            position: p,
            source,
        })?;
        positions.push(p);
    }
    Ok(positions)
}

/// What is known of a value: proved bounds and an estimate within them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Known {
    lower: i32,
    upper: i32,
    estimate: i32,
    /// The estimate is a shallow search's (nothing better was proved).
    shallow: bool,
}

impl Known {
    fn exact(v: i32) -> Known {
        Known {
            lower: v,
            upper: v,
            estimate: v,
            shallow: false,
        }
    }

    fn is_exact(&self) -> bool {
        self.lower == self.upper
    }

    /// The value for the other side.
    fn negated(self) -> Known {
        Known {
            lower: -self.upper,
            upper: -self.lower,
            estimate: -self.estimate,
            shallow: self.shallow,
        }
    }
}

/// What nothing proved says of `p`'s value: within the seeds on the board.
fn trivial(p: &Position) -> Known {
    let d = p.store_diff();
    let s = p.seeds_on_board() as i32;
    Known {
        lower: d - s,
        upper: d + s,
        estimate: d,
        shallow: true,
    }
}

/// What an analysis says of its position's value.
fn position_known(r: &BestReport) -> Known {
    Known {
        lower: r.analysis.lower,
        upper: r.analysis.upper,
        estimate: r.value,
        shallow: r.estimate_depth.is_some(),
    }
}

/// Proved bounds `(lower, upper)` of a value.
type Range = (i32, i32);

/// `r` for the other side.
fn flip((lo, hi): Range) -> Range {
    (-hi, -lo)
}

/// Both proved, so the value lies in both (should a bug ever break that,
/// keep a range rather than panic).
fn meet(a: Range, b: Range) -> Range {
    let lo = a.0.max(b.0);
    (lo, a.1.min(b.1).max(lo))
}

/// Every decision judged from the analyses (`None` where a position was
/// not searched: forced, or not reached before a stop).
///
/// The value of the move played at `i` is the value of position `i + 1`
/// (for the same side after a bonus move, negated when the turn passes),
/// so the bounds of each position are narrowed by every search that
/// bears on them: its own, the search of the position before it (the
/// played move's bounds there, and its value at most that position's),
/// and the position after it (the position is worth at least the move
/// played), until nothing changes. Then the estimates, from the end: the
/// move played is worth what the next position is estimated at, and a
/// position at least what its move played is.
fn judge(
    positions: &[Position],
    moves: &[usize],
    analyses: &[Option<BestReport>],
) -> AnalyseReport {
    let n = moves.len();
    let end = positions[n];
    // What each position's own search (or the end of the game) says.
    let own: Vec<Known> = (0..=n)
        .map(|i| match (&analyses[i], positions[i].terminal_value()) {
            (_, Some(v)) if i == n => Known::exact(v),
            (Some(r), _) => position_known(r),
            _ => trivial(&positions[i]),
        })
        .collect();
    let played_bounds: Vec<Option<Range>> = (0..n)
        .map(|i| {
            analyses[i].as_ref().map(|r| {
                let m = r
                    .analysis
                    .move_bounds
                    .iter()
                    .find(|m| m.hole == moves[i])
                    .expect("a legal move has bounds");
                (m.lower, m.upper)
            })
        })
        .collect();
    let same = |i: usize| positions[i + 1].side_to_move() == positions[i].side_to_move();
    // The move played at `i`, for the mover at `i`: position `i + 1`.
    let to_mover = |i: usize, r: Range| if same(i) { r } else { flip(r) };
    let mut value: Vec<Range> = own.iter().map(|k| (k.lower, k.upper)).collect();
    let step = |i: usize, value: &mut Vec<Range>| {
        let forced = positions[i].moves().nth(1).is_none();
        let mut w = to_mover(i, value[i + 1]);
        if let Some(m) = played_bounds[i] {
            w = meet(w, m);
        }
        // The move is worth at most the position; a forced one exactly.
        let cap = if forced { value[i] } else { (w.0, value[i].1) };
        w = meet(w, cap);
        value[i] = meet(value[i], if forced { w } else { (w.0, value[i].1) });
        value[i + 1] = to_mover(i, w);
    };
    // Every pass only narrows integer ranges, so this ends; the cap only
    // guards against a bug.
    for _ in 0..2 * (n + 2) {
        let before = value.clone();
        for i in (0..n).rev() {
            step(i, &mut value);
        }
        for i in 0..n {
            step(i, &mut value);
        }
        if value == before {
            break;
        }
    }
    let known = |i: usize, estimate: i32| Known {
        lower: value[i].0,
        upper: value[i].1,
        estimate: estimate.clamp(value[i].0, value[i].1),
        shallow: own[i].shallow,
    };
    let mut next = known(n, own[n].estimate);
    let mut decisions = Vec::with_capacity(n);
    for i in (0..n).rev() {
        let p = positions[i];
        let hole = moves[i];
        let forced = p.moves().nth(1).is_none();
        let played = if same(i) { next } else { next.negated() };
        let mut position = known(i, own[i].estimate);
        position.estimate = if forced {
            played.estimate
        } else {
            position.estimate.max(played.estimate)
        };
        let (best, nodes, secs) = match &analyses[i] {
            Some(r) => {
                let mut best = r.best_moves.clone();
                if played.lower >= position.upper && !best.contains(&hole) {
                    // Proved to reach the value: a best move too.
                    best.push(hole);
                    best.sort_unstable();
                }
                (best, r.nodes, r.seconds)
            }
            // Forced, or not reached before a stop (dropped by the caller).
            None => (vec![hole], 0, 0.0),
        };
        let mut d = Decision::new(i, &p, hole, best, position, played, forced, nodes, secs);
        d.pv = analyses[i]
            .as_ref()
            .map(|r| r.pv.clone())
            .unwrap_or_default();
        next = Known {
            estimate: d.best_value,
            ..position
        };
        decisions.push(d);
    }
    decisions.reverse();
    AnalyseReport {
        game: "dakon",
        rules: Rules::default(),
        summary: Summary::of(&decisions),
        decisions,
        end,
        nodes: analyses.iter().flatten().map(|r| r.nodes).sum(),
        seconds: 0.0,
        stopped: false,
    }
}

/// One decision of the game; serialized, an entry of `decisions` in the
/// JSON of `dakon analyse` (docs/cli.md). Values are final store
/// differences (stores included) for the side to move, as `dakon best`
/// gives them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Decision {
    /// Its place in the game, from 1.
    pub ply: usize,
    /// Who moved: 0 South, 1 North.
    pub side: usize,
    /// The position before the move.
    #[serde(serialize_with = "as_text")]
    pub position: Position,
    /// The hole played.
    pub played: usize,
    /// The best moves: every move reaching `best_value` where the search of
    /// the position was exact; otherwise the one move it judged best, and
    /// the move played where it is proved to reach the value.
    pub best: Vec<usize>,
    /// The position's value (exact, or an estimate within
    /// `lower`..`upper`).
    pub best_value: i32,
    /// The value of the move played (exact, or an estimate within
    /// `played_lower`..`played_upper`).
    pub played_value: i32,
    /// `best_value - played_value`, never negative.
    pub loss: i32,
    /// Whether both values, hence the loss, are proved.
    pub exact: bool,
    /// The mark of the loss, given only where the proved lower bound of
    /// the loss (`loss_lower` when not exact) reaches its threshold.
    pub mark: Option<Mark>,
    /// The only legal move: not counted in the summary (and not searched:
    /// its values are the next position's).
    pub forced: bool,
    /// Proved lower bound of `best_value`, when it is not exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lower: Option<i32>,
    /// Proved upper bound of `best_value`, when it is not exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upper: Option<i32>,
    /// Proved lower bound of `played_value`, when it is not exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub played_lower: Option<i32>,
    /// Proved upper bound of `played_value`, when it is not exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub played_upper: Option<i32>,
    /// Proved lower bound of `loss`, when the decision is not exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loss_lower: Option<i32>,
    /// Proved upper bound of `loss`, when the decision is not exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loss_upper: Option<i32>,
    /// When `best_value` is not exact: whether it is a shallow search's
    /// estimate (the budget proved nothing useful) rather than the value
    /// of the move with the best proved bounds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimate: Option<bool>,
    /// Nodes of the decision's search (0 when forced).
    pub nodes: u64,
    /// Seconds of the decision's search.
    pub seconds: f64,
    /// The line of play its search found from the position (the best
    /// move first; both sides' moves, bonus moves included, as `best`'s
    /// `pv`), empty for a forced move.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pv: Vec<usize>,
}

fn as_text<S: Serializer>(p: &Position, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(p)
}

fn rules_text<S: Serializer>(r: &Rules, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(r)
}

impl Decision {
    #[allow(clippy::too_many_arguments)]
    fn new(
        i: usize,
        p: &Position,
        hole: usize,
        best: Vec<usize>,
        position: Known,
        played: Known,
        forced: bool,
        nodes: u64,
        seconds: f64,
    ) -> Decision {
        let exact = position.is_exact() && played.is_exact();
        let loss_lower = (position.lower - played.upper).max(0);
        let loss_upper = (position.upper - played.lower).max(0);
        let loss = (position.estimate - played.estimate).clamp(loss_lower, loss_upper);
        let inexact = |k: &Known| (!k.is_exact()).then_some((k.lower, k.upper));
        let (lower, upper) = inexact(&position).unzip();
        let (played_lower, played_upper) = inexact(&played).unzip();
        let (loss_lower, loss_upper) = (!exact).then_some((loss_lower, loss_upper)).unzip();
        Decision {
            ply: i + 1,
            side: p.side_to_move().index(),
            position: *p,
            played: hole,
            best,
            best_value: played.estimate + loss,
            played_value: played.estimate,
            loss,
            exact,
            mark: Mark::of_loss(loss_lower.unwrap_or(loss)),
            forced,
            lower,
            upper,
            played_lower,
            played_upper,
            loss_lower,
            loss_upper,
            estimate: lower.map(|_| position.shallow),
            nodes,
            seconds,
            pv: Vec::new(),
        }
    }

    /// The proved bounds of the loss (equal when exact).
    pub fn loss_bounds(&self) -> (i32, i32) {
        (
            self.loss_lower.unwrap_or(self.loss),
            self.loss_upper.unwrap_or(self.loss),
        )
    }
}

/// One side's decisions summed up (forced decisions left out).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SideSummary {
    /// Decisions with a choice.
    pub decisions: usize,
    /// How many of them are exact.
    pub exact: usize,
    /// Their mean `loss` (estimates included; 0 without decisions).
    pub mean_loss: f64,
    /// Their marks, by kind.
    pub marks: Marks,
}

/// How many decisions got each mark.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Marks {
    /// Inaccuracies.
    pub inaccuracy: usize,
    /// Mistakes.
    pub mistake: usize,
    /// Blunders.
    pub blunder: usize,
}

/// The summary of each side, keyed `"0"` (South) and `"1"` (North) as the
/// decisions' `side`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// South's.
    #[serde(rename = "0")]
    pub south: SideSummary,
    /// North's.
    #[serde(rename = "1")]
    pub north: SideSummary,
}

impl Summary {
    /// Both sides' summaries of `decisions`.
    pub fn of(decisions: &[Decision]) -> Summary {
        let side = |s: usize| {
            let mine: Vec<&Decision> = decisions
                .iter()
                .filter(|d| d.side == s && !d.forced)
                .collect();
            let mut marks = Marks::default();
            for d in &mine {
                match d.mark {
                    Some(Mark::Inaccuracy) => marks.inaccuracy += 1,
                    Some(Mark::Mistake) => marks.mistake += 1,
                    Some(Mark::Blunder) => marks.blunder += 1,
                    None => {}
                }
            }
            let total: i64 = mine.iter().map(|d| i64::from(d.loss)).sum();
            SideSummary {
                decisions: mine.len(),
                exact: mine.iter().filter(|d| d.exact).count(),
                mean_loss: if mine.is_empty() {
                    0.0
                } else {
                    total as f64 / mine.len() as f64
                },
                marks,
            }
        };
        Summary {
            south: side(0),
            north: side(1),
        }
    }

    /// The summary of side `index` (0 South, 1 North).
    pub fn side(&self, index: usize) -> &SideSummary {
        if index == 0 {
            &self.south
        } else {
            &self.north
        }
    }
}

/// The answer of an [`AnalyseRequest`]; serialized, the JSON of `dakon
/// analyse` (docs/cli.md).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AnalyseReport {
    /// `"dakon"`.
    pub game: &'static str,
    /// The rules of the game, `origin=… mikul=… nembak=…`.
    #[serde(serialize_with = "rules_text")]
    pub rules: Rules,
    /// Every decision, in the order played.
    pub decisions: Vec<Decision>,
    /// Each side's decisions summed up.
    pub summary: Summary,
    /// The position after the last move.
    #[serde(serialize_with = "as_text")]
    pub end: Position,
    /// Nodes of all the searches.
    pub nodes: u64,
    /// Wall-clock seconds of the whole analysis.
    pub seconds: f64,
    /// The analysis was stopped (its `stop` flag): `decisions` holds the
    /// last decisions of the game, those analysed before the stop.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stopped: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_start_at_their_thresholds() {
        let marks: Vec<_> = [0, 1, 2, 5, 6, 11, 12, 98].map(Mark::of_loss).into();
        use Mark::*;
        assert_eq!(
            marks,
            [
                None,
                None,
                Some(Inaccuracy),
                Some(Inaccuracy),
                Some(Mistake),
                Some(Mistake),
                Some(Blunder),
                Some(Blunder)
            ]
        );
        assert_eq!(serde_json::to_value(Mark::Mistake).unwrap(), "mistake");
    }

    #[test]
    fn the_budget_is_checked_and_passed_to_best() {
        let r = AnalyseRequest::new(Rules::default());
        assert_eq!(r.time, Some(Duration::from_secs(3)));
        let e = r.clone().time(Some(0.0)).unwrap_err();
        assert!(matches!(e, SolveError::Time));
        let b = r.clone().max_nodes(Some(5)).time(Some(0.5)).unwrap().best();
        assert!(b.every_move);
        assert_eq!(
            (b.time, b.max_nodes),
            (Some(Duration::from_millis(500)), Some(5))
        );
        assert_eq!(r.max_nodes(Some(0)).max_nodes, None);
    }

    /// A 5 × 5 game of the engine with random moves mixed in.
    const GAME_5X5: &str = "1 2 2 5 2 1 5 5 4 3 3 2 5 5 4 4 3 1 4 1 5 1 4 3 5 4 5 5";

    /// Under a small node budget every bound holds the exact value, every
    /// estimate lies within its bounds, and a mark is given only where the
    /// proved loss reaches it (so the exact loss does too).
    #[test]
    fn bounds_hold_the_exact_values_and_marks_are_proved() {
        let start = Position::start(5, 5).unwrap();
        let moves: Vec<usize> = GAME_5X5
            .split_whitespace()
            .map(|h| h.parse().unwrap())
            .collect();
        let exact = AnalyseRequest::new(Rules::default())
            .time(None)
            .unwrap()
            .run(&start, &moves, None, None)
            .unwrap();
        assert!(exact.decisions.iter().all(|d| d.exact));
        let mut inexact = 0;
        for budget in [300, 3000] {
            let cut = AnalyseRequest::new(Rules::default())
                .time(None)
                .unwrap()
                .max_nodes(Some(budget))
                .run(&start, &moves, None, None)
                .unwrap();
            for (c, e) in cut.decisions.iter().zip(&exact.decisions) {
                let within = |v: i32, lo: Option<i32>, hi: Option<i32>, at: i32| {
                    let (lo, hi) = (lo.unwrap_or(at), hi.unwrap_or(at));
                    lo <= v && v <= hi
                };
                let why = format!("budget {budget}, ply {}: {c:?}", c.ply);
                assert!(
                    within(e.best_value, c.lower, c.upper, c.best_value),
                    "{why}"
                );
                assert!(
                    within(c.best_value, c.lower, c.upper, c.best_value),
                    "{why}"
                );
                assert!(
                    within(
                        e.played_value,
                        c.played_lower,
                        c.played_upper,
                        c.played_value
                    ),
                    "{why}"
                );
                assert!(
                    within(
                        c.played_value,
                        c.played_lower,
                        c.played_upper,
                        c.played_value
                    ),
                    "{why}"
                );
                let (lo, hi) = c.loss_bounds();
                assert!(
                    lo <= e.loss && e.loss <= hi && lo <= c.loss && c.loss <= hi,
                    "{why}"
                );
                assert_eq!(c.loss, c.best_value - c.played_value, "{why}");
                assert_eq!(c.mark, Mark::of_loss(lo), "{why}");
                assert!(c.mark <= e.mark, "{why}");
                assert_eq!(c.exact, c.loss_lower.is_none(), "{why}");
                if c.exact {
                    assert_eq!(
                        (c.best_value, c.played_value),
                        (e.best_value, e.played_value)
                    );
                } else {
                    inexact += 1;
                }
            }
            // The move played at one decision is the position of the next:
            // the same value and bounds, for the side to move there.
            for w in cut.decisions.windows(2) {
                let (a, b) = (&w[0], &w[1]);
                let sign = if a.side == b.side { 1 } else { -1 };
                let played = (a.played_value, a.played_lower, a.played_upper);
                let (lo, hi) = (b.lower.map(|v| sign * v), b.upper.map(|v| sign * v));
                let next = if sign == 1 { (lo, hi) } else { (hi, lo) };
                assert_eq!(
                    played,
                    (sign * b.best_value, next.0, next.1),
                    "ply {}",
                    a.ply
                );
            }
        }
        assert!(inexact > 0, "the budgets should leave something unproved");
    }

    /// The JSON of a decision: the contract's fields, bounds only when not
    /// exact; the summary keyed by side.
    #[test]
    fn the_report_serializes_as_the_cli_json() {
        let start: Position = "1,1,0/6,0,0/0,0 0".parse().unwrap();
        let r = AnalyseRequest::new(Rules::default())
            .run(&start, &[1, 3], None, None)
            .unwrap();
        let mut j = serde_json::to_value(&r).unwrap();
        assert!(j["seconds"].is_f64() && j["decisions"][0]["seconds"].is_f64());
        j["seconds"] = 0.into();
        for d in j["decisions"].as_array_mut().unwrap() {
            d["seconds"] = 0.into();
            d["nodes"] = 0.into();
        }
        j["nodes"] = 0.into();
        let want = serde_json::json!({
            "game": "dakon",
            "rules": "origin=sow mikul=on nembak=keep",
            "decisions": [
                {"ply": 1, "side": 0, "position": "1,1,0/6,0,0/0,0 0", "played": 1,
                 "best": [2], "best_value": 8, "played_value": -4, "loss": 12,
                 "exact": true, "mark": "blunder", "forced": false,
                 "nodes": 0, "seconds": 0, "pv": [2]},
                {"ply": 2, "side": 0, "position": "0,0,1/6,0,0/1,0 0", "played": 3,
                 "best": [3], "best_value": -4, "played_value": -4, "loss": 0,
                 "exact": true, "mark": null, "forced": true,
                 "nodes": 0, "seconds": 0},
            ],
            "summary": {
                "0": {"decisions": 1, "exact": 1, "mean_loss": 12.0,
                      "marks": {"inaccuracy": 0, "mistake": 0, "blunder": 1}},
                "1": {"decisions": 0, "exact": 0, "mean_loss": 0.0,
                      "marks": {"inaccuracy": 0, "mistake": 0, "blunder": 0}},
            },
            "end": "0,0,0/0,0,0/2,6 0",
            "nodes": 0,
            "seconds": 0,
        });
        assert_eq!(j, want);
    }
}
