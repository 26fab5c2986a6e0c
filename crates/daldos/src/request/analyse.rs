//! `daldos analyse`: every throw of a whole game judged, with its luck
//! (docs/cli.md, "Analysing a game", "Daldøs").
//!
//! For each throw the analysis values the position before the throw (its
//! `W` for the side that throws, the weighted mean over the 16 throws of
//! each throw's best play), the throw that came (its best play's value),
//! and the play made. All values are `W`, the win probability of the side
//! that threw, whoever throws next: a play's value is its result's `W`
//! when the same side throws again (a dal-dal), else `1 − W`, and 1 or 0
//! when it ends the game (docs/rules.md §1.8).
//!
//! - `loss` = `best_value − played_value`: what the play gave away.
//! - `luck` = `best_value − value_before`: how much better (or worse) the
//!   throw was than the average throw, both with best play.
//!
//! # Where the values come from
//! Where the solved tables cover the position and all its plays, the
//! values are theirs ([`ValueRequest`]): exact (to 1e-12), and fast. Else
//! the position is searched by expectiminimax with the [`Analyst`]'s
//! engine (tables included wherever the search reaches them), deepening
//! 1, 2, … throws within the decision's budget ([`AnalyseRequest::time`],
//! [`AnalyseRequest::max_nodes`]); the values of the deepest depth that
//! finished are kept, exact where the search proved them (every line
//! ended), else estimates (`exact: false`).
//!
//! # The luck identity
//! Write `A_k` for side A's `W` before throw `k` (the mover's
//! `value_before`, or one minus it when B throws), and `A_{n+1}` for the
//! result (1 or 0 once the game is over, else A's `W` at the end). For a
//! throw of the mover `s`, `luck − loss = played_value − value_before`,
//! and `played_value` is `s`'s value of the next position, so it is
//! `A_{k+1} − A_k` when `s` is A and `−(A_{k+1} − A_k)` when `s` is B.
//! Summing over the game, the terms telescope:
//!
//! ```text
//! result(A) − W_A(start) = Σ_{A's throws} (luck − loss) − Σ_{B's throws} (luck − loss)
//! ```
//!
//! This holds exactly for exact values (tested on whole L = 4 games to
//! 1e-9); with estimates it holds only as far as the estimates of
//! successive positions agree. So the luck-adjusted result of a side
//! ([`SideSummary::luck_adjusted`], as gnubg's) is its result minus its
//! own luck plus the opponent's: with exact values that is its `W` at the
//! start minus its own losses plus the opponent's, what the game would
//! have come to with average dice.
//!
//! # Marks
//! A decision's loss is marked at [`INACCURACY_W`], [`MISTAKE_W`] and
//! [`BLUNDER_W`] (2, 5 and 10 points of win chance). Marks are given on
//! estimated losses too, the search giving no proved bounds to mark by:
//! such a decision says `exact: false`, and its mark is the engine's
//! judgement at the depth it reached, not a proof.
//!
//! Every throw is a decision of the report; one whose throw has a single
//! distinct play (a pass included) is `forced`: its luck counts, but it
//! is left out of the decision counts and the mean loss.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use dalkon_rules::daldos::{plays, Play, Position, Record, Side, Throw, Variants};
use serde::{Serialize, Serializer};

use super::best::Analyst;
use super::value::ValueRequest;
use crate::engine::{
    analyse_position_keeping, KeptTable, RootMode, SearchError, SearchOptions, KEPT_CAPACITY,
    MAX_DEPTH,
};

/// The default time budget of one decision's search, in seconds. Measured
/// on this project's 2-core machine (docs/cli.md, "Analysing a game"): a
/// 200-throw game on the Norwegian board with full pieces, which no table
/// covers, took 98.6 s (depths 3 to 6, mostly 4 and 5); as no decision
/// takes more than this, no 200-throw game takes more than about 3 minutes.
pub const DEFAULT_ANALYSE_SECONDS: f64 = 0.8;

