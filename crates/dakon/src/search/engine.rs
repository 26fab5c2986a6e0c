//! The search engine: the shared transposition table, counters, limits and
//! stop flag of one search, the moves of a node in search order, and the
//! root (every root move solved exactly, in parallel). The exact search
//! itself (MTD(f) over alpha-beta) is in `alpha_beta.rs`.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use dalkon_rules::dakon::{Position, Rules, MAX_HOLES};

use super::tt::{PackedKey, Table};
use super::{pack_bounds, Probe, SearchError, SearchProgress, SolveResult};

/// Per-thread counters, flushed into the engine's atomics now and then,
/// and what the thread's search is: a helper's ([`Engine::shared`]) may be
/// called off when another thread finishes the same root move.
#[derive(Default)]
pub(super) struct Counters {
    /// Set by whoever finishes this search's root move first: this search
    /// is then no longer needed and stops like a spent budget (nothing more
    /// stored, its value ignored).
    pub(super) cancel: Option<Arc<AtomicBool>>,
    /// A helper: in the first [`HELPER_DEPTH`] plies of its task it
    /// searches the children in turn from the second (the first last), so
    /// that it proves, into the shared table, what the thread it helps will
    /// need next rather than following it (on the strong-game benchmark,
    /// 2 threads: 13.2 s without helpers, 11.4–11.6 s with depth 4, 11.7–12.0
    /// with 3, 11.1–12.4 with 6; only 3 % more nodes a second with
    /// the plain order, which follows the other thread).
    pub(super) helper: bool,
    /// Nodes from the task's root to the node being searched.
    pub(super) depth: u32,
    pub(super) nodes: u64,
    pub(super) unflushed: u64,
    pub(super) tt_hits: u64,
    pub(super) tt_probes: u64,
    pub(super) probe_hits: u64,
    /// New positions stored in an empty slot / over another position.
    pub(super) tt_filled: u64,
    pub(super) tt_replaced: u64,
    /// Cut-offs by move in this task, to order moves that tie.
    pub(super) history: History,
}

/// How often, in one root task, a move from hole `h` holding `s` seeds
/// (`s` counted up to [`History::SEEDS`]` - 1`) refuted a window: the order
/// of a node's moves that tie on everything else (bonus moves, then the
/// seeds banked), most cut-offs first — the history heuristic of chess
/// programs (Schaeffer 1989), keyed by the hole and its seeds because they
/// fix where the sowing ends. It orders moves only, so it never changes a
/// value; it belongs to the task, not the thread, so one thread's node
/// counts are fixed. Measured (7×7, one thread, `--bench best`): the hard
/// game positions with databases up to 20 seeds 41.3 M → 34.3 M nodes,
/// without databases 4 → 2 not proved within 60 s, 457 → 324 s; the
/// strong-game positions without databases 61.5 M → 28.3 M nodes (by the
/// hole alone: 37.5 M, 30.4 M; as the first key after bonus moves, five
/// times the nodes).
pub(super) struct History([u16; MAX_HOLES * History::SEEDS]);

impl Default for History {
    fn default() -> Self {
        History([0; MAX_HOLES * History::SEEDS])
    }
}

impl History {
    /// Seeds in the hole told apart.
    const SEEDS: usize = 16;

    #[inline]
    fn index(pos: &Position, hole: usize) -> usize {
        let seeds = usize::from(pos.pit(pos.side_to_move(), hole));
        (hole - 1) * Self::SEEDS + seeds.min(Self::SEEDS - 1)
    }

    /// Cut-offs of moving `hole` in `pos` so far (saturating).
    #[inline]
    pub(super) fn get(&self, pos: &Position, hole: usize) -> u16 {
        self.0[Self::index(pos, hole)]
    }

    /// Moving `hole` in `pos` refuted a window.
    #[inline]
    pub(super) fn cut(&mut self, pos: &Position, hole: usize) {
        let e = &mut self.0[Self::index(pos, hole)];
        *e = e.saturating_add(1);
    }
}

