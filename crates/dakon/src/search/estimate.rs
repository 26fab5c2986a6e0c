//! The heuristic estimate: a shallow, node-bounded search whose value is
//! MTD(f)'s first guess and, on its own, an unproved estimate of a
//! position or of each of its moves.

use std::time::Instant;

use dalkon_rules::dakon::{Position, Rules};

use super::engine::Step;

/// Plies of the shallow search that gives MTD(f) its first guess.
pub(super) const GUESS_DEPTH: u32 = 4;

/// Nodes the first-guess estimate may visit at each MTD(f) start: 4 plies
/// on a 7-hole board take about 2,400, on a 32-hole board about a million;
/// past the bound the guess comes from fewer plies (only the work changes,
/// never the value).
pub(super) const GUESS_MAX_NODES: u64 = 20_000;

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
    estimate_counted(pos, rules, depth, &mut nodes, &Cap::nodes(u64::MAX)).unwrap_or(0)
}

/// When an estimate must give up: past `limit` positions, or at `deadline`
/// (read every [`DEADLINE_EVERY`] positions).
#[derive(Debug, Clone, Copy)]
pub(super) struct Cap {
    limit: u64,
    deadline: Option<Instant>,
}

/// Positions between two readings of the clock.
const DEADLINE_EVERY: u64 = 1024;

impl Cap {
    pub(super) fn nodes(limit: u64) -> Cap {
        Cap {
            limit,
            deadline: None,
        }
    }

    /// Whether one more position may be visited after `nodes`.
    fn allows(&self, nodes: u64) -> bool {
        nodes < self.limit
            && !(nodes % DEADLINE_EVERY == 0 && self.deadline.is_some_and(|d| Instant::now() >= d))
    }
}

/// [`estimate`], counting the positions visited in `nodes`; `None` when
/// the next would make them more than the cap's limit (so `nodes` stays at
/// most that) or its deadline has passed.
pub(super) fn estimate_counted(
    pos: &Position,
    rules: &Rules,
    depth: u32,
    nodes: &mut u64,
    cap: &Cap,
) -> Option<i32> {
    if !cap.allows(*nodes) {
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
            step.value(estimate_counted(&child, rules, depth - 1, nodes, cap)?)
        };
        best = best.max(v);
    }
    Some(best)
}

/// The margin of the deepest [`estimate`] of `pos`, from `max_depth` plies
/// down, that visits at most `max_nodes` positions (0 plies, i.e. 0, when
/// none does). MTD(f)'s first guess: it only changes the work.
pub(super) fn estimate_margin_within(
    pos: &Position,
    rules: &Rules,
    max_depth: u32,
    max_nodes: u64,
) -> i32 {
    (1..=max_depth)
        .rev()
        .find_map(|depth| estimate_counted(pos, rules, depth, &mut 0, &Cap::nodes(max_nodes)))
        .unwrap_or(0)
}

/// Heuristic values of every move of `pos` (not over) by [`estimate`]
/// `depth` plies deep: (move, store difference plus estimated margin).
/// Unbounded work: see [`estimate_within`].
pub fn estimate_moves(pos: &Position, rules: &Rules, depth: u32) -> Vec<(usize, i32)> {
    estimate_moves_counted(pos, rules, depth, &mut 0, &Cap::nodes(u64::MAX)).unwrap_or_default()
}

/// [`estimate_moves`] counting as [`estimate_counted`] does (every child
/// once).
pub(super) fn estimate_moves_counted(
    pos: &Position,
    rules: &Rules,
    depth: u32,
    nodes: &mut u64,
    cap: &Cap,
) -> Option<Vec<(usize, i32)>> {
    let base = pos.store_diff();
    pos.moves()
        .map(|h| {
            let child = pos.play_unchecked(h, rules);
            let step = Step::new(pos, &child);
            let m = if step.over {
                if !cap.allows(*nodes) {
                    return None;
                }
                *nodes += 1;
                step.value(step.terminal)
            } else {
                let d = depth.saturating_sub(1);
                step.value(estimate_counted(&child, rules, d, nodes, cap)?)
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
    estimate_until(pos, rules, max_depth, max_nodes, None)
}

/// [`estimate_within`], also giving up a depth at `deadline` (the clock is
/// read every 1,024 positions, a fraction of a millisecond): for answers
/// under a time limit, which no longer depend on the arguments alone.
pub fn estimate_until(
    pos: &Position,
    rules: &Rules,
    max_depth: u32,
    max_nodes: u64,
    deadline: Option<Instant>,
) -> Estimate {
    let mut nodes = 0;
    let one = &Cap::nodes(u64::MAX);
    let mut best = Estimate {
        moves: estimate_moves_counted(pos, rules, 1, &mut nodes, one).unwrap_or_default(),
        depth: 1,
        nodes: 0,
    };
    let cap = Cap {
        limit: max_nodes,
        deadline,
    };
    for depth in 2..=max_depth {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        match estimate_moves_counted(pos, rules, depth, &mut nodes, &cap) {
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
