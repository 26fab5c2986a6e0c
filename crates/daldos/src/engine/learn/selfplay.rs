//! Refinement by self-play on full boards (issue 21 §1b): rounds of games
//! of the current net against itself (depth 1, one play in
//! [`SelfPlayConfig::explore`] at random), every position before a throw
//! valued by a TD(λ)-like target — `(1 − λ)` times its depth-1 search
//! value with the current net plus `λ` times the game's outcome for the
//! side to throw — then a few epochs on those positions together with a
//! fixed share of exact samples from the tables (so that the endgames are
//! not forgotten), starting from the current weights.
//!
//! Seeded like the rest: game `g` of round `r` plays from
//! `Rng::for_index(seed + r, g)`, positions and targets are computed in
//! parallel but collected in order, training runs on one thread.

use std::sync::Arc;

use rayon::prelude::*;

use dalkon_rules::daldos::{Board, Position, Throw};

use super::features::inputs;
use super::net::Net;
use super::train::{train_from, EpochReport, Sample, TrainConfig};
use crate::engine::daldos::Daldos;
use crate::engine::game::Game;
use crate::engine::rng::Rng;
use crate::engine::search::{SearchOptions, Searcher};
use crate::solved::Tables;

/// How to refine.
#[derive(Debug, Clone, PartialEq)]
pub struct SelfPlayConfig {
    /// Rounds of games and training.
    pub rounds: u32,
    /// Games per board and round.
    pub games: u32,
    /// The full boards played.
    pub boards: Vec<Board>,
    /// One play in this many is random (exploration).
    pub explore: u64,
    /// Weight of the game's outcome in the target (the rest is the depth-1
    /// value).
    pub lambda: f64,
    /// Exact samples from the tables mixed into each round's training.
    pub exact: usize,
    /// Epochs per round.
    pub epochs: u32,
    /// Adam's step size.
    pub lr: f32,
    /// The seed.
    pub seed: u64,
    /// Throws the players search in the games.
    pub play_depth: u32,
    /// Throws searched for the target's value.
    pub target_depth: u32,
    /// Whether the games' searches and targets take the solved tables'
    /// values wherever they cover a position (the exact value is then the
    /// target), when [`refine`] is given tables.
    pub use_tables: bool,
}

impl Default for SelfPlayConfig {
    /// 12 rounds of 1000 games on each of the Danish and Norwegian boards,
    /// one play in 8 at random, λ = 0.2, 100 000 exact samples, 2 epochs a
    /// round at step 0.0005, seed 1 (the settings measured best of those
    /// tried: docs/daldos-eval.md, "Trying other training settings").
    fn default() -> Self {
        SelfPlayConfig {
            rounds: 12,
            games: 1000,
            boards: vec![Board::DANISH, Board::NORWEGIAN],
            explore: 8,
            lambda: 0.2,
            exact: 100_000,
            epochs: 2,
            lr: 0.0005,
            seed: 1,
            play_depth: 1,
            target_depth: 1,
            use_tables: false,
        }
    }
}

/// What a round did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RoundReport {
    /// The round, from 1.
    pub round: u32,
    /// Positions from its games.
    pub positions: usize,
    /// Mean absolute difference between the net's value before the round
    /// and the target, over those positions.
    pub td_error: f64,
    /// The last epoch of its training.
    pub last_epoch: Option<EpochReport>,
}

/// One game of `game` against itself from the start of `board`: the
/// positions before each throw and, for each, whether its side to throw
/// won (`None`: stopped at the cap).
fn self_play_game(
    game: &Daldos,
    board: Board,
    explore: u64,
    depth: u32,
    mut rng: Rng,
) -> Vec<(Position, f32)> {
    let opts = SearchOptions {
        depth,
        ..SearchOptions::default()
    };
    let mut pos = Position::start(board);
    let mut seen = Vec::new();
    while game.winner(&pos).is_none() && seen.len() < 3000 {
        seen.push(pos);
        let throw = Throw::ALL[rng.below(16) as usize];
        let mut plays = game.plays(&pos, throw);
        let i = if plays.len() < 2 {
            0
        } else if rng.below(explore.max(1)) == 0 {
            rng.below(plays.len() as u64) as usize
        } else {
            Searcher::new(game, opts).best_play(&pos, &plays, depth).0
        };
        pos = plays.swap_remove(i).1;
    }
    let winner = game.winner(&pos);
    seen.into_iter()
        .map(|p| {
            let z = match winner {
                None => 0.5,
                Some(w) if w == game.to_move(&p) => 1.0,
                Some(_) => 0.0,
            };
            (p, z)
        })
        .collect()
}

