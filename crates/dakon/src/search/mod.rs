//! Exact Dakon search: MTD(f) over a fail-soft alpha-beta with a shared
//! transposition table (`search/tt.rs`), solving every root move exactly, root
//! moves in parallel.
//!
//! The value of a position (docs/rules.md §2.3) is its store difference plus its
//! **future margin**: what the side to move will still gain over the
//! opponent from the seeds on the board. The search works on future margins
//! only, so positions differing only in their stores share table entries.
//! Going from a position to a child gains `d` (the change of the store
//! difference, mover's view); a bonus move keeps the side to move, so its
//! child's margin is added (`d + f(child)`), any other move hands the turn
//! over and the child's margin is negated (`d - f(child)`). The game graph is
//! acyclic, so no repetition handling is needed and there is no horizon:
//! every search goes to the end of the game (or to a database probe).
//!
//! Move ordering: the table's best move first (it refuted this window
//! before), then bonus moves (the mover keeps the initiative), then by the
//! seeds the move banks at once (captures, sowing into the store), a move
//! that ends the game scored by its final result. MTD(f)'s first guess comes
//! from a 4-ply heuristic search ([`estimate`]). Positions with few seeds on
//! the board can be answered by a [`Probe`] (the retrograde databases).
//!
//! Threads: each root move is solved exactly (its own MTD(f)), root moves in
//! parallel on rayon, all sharing one table. A table entry is a proved
//! bound that holds whoever stored it, so the values and best moves never
//! depend on the thread count or on timing; only the work counters do.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use dalkon_rules::dakon::{Position, Rules};
use rayon::prelude::*;

pub mod answer;
pub mod proof;
pub mod tt;

use tt::{bytes_per_entry, work_of, PackedKey, Table};

/// An exact oracle for positions with few seeds on the board (the
/// retrograde databases): the future margin for the side to move, or `None`
/// when the position is not covered.
pub trait Probe: Sync {
    /// Future margin for the side to move (final store difference minus the
    /// current one) under perfect play, if known.
    fn probe(&self, pos: &Position) -> Option<i32>;
}

impl<F> Probe for F
where
    F: Fn(&Position) -> Option<i32> + Sync,
{
    fn probe(&self, pos: &Position) -> Option<i32> {
        self(pos)
    }
}

/// Resource limits of one search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Memory budget of the transposition table in bytes.
    pub tt_bytes: usize,
    /// Stop (with [`SearchError::NodeLimit`]) after about this many nodes.
    pub max_nodes: Option<u64>,
    /// Stop (with [`SearchError::NodeLimit`]) after about this long.
    pub time: Option<std::time::Duration>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            tt_bytes: 256 << 20,
            max_nodes: None,
            time: None,
        }
    }
}

/// Why a search did not produce a value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// The node or time budget (`Limits::max_nodes`, `Limits::time`) ran
    /// out before the proof ended.
    #[error("the search stopped after {nodes} nodes, its limit, before proving a value")]
    NodeLimit {
        /// Nodes searched when it stopped.
        nodes: u64,
    },
    /// A proof's strategy grew past the lines allowed (`prove`'s limit).
    #[error("the proof's strategy needs more than {max} lines, its limit")]
    ProofTooLarge {
        /// The limit.
        max: u64,
    },
    /// No pool of search threads: a bad `RAYON_NUM_THREADS`, or the system
    /// refused the threads.
    #[error(transparent)]
    Threads(#[from] crate::threads::ThreadsError),
    /// The table budget is below the smallest usable table.
    #[error("a transposition table of {bytes} bytes is too small (at least {min} bytes)")]
    TableTooSmall {
        /// Requested bytes.
        bytes: usize,
        /// Smallest accepted.
        min: usize,
    },
}

/// What a search proves about the root's moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Goal {
    /// The exact value of every root move (what `best` lists).
    #[default]
    EveryMove,
    /// The root's value and every move that reaches it; the other moves are
    /// only proved to fall short (an upper bound each). Much less work on a
    /// big board: a move that is not best is refuted, never solved.
    BestMoves,
}

/// Live counters a caller may poll (e.g. for a progress bar) while a search
/// runs in another thread.
#[derive(Debug, Default)]
pub struct SearchProgress {
    /// Nodes searched so far (updated every few thousand nodes).
    pub nodes: AtomicU64,
    /// Root moves solved so far.
    pub roots_done: AtomicU64,
    /// Root moves in all.
    pub roots_total: AtomicU64,
    /// The proved bounds on the root's value (final store difference for
    /// the side to move) so far, packed by [`pack_bounds`]; 0 before the
    /// first pass of a best-moves search ends.
    pub bounds: AtomicU64,
    /// Set by the caller to end the search early (e.g. on Ctrl-C): the
    /// search then stops as when its time runs out, within a few thousand
    /// nodes of every thread, and answers as it would then.
    pub stop: AtomicBool,
}

/// Two bounds in one word, for [`SearchProgress::bounds`].
pub fn pack_bounds(lower: i32, upper: i32) -> u64 {
    (1 << 63) | (u64::from(lower as u32 as u16) << 16) | u64::from(upper as u32 as u16)
}