/// The default node budget of one decision's search (all depths
/// together): large enough that on the Norwegian board the time budget is
/// what ends the search; it bounds the work where a machine is fast.
pub const DEFAULT_ANALYSE_MAX_NODES: u64 = 4_000_000;

/// A depth is not started when the one before it took more than its
/// share of what is left of the time budget: each depth of a middle game
/// costs some 5 to 20 times the one before, so a depth that would not
/// finish is not begun.
pub const DEPTH_GROWTH: f64 = 5.0;

/// The smallest loss, in `W`, marked an inaccuracy (2 points of win
/// chance).
pub const INACCURACY_W: f64 = 0.02;

/// The smallest loss, in `W`, marked a mistake (5 points).
pub const MISTAKE_W: f64 = 0.05;

/// The smallest loss, in `W`, marked a blunder (10 points).
pub const BLUNDER_W: f64 = 0.10;

/// Plays whose values differ by less than this are equally good (the
/// tables' values are exact to 1e-12; the search's sums round below it).
pub const TIE: f64 = 1e-9;

/// How bad a play was: its loss reached the mark's threshold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    /// At least [`INACCURACY_W`] lost.
    Inaccuracy,
    /// At least [`MISTAKE_W`] lost.
    Mistake,
    /// At least [`BLUNDER_W`] lost.
    Blunder,
}

impl Mark {
    /// The mark of a loss of `w` (`None` below [`INACCURACY_W`]).
    pub fn of_loss(w: f64) -> Option<Mark> {
        if w >= BLUNDER_W {
            Some(Mark::Blunder)
        } else if w >= MISTAKE_W {
            Some(Mark::Mistake)
        } else if w >= INACCURACY_W {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    /// Its name as the JSON spells it.
    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

/// Why a game cannot be analysed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AnalyseError {
    /// The time budget is not a positive number of seconds.
    #[error("--time {0}: the time per decision must be a positive number of seconds")]
    Time(f64),
    /// Turn `turn` (from 1) is not a play of its throw where it stands.
    #[error("turn {turn}: {play} is not a play of the throw {throw} in {position}")]
    Illegal {
        /// The turn, counting throws from 1.
        turn: usize,
        /// Its throw, as given.
        throw: Throw,
        /// Its play, in notation.
        play: String,
        /// The position before the throw.
        position: String,
    },
    /// Turn `turn` (from 1) comes after the end of the game.
    #[error("turn {turn}: the game is already over ({} has won)", winner.letter())]
    GameOver {
        /// The turn, counting throws from 1.
        turn: usize,
        /// The side that had won.
        winner: Side,
    },
    /// The game's board or rules are not the analyst's.
    #[error("the game is on board {game} but the analysis is for board {analyst}")]
    Board {
        /// The game's board.
        game: String,
        /// The analyst's.
        analyst: String,
    },
    /// The game's rules are not the analyst's.
    #[error("the game is played under {game} but the analysis is for {analyst}")]
    Rules {
        /// The game's rules.
        game: String,
        /// The analyst's.
        analyst: String,
    },
}

/// What [`AnalyseRequest::run`] reports as it goes, for a progress bar
/// (never for results); `()` reports nowhere.
pub trait AnalyseProgress: Sync {
    /// Position `done` of `total` (the throws, and the end of a game not
    /// over) has been valued.
    fn position_done(&self, _done: usize, _total: usize) {}
}

impl AnalyseProgress for () {}

/// A whole game to analyse and the budget of each decision (validated by
/// its constructor and setters; the game is given to
/// [`AnalyseRequest::run`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AnalyseRequest {
    time: Option<Duration>,
    max_nodes: Option<u64>,
    max_depth: u32,
}

impl Default for AnalyseRequest {
    fn default() -> Self {
        AnalyseRequest::new()
    }
}

impl AnalyseRequest {
    /// [`DEFAULT_ANALYSE_SECONDS`] and [`DEFAULT_ANALYSE_MAX_NODES`] a
    /// decision, deepening up to [`MAX_DEPTH`].
    pub fn new() -> AnalyseRequest {
        AnalyseRequest {
            time: Some(Duration::from_secs_f64(DEFAULT_ANALYSE_SECONDS)),
            max_nodes: Some(DEFAULT_ANALYSE_MAX_NODES),
            max_depth: MAX_DEPTH,
        }
    }

