//! Action codes and the game length bound of Daldøs as an OpenSpiel game
//! (`dalkon.openspiel`): every front end numbers plays alike from here.
//!
//! An action code numbers a play by its die uses, which determine its
//! result given the position and the throw: the lost throw is 0; a play of
//! one die `1 + 2h + k`; an added move (both dice on one piece)
//! `1 + 2C + 2h + k`; two pieces `1 + 4C + 2(h1 C + h2) + k`, where
//! `C = 3L + 1` is the number of holes, `h` the hole index of the piece
//! moved first (then of the second), and `k` 0 when the first die used is
//! the throw's larger face (always for a double), else 1. Distinct plays of
//! one throw have distinct results, hence distinct codes. [`action_codes`]
//! gives the codes of the throw with the larger die first, so `(3, 1)` and
//! `(1, 3)` give every result the same code.

use std::collections::HashMap;

use super::{plays, Board, Play, PlayOutcome, Position, Side, Step, Throw, Variants};

/// Throws after which a game that has not ended is stopped, won by neither
/// (the turn cap of `daldos match` and `daldos game`, and OpenSpiel's
/// default `max_throws`).
pub const DEFAULT_MAX_THROWS: u32 = 5000;

/// The code of `play`, a play of `throw` (as given) by `side` (module
/// documentation).
pub fn action_code(board: Board, side: Side, throw: Throw, play: &Play) -> u32 {
    let c = board.cells() as u32;
    let high = throw.sorted().first;
    let k = |s: &Step| {
        let d = board.path_distance(side, s.from, s.to).unwrap_or(0);
        u32::from(d != u32::from(high))
    };
    match play.steps.as_slice() {
        [] => 0,
        [s] => 1 + 2 * u32::from(s.from.0) + k(s),
        [s, _] if play.is_added() => 1 + 2 * c + 2 * u32::from(s.from.0) + k(s),
        [s, t] => 1 + 4 * c + 2 * (u32::from(s.from.0) * c + u32::from(t.from.0)) + k(s),
        _ => unreachable!("a play has at most two steps"),
    }
}

/// The codes of `outcomes`, the plays of `throw` in `pos` (in any order):
/// those of the same throw with the larger die first, so that the order
/// of the dice changes no result's code (it may change which of the plays
/// leading to one result is listed, and the order).
pub fn action_codes(
    pos: &Position,
    variants: &Variants,
    throw: Throw,
    outcomes: &[PlayOutcome],
) -> Vec<u32> {
    let (board, side) = (pos.board(), pos.side_to_move());
    let sorted = throw.sorted();
    if sorted == throw {
        return outcomes
            .iter()
            .map(|o| action_code(board, side, throw, &o.play))
            .collect();
    }
    let codes: HashMap<Position, u32> = plays(pos, variants, sorted)
        .into_iter()
        .map(|o| (o.result, action_code(board, side, sorted, &o.play)))
        .collect();
    outcomes
        .iter()
        .map(|o| {
            codes
                .get(&o.result)
                .copied()
                .unwrap_or_else(|| action_code(board, side, throw, &o.play))
        })
        .collect()
}

/// The number of action codes of `board`: `1 + 4C + 2C^2` with `C = 3L + 1`;
/// every code is below it.
pub fn num_actions(board: Board) -> u32 {
    let c = board.cells() as u32;
    1 + 4 * c + 2 * c * c
}

/// OpenSpiel's `max_game_length` of a game cut off after `max_throws`
/// throws: each throw is a chance node and one play.
pub const fn max_game_length(max_throws: u32) -> u64 {
    2 * max_throws as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_of_the_danish_and_smallest_boards() {
        assert_eq!(num_actions(Board::DANISH), 1 + 4 * 49 + 2 * 49 * 49);
        assert_eq!(num_actions(Board::new(4).unwrap()), 391);
        assert_eq!(max_game_length(DEFAULT_MAX_THROWS), 10_000);
        assert_eq!(max_game_length(u32::MAX), 2 * u64::from(u32::MAX));
    }
}