/// The bounds of [`pack_bounds`], or `None` for none yet.
pub fn unpack_bounds(word: u64) -> Option<(i32, i32)> {
    (word >> 63 == 1).then(|| {
        (
            i32::from((word >> 16) as u16 as i16),
            i32::from(word as u16 as i16),
        )
    })
}

/// The result of an exact search.
///
/// Counters: `nodes` counts every call of the alpha-beta function (each
/// MTD(f) pass re-enters positions, each visit counts); `positions` counts
/// the distinct positions stored in the transposition table — positions
/// with their stores factored out and seen from the side to move, so the
/// same rows with either side to move are one position; a position dropped
/// by a table sweep and searched again counts again (`tt_sweeps` says
/// whether that happened). Positions answered by a database probe and
/// finished games are not stored and not counted in `positions`.
#[derive(Debug, Clone, PartialEq)]
pub struct SolveResult {
    /// Final store difference, side to move minus opponent, under perfect
    /// play (docs/rules.md §2.3), stores already banked included.
    pub value: i32,
    /// Every move reaching `value`, ascending.
    pub best_moves: Vec<usize>,
    /// Every legal move with its exact value (same meaning as `value`);
    /// under [`Goal::BestMoves`] only the best moves.
    pub moves: Vec<(usize, i32)>,
    /// Under [`Goal::BestMoves`]: every move that is not best, with a proved
    /// upper bound on its value (below `value`); empty under
    /// [`Goal::EveryMove`].
    pub refuted: Vec<(usize, i32)>,
    /// Distinct positions searched (see above).
    pub positions: u64,
    /// Alpha-beta calls.
    pub nodes: u64,
    /// Table lookups that found an entry.
    pub tt_hits: u64,
    /// Table lookups in all.
    pub tt_probes: u64,
    /// Positions answered by the database probe.
    pub probe_hits: u64,
    /// Times a full table shard was swept.
    pub tt_sweeps: u64,
    /// Null-window searches made by MTD(f) (all root moves together).
    pub passes: u64,
    /// Table capacity in entries.
    pub tt_capacity: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// Transposition-table bytes needed for `entries` entries on a board of
/// `holes` holes per row.
pub fn tt_bytes_for(holes: usize, entries: usize) -> usize {
    if holes <= u128::MAX_HOLES {
        entries * bytes_per_entry::<u128>()
    } else if holes <= <[u128; 2]>::MAX_HOLES {
        entries * bytes_per_entry::<[u128; 2]>()
    } else {
        entries * bytes_per_entry::<[u64; 8]>()
    }
}

/// Smallest accepted table budget in bytes.
pub fn min_tt_bytes(holes: usize) -> usize {
    tt_bytes_for(holes, Table::<u128>::MIN_ENTRIES)
}

/// Solve `pos` exactly: its value and best moves, and under
/// [`Goal::EveryMove`] every root move's value.
///
/// `probe`, when given, is trusted for every position it answers.
/// `progress`, when given, is updated while the search runs. Threads: the
/// current rayon pool's thread count (the answer does not depend on it).
pub fn solve(
    pos: &Position,
    rules: &Rules,
    limits: &Limits,
    probe: Option<&dyn Probe>,
    progress: Option<&SearchProgress>,
    goal: Goal,
) -> Result<SolveResult, SearchError> {
    let start = Instant::now();
    let mut r = with_engine(pos, rules, limits, probe, progress, SolveJob { pos, goal })?;
    r.seconds = start.elapsed().as_secs_f64();
    Ok(r)
}

/// Work done with a search engine whose key and move-list types suit the
/// board (see [`with_engine`]).
pub(crate) trait Job {
    /// What the work returns.
    type Out;
    /// Do the work with `engine` (on a pool with deep stacks).
    fn run<K: PackedKey, const W: usize>(
        self,
        engine: &Engine<'_, K, W>,
    ) -> Result<Self::Out, SearchError>;
}

/// Run `job` with a fresh table sized by `limits`, on the current pool's
/// thread count with stacks deep enough for the longest games. The key type
/// and the width of the move list follow the board: the move list is a
/// stack array filled at every node, so a narrow board must not pay for the
/// widest.
pub(crate) fn with_engine<J: Job + Send>(
    pos: &Position,
    rules: &Rules,
    limits: &Limits,
    probe: Option<&dyn Probe>,
    progress: Option<&SearchProgress>,
    job: J,
) -> Result<J::Out, SearchError>
where
    J::Out: Send,
{
    with_table(pos, rules, limits, probe, progress, None, job)
}

/// [`with_engine`] with the table of a [`answer::Session`] (kept between
/// searches) instead of a fresh one, when given; it must suit the board.
pub(crate) fn with_table<J: Job + Send>(
    pos: &Position,
    rules: &Rules,
    limits: &Limits,
    probe: Option<&dyn Probe>,
    progress: Option<&SearchProgress>,
    table: Option<&answer::AnyTable>,
    job: J,
) -> Result<J::Out, SearchError>
where
    J::Out: Send,
{
    let min = min_tt_bytes(pos.holes());
    if limits.tt_bytes < min {
        return Err(SearchError::TableTooSmall {
            bytes: limits.tt_bytes,
            min,
        });
    }
    // As many workers as the pool the caller runs on (validated where it
    // was built), with deeper stacks.
    let threads = crate::threads::current_threads()?;
    let pool = crate::threads::pool(threads, Some(256 << 20))?;
    pool.install(|| {
        use answer::AnyTable;
        match table {
            Some(AnyTable::Narrow(t)) => {
                keyed::<K8, 8, J>(rules, limits, probe, progress, Some(t), job)
            }
            Some(AnyTable::Middle(t)) => {
                keyed::<[u128; 2], 16, J>(rules, limits, probe, progress, Some(t), job)
            }
            Some(AnyTable::Wide(t)) => {
                keyed::<[u64; 8], 32, J>(rules, limits, probe, progress, Some(t), job)
            }
            None if pos.holes() <= u128::MAX_HOLES => {
                keyed::<K8, 8, J>(rules, limits, probe, progress, None, job)
            }
            None if pos.holes() <= <[u128; 2]>::MAX_HOLES => {
                keyed::<[u128; 2], 16, J>(rules, limits, probe, progress, None, job)
            }
            None => keyed::<[u64; 8], 32, J>(rules, limits, probe, progress, None, job),
        }
    })
}

type K8 = u128;

/// [`with_engine`] with keys `K` and move lists of `W` moves.
fn keyed<K: PackedKey, const W: usize, J: Job>(
    rules: &Rules,
    limits: &Limits,
    probe: Option<&dyn Probe>,
    progress: Option<&SearchProgress>,
    table: Option<&Table<K>>,
    job: J,
) -> Result<J::Out, SearchError> {
    let own;
    let table = match table {
        Some(t) => t,
        None => {
            own = Table::<K>::with_bytes(limits.tt_bytes);
            &own
        }
    };
    let local_progress = SearchProgress::default();
    let engine = Engine::<K, W> {
        rules: *rules,
        tt: table,
        probe,
        progress: progress.unwrap_or(&local_progress),
        abort: AtomicBool::new(false),
        max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
        deadline: limits.time.map(|t| Instant::now() + t),
        tt_hits: AtomicU64::new(0),
        tt_probes: AtomicU64::new(0),
        probe_hits: AtomicU64::new(0),
        nodes: AtomicU64::new(0),
        passes: AtomicU64::new(0),
    };
    job.run(&engine)
}

/// The root search of [`solve`].
struct SolveJob<'p> {
    pos: &'p Position,
    goal: Goal,
}