    /// The same request with a time per decision in seconds (`None`: no
    /// time limit); refused unless positive and finite.
    pub fn time(self, seconds: Option<f64>) -> Result<AnalyseRequest, AnalyseError> {
        let time = match seconds {
            None => None,
            Some(s) if s.is_finite() && s > 0.0 => Some(Duration::from_secs_f64(s)),
            Some(s) => return Err(AnalyseError::Time(s)),
        };
        Ok(AnalyseRequest { time, ..self })
    }

    /// The same request with a node budget per decision (`None` or 0: no
    /// limit).
    pub fn max_nodes(self, max_nodes: Option<u64>) -> AnalyseRequest {
        AnalyseRequest {
            max_nodes: max_nodes.filter(|&n| n > 0),
            ..self
        }
    }

    /// The same request searching at most `depth` throws deep (clamped to
    /// `1..=MAX_DEPTH`): with no other budget, a fixed depth.
    pub fn max_depth(self, depth: u32) -> AnalyseRequest {
        AnalyseRequest {
            max_depth: depth.clamp(1, MAX_DEPTH),
            ..self
        }
    }

    /// The time per decision.
    pub fn time_budget(&self) -> Option<Duration> {
        self.time
    }

    /// The node budget per decision.
    pub fn node_budget(&self) -> Option<u64> {
        self.max_nodes
    }

    /// [`AnalyseRequest::run`] on a game record, whose rules must be the
    /// analyst's.
    pub fn run_record(
        &self,
        analyst: &Analyst,
        record: &Record,
        progress: &dyn AnalyseProgress,
        stop: Option<&AtomicBool>,
    ) -> Result<AnalyseReport, AnalyseError> {
        let mine = analyst.game().variants;
        if record.variants != mine {
            return Err(AnalyseError::Rules {
                game: record.variants.to_string(),
                analyst: mine.to_string(),
            });
        }
        let turns: Vec<(Throw, Play)> = record
            .turns
            .iter()
            .map(|t| (t.throw, t.play.clone()))
            .collect();
        self.run(analyst, &record.start, &turns, progress, stop)
    }

