//! Daldøs as a [`Game`] for the search: the rules of `dalkon-rules` (plays,
//! dal-dal rethrows, game ends), a static evaluation — by default the
//! learned one of `learn/` (the committed net), or the hand-fitted one of
//! `eval.rs` ([`Daldos::with_weights`], the players `hand:N`) — and
//! optionally solved tables ([`crate::solved`]) whose values the search
//! takes wherever they cover a position.

use std::sync::Arc;

use dalkon_rules::daldos::{play_results, plays, Play, Position, Side, Throw, Variants};

use crate::engine::eval::{evaluate_with, EvalWeights};
use crate::engine::game::{Game, Known};
use crate::engine::learn::{inputs, Net};
use crate::solved::{Tables, EPS};

/// Daldøs under the given rule variants (the board comes with positions).
#[derive(Debug, Clone)]
pub struct Daldos {
    /// The rule variants (docs/rules.md §1.5).
    pub variants: Variants,
    /// The hand-fitted evaluation's weights, used when `learned` is
    /// `None`.
    pub weights: EvalWeights,
    /// The learned evaluation's net (`crate::engine::learn`), used instead
    /// of `weights` when set: the committed net unless the game was made
    /// [`Daldos::with_weights`].
    pub learned: Option<Arc<Net>>,
    /// Solved tables of these rules (any board: a position of another
    /// board is simply not covered), read by [`Game::known`].
    pub tables: Option<Arc<Tables>>,
}

impl PartialEq for Daldos {
    /// The same rules, weights, net and tables (the same net and tables
    /// objects).
    fn eq(&self, other: &Daldos) -> bool {
        self.variants == other.variants
            && self.weights == other.weights
            && match (&self.learned, &other.learned) {
                (None, None) => true,
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                _ => false,
            }
            && match (&self.tables, &other.tables) {
                (None, None) => true,
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                _ => false,
            }
    }
}

impl Default for Daldos {
    /// The default rules and evaluation, no tables.
    fn default() -> Daldos {
        Daldos::new(Variants::default())
    }
}

impl Daldos {
    /// Daldøs under `variants`, the default (learned) evaluation, no
    /// tables.
    pub fn new(variants: Variants) -> Daldos {
        Daldos {
            variants,
            weights: EvalWeights::default(),
            learned: Some(crate::engine::learn::builtin()),
            tables: None,
        }
    }

    /// Daldøs under the rules of `tables`, the default (learned)
    /// evaluation, the search taking the tables' value wherever they cover
    /// a position (exact when its bounds are within [`EPS`]).
    pub fn with_tables(tables: Arc<Tables>) -> Daldos {
        Daldos {
            tables: Some(Arc::clone(&tables)),
            ..Daldos::new(tables.variants())
        }
    }

    /// The same game with the hand-fitted evaluation and its default
    /// weights (the engine before the learned evaluation; `hand:N`).
    pub fn hand(self) -> Daldos {
        self.with_weights(EvalWeights::default())
    }

    /// The same game with the hand-fitted evaluation under `weights`.
    pub fn with_weights(self, weights: EvalWeights) -> Daldos {
        Daldos {
            weights,
            learned: None,
            ..self
        }
    }

    /// The same game with the learned evaluation of `net`.
    pub fn with_learned(self, net: Arc<Net>) -> Daldos {
        Daldos {
            learned: Some(net),
            ..self
        }
    }
}

/// The side numbered as the search numbers players.
pub fn side_index(side: Side) -> u8 {
    side.index() as u8
}

impl Game for Daldos {
    type Pos = Position;
    type Throw = Throw;
    type Play = Play;

    /// The ten distinct throws, weights 1 (doubles) or 2 out of 16.
    fn throws(&self) -> &[(Throw, u32)] {
        &Throw::DISTINCT
    }

    fn to_move(&self, pos: &Position) -> u8 {
        side_index(pos.side_to_move())
    }

    fn winner(&self, pos: &Position) -> Option<u8> {
        pos.winner(&self.variants).map(side_index)
    }

    fn plays(&self, pos: &Position, throw: Throw) -> Vec<(Play, Position)> {
        plays(pos, &self.variants, throw)
            .into_iter()
            .map(|o| (o.play, o.result))
            .collect()
    }

    fn results(&self, pos: &Position, throw: Throw, out: &mut Vec<Position>) {
        play_results(pos, &self.variants, throw, out);
    }

    fn evaluate(&self, pos: &Position) -> f64 {
        match &self.learned {
            Some(net) => net.value(&inputs(pos, &self.variants)),
            None => evaluate_with(pos, &self.variants, &self.weights),
        }
    }

    /// The tables' value (the midpoint of its bounds), if they cover `pos`.
    fn known(&self, pos: &Position) -> Option<Known> {
        let b = self.tables.as_ref()?.bounds(pos)?;
        Some(Known {
            value: b.value(),
            exact: b.gap() <= EPS,
        })
    }
}