impl Job for SolveJob<'_> {
    type Out = SolveResult;
    fn run<K: PackedKey, const W: usize>(
        self,
        engine: &Engine<'_, K, W>,
    ) -> Result<SolveResult, SearchError> {
        let pos = self.pos;
        assert!(
            pos.holes() <= W && W <= K::MAX_HOLES,
            "a board of {} holes searched with move lists of {W} and keys of {}",
            pos.holes(),
            K::MAX_HOLES
        );
        let root = match self.goal {
            Goal::EveryMove => engine.every_move(pos),
            Goal::BestMoves => engine.best_moves(pos),
        }?;
        if root.partial.is_some() {
            engine.check_abort()?;
        }
        Ok(engine.result(pos, root))
    }
}

/// What the root search found, in future margins of the root (mover's view).
pub(crate) struct Root {
    /// The root's future margin.
    pub margin: i32,
    /// Moves with their exact margins.
    pub exact: Vec<(usize, i32)>,
    /// Moves proved below `margin`, with an upper bound each.
    pub refuted: Vec<(usize, i32)>,
    /// `None` when the search finished; otherwise it ran out of budget and
    /// this holds each move's proved (lower, upper) bounds on its margin.
    pub partial: Option<Vec<(usize, i32, i32)>>,
}

/// The exact future margin of `pos` for its side to move (0 for a finished
/// game after the sweep). A convenience for tests and tools; single thread.
pub fn future_margin(
    pos: &Position,
    rules: &Rules,
    limits: &Limits,
    probe: Option<&dyn Probe>,
) -> Result<i32, SearchError> {
    let r = solve(pos, rules, limits, probe, None, Goal::BestMoves)?;
    Ok(r.value - pos.store_diff())
}

/// Plies of the shallow search that gives MTD(f) its first guess.
const GUESS_DEPTH: u32 = 4;

/// Nodes the first-guess estimate may visit at each MTD(f) start: 4 plies
/// on a 7-hole board take about 2,400, on a 32-hole board about a million;
/// past the bound the guess comes from fewer plies (only the work changes,
/// never the value).
const GUESS_MAX_NODES: u64 = 20_000;

/// Nodes the fallback estimate of an unfinished answer may visit
/// ([`estimate_within`]): about 0.1 s on a 32-hole board. 6 plies of a
/// 7-hole board (about 120,000 nodes) fit; on wider boards the estimate is
/// as deep as fits.
pub const ESTIMATE_MAX_NODES: u64 = 1_000_000;

