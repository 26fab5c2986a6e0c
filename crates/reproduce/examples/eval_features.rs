//! Writes training data for the evaluation weights (`eval.rs`): plays
//! `GAMES` games of engine:1 against greedy (alternating starts) from the
//! Danish start, seeded by `(SEED, game)`, and prints one CSV line per
//! position before a throw: `won,f0,..,f4` where `won` is 1 if the side to
//! move went on to win and the features are, for the side to move X
//! against Y with `s = sqrt(nX + nY)`: `(nX - nY) / s`, X's threat (`any`)
//! / s, Y's threat / s, the difference of dalt pieces (each capped at 8),
//! and the race difference. `scripts/daldos_fit_eval.py` fits the logistic
//! weights.
//!
//!     cargo run --release -p dalkon-reproduce --example eval_features -- 3000 777 > feat.csv

use dalkon_daldos::engine::threat;
use dalkon_daldos::engine::Daldos;
use dalkon_daldos::engine::Game;
use dalkon_daldos::engine::Rng;
use dalkon_daldos::engine::{EnginePlayer, GreedyPlayer, Player};
use dalkon_rules::daldos::{Board, Position, Side, Throw};
use rayon::prelude::*;

fn features(p: &Position) -> [f64; 5] {
    let x = p.side_to_move();
    let y = x.other();
    let (nx, ny) = (p.count(x) as f64, p.count(y) as f64);
    let s = (nx + ny).sqrt();
    let dalt = |side: Side| f64::from((p.mask(side) & !p.undalt_mask()).count_ones().min(8));
    let b = p.board();
    let l = u32::from(b.len());
    let progress = |side: Side| {
        let sum: u32 = p
            .pieces(side)
            .map(|h| u32::from(b.path_index(side, h)).min(l))
            .sum();
        f64::from(sum) / (p.count(side) as f64 * f64::from(l))
    };
    [
        (nx - ny) / s,
        threat(p, x).any / s,
        threat(p, y).any / s,
        dalt(x) - dalt(y),
        progress(x) - progress(y),
    ]
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|s| s.parse().expect("usage: eval_features GAMES SEED"))
        .collect();
    let (games, seed) = (args[0], args[1]);
    let game = Daldos::default();
    let engine = EnginePlayer::new(1);
    let rows: Vec<String> = (0..games)
        .into_par_iter()
        .flat_map_iter(|g| {
            let mut rng = Rng::for_index(seed, g);
            let mut pos = Position::start(Board::DANISH);
            let players: [&dyn Player<Daldos>; 2] = if g % 2 == 0 {
                [&engine, &GreedyPlayer]
            } else {
                [&GreedyPlayer, &engine]
            };
            let mut seen = Vec::new();
            while game.winner(&pos).is_none() && seen.len() < 3000 {
                seen.push((pos.side_to_move(), features(&pos)));
                let throw = Throw::ALL[rng.below(16) as usize];
                let mut plays = game.plays(&pos, throw);
                let k = if plays.len() > 1 {
                    players[pos.side_to_move().index()].choose(&game, &pos, &plays, &mut rng)
                } else {
                    0
                };
                pos = plays.swap_remove(k).1;
            }
            let winner = game.winner(&pos);
            seen.into_iter().filter_map(move |(side, f)| {
                winner.map(|w| {
                    let won = u8::from(usize::from(w) == side.index());
                    format!("{won},{},{},{},{},{}", f[0], f[1], f[2], f[3], f[4])
                })
            })
        })
        .collect();
    for r in rows {
        println!("{r}");
    }
}