    /// Analyse the game of `turns` (each throw in order with the play made,
    /// [`Play::pass`] for a throw without a legal play) from `start`. The
    /// turns are checked first: the first that is not a play of its throw
    /// where it stands is refused ([`AnalyseError::Illegal`], numbered
    /// from 1). `progress` hears of each position valued; raising `stop`
    /// ends the analysis early: the report then holds the throws analysed
    /// so far, with [`AnalyseReport::stopped`].
    pub fn run(
        &self,
        analyst: &Analyst,
        start: &Position,
        turns: &[(Throw, Play)],
        progress: &dyn AnalyseProgress,
        stop: Option<&AtomicBool>,
    ) -> Result<AnalyseReport, AnalyseError> {
        let started = Instant::now();
        let board = analyst.tables().board();
        if start.board() != board {
            return Err(AnalyseError::Board {
                game: start.board().name(),
                analyst: board.name(),
            });
        }
        let variants = analyst.game().variants;
        let positions = replay(start, &variants, turns)?;
        let n = turns.len();
        let end = positions[n];
        let over = end.is_over(&variants);
        let total = if over { n } else { n + 1 };
        let stopped = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
        let mut decisions = Vec::with_capacity(n);
        let mut was_stopped = false;
        // One table for the whole game: each decision's search starts with
        // what the earlier ones proved (the same game and options for all).
        let mut kept = KeptTable::new(KEPT_CAPACITY);
        for (k, (throw, play)) in turns.iter().enumerate() {
            if stopped() {
                was_stopped = true;
                break;
            }
            let pos = &positions[k];
            let Some(v) = self.value(analyst, pos, stop, &mut kept) else {
                was_stopped = true;
                break;
            };
            decisions.push(Decision::new(k, pos, *throw, play, &positions[k + 1], &v));
            progress.position_done(k + 1, total);
        }
        // The result from A's side: the winner's 1, or the end's value.
        let (result, result_exact) = match end.winner(&variants) {
            Some(w) => (if w == Side::A { 1.0 } else { 0.0 }, true),
            None if was_stopped => (f64::NAN, false),
            None => match self.value(analyst, &end, stop, &mut kept) {
                Some(v) => {
                    progress.position_done(total, total);
                    (for_a(end.side_to_move(), v.before.value), v.before.exact)
                }
                None => {
                    was_stopped = true;
                    (f64::NAN, false)
                }
            },
        };
        let start_value = decisions.first().map(|d| d.value_a());
        let summary = Summary::of(&decisions, (!was_stopped).then_some(result));
        Ok(AnalyseReport {
            game: "daldos",
            decisions,
            summary,
            start_value,
            end,
            winner: end.winner(&variants),
            result: (!was_stopped).then_some(result),
            result_exact: !was_stopped && result_exact,
            nodes: 0,
            seconds: started.elapsed().as_secs_f64(),
            stopped: was_stopped,
        }
        .with_nodes())
    }

    /// The values of `pos` (not over): from the tables where they cover it
    /// and its plays, else searched within the budget; `None` when `stop`
    /// was raised.
    fn value(
        &self,
        analyst: &Analyst,
        pos: &Position,
        stop: Option<&AtomicBool>,
        kept: &mut KeptTable<Position>,
    ) -> Option<Values> {
        let tables = analyst.tables();
        let variants = analyst.game().variants;
        if tables.bounds(pos).is_some() {
            if let Ok(r) = (ValueRequest {
                pos: *pos,
                variants,
            })
            .run(tables)
            {
                return Some(Values::from_tables(&r));
            }
        }
        self.search(analyst, pos, stop, kept)
    }

    /// Iterative deepening of `pos` before its throw, every play valued,
    /// within the time and node budgets. Depth 1 always finishes (only
    /// `stop` ends it); a deeper depth cut by a budget is dropped. Every
    /// depth reads and adds to `kept`, the game's table.
    fn search(
        &self,
        analyst: &Analyst,
        pos: &Position,
        stop: Option<&AtomicBool>,
        kept: &mut KeptTable<Position>,
    ) -> Option<Values> {
        let began = Instant::now();
        let deadline = self.time.map(|t| began + t);
        let mut used = 0u64;
        let mut best: Option<(crate::engine::PositionAnalysis<crate::engine::Daldos>, u32)> = None;
        let mut last_took = Duration::ZERO;
        for depth in 1..=self.max_depth {
            if let (Some(d), Some(_)) = (deadline, &best) {
                let left = d.saturating_duration_since(Instant::now());
                if last_took.as_secs_f64() * DEPTH_GROWTH > left.as_secs_f64() {
                    break;
                }
            }
            let remaining = self.max_nodes.map(|m| m.saturating_sub(used));
            if remaining == Some(0) {
                break;
            }
            let opts = SearchOptions {
                depth,
                prune: true,
                max_nodes: remaining,
                ..SearchOptions::default()
            };
            let t0 = Instant::now();
            // Depth 1 ignores the deadline: there is always an answer.
            let watched = if depth == 1 { None } else { deadline };
            let outcome = with_deadline(stop, watched, |flag| {
                analyse_position_keeping(
                    analyst.game(),
                    pos,
                    opts,
                    RootMode::AllExact,
                    &|| {},
                    Some(flag),
                    &mut *kept,
                )
            });
            last_took = t0.elapsed();
            match outcome {
                Ok(a) => {
                    used += a.stats.nodes();
                    let exact = a.exact;
                    best = Some((a, depth));
                    if exact {
                        break;
                    }
                }
                Err(SearchError::NodeLimit { nodes }) => {
                    used += nodes;
                    break;
                }
                Err(SearchError::Interrupted { nodes }) => {
                    used += nodes;
                    if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                        return None;
                    }
                    break;
                }
                Err(e) => unreachable!("a position not over searched to a valid depth: {e}"),
            }
        }
        let (a, depth) = best.expect("depth 1 always finishes");
        Some(Values::from_search(&a, depth, used, began.elapsed()))
    }
}