/// A heuristic future margin: plain negamax `depth` plies deep (a bonus
/// move counts as a ply), counting only the seeds banked on the way.
/// Exact when the game ends within the horizon. Its work grows as the
/// number of moves to the power `depth` (a million positions at 4 plies of
/// a 32-hole board): [`estimate_within`] bounds it.
pub fn estimate(pos: &Position, rules: &Rules, depth: u32) -> i32 {
    let mut nodes = 0;
    estimate_counted(pos, rules, depth, &mut nodes, u64::MAX).unwrap_or(0)
}

/// [`estimate`], counting the positions visited in `nodes`; `None` when
/// the next would make them more than `limit` (so `nodes` stays at most
/// `limit`).
fn estimate_counted(
    pos: &Position,
    rules: &Rules,
    depth: u32,
    nodes: &mut u64,
    limit: u64,
) -> Option<i32> {
    if *nodes >= limit {
        return None;
    }
    *nodes += 1;
    if let Some(t) = pos.terminal_value() {
        return Some(t - pos.store_diff());
    }
    if depth == 0 {
        return Some(0);
    }
    let mut best = i32::MIN;
    for h in pos.moves() {
        let child = pos.play_unchecked(h, rules);
        let step = Step::new(pos, &child);
        let v = if step.over {
            step.value(step.terminal)
        } else {
            step.value(estimate_counted(&child, rules, depth - 1, nodes, limit)?)
        };
        best = best.max(v);
    }
    Some(best)
}

/// The margin of the deepest [`estimate`] of `pos`, from `max_depth` plies
/// down, that visits at most `max_nodes` positions (0 plies, i.e. 0, when
/// none does). MTD(f)'s first guess: it only changes the work.
fn estimate_margin_within(pos: &Position, rules: &Rules, max_depth: u32, max_nodes: u64) -> i32 {
    (1..=max_depth)
        .rev()
        .find_map(|depth| estimate_counted(pos, rules, depth, &mut 0, max_nodes))
        .unwrap_or(0)
}

/// Heuristic values of every move of `pos` (not over) by [`estimate`]
/// `depth` plies deep: (move, store difference plus estimated margin).
/// Unbounded work: see [`estimate_within`].
pub fn estimate_moves(pos: &Position, rules: &Rules, depth: u32) -> Vec<(usize, i32)> {
    estimate_moves_counted(pos, rules, depth, &mut 0, u64::MAX).unwrap_or_default()
}

/// [`estimate_moves`] counting as [`estimate_counted`] does (every child
/// once).
fn estimate_moves_counted(
    pos: &Position,
    rules: &Rules,
    depth: u32,
    nodes: &mut u64,
    limit: u64,
) -> Option<Vec<(usize, i32)>> {
    let base = pos.store_diff();
    pos.moves()
        .map(|h| {
            let child = pos.play_unchecked(h, rules);
            let step = Step::new(pos, &child);
            let m = if step.over {
                if *nodes >= limit {
                    return None;
                }
                *nodes += 1;
                step.value(step.terminal)
            } else {
                let d = depth.saturating_sub(1);
                step.value(estimate_counted(&child, rules, d, nodes, limit)?)
            };
            Some((h, base + m))
        })
        .collect()
}

/// The estimate of every move within a node budget ([`estimate_within`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Estimate {
    /// (move, store difference plus estimated margin), every legal move,
    /// ascending; empty when the game is over.
    pub moves: Vec<(usize, i32)>,
    /// Plies of the deepest estimate that finished within the budget (at
    /// least 1, at most `max_depth` when that is more than 0).
    pub depth: u32,
    /// Positions visited, every depth tried included.
    pub nodes: u64,
}

/// [`estimate_moves`] by iterative deepening from 1 ply up to `max_depth`,
/// stopping at the first depth that would take the positions visited in
/// all (every depth tried counted) past `max_nodes`: the moves of the
/// deepest estimate that finished. One ply (one node per legal move, at
/// most 32) is always done, so `nodes` is at most `max_nodes.max(32)`. A
/// pure function of its arguments: the same answer on every run, whatever
/// the thread count.
pub fn estimate_within(pos: &Position, rules: &Rules, max_depth: u32, max_nodes: u64) -> Estimate {
    let mut nodes = 0;
    let mut best = Estimate {
        moves: estimate_moves_counted(pos, rules, 1, &mut nodes, u64::MAX).unwrap_or_default(),
        depth: 1,
        nodes: 0,
    };
    for depth in 2..=max_depth {
        match estimate_moves_counted(pos, rules, depth, &mut nodes, max_nodes) {
            Some(moves) => {
                best.moves = moves;
                best.depth = depth;
            }
            None => break,
        }
    }
    best.nodes = nodes;
    best
}

/// Per-thread counters, flushed into the engine's atomics now and then.
#[derive(Default)]
struct Counters {
    nodes: u64,
    unflushed: u64,
    tt_hits: u64,
    tt_probes: u64,
    probe_hits: u64,
}