/// One move seen from the mover: the store difference it gains and whether
/// the mover moves again.
#[derive(Clone, Copy)]
pub(super) struct Step {
    pub(super) gain: i32,
    pub(super) same_side: bool,
    /// Whether the child's future margin is known without searching it:
    /// the game is over, or (set by the search) the databases answer it.
    pub(super) over: bool,
    /// Future margin of a known child, child's view (0 after a sweep).
    pub(super) terminal: i32,
}

impl Step {
    #[inline]
    pub(super) fn new(parent: &Position, child: &Position) -> Step {
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
    pub(super) fn value(&self, child_margin: i32) -> i32 {
        if self.same_side {
            self.gain + child_margin
        } else {
            self.gain - child_margin
        }
    }

    /// The child's window for the parent's window `(alpha, beta)`.
    #[inline]
    pub(super) fn window(&self, alpha: i32, beta: i32) -> (i32, i32) {
        if self.same_side {
            (alpha - self.gain, beta - self.gain)
        } else {
            (self.gain - beta, self.gain - alpha)
        }
    }
}

/// One search: the rules, the shared table, the probe and the counters.
pub(crate) struct Engine<'a, K: PackedKey, const W: usize> {
    pub(super) rules: Rules,
    pub(super) tt: &'a Table<K>,
    pub(super) probe: Option<&'a dyn Probe>,
    pub(super) progress: &'a SearchProgress,
    pub(super) abort: AtomicBool,
    pub(super) max_nodes: u64,
    pub(super) deadline: Option<Instant>,
    pub(super) tt_hits: AtomicU64,
    pub(super) tt_probes: AtomicU64,
    pub(super) probe_hits: AtomicU64,
    pub(super) nodes: AtomicU64,
    pub(super) passes: AtomicU64,
}

/// Plies from its task's root within which a helper changes the order of
/// the children ([`Counters::helper`]).
pub(super) const HELPER_DEPTH: u32 = 4;

/// Nodes a thread searches between looks at the shared count and clock.
pub(super) const FLUSH_EVERY: u64 = 4096;

/// How far past its node budget a search on `threads` worker threads may
/// go: each thread may have up to [`FLUSH_EVERY`] nodes not yet counted
/// when the budget is seen to be spent, and each root move still to start
/// visits one node before it sees that (at most 32 moves). Once the budget
/// is spent no node searches another child.
pub fn node_overshoot(threads: usize) -> u64 {
    threads as u64 * FLUSH_EVERY + dalkon_rules::dakon::MAX_HOLES as u64
}