/// Run `f` with a flag raised when `stop` is, or at `deadline`.
fn with_deadline<T: Send>(
    stop: Option<&AtomicBool>,
    deadline: Option<Instant>,
    f: impl FnOnce(&AtomicBool) -> T + Send,
) -> T {
    let flag = AtomicBool::new(false);
    let done = AtomicBool::new(false);
    if stop.is_none() && deadline.is_none() {
        return f(&flag);
    }
    std::thread::scope(|s| {
        s.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                let late = deadline.is_some_and(|d| Instant::now() >= d);
                if late || stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                    flag.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::sleep(Duration::from_millis(2));
            }
        });
        let out = f(&flag);
        done.store(true, Ordering::Relaxed);
        out
    })
}

/// The positions of the game: `start`, then the one after each turn.
fn replay(
    start: &Position,
    variants: &Variants,
    turns: &[(Throw, Play)],
) -> Result<Vec<Position>, AnalyseError> {
    let mut out = Vec::with_capacity(turns.len() + 1);
    let mut pos = *start;
    out.push(pos);
    for (k, (throw, play)) in turns.iter().enumerate() {
        if let Some(winner) = pos.winner(variants) {
            return Err(AnalyseError::GameOver {
                turn: k + 1,
                winner,
            });
        }
        pos = plays(&pos, variants, *throw)
            .into_iter()
            .find(|o| o.play == *play)
            .ok_or_else(|| AnalyseError::Illegal {
                turn: k + 1,
                throw: *throw,
                play: play.notation(pos.board()),
                position: pos.to_string(),
            })?
            .result;
        out.push(pos);
    }
    Ok(out)
}

/// A value for the mover, with what is proved of it.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Val {
    value: f64,
    /// Proved bounds (from the tables), when known.
    bounds: Option<(f64, f64)>,
    exact: bool,
}

/// One play of a throw and its value for the mover.
#[derive(Debug, Clone)]
struct PlayVal {
    play: Play,
    /// The position after it.
    result: Position,
    val: Val,
}

/// Everything known of one position before its throw.
#[derive(Debug, Clone)]
struct Values {
    /// The value before the throw.
    before: Val,
    /// Each distinct throw (larger die first) with its plays, best first.
    throws: Vec<(Throw, Vec<PlayVal>)>,
    /// `None`: from the tables; else the depth searched.
    depth: Option<u32>,
    nodes: u64,
    seconds: f64,
}

impl Values {
    fn from_tables(r: &super::value::ValueReport) -> Values {
        let bounds = |lo: f64, hi: f64, exact: bool| (!exact).then_some((lo, hi));
        Values {
            before: Val {
                value: r.value,
                bounds: bounds(r.lower, r.upper, r.exact),
                exact: r.exact,
            },
            throws: r
                .throws
                .iter()
                .map(|t| {
                    let plays = t
                        .plays
                        .iter()
                        .map(|p| PlayVal {
                            play: p.step.clone(),
                            result: p.after,
                            val: Val {
                                value: p.value,
                                bounds: bounds(p.lower, p.upper, p.exact),
                                exact: p.exact,
                            },
                        })
                        .collect();
                    (t.throw, plays)
                })
                .collect(),
            depth: None,
            nodes: 0,
            seconds: 0.0,
        }
    }