/// One move seen from the mover: the store difference it gains and whether
/// the mover moves again.
#[derive(Clone, Copy)]
struct Step {
    gain: i32,
    same_side: bool,
    over: bool,
    /// Future margin of a finished child, child's view (0 after a sweep).
    terminal: i32,
}

impl Step {
    #[inline]
    fn new(parent: &Position, child: &Position) -> Step {
        let me = parent.side_to_move();
        let other = me.other();
        let gain = (i32::from(child.store(me)) - i32::from(parent.store(me)))
            - (i32::from(child.store(other)) - i32::from(parent.store(other)));
        let over = child.is_over();
        let terminal = match child.terminal_value() {
            Some(v) => v - child.store_diff(),
            None => 0,
        };
        Step {
            gain,
            same_side: child.side_to_move() == me,
            over,
            terminal,
        }
    }

    /// The parent's future margin through this move, given the child's.
    #[inline]
    fn value(&self, child_margin: i32) -> i32 {
        if self.same_side {
            self.gain + child_margin
        } else {
            self.gain - child_margin
        }
    }

    /// The child's window for the parent's window `(alpha, beta)`.
    #[inline]
    fn window(&self, alpha: i32, beta: i32) -> (i32, i32) {
        if self.same_side {
            (alpha - self.gain, beta - self.gain)
        } else {
            (self.gain - beta, self.gain - alpha)
        }
    }
}

/// One search: the rules, the shared table, the probe and the counters.
pub(crate) struct Engine<'a, K: PackedKey, const W: usize> {
    rules: Rules,
    tt: &'a Table<K>,
    probe: Option<&'a dyn Probe>,
    progress: &'a SearchProgress,
    abort: AtomicBool,
    max_nodes: u64,
    deadline: Option<Instant>,
    tt_hits: AtomicU64,
    tt_probes: AtomicU64,
    probe_hits: AtomicU64,
    nodes: AtomicU64,
    passes: AtomicU64,
}

/// Nodes a thread searches between looks at the shared count and clock.
const FLUSH_EVERY: u64 = 4096;

/// How far past its node budget a search on `threads` worker threads may
/// go: each thread may have up to [`FLUSH_EVERY`] nodes not yet counted
/// when the budget is seen to be spent, and each root move still to start
/// visits one node before it sees that (at most 32 moves). Once the budget
/// is spent no node searches another child.
pub fn node_overshoot(threads: usize) -> u64 {
    threads as u64 * FLUSH_EVERY + dalkon_rules::dakon::MAX_HOLES as u64
}

