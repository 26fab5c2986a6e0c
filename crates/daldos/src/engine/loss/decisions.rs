//! The decisions measured: positions before their throw, with a throw that
//! offers a choice, drawn from seeded games or uniformly from one layer.

use rayon::prelude::*;

use dalkon_rules::daldos::{plays, Board, Position, Throw};

use super::StudyError;
use crate::engine::daldos::Daldos;
use crate::engine::game::Game;
use crate::engine::perfect::{check_coverage, check_layers, PerfectError};
use crate::engine::players::{GreedyPlayer, Player, RandomPlayer};
use crate::engine::rng::{splitmix64, Rng};
use crate::solved::{LayerIndex, LayerKey, Tables};

/// Throws after which a game that draws decisions is given up.
pub(super) const GAME_TURN_CAP: u32 = 5000;

/// Games played in parallel at a time while drawing decisions from games.
pub(super) const GAME_BATCH: u64 = 64;

/// Draws of a position and a throw before a layer is given up as offering
/// no choice (a side with one piece never has two distinct plays).
pub(super) const LAYER_DRAWS: u32 = 100_000;

/// Where the decisions of a set come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Seeded games from the start of the tables' board (module
    /// documentation): the position before every `every`-th throw of a
    /// game (the first, the `every + 1`-th, …), with that throw.
    Games {
        /// Take one throw in this many (at least 1).
        every: u32,
    },
    /// Positions drawn uniformly from layer `a v b` (A to throw) of the
    /// tables' board, each with a throw drawn from the 16.
    Layer {
        /// Pieces of the side to throw.
        a: u8,
        /// Pieces of the other side.
        b: u8,
    },
}

impl Source {
    /// The `layer` column: `game`, or `2v2` for a layer.
    pub fn label(self) -> String {
        match self {
            Source::Games { .. } => "game".to_owned(),
            Source::Layer { a, b } => format!("{a}v{b}"),
        }
    }
}

/// A position before its throw, and the throw (with at least two plays).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// The position.
    pub pos: Position,
    /// The throw.
    pub throw: Throw,
}

/// The seed of a set's draws, from the study's seed, the board and the
/// source (not the set's place in a list, so that adding a set changes no
/// other).
pub fn set_seed(seed: u64, board: Board, source: Source) -> u64 {
    let tag = match source {
        Source::Games { every } => (1 << 40) | u64::from(every),
        Source::Layer { a, b } => (2 << 40) | u64::from(a) << 8 | u64::from(b),
    };
    let mut s = seed ^ u64::from(board.len()) << 48 ^ tag;
    splitmix64(&mut s)
}

/// Check that `tables` hold layer `a v b` and every layer its plays lead
/// to.
pub(super) fn check_layer(tables: &Tables, a: u8, b: u8) -> Result<(), PerfectError> {
    check_layers(Some(tables), tables.board(), &tables.variants(), (a, b))
}

/// `n` decisions from `source` on the tables' board, drawn from `seed`
/// (the same for any thread count). Refused when the tables do not cover
/// every play of them, or when the source offers no choice.
pub fn decisions(
    tables: &Tables,
    source: Source,
    n: usize,
    seed: u64,
) -> Result<Vec<Decision>, StudyError> {
    let v = tables.variants();
    let board = tables.board();
    match source {
        Source::Games { every } => {
            check_coverage(Some(tables), &v, &Position::start(board))?;
            let game = Daldos::new(v);
            let every = every.max(1);
            let mut out = Vec::with_capacity(n);
            let mut next = 0u64;
            // Every game of a board offers choices; the cap only guards
            // against a source that never does.
            let max_games = 100 + 100 * n as u64;
            while out.len() < n && next < max_games {
                let batch: Vec<Vec<Decision>> = (next..next + GAME_BATCH)
                    .into_par_iter()
                    .map(|k| game_decisions(&game, board, every, Rng::for_index(seed, k)))
                    .collect();
                next += GAME_BATCH;
                for d in batch {
                    out.extend(d);
                }
            }
            if out.len() < n.min(1) {
                return Err(StudyError::NoChoice {
                    board: board.name(),
                    from: "games".to_owned(),
                    draws: next,
                });
            }
            out.truncate(n);
            Ok(out)
        }
        Source::Layer { a, b } => {
            check_layer(tables, a, b)?;
            let index = LayerIndex::new(LayerKey { board, a, b });
            let size = index.size();
            let drawn: Option<Vec<Decision>> = (0..n as u64)
                .into_par_iter()
                .map(|k| {
                    let mut rng = Rng::for_index(seed, k);
                    (0..LAYER_DRAWS).find_map(|_| {
                        let pos = index.unrank(rng.below(size));
                        let throw = Throw::ALL[rng.below(16) as usize];
                        (plays(&pos, &v, throw).len() >= 2).then_some(Decision { pos, throw })
                    })
                })
                .collect();
            drawn.ok_or_else(|| StudyError::NoChoice {
                board: board.name(),
                from: format!("layer {a} v {b}"),
                draws: u64::from(LAYER_DRAWS),
            })
        }
    }
}

/// The decisions of one game from the start of `board` (module
/// documentation), its dice and choices drawn from `rng`.
pub(super) fn game_decisions(
    game: &Daldos,
    board: Board,
    every: u32,
    mut rng: Rng,
) -> Vec<Decision> {
    let mut pos = Position::start(board);
    let mut out = Vec::new();
    let mut turn = 0;
    while game.winner(&pos).is_none() && turn < GAME_TURN_CAP {
        let throw = Throw::ALL[rng.below(16) as usize];
        let mut plays = game.plays(&pos, throw);
        if plays.len() >= 2 && turn % every == 0 {
            out.push(Decision { pos, throw });
        }
        let i = if plays.len() < 2 {
            0
        } else if rng.below(4) == 0 {
            RandomPlayer.choose(game, &pos, &plays, &mut rng)
        } else {
            GreedyPlayer.choose(game, &pos, &plays, &mut rng)
        };
        pos = plays.swap_remove(i).1;
        turn += 1;
    }
    out
}