    fn from_search(
        a: &crate::engine::PositionAnalysis<crate::engine::Daldos>,
        depth: u32,
        nodes: u64,
        took: Duration,
    ) -> Values {
        Values {
            before: Val {
                value: a.value,
                bounds: None,
                exact: a.exact,
            },
            throws: a
                .throws
                .iter()
                .map(|(ta, _)| {
                    let plays = ta
                        .plays
                        .iter()
                        .map(|p| PlayVal {
                            play: p.play.clone(),
                            result: p.result,
                            val: Val {
                                value: p.value,
                                bounds: None,
                                exact: p.exact,
                            },
                        })
                        .collect();
                    (ta.throw, plays)
                })
                .collect(),
            depth: Some(depth),
            nodes,
            seconds: took.as_secs_f64(),
        }
    }
}

/// `v`, a value for `side`, from A's side.
fn for_a(side: Side, v: f64) -> f64 {
    match side {
        Side::A => v,
        Side::B => 1.0 - v,
    }
}

/// One throw of the game; serialized, an entry of `decisions` in the JSON
/// of `daldos analyse` (docs/cli.md). Values are `W` for the side that
/// threw.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Decision {
    /// Its place in the game, from 1.
    pub ply: usize,
    /// The side that threw.
    #[serde(serialize_with = "side_letter")]
    pub side: Side,
    /// The position before the throw.
    #[serde(serialize_with = "as_text")]
    pub position: Position,
    /// The dice, as thrown.
    #[serde(serialize_with = "dice")]
    pub dice: Throw,
    /// The play made, in notation (`pass` for a lost throw).
    pub played: String,
    /// Every play reaching `best_value` (within [`TIE`]), best first.
    pub best: Vec<String>,
    /// The value of the throw: its best play's.
    pub best_value: f64,
    /// The value of the play made.
    pub played_value: f64,
    /// `best_value − played_value` (never negative).
    pub loss: f64,
    /// Whether `value_before`, `best_value` and `played_value` are all
    /// exact.
    pub exact: bool,
    /// `best_value − value_before`.
    pub luck: f64,
    /// The mark of the loss (on the estimate where not exact).
    pub mark: Option<Mark>,
    /// One distinct play (a pass included): not counted in the summary's
    /// decisions and mean loss.
    pub forced: bool,
    /// The value before the throw: the weighted mean of the 16 throws'
    /// best plays.
    pub value_before: f64,
    /// Proved bounds of `best_value`, where it is not exact and they are
    /// known (from the tables).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lower: Option<f64>,
    /// See `lower`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upper: Option<f64>,
    /// Proved bounds of `played_value`, likewise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub played_lower: Option<f64>,
    /// See `played_lower`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub played_upper: Option<f64>,
    /// Where the values come from: `"tables"` or `"search"`.
    pub source: &'static str,
    /// The depth searched, in throws (`null` from the tables).
    pub depth: Option<u32>,
    /// Nodes searched (0 from the tables).
    pub nodes: u64,
    /// Seconds of the decision.
    pub seconds: f64,
    /// The play made.
    #[serde(skip)]
    pub play: Play,
    /// The position after it (its side the one that throws next).
    #[serde(skip)]
    pub after: Position,
    /// Whether `value_before` alone is exact.
    #[serde(skip)]
    pub before_exact: bool,
}

fn as_text<S: Serializer>(p: &Position, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(p)
}

fn side_letter<S: Serializer>(side: &Side, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(&side.letter())
}

fn dice<S: Serializer>(t: &Throw, s: S) -> Result<S::Ok, S::Error> {
    [t.first, t.second].serialize(s)
}

