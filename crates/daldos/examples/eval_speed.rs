//! Evaluations per second of the hand-fitted and the learned evaluation
//! (docs/daldos-eval.md), on positions of seeded random games on the
//! Danish and Norwegian boards, one thread:
//!
//!     cargo run --release -p dalkon-daldos --example eval_speed

use std::time::Instant;

use dalkon_daldos::engine::learn::builtin;
use dalkon_daldos::engine::{Daldos, Game, Rng};
use dalkon_rules::daldos::{Board, Position, Throw};

fn positions(game: &Daldos, board: Board, n: usize) -> Vec<Position> {
    let mut rng = Rng::new(7);
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Position::start(board);
        while game.winner(&pos).is_none() && out.len() < n {
            out.push(pos);
            let throw = Throw::ALL[rng.below(16) as usize];
            let mut plays = game.plays(&pos, throw);
            let i = rng.below(plays.len() as u64) as usize;
            pos = plays.swap_remove(i).1;
        }
    }
    out
}

fn main() {
    let hand = Daldos::default().hand();
    let learned = Daldos::default().with_learned(builtin());
    for board in [Board::DANISH, Board::NORWEGIAN] {
        let ps = positions(&hand, board, 20_000);
        for (name, g) in [("hand-fitted", &hand), ("learned", &learned)] {
            let t0 = Instant::now();
            let mut sum = 0.0;
            let rounds = 25;
            for _ in 0..rounds {
                for p in &ps {
                    sum += g.evaluate(p);
                }
            }
            let s = t0.elapsed().as_secs_f64();
            let n = (rounds * ps.len()) as f64;
            println!(
                "{:<9} {name:<11} {:>10.0} evaluations/s ({:.0} ns each; mean W {:.4})",
                board.name(),
                n / s,
                1e9 * s / n,
                sum / n
            );
        }
    }
}
