//! Rollouts (gnubg's check of an evaluation): the value of a position
//! estimated by seeded games of a player against itself from it.
//!
//! Game `k` from any start draws all its dice (and any random choice of
//! the player) from `Rng::for_index(seed, k)` alone, so that a rollout's
//! result does not depend on the thread count, and the k-th games of
//! several starts (the plays of one throw) share their dice: common random
//! numbers, which make the differences between the starts' means less
//! noisy than the means themselves.
//!
//! A game ends when it is won, when it reaches a position whose exact
//! value the game knows ([`Game::known`], Daldøs's solved tables: that
//! value is taken), or at the turn cap (counted as a half, won by
//! neither).

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::engine::game::Game;
use crate::engine::players::Player;
use crate::engine::rng::Rng;
use crate::engine::session::draw_throw;

/// How one rollout game ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RolloutGame {
    /// The win value of the side asked about: 1 or 0 for a finished game,
    /// the exact value where the game knew it, 0.5 when capped.
    pub value: f64,
    /// The game stopped at a position of known exact value.
    pub known: bool,
    /// The game reached the turn cap.
    pub capped: bool,
}

/// The mean of a rollout's games with its standard error.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RolloutSummary {
    /// Games played.
    pub games: u32,
    /// The mean value.
    pub mean: f64,
    /// The standard error of the mean: the sample standard deviation
    /// (divided by `games - 1`) over √games; 0 for one game.
    pub stderr: f64,
    /// Games that ended in a position of known exact value.
    pub known: u32,
    /// Games stopped at the turn cap.
    pub capped: u32,
}

impl RolloutSummary {
    /// The summary of `games` (in index order, summed in that order).
    pub fn of(games: &[RolloutGame]) -> RolloutSummary {
        let n = games.len();
        let mean = games.iter().map(|g| g.value).sum::<f64>() / n.max(1) as f64;
        let stderr = if n > 1 {
            let ss: f64 = games.iter().map(|g| (g.value - mean).powi(2)).sum();
            (ss / (n - 1) as f64 / n as f64).sqrt()
        } else {
            0.0
        };
        RolloutSummary {
            games: n as u32,
            mean,
            stderr,
            known: games.iter().filter(|g| g.known).count() as u32,
            capped: games.iter().filter(|g| g.capped).count() as u32,
        }
    }
}

/// One game from `start` with `player` playing both sides, dice from
/// `rng`: its value for `side` (module documentation).
pub fn rollout_game<G: Game>(
    game: &G,
    start: &G::Pos,
    side: u8,
    player: &dyn Player<G>,
    rng: &mut Rng,
    turn_cap: u32,
) -> RolloutGame {
    let mut pos = start.clone();
    let of = |value: f64, mover: u8| if mover == side { value } else { 1.0 - value };
    for _ in 0..turn_cap {
        if let Some(w) = game.winner(&pos) {
            return RolloutGame {
                value: if w == side { 1.0 } else { 0.0 },
                known: false,
                capped: false,
            };
        }
        if let Some(k) = game.known(&pos).filter(|k| k.exact) {
            return RolloutGame {
                value: of(k.value, game.to_move(&pos)),
                known: true,
                capped: false,
            };
        }
        let throw = draw_throw(game, rng);
        let mut plays = game.plays(&pos, throw);
        let i = if plays.len() == 1 {
            0
        } else {
            player.choose(game, &pos, &plays, rng)
        };
        pos = plays.swap_remove(i).1;
    }
    match game.winner(&pos) {
        Some(w) => RolloutGame {
            value: if w == side { 1.0 } else { 0.0 },
            known: false,
            capped: false,
        },
        None => RolloutGame {
            value: 0.5,
            known: false,
            capped: true,
        },
    }
}

/// `games` games from each of `starts`, game `k` of every start with the
/// dice of `Rng::for_index(seed, k)`, valued for `side`; `done` is called
/// after each game (from any thread). All the games run in parallel (on
/// the current rayon pool); `None` once `stop` is raised (read before
/// each game).
pub fn rollout<G: Game>(
    game: &G,
    starts: &[G::Pos],
    side: u8,
    player: &dyn Player<G>,
    (games, seed, turn_cap): (u32, u64, u32),
    done: &(dyn Fn() + Sync),
    stop: Option<&AtomicBool>,
) -> Option<Vec<RolloutSummary>> {
    let n = games as usize;
    let all: Option<Vec<RolloutGame>> = (0..starts.len() * n)
        .into_par_iter()
        .map(|j| {
            if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                return None;
            }
            let mut rng = Rng::for_index(seed, (j % n) as u64);
            let g = rollout_game(game, &starts[j / n], side, player, &mut rng, turn_cap);
            done();
            Some(g)
        })
        .collect();
    Some(all?.chunks(n.max(1)).map(RolloutSummary::of).collect())
}