impl Decision {
    fn new(
        k: usize,
        pos: &Position,
        throw: Throw,
        play: &Play,
        after: &Position,
        v: &Values,
    ) -> Decision {
        let board = pos.board();
        let plays = &v
            .throws
            .iter()
            .find(|(t, _)| *t == throw.sorted())
            .expect("every throw sorts to a distinct throw")
            .1;
        let top = plays[0].val;
        let bounds_max = |f: fn((f64, f64)) -> f64| {
            plays
                .iter()
                .map(|p| p.val.bounds.map_or(p.val.value, f))
                .fold(f64::NEG_INFINITY, f64::max)
        };
        let best_val = Val {
            value: top.value,
            bounds: plays
                .iter()
                .any(|p| p.val.bounds.is_some())
                .then(|| (bounds_max(|b| b.0), bounds_max(|b| b.1))),
            exact: top.exact,
        };
        // By its result: the throw is valued with the larger die first,
        // and where several plays lead to one position the generator keeps
        // the first, which may depend on the order of the dice.
        let played = plays
            .iter()
            .find(|p| p.result == *after)
            .expect("a legal play's result is one of its throw's")
            .val;
        let loss = (best_val.value - played.value).max(0.0);
        let exact = v.before.exact && best_val.exact && played.exact;
        let forced = plays.len() == 1;
        Decision {
            ply: k + 1,
            side: pos.side_to_move(),
            position: *pos,
            dice: throw,
            played: play.notation(board),
            best: plays
                .iter()
                .filter(|p| p.val.value >= top.value - TIE)
                // The play made as it was written, where it is one of them.
                .map(|p| {
                    if p.result == *after {
                        play.notation(board)
                    } else {
                        p.play.notation(board)
                    }
                })
                .collect(),
            best_value: best_val.value,
            played_value: played.value,
            loss,
            exact,
            luck: best_val.value - v.before.value,
            mark: if forced { None } else { Mark::of_loss(loss) },
            forced,
            value_before: v.before.value,
            lower: best_val.bounds.map(|b| b.0),
            upper: best_val.bounds.map(|b| b.1),
            played_lower: played.bounds.map(|b| b.0),
            played_upper: played.bounds.map(|b| b.1),
            source: if v.depth.is_none() {
                "tables"
            } else {
                "search"
            },
            depth: v.depth,
            nodes: v.nodes,
            seconds: v.seconds,
            play: play.clone(),
            after: *after,
            before_exact: v.before.exact,
        }
    }

    /// Side A's `W` before the throw.
    pub fn value_a(&self) -> f64 {
        for_a(self.side, self.value_before)
    }
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

/// One side's throws summed up.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SideSummary {
    /// Its throws with a choice (forced ones left out).
    pub decisions: usize,
    /// How many of them are exact.
    pub exact: usize,
    /// Their mean loss (0 without decisions).
    pub mean_loss: f64,
    /// Their marks, by kind.
    pub marks: Marks,
    /// The sum of the luck of all its throws, forced ones included.
    pub luck: f64,
    /// All its throws.
    pub throws: usize,
    /// Its result: 1 won, 0 lost, or its `W` at the end of a game not
    /// over (`null` when the analysis was stopped).
    pub result: Option<f64>,
    /// `result − luck + the opponent's luck` (module documentation, "The
    /// luck identity"): with exact values, its `W` at the start minus its
    /// own losses plus the opponent's.
    pub luck_adjusted: Option<f64>,
}

/// Each side's summary, keyed `"a"` and `"b"` as the decisions' `side`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// A's.
    pub a: SideSummary,
    /// B's.
    pub b: SideSummary,
}

impl Summary {
    /// Both sides' summaries of `decisions`, with A's `result` (1 won, 0
    /// lost, its `W` at the end) when known.
    pub fn of(decisions: &[Decision], result_a: Option<f64>) -> Summary {
        let luck = |s: Side| -> f64 {
            decisions
                .iter()
                .filter(|d| d.side == s)
                .map(|d| d.luck)
                .sum()
        };
        let side = |s: Side| {
            let all = decisions.iter().filter(|d| d.side == s).count();
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
            let result = result_a.map(|r| for_a(s, r));
            SideSummary {
                decisions: mine.len(),
                exact: mine.iter().filter(|d| d.exact).count(),
                mean_loss: if mine.is_empty() {
                    0.0
                } else {
                    mine.iter().map(|d| d.loss).sum::<f64>() / mine.len() as f64
                },
                marks,
                luck: luck(s),
                throws: all,
                result,
                luck_adjusted: result.map(|r| r - luck(s) + luck(s.other())),
            }
        };
        Summary {
            a: side(Side::A),
            b: side(Side::B),
        }
    }

