//! Daldøs as a [`Game`] for the search: the rules of `dalkon-rules` (plays,
//! dal-dal rethrows, game ends) and the static evaluation of `eval.rs`.

use dalkon_rules::daldos::{play_results, plays, Play, Position, Side, Throw, Variants};

use crate::engine::eval::{evaluate_with, EvalWeights};
use crate::engine::game::Game;

/// Daldøs under the given rule variants (the board comes with positions).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Daldos {
    /// The rule variants (docs/rules.md §1.5).
    pub variants: Variants,
    /// The evaluation's weights.
    pub weights: EvalWeights,
}

impl Daldos {
    /// Daldøs under `variants`, default evaluation.
    pub fn new(variants: Variants) -> Daldos {
        Daldos {
            variants,
            weights: EvalWeights::default(),
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
        evaluate_with(pos, &self.variants, &self.weights)
    }
}
