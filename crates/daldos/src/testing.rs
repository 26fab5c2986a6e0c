//! Helpers shared by the unit tests.

use dalkon_rules::daldos::{plays, Board, Position, Throw, Variants};

use crate::engine::rng::Rng;

/// The positions of random play on `board` under the default rules:
/// `games` games of at most `turns` throws, dice and choices drawn from
/// the crate's `Rng` seeded with `seed`. Every position reached whose game
/// is not over, in order.
pub(crate) fn random_positions(
    board: Board,
    games: usize,
    turns: usize,
    seed: u64,
) -> Vec<Position> {
    let v = Variants::default();
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = Position::start(board);
        for _ in 0..turns {
            let throw = Throw::ALL[rng.below(16) as usize];
            let moves = plays(&p, &v, throw);
            if moves.is_empty() {
                break;
            }
            p = moves[rng.below(moves.len() as u64) as usize].result;
            if p.is_over(&v) {
                break;
            }
            out.push(p);
        }
    }
    out
}
