//! Answers for a position in a game: the value and every best move, each
//! move's bounds, the principal variation, within a node or time budget,
//! with a table kept between queries.
//!
//! A [`Session`] owns one transposition table for one board and rule set.
//! Every bound in it is proved and stays true, so the queries of a batch or
//! of a game (which walk through related positions) reuse the work of the
//! earlier ones; the answers never depend on what was asked before, only
//! the time does.
//!
//! When the budget runs out, the answer is not exact: it gives the bounds
//! the finished passes of the root search proved (every move's, and the
//! root's), and its best move is the one with the highest upper bound (the
//! root search works down from the top, so that is the move it has not
//! refuted longest; ties: the better lower bound, then the lower hole).

use std::sync::Arc;
use std::time::Instant;

use dalkon_rules::dakon::{Position, Rules};

use super::proof::gain;
use super::tt::{PackedKey, Table};
use super::{Engine, Job, Limits, SearchError, SearchProgress, K8};
use crate::retro::Databases;

/// A table of the key type suited to a board.
#[derive(Debug)]
pub enum AnyTable {
    /// Up to 8 holes a row.
    Narrow(Table<K8>),
    /// Up to 16 holes a row.
    Middle(Table<[u128; 2]>),
    /// Up to 32 holes a row.
    Wide(Table<[u64; 8]>),
}

impl AnyTable {
    fn new(holes: usize, bytes: usize) -> AnyTable {
        if holes <= u128::MAX_HOLES {
            AnyTable::Narrow(Table::with_bytes(bytes))
        } else if holes <= <[u128; 2]>::MAX_HOLES {
            AnyTable::Middle(Table::with_bytes(bytes))
        } else {
            AnyTable::Wide(Table::with_bytes(bytes))
        }
    }
}

/// A table kept between queries on one board under one rule set, and the
/// endgame databases its searches probe, if any.
#[derive(Debug)]
pub struct Session {
    holes: usize,
    rules: Rules,
    table: AnyTable,
    databases: Option<Arc<Databases>>,
}

impl Session {
    /// A session for boards of `holes` holes a row under `rules`, its table
    /// within `limits.tt_bytes` (checked by the first query).
    pub fn new(holes: usize, rules: Rules, limits: &Limits) -> Session {
        Session {
            holes,
            rules,
            table: AnyTable::new(holes, limits.tt_bytes),
            databases: None,
        }
    }

    /// The same session, its searches answering every position the
    /// databases hold (of this board and rule set) from them: fewer nodes,
    /// the same answers.
    pub fn with_databases(self, databases: Option<Arc<Databases>>) -> Session {
        Session { databases, ..self }
    }

    /// Whether this session's table serves `pos` under `rules`.
    pub fn serves(&self, pos: &Position, rules: &Rules) -> bool {
        self.holes == pos.holes() && self.rules == *rules
    }
}

/// One root move with its proved bounds (final store difference for the
/// side to move at the root, stores included).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveBounds {
    /// The hole.
    pub hole: usize,
    /// The move's value is at least this.
    pub lower: i32,
    /// The move's value is at most this.
    pub upper: i32,
}

impl MoveBounds {
    /// Whether the value is known.
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }
}

/// An answer for a position.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// Whether the value and best moves are proved.
    pub exact: bool,
    /// The root's value is at least this (final store difference for the
    /// side to move, stores included); equal to `upper` when exact.
    pub lower: i32,
    /// The root's value is at most this.
    pub upper: i32,
    /// Exact: every move reaching the value, ascending. Otherwise the one
    /// move with the best proved bounds.
    pub best_moves: Vec<usize>,
    /// Every legal move with its bounds (exact for the best moves of an
    /// exact answer; for the others an upper bound below the value, and
    /// with `every_move` their exact values).
    pub moves: Vec<MoveBounds>,
    /// The principal variation: moves of both sides (bonus moves
    /// included) from the position to the end of the game. Exact answers:
    /// both sides play a best move at every step, and the game ends at
    /// exactly the value. Otherwise the line the table prefers, which may
    /// stop before the end.
    pub pv: Vec<usize>,
    /// Alpha-beta calls of this query.
    pub nodes: u64,
    /// Positions in the table after this query.
    pub positions: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// Answer `pos` within `limits` (its node and time budget), reusing
/// `session`'s table when it serves the position (else a fresh table).
/// `every_move` also solves every move that is not best exactly (more
/// work; only with no budget cut does the answer stay exact).
pub fn answer(
    pos: &Position,
    rules: &Rules,
    limits: &Limits,
    session: Option<&Session>,
    progress: Option<&SearchProgress>,
    every_move: bool,
) -> Result<Answer, SearchError> {
    let start = Instant::now();
    let session = session.filter(|s| s.serves(pos, rules));
    let table = session.map(|s| &s.table);
    let probe = session
        .and_then(|s| s.databases.as_deref())
        .filter(|d| d.serves(pos.holes(), rules))
        .map(|d| d as &dyn super::Probe);
    let job = AnswerJob { pos, every_move };
    let mut a = super::with_table(pos, rules, limits, probe, progress, table, job)?;
    a.seconds = start.elapsed().as_secs_f64();
    Ok(a)
}