impl<K: PackedKey, const W: usize> Engine<'_, K, W> {
    fn flush(&self, c: &mut Counters) {
        let total = self.nodes.fetch_add(c.unflushed, Ordering::Relaxed) + c.unflushed;
        self.progress
            .nodes
            .fetch_add(c.unflushed, Ordering::Relaxed);
        self.tt_hits.fetch_add(c.tt_hits, Ordering::Relaxed);
        self.tt_probes.fetch_add(c.tt_probes, Ordering::Relaxed);
        self.probe_hits.fetch_add(c.probe_hits, Ordering::Relaxed);
        c.unflushed = 0;
        c.tt_hits = 0;
        c.tt_probes = 0;
        c.probe_hits = 0;
        if total >= self.max_nodes
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.progress.stop.load(Ordering::Relaxed)
        {
            self.abort.store(true, Ordering::Relaxed);
        }
    }

    /// Root search for [`Goal::EveryMove`]: each root move solved exactly
    /// by its own MTD(f), root moves in parallel.
    fn every_move(&self, pos: &Position) -> Result<Root, SearchError> {
        let Some(kids) = self.root_kids(pos) else {
            return Ok(Root {
                margin: pos.terminal_value().unwrap() - pos.store_diff(),
                exact: Vec::new(),
                refuted: Vec::new(),
                partial: None,
            });
        };
        let exact: Vec<(usize, i32)> = kids
            .par_iter()
            .map(|&(h, child, step)| {
                let mut c = Counters::default();
                let v = if step.over {
                    step.value(step.terminal)
                } else {
                    step.value(self.exact(&mut c, &child))
                };
                self.flush(&mut c);
                self.progress.roots_done.fetch_add(1, Ordering::Relaxed);
                (h, v)
            })
            .collect();
        self.check_abort()?;
        let margin = exact
            .iter()
            .map(|m| m.1)
            .max()
            .expect("a position not over has a move");
        Ok(Root {
            margin,
            exact,
            refuted: Vec::new(),
            partial: None,
        })
    }

    /// Root search for [`Goal::BestMoves`]: MTD(f) on the root from the top.
    ///
    /// Every root move keeps proved bounds. A pass tests, in parallel, every
    /// move whose upper bound reaches the largest upper bound `g` (and whose
    /// lower bound does not): "is this move worth at least `g`?". A move
    /// that fails gets a lower upper bound (fail-soft), one that succeeds is
    /// worth exactly `g`, since no move is worth more. When no move is left
    /// untested at `g`, `g` is the value and the moves at `g` are every best
    /// move. Starting from the top costs nothing at the root when the value
    /// is the largest possible (every seed), which the biggest boards reach,
    /// and each pass only refutes or proves what the best-move list needs.
    pub(crate) fn best_moves(&self, pos: &Position) -> Result<Root, SearchError> {
        let Some(kids) = self.root_kids(pos) else {
            return Ok(Root {
                margin: pos.terminal_value().unwrap() - pos.store_diff(),
                exact: Vec::new(),
                refuted: Vec::new(),
                partial: None,
            });
        };
        // (lower, upper) of each move's margin, from the child's own bounds.
        let mut bounds: Vec<(i32, i32)> = kids
            .iter()
            .map(|&(_, child, step)| {
                if step.over {
                    let v = step.value(step.terminal);
                    (v, v)
                } else {
                    let (mut lo, mut hi) = (
                        -(child.seeds_on_board() as i32),
                        child.seeds_on_board() as i32,
                    );
                    if let Some(e) = self.tt.get(&K::pack(&child)) {
                        lo = lo.max(i32::from(e.lower));
                        hi = hi.min(i32::from(e.upper));
                    }
                    let (a, b) = (step.value(lo), step.value(hi));
                    (a.min(b), a.max(b))
                }
            })
            .collect();
        loop {
            let g = bounds
                .iter()
                .map(|b| b.1)
                .max()
                .expect("a position not over has a move");
            let pending: Vec<usize> = (0..kids.len())
                .filter(|&i| bounds[i].1 >= g && bounds[i].0 < g)
                .collect();
            if pending.is_empty() {
                let mut exact = Vec::new();
                let mut refuted = Vec::new();
                for (&(h, _, _), &(_, hi)) in kids.iter().zip(&bounds) {
                    if hi >= g {
                        exact.push((h, g))
                    } else {
                        refuted.push((h, hi))
                    }
                }
                self.progress
                    .roots_done
                    .store(kids.len() as u64, Ordering::Relaxed);
                return Ok(Root {
                    margin: g,
                    exact,
                    refuted,
                    partial: None,
                });
            }
            let results: Vec<i32> = pending
                .par_iter()
                .map(|&i| {
                    let (_, child, step) = kids[i];
                    let mut c = Counters::default();
                    let (a, b) = step.window(g - 1, g);
                    let v = step.value(self.alpha_beta(&mut c, &child, a, b));
                    self.flush(&mut c);
                    v
                })
                .collect();
            self.passes.fetch_add(1, Ordering::Relaxed);
            if self.abort.load(Ordering::Relaxed) {
                // The pass did not finish: keep what the earlier ones proved.
                let lower = bounds.iter().map(|b| b.0).max().unwrap_or(0);
                return Ok(Root {
                    margin: lower,
                    exact: Vec::new(),
                    refuted: Vec::new(),
                    partial: Some(
                        kids.iter()
                            .zip(&bounds)
                            .map(|(&(h, _, _), &(lo, hi))| (h, lo, hi))
                            .collect(),
                    ),
                });
            }
            for (&i, &v) in pending.iter().zip(&results) {
                if v >= g {
                    bounds[i].0 = g;
                } else {
                    bounds[i].1 = v;
                }
            }
            let lower = bounds.iter().map(|b| b.0).max().unwrap_or(0);
            let upper = bounds.iter().map(|b| b.1).max().unwrap_or(0);
            self.progress.bounds.store(
                pack_bounds(pos.store_diff() + lower, pos.store_diff() + upper),
                Ordering::Relaxed,
            );
            let done = bounds.iter().filter(|b| b.0 == b.1 || b.1 < g).count();
            self.progress
                .roots_done
                .store(done as u64, Ordering::Relaxed);
        }
    }

    /// The root's moves with their children, or `None` when the game is over.
    fn root_kids(&self, pos: &Position) -> Option<Vec<(usize, Position, Step)>> {
        if pos.is_over() {
            return None;
        }
        let kids: Vec<_> = pos
            .moves()
            .map(|h| {
                let child = pos.play_unchecked(h, &self.rules);
                (h, child, Step::new(pos, &child))
            })
            .collect();
        self.progress
            .roots_total
            .store(kids.len() as u64, Ordering::Relaxed);
        Some(kids)
    }

    fn check_abort(&self) -> Result<(), SearchError> {
        if self.abort.load(Ordering::Relaxed) {
            Err(SearchError::NodeLimit {
                nodes: self.nodes.load(Ordering::Relaxed),
            })
        } else {
            Ok(())
        }
    }

    /// The answer for `pos` from its root search.
    pub(crate) fn result(&self, pos: &Position, root: Root) -> SolveResult {
        let base = pos.store_diff();
        let value = base + root.margin;
        let moves: Vec<(usize, i32)> = root.exact.iter().map(|&(h, m)| (h, base + m)).collect();
        let best_moves = moves.iter().filter(|m| m.1 == value).map(|m| m.0).collect();
        SolveResult {
            value,
            best_moves,
            moves,
            refuted: root.refuted.iter().map(|&(h, m)| (h, base + m)).collect(),
            positions: self.tt.inserted(),
            nodes: self.nodes.load(Ordering::Relaxed),
            tt_hits: self.tt_hits.load(Ordering::Relaxed),
            tt_probes: self.tt_probes.load(Ordering::Relaxed),
            probe_hits: self.probe_hits.load(Ordering::Relaxed),
            tt_sweeps: self.tt.sweeps(),
            passes: self.passes.load(Ordering::Relaxed),
            tt_capacity: self.tt.capacity() as u64,
            seconds: 0.0,
        }
    }

    /// Whether the future margin of `pos` (not over) is at least `x`: one
    /// null-window search, its fail-soft bound returned (`>= x` means yes).
    pub(crate) fn test(&self, pos: &Position, x: i32) -> Result<i32, SearchError> {
        let mut c = Counters::default();
        let v = self.alpha_beta(&mut c, pos, x - 1, x);
        self.flush(&mut c);
        self.check_abort()?;
        Ok(v)
    }

    /// Exact future margin of a position (game not over) by MTD(f).
    fn exact(&self, c: &mut Counters, pos: &Position) -> i32 {
        if let Some(t) = pos.terminal_value() {
            return t - pos.store_diff();
        }
        let s = pos.seeds_on_board() as i32;
        let (mut lo, mut hi) = (-s, s);
        let mut g = estimate_margin_within(pos, &self.rules, GUESS_DEPTH, GUESS_MAX_NODES);
        if let Some(e) = self.tt.get(&K::pack(pos)) {
            lo = lo.max(i32::from(e.lower));
            hi = hi.min(i32::from(e.upper));
            g = g.clamp(lo, hi);
        }
        while lo < hi {
            let beta = if g == lo { g + 1 } else { g };
            g = self.alpha_beta(c, pos, beta - 1, beta);
            self.passes.fetch_add(1, Ordering::Relaxed);
            if self.abort.load(Ordering::Relaxed) {
                return 0;
            }
            if g < beta {
                hi = g;
            } else {
                lo = g;
            }
        }
        lo
    }

    /// Fail-soft alpha-beta on the future margin of `pos` (not over).
    fn alpha_beta(&self, c: &mut Counters, pos: &Position, mut alpha: i32, mut beta: i32) -> i32 {
        c.nodes += 1;
        c.unflushed += 1;
        if c.unflushed >= FLUSH_EVERY {
            self.flush(c);
        }
        if self.abort.load(Ordering::Relaxed) {
            return 0;
        }
        if let Some(p) = self.probe {
            if let Some(v) = p.probe(pos) {
                c.probe_hits += 1;
                return v;
            }
        }
        let s = pos.seeds_on_board() as i32;
        let key = K::pack(pos);
        let (mut lo, mut hi) = (-s, s);
        let mut tt_move = 0usize;
        c.tt_probes += 1;
        if let Some(e) = self.tt.get(&key) {
            c.tt_hits += 1;
            lo = lo.max(i32::from(e.lower));
            hi = hi.min(i32::from(e.upper));
            tt_move = usize::from(e.best);
        }
        if lo >= beta {
            return lo;
        }
        if hi <= alpha {
            return hi;
        }
        if lo == hi {
            return lo;
        }
        alpha = alpha.max(lo);
        beta = beta.min(hi);
        let alpha0 = alpha;
        let nodes0 = c.nodes;

        let mut best = i32::MIN;
        let mut best_move = 0usize;
        // Search one move; true when it cuts off.
        let mut try_move = |c: &mut Counters, h: usize, child: &Position, step: &Step| -> bool {
            let v = if step.over {
                step.value(step.terminal)
            } else {
                let (a, b) = step.window(alpha, beta);
                step.value(self.alpha_beta(c, child, a, b))
            };
            if v > best {
                best = v;
                best_move = h;
                if v > alpha {
                    alpha = v;
                    return alpha >= beta;
                }
            }
            false
        };

        // The table's move first, before the others are generated: when it
        // cuts off (it refuted this window before), they never are.
        let tt_move = if tt_move != 0 && pos.pit(pos.side_to_move(), tt_move) > 0 {
            let child = pos.play_unchecked(tt_move, &self.rules);
            let step = Step::new(pos, &child);
            if try_move(c, tt_move, &child, &step) {
                return self.finish(c, key, nodes0, alpha0, lo, hi, beta, best, best_move);
            }
            tt_move
        } else {
            0
        };

        // Then the others: bonus moves first, then by the seeds banked.
        let mut kids: [(i32, usize, Position, Step); W] = [(
            0,
            0,
            *pos,
            Step {
                gain: 0,
                same_side: false,
                over: false,
                terminal: 0,
            },
        ); W];
        let mut len = 0;
        for h in pos.moves().filter(|&h| h != tt_move) {
            let child = pos.play_unchecked(h, &self.rules);
            let step = Step::new(pos, &child);
            let mut score = step.gain;
            if step.over {
                score += step.value(step.terminal) - step.gain;
            }
            if step.same_side && !step.over {
                score += 1 << 12;
            }
            // Insertion into the sorted prefix, highest score first.
            let mut i = len;
            while i > 0 && kids[i - 1].0 < score {
                kids[i] = kids[i - 1];
                i -= 1;
            }
            kids[i] = (score, h, child, step);
            len += 1;
        }
        for (_, h, child, step) in &kids[..len] {
            // Spent budget: no more children (each would count a node).
            if self.abort.load(Ordering::Relaxed) || try_move(c, *h, child, step) {
                break;
            }
        }
        self.finish(c, key, nodes0, alpha0, lo, hi, beta, best, best_move)
    }

    /// Store what a node found and return its fail-soft value.
    #[allow(clippy::too_many_arguments)] // the node's state, passed once from two exits
    #[inline]
    fn finish(
        &self,
        c: &Counters,
        key: K,
        nodes0: u64,
        alpha0: i32,
        lo: i32,
        hi: i32,
        beta: i32,
        best: i32,
        best_move: usize,
    ) -> i32 {
        if self.abort.load(Ordering::Relaxed) {
            return 0;
        }
        let work = work_of(c.nodes - nodes0);
        let (l, u) = if best <= alpha0 {
            (lo, best)
        } else if best >= beta {
            (best, hi)
        } else {
            (best, best)
        };
        self.tt
            .store(key, l as i16, u as i16, best_move as u8, work);
        best
    }
}