/// Refine `net` by self-play (module documentation), mixing in `exact`
/// (samples from the tables, of which the first `cfg.exact` after a seeded
/// shuffle are used). With [`SelfPlayConfig::use_tables`], the games of a
/// board among `tables`' are searched with them. `progress` hears of
/// every round.
pub fn refine(
    mut net: Net,
    exact: &[Sample],
    tables: &[Arc<Tables>],
    cfg: &SelfPlayConfig,
    progress: &mut dyn FnMut(&RoundReport),
) -> Net {
    let mut rng = Rng::new(cfg.seed ^ 0x5e1f_91a7);
    let mut pool: Vec<Sample> = exact.to_vec();
    for i in (1..pool.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        pool.swap(i, j);
    }
    pool.truncate(cfg.exact);
    let variants = Daldos::default().variants;
    for round in 1..=cfg.rounds {
        let shared = Arc::new(net.clone());
        let game_of = |board: Board| -> Daldos {
            match tables.iter().find(|t| t.board() == board) {
                Some(t) if cfg.use_tables => Daldos::with_tables(Arc::clone(t)),
                _ => Daldos::default(),
            }
            .with_learned(Arc::clone(&shared))
        };
        let games_of: Vec<(Board, Daldos)> = cfg.boards.iter().map(|&b| (b, game_of(b))).collect();
        let game_for = |board: Board| -> &Daldos {
            &games_of
                .iter()
                .find(|(b, _)| *b == board)
                .expect("a board played")
                .1
        };
        let mut positions: Vec<(Position, f32)> = Vec::new();
        for (b, &board) in cfg.boards.iter().enumerate() {
            let game = game_for(board);
            let games: Vec<Vec<(Position, f32)>> = (0..cfg.games)
                .into_par_iter()
                .map(|g| {
                    let index = u64::from(g) + u64::from(cfg.games) * b as u64;
                    let rng = Rng::for_index(cfg.seed + u64::from(round), index);
                    self_play_game(game, board, cfg.explore, cfg.play_depth, rng)
                })
                .collect();
            positions.extend(games.into_iter().flatten());
        }
        let opts = SearchOptions {
            depth: cfg.target_depth,
            ..SearchOptions::default()
        };
        let lambda = cfg.lambda;
        let valued: Vec<(Sample, f64)> = positions
            .par_iter()
            .map(|(p, z)| {
                let game = game_for(p.board());
                let x = inputs(p, &variants);
                let t = match game.tables.as_ref().and_then(|t| t.bounds(p)) {
                    Some(b) => b.value(),
                    None => {
                        let v = Searcher::new(game, opts).value(p, cfg.target_depth, 0.0, 1.0);
                        (1.0 - lambda) * v + lambda * f64::from(*z)
                    }
                };
                let before = net.value(&x);
                (Sample { x, w: t as f32 }, (before - t).abs())
            })
            .collect();
        let td_error = valued.iter().map(|(_, e)| e).sum::<f64>() / valued.len().max(1) as f64;
        let mut data: Vec<Sample> = valued.into_iter().map(|(s, _)| s).collect();
        let n = data.len();
        data.extend_from_slice(&pool);
        let tc = TrainConfig {
            hidden: net.hidden,
            epochs: cfg.epochs,
            batch: 64,
            lr: cfg.lr,
            seed: cfg.seed,
        };
        let mut last = None;
        net = train_from(net, &data, &tc, &mut rng, &mut |e| last = Some(*e));
        progress(&RoundReport {
            round,
            positions: n,
            td_error,
            last_epoch: last,
        });
    }
    net
}