    /// The summary of `side`.
    pub fn side(&self, side: Side) -> &SideSummary {
        match side {
            Side::A => &self.a,
            Side::B => &self.b,
        }
    }
}

/// The answer of an [`AnalyseRequest`]; serialized, the JSON of `daldos
/// analyse` (docs/cli.md).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AnalyseReport {
    /// `"daldos"`.
    pub game: &'static str,
    /// Every throw, in order.
    pub decisions: Vec<Decision>,
    /// Each side's throws summed up.
    pub summary: Summary,
    /// A's `W` before the first throw (`null` without throws).
    pub start_value: Option<f64>,
    /// The position after the last throw.
    #[serde(serialize_with = "as_text")]
    pub end: Position,
    /// The side that has won, if the game is over.
    #[serde(serialize_with = "winner")]
    pub winner: Option<Side>,
    /// A's result: 1 won, 0 lost, or A's `W` at the end of a game not over
    /// (`null` when stopped).
    pub result: Option<f64>,
    /// Whether `result` is exact.
    pub result_exact: bool,
    /// Nodes of all the searches.
    pub nodes: u64,
    /// Wall-clock seconds of the whole analysis.
    pub seconds: f64,
    /// The analysis was stopped: `decisions` holds the first throws only.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stopped: bool,
}

fn winner<S: Serializer>(w: &Option<Side>, s: S) -> Result<S::Ok, S::Error> {
    match w {
        Some(side) => s.collect_str(&side.letter()),
        None => s.serialize_none(),
    }
}

impl AnalyseReport {
    fn with_nodes(mut self) -> AnalyseReport {
        self.nodes = self.decisions.iter().map(|d| d.nodes).sum();
        self
    }

    /// `Σ_A (luck − loss) − Σ_B (luck − loss)`: with exact values,
    /// `result − start_value` (module documentation, "The luck identity").
    pub fn luck_minus_loss_a(&self) -> f64 {
        self.decisions
            .iter()
            .map(|d| match d.side {
                Side::A => d.luck - d.loss,
                Side::B => -(d.luck - d.loss),
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_start_at_their_thresholds() {
        use Mark::*;
        let got: Vec<_> = [0.0, 0.0199, 0.02, 0.0499, 0.05, 0.0999, 0.1, 0.7]
            .map(Mark::of_loss)
            .into();
        assert_eq!(
            got,
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
        assert_eq!(serde_json::to_value(Blunder).unwrap(), "blunder");
    }

    #[test]
    fn the_budget_is_checked() {
        let r = AnalyseRequest::new();
        assert_eq!(
            r.time_budget(),
            Some(Duration::from_secs_f64(DEFAULT_ANALYSE_SECONDS))
        );
        assert_eq!(r.node_budget(), Some(DEFAULT_ANALYSE_MAX_NODES));
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            let e = r.time(Some(bad)).unwrap_err();
            assert!(matches!(e, AnalyseError::Time(_)), "{bad}");
        }
        assert_eq!(
            r.time(Some(0.5)).unwrap().time_budget(),
            Some(Duration::from_millis(500))
        );
        assert_eq!(r.time(None).unwrap().time_budget(), None);
        assert_eq!(r.max_nodes(Some(0)).node_budget(), None);
        assert_eq!(
            AnalyseError::Time(0.0).to_string(),
            "--time 0: the time per decision must be a positive number of seconds"
        );
    }
}
