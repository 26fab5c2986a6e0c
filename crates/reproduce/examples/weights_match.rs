//! Matches between engines with different evaluation weights (and greedy)
//! on any board, for checking a refit of `EvalWeights` beyond the boards
//! it was fitted on:
//!
//!     cargo run --release -p dalkon-reproduce --example weights_match -- BOARD DEPTH GAMES SEED A B
//!
//! `A` and `B` are `greedy`, `engine` (the default, learned evaluation),
//! `hand` (the hand-fitted one), `net:FILE` (the learned evaluation with
//! the weights of a `daldos train --out FILE`), `games`
//! (`EvalWeights::GAMES_FIT`), `exact` (`EvalWeights::EXACT_FIT`) or five
//! weights `M,D,A,DALT,RACE`; prints the
//! result of `play_match` (a starts the even games).

use dalkon_daldos::engine::learn::Net;
use dalkon_daldos::engine::{
    play_match, Daldos, EnginePlayer, EvalWeights, GreedyPlayer, MatchConfig, Player, Rng,
};
use dalkon_rules::daldos::{Board, Play, Position};
use std::sync::Arc;

/// An engine searching with its own weights.
#[derive(Debug)]
struct Weighted {
    engine: EnginePlayer,
    game: Daldos,
}

impl Player<Daldos> for Weighted {
    fn choose(
        &self,
        _: &Daldos,
        pos: &Position,
        plays: &[(Play, Position)],
        rng: &mut Rng,
    ) -> usize {
        self.engine.choose(&self.game, pos, plays, rng)
    }
}

fn player(text: &str, depth: u32) -> Box<dyn Player<Daldos>> {
    let engine = |game: Daldos| -> Box<dyn Player<Daldos>> {
        Box::new(Weighted {
            engine: EnginePlayer::new(depth),
            game,
        })
    };
    if let Some(path) = text.strip_prefix("net:") {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let net = Net::from_bytes(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
        return engine(Daldos::default().with_learned(Arc::new(net)));
    }
    let w = match text {
        "greedy" => return Box::new(GreedyPlayer),
        "engine" => return engine(Daldos::default()),
        "hand" => return engine(Daldos::default().hand()),
        "games" => EvalWeights::GAMES_FIT,
        "exact" => EvalWeights::EXACT_FIT,
        _ => {
            let x: Vec<f64> = text
                .split(',')
                .map(|t| t.parse().expect("a number"))
                .collect();
            EvalWeights {
                material: x[0],
                defend: x[1],
                attack: x[2],
                dalt: x[3],
                dalt_cap: 8,
                race: x[4],
            }
        }
    };
    Box::new(Weighted {
        engine: EnginePlayer::new(depth),
        game: Daldos::default().with_weights(w),
    })
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    assert_eq!(
        a.len(),
        6,
        "usage: weights_match BOARD DEPTH GAMES SEED A B"
    );
    let board = Board::from_name(&a[0]).expect("a board");
    let depth: u32 = a[1].parse().expect("a depth");
    let cfg = MatchConfig {
        games: a[2].parse().expect("games"),
        seed: a[3].parse().expect("a seed"),
        ..MatchConfig::default()
    };
    let (pa, pb) = (player(&a[4], depth), player(&a[5], depth));
    let t0 = std::time::Instant::now();
    let r = play_match(
        &Daldos::default(),
        &Position::start(board),
        pa.as_ref(),
        pb.as_ref(),
        cfg,
        &|| {},
    );
    println!(
        "{} vs {} on {}, depth {depth}, {} games, seed {}: a wins {} ({:.3} [{:.3}, {:.3}]), b wins {}, capped {}, {:.0} s",
        a[4],
        a[5],
        board.name(),
        r.games,
        cfg.seed,
        r.a_wins,
        r.a_win_rate,
        r.ci95.0,
        r.ci95.1,
        r.b_wins,
        r.capped,
        t0.elapsed().as_secs_f64()
    );
}
