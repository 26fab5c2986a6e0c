//! The players measured (contenders): engines at a depth, greedy, random,
//! perfect, and an engine searching with tables below a piece count.

use std::sync::Arc;

use dalkon_rules::daldos::{Play, Position, Side, Throw};

use crate::engine::daldos::Daldos;
use crate::engine::eval::EvalWeights;
use crate::engine::game::{Game, Known};
use crate::engine::players::{EnginePlayer, GreedyPlayer, PerfectPlayer, Player};
use crate::engine::rng::Rng;
use crate::solved::Tables;

/// What a contender is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ContenderKind {
    /// [`GreedyPlayer`].
    Greedy,
    /// [`EnginePlayer`] to `depth` with the hand-fitted evaluation under
    /// `weights`, or the default (learned) evaluation when `None`; with
    /// `tables_below`, its search also takes the tables' value of every
    /// position with fewer pieces in total than the position it decides
    /// (the tables at the leaves, as a game with tables of the smaller
    /// layers only would have them).
    Engine {
        /// Search depth in throws.
        depth: u32,
        /// Hand-fitted evaluation weights (`None`: the learned one).
        weights: Option<EvalWeights>,
        /// Tables below the decision's piece total in the search.
        tables_below: bool,
    },
    /// [`PerfectPlayer`] (its loss is 0: a check).
    Perfect,
}

/// A player measured, with its name in the rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Contender {
    /// The `player` column.
    pub name: String,
    /// What plays.
    pub kind: ContenderKind,
}

impl Contender {
    /// `greedy`.
    pub fn greedy() -> Contender {
        Contender {
            name: "greedy".to_owned(),
            kind: ContenderKind::Greedy,
        }
    }

    /// `engine:N`: the default (learned) evaluation, no tables in the
    /// search.
    pub fn engine(depth: u32) -> Contender {
        Contender {
            name: format!("engine:{depth}"),
            kind: ContenderKind::Engine {
                depth,
                weights: None,
                tables_below: false,
            },
        }
    }

    /// `hand:N`: the hand-fitted evaluation with its default weights.
    pub fn hand(depth: u32) -> Contender {
        Contender {
            name: format!("hand:{depth}"),
            kind: ContenderKind::Engine {
                depth,
                weights: Some(EvalWeights::default()),
                tables_below: false,
            },
        }
    }

    /// `engine:N+tables`: the default evaluation and the tables below the
    /// decision's piece total.
    pub fn engine_with_tables(depth: u32) -> Contender {
        Contender {
            name: format!("engine:{depth}+tables"),
            kind: ContenderKind::Engine {
                depth,
                weights: None,
                tables_below: true,
            },
        }
    }

    /// `perfect`.
    pub fn perfect() -> Contender {
        Contender {
            name: "perfect".to_owned(),
            kind: ContenderKind::Perfect,
        }
    }

    /// The player, using `tables` where it plays from them.
    pub(super) fn player(&self, tables: &Arc<Tables>) -> Box<dyn Player<Daldos>> {
        match self.kind {
            ContenderKind::Greedy => Box::new(GreedyPlayer),
            ContenderKind::Perfect => Box::new(PerfectPlayer::new(Arc::clone(tables))),
            ContenderKind::Engine {
                depth,
                weights,
                tables_below,
            } => {
                let game = if tables_below {
                    Daldos::with_tables(Arc::clone(tables))
                } else {
                    Daldos::new(tables.variants())
                };
                let game = match weights {
                    Some(w) => game.with_weights(w),
                    None => game,
                };
                Box::new(StudyEngine {
                    engine: EnginePlayer::new(depth),
                    game,
                    tables_below,
                })
            }
        }
    }
}

/// An engine that searches its own game (its weights, its tables) whatever
/// game it is handed.
#[derive(Debug)]
pub(super) struct StudyEngine {
    engine: EnginePlayer,
    game: Daldos,
    tables_below: bool,
}

impl Player<Daldos> for StudyEngine {
    fn choose(
        &self,
        _: &Daldos,
        pos: &Position,
        plays: &[(Play, Position)],
        rng: &mut Rng,
    ) -> usize {
        if self.tables_below {
            let below = Below {
                game: &self.game,
                total: pieces(pos),
            };
            self.engine.choose(&below, pos, plays, rng)
        } else {
            self.engine.choose(&self.game, pos, plays, rng)
        }
    }
}

/// Pieces on the board, both sides.
pub(super) fn pieces(pos: &Position) -> usize {
    pos.count(Side::A) + pos.count(Side::B)
}

/// Daldøs whose tables count only for positions with fewer than `total`
/// pieces.
#[derive(Debug)]
pub(super) struct Below<'a> {
    game: &'a Daldos,
    total: usize,
}

impl Game for Below<'_> {
    type Pos = Position;
    type Throw = Throw;
    type Play = Play;

    fn throws(&self) -> &[(Throw, u32)] {
        self.game.throws()
    }

    fn to_move(&self, pos: &Position) -> u8 {
        self.game.to_move(pos)
    }

    fn winner(&self, pos: &Position) -> Option<u8> {
        self.game.winner(pos)
    }

    fn plays(&self, pos: &Position, throw: Throw) -> Vec<(Play, Position)> {
        self.game.plays(pos, throw)
    }

    fn results(&self, pos: &Position, throw: Throw, out: &mut Vec<Position>) {
        self.game.results(pos, throw, out)
    }

    fn evaluate(&self, pos: &Position) -> f64 {
        self.game.evaluate(pos)
    }

    fn known(&self, pos: &Position) -> Option<Known> {
        if pieces(pos) < self.total {
            self.game.known(pos)
        } else {
            None
        }
    }
}