/// The retrograde databases answer every position of their board with at
/// most `max_k` seeds on the board.
impl Probe for crate::retro::Databases {
    #[inline]
    fn probe(&self, pos: &Position) -> Option<i32> {
        crate::retro::Databases::probe(self, pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dalkon_rules::dakon::Side;

    /// One thread, so that the work counters are deterministic.
    fn keyed<K: PackedKey, const W: usize>(pos: &Position, rules: &Rules) -> SolveResult {
        let limits = Limits {
            tt_bytes: 64 << 20,
            max_nodes: None,
            time: None,
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let job = SolveJob {
            pos,
            goal: Goal::EveryMove,
        };
        pool.install(|| super::keyed::<K, W, _>(rules, &limits, None, None, None, job).unwrap())
    }

    fn same(a: &SolveResult, b: &SolveResult) -> bool {
        (a.value, &a.moves, a.nodes, a.positions, a.passes)
            == (b.value, &b.moves, b.nodes, b.positions, b.passes)
    }

    /// The wide key and move list (used from 17 holes on) search narrow
    /// boards exactly like the narrow ones: same values and, with no
    /// sweeps, the very same nodes, so the key packs the same positions
    /// apart and the move order does not depend on the list's width.
    #[test]
    fn every_key_width_does_the_same_search() {
        let rules = Rules::default();
        let mut boards = vec![
            Position::start(4, 3).unwrap(),
            Position::start(5, 2).unwrap(),
            Position::start(8, 1).unwrap(),
        ];
        boards.push(
            Position::new(
                &[0, 3, 0, 1, 2, 0, 0, 1],
                &[1, 0, 2, 0, 0, 3, 1, 0],
                [4, 2],
                Side::North,
            )
            .unwrap(),
        );
        for pos in &boards {
            let narrow = keyed::<u128, 8>(pos, &rules);
            let middle = keyed::<[u128; 2], 16>(pos, &rules);
            let wide = keyed::<[u64; 8], 32>(pos, &rules);
            assert_eq!(narrow.tt_sweeps, 0);
            assert!(same(&narrow, &middle), "{pos}: {narrow:?} vs {middle:?}");
            assert!(same(&narrow, &wide), "{pos}: {narrow:?} vs {wide:?}");
        }
        let pos = Position::new(
            &[0, 2, 0, 1, 0, 0, 3, 0, 1, 1],
            &[1, 0, 0, 2, 1, 0, 0, 1, 0, 2],
            [0, 0],
            Side::South,
        )
        .unwrap();
        let middle = keyed::<[u128; 2], 16>(&pos, &rules);
        let wide = keyed::<[u64; 8], 32>(&pos, &rules);
        assert_eq!(middle.tt_sweeps, 0);
        assert!(same(&middle, &wide), "{pos}: {middle:?} vs {wide:?}");
    }

    #[test]
    fn keys_tell_positions_apart_in_every_word() {
        // A seed in hole i of either row lands in its own byte of the key.
        for n in [8usize, 16, 32] {
            let mut keys = std::collections::HashSet::new();
            for row in 0..2 {
                for i in 0..n {
                    let mut rows = [vec![0u8; n], vec![0u8; n]];
                    rows[row][i] = 1;
                    let p = Position::new(&rows[0], &rows[1], [0, 0], Side::South).unwrap();
                    assert!(keys.insert(<[u64; 8]>::pack(&p)));
                    if n <= 16 {
                        let k = <[u128; 2]>::pack(&p);
                        assert_eq!(k[row], 1u128 << (8 * i));
                    }
                    if n <= 8 {
                        assert_eq!(u128::pack(&p), 1u128 << (64 * row + 8 * i));
                    }
                }
            }
        }
    }
}