impl<K: PackedKey, const W: usize> Engine<'_, K, W> {
    /// Whether this thread's search must stop: the budget is spent, or its
    /// root move was finished by another thread.
    #[inline]
    pub(super) fn halted(&self, c: &Counters) -> bool {
        self.abort.load(Ordering::Relaxed)
            || c.cancel.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// Run `run(i, counters)` for every root task `i < tasks` on the
    /// thread pool and return their results in order. Each thread takes the
    /// next task not yet started; a thread that finds none left helps a
    /// task still running (the one with fewest threads on it) by searching
    /// it too, as a [`Counters::helper`], over the same table: whichever
    /// finishes first gives the task's result and calls the other off. So
    /// no thread idles while one root move is left, as happens when a pass
    /// tests a single move. Every result is a true answer for the task (an
    /// exact value, or a fail-soft bound that is proved, whoever found it):
    /// values and best moves never depend on the thread count, a fail-soft
    /// bound may (so [`Engine::best_moves`] does not report it). With one thread the
    /// tasks run one after the other, as a plain loop would, and the work
    /// is the same. With `counts_roots`, each task's first finish counts
    /// one root move settled in the progress.
    pub(super) fn shared(
        &self,
        tasks: usize,
        counts_roots: bool,
        run: &(dyn Fn(usize, &mut Counters) -> i32 + Sync),
    ) -> Vec<i32> {
        let done: Vec<Arc<AtomicBool>> = (0..tasks)
            .map(|_| Arc::new(AtomicBool::new(false)))
            .collect();
        let on: Vec<AtomicUsize> = (0..tasks).map(|_| AtomicUsize::new(0)).collect();
        let results: Mutex<Vec<i32>> = Mutex::new(vec![0; tasks]);
        let next = AtomicUsize::new(0);
        let workers = rayon::current_num_threads().max(1);
        let work = |i: usize, helper: bool| {
            on[i].fetch_add(1, Ordering::Relaxed);
            let mut c = Counters {
                cancel: Some(Arc::clone(&done[i])),
                helper,
                ..Counters::default()
            };
            let v = run(i, &mut c);
            self.flush(&mut c);
            on[i].fetch_sub(1, Ordering::Relaxed);
            if !self.halted(&c) && !done[i].swap(true, Ordering::AcqRel) {
                results.lock().expect("no thread panics holding it")[i] = v;
                if counts_roots {
                    self.progress.roots_done.fetch_add(1, Ordering::Relaxed);
                }
            }
        };
        let worker = || loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i < tasks {
                work(i, false);
                continue;
            }
            if self.abort.load(Ordering::Relaxed) {
                break;
            }
            let open = (0..tasks)
                .filter(|&j| !done[j].load(Ordering::Acquire))
                .min_by_key(|&j| on[j].load(Ordering::Relaxed));
            match open {
                Some(j) => work(j, true),
                None => break,
            }
        };
        if workers == 1 {
            worker();
        } else {
            rayon::scope(|s| {
                for _ in 0..workers {
                    s.spawn(|_| worker());
                }
            });
        }
        results.into_inner().expect("no thread panics holding it")
    }

    pub(super) fn flush(&self, c: &mut Counters) {
        let total = self.nodes.fetch_add(c.unflushed, Ordering::Relaxed) + c.unflushed;
        self.progress
            .nodes
            .fetch_add(c.unflushed, Ordering::Relaxed);
        self.tt_hits.fetch_add(c.tt_hits, Ordering::Relaxed);
        self.tt_probes.fetch_add(c.tt_probes, Ordering::Relaxed);
        self.probe_hits.fetch_add(c.probe_hits, Ordering::Relaxed);
        self.tt.count(c.tt_filled, c.tt_replaced);
        c.unflushed = 0;
        c.tt_filled = 0;
        c.tt_replaced = 0;
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
    pub(super) fn every_move(&self, pos: &Position) -> Result<Root, SearchError> {
        let Some(kids) = self.root_kids(pos) else {
            return Ok(Root {
                margin: pos.terminal_value().unwrap() - pos.store_diff(),
                exact: Vec::new(),
                refuted: Vec::new(),
                partial: None,
            });
        };
        let values = self.shared(kids.len(), true, &|i, c| {
            let (_, child, step) = kids[i];
            if step.over {
                step.value(step.terminal)
            } else {
                step.value(self.exact(c, &child))
            }
        });
        let exact: Vec<(usize, i32)> = kids.iter().map(|k| k.0).zip(values).collect();
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
                // A refuted move is reported as "below the value" (at most
                // `g - 1`), not with its fail-soft bound: that bound
                // depends on what the table held, so on the thread count
                // (threads that search one move together store into the
                // same table) and on a session's earlier queries, and every
                // answer must be the same whatever those are.
                for (&(h, _, _), &(_, hi)) in kids.iter().zip(&bounds) {
                    if hi >= g {
                        exact.push((h, g))
                    } else {
                        refuted.push((h, g - 1))
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
            let results = self.shared(pending.len(), false, &|k, c| {
                let (_, child, step) = kids[pending[k]];
                let (a, b) = step.window(g - 1, g);
                step.value(self.alpha_beta(c, &child, a, b))
            });
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
    pub(super) fn root_kids(&self, pos: &Position) -> Option<Vec<(usize, Position, Step)>> {
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

    pub(super) fn check_abort(&self) -> Result<(), SearchError> {
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
            tt_replaced: self.tt.replaced(),
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
}

/// What the root search found, in future margins of the root (mover's view).
pub(crate) struct Root {
    /// The root's future margin.
    pub margin: i32,
    /// Moves with their exact margins.
    pub exact: Vec<(usize, i32)>,
    /// Moves proved below `margin`, each with `margin - 1` (their proved
    /// upper bound, whatever the thread count).
    pub refuted: Vec<(usize, i32)>,
    /// `None` when the search finished; otherwise it ran out of budget and
    /// this holds each move's proved (lower, upper) bounds on its margin.
    pub partial: Option<Vec<(usize, i32, i32)>>,
}