struct AnswerJob<'p> {
    pos: &'p Position,
    every_move: bool,
}

impl Job for AnswerJob<'_> {
    type Out = Answer;
    fn run<K: PackedKey, const W: usize>(
        self,
        engine: &Engine<'_, K, W>,
    ) -> Result<Answer, SearchError> {
        let pos = self.pos;
        let base = pos.store_diff();
        let nodes0 = engine.nodes.load(std::sync::atomic::Ordering::Relaxed);
        let root = if self.every_move {
            engine.every_move(pos)?
        } else {
            engine.best_moves(pos)?
        };
        let mut a = match &root.partial {
            None => {
                let margin = root.margin;
                let mut moves: Vec<MoveBounds> = root
                    .exact
                    .iter()
                    .map(|&(hole, m)| MoveBounds {
                        hole,
                        lower: base + m,
                        upper: base + m,
                    })
                    .chain(root.refuted.iter().map(|&(hole, u)| MoveBounds {
                        hole,
                        lower: base - (pos.seeds_on_board() as i32),
                        upper: base + u,
                    }))
                    .collect();
                moves.sort_by_key(|m| m.hole);
                let best_moves = root
                    .exact
                    .iter()
                    .filter(|m| m.1 == margin)
                    .map(|m| m.0)
                    .collect();
                let pv = engine.pv(pos, margin)?;
                Answer {
                    exact: true,
                    lower: base + margin,
                    upper: base + margin,
                    best_moves,
                    moves,
                    pv,
                    nodes: 0,
                    positions: 0,
                    seconds: 0.0,
                }
            }
            Some(bounds) => {
                let moves: Vec<MoveBounds> = bounds
                    .iter()
                    .map(|&(hole, lo, hi)| MoveBounds {
                        hole,
                        lower: base + lo,
                        upper: base + hi,
                    })
                    .collect();
                // The root search works down from the top: the move whose
                // upper bound survived the most refutations is its current
                // candidate.
                let best = moves
                    .iter()
                    .max_by_key(|m| (m.upper, m.lower, std::cmp::Reverse(m.hole)))
                    .expect("a position not over has a move");
                Answer {
                    exact: false,
                    lower: moves.iter().map(|m| m.lower).max().unwrap_or(best.lower),
                    upper: moves.iter().map(|m| m.upper).max().unwrap_or(best.upper),
                    best_moves: vec![best.hole],
                    pv: engine.table_line(pos, best.hole),
                    moves,
                    nodes: 0,
                    positions: 0,
                    seconds: 0.0,
                }
            }
        };
        a.nodes = engine.nodes.load(std::sync::atomic::Ordering::Relaxed) - nodes0;
        a.positions = engine.tt.len() as u64;
        Ok(a)
    }
}

impl<K: PackedKey, const W: usize> Engine<'_, K, W> {
    /// A principal variation from `pos`, whose exact future margin for its
    /// side to move is `margin`: at every step the side to move plays the
    /// lowest-numbered move that keeps the exact value (checked by a
    /// null-window search, which the proof's table mostly answers at once),
    /// to the end of the game. Should the budget run out during the walk,
    /// the line stops there (the value stays proved).
    fn pv(&self, pos: &Position, margin: i32) -> Result<Vec<usize>, SearchError> {
        let mut line = Vec::new();
        let (mut pos, mut margin) = (*pos, margin);
        while !pos.is_over() {
            let side = pos.side_to_move();
            let mut next = None;
            for h in pos.moves() {
                let child = pos.play_unchecked(h, &self.rules);
                let need = margin - gain(&pos, &child, side);
                match self.secures(&child, side, need) {
                    Ok(true) => {
                        let keeps_turn = child.side_to_move() == side;
                        next = Some((h, child, if keeps_turn { need } else { -need }));
                        break;
                    }
                    Ok(false) => {}
                    Err(SearchError::NodeLimit { .. }) => return Ok(line),
                    Err(e) => return Err(e),
                }
            }
            let (h, child, child_margin) =
                next.expect("a position of exact value has a move keeping it");
            line.push(h);
            pos = child;
            margin = child_margin;
        }
        Ok(line)
    }

    /// The line the table's best moves give from `pos` after `first`, up to
    /// the end of the game or the first position the table does not know.
    fn table_line(&self, pos: &Position, first: usize) -> Vec<usize> {
        let mut line = vec![first];
        let mut pos = pos.play_unchecked(first, &self.rules);
        while !pos.is_over() && line.len() < 1000 {
            let Some(e) = self.tt.get(&K::pack(&pos)) else {
                break;
            };
            let h = usize::from(e.best);
            if h == 0 || h > pos.holes() || pos.pit(pos.side_to_move(), h) == 0 {
                break;
            }
            line.push(h);
            pos = pos.play_unchecked(h, &self.rules);
        }
        line
    }
}
