//! Players for match play: `random`, `greedy`, `engine:N` (the default
//! evaluation, the learned one), `hand:N` (the hand-fitted evaluation)
//! and `perfect` (docs/cli.md, `daldos match`; the perfect player is in
//! `perfect.rs`).

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use dalkon_rules::daldos::{Play, Position, Side, Variants};

use crate::capture::capture_risk_f64;
use crate::engine::daldos::Daldos;
use crate::engine::game::Game;
use crate::engine::perfect::{best_by_tables, check_coverage, PerfectError};
use crate::engine::rng::Rng;
use crate::engine::search::{SearchOptions, Searcher, MAX_DEPTH};
use crate::solved::Tables;

/// Something that picks a play. Called only when there are at least two.
pub trait Player<G: Game>: Sync + fmt::Debug {
    /// The index in `plays` (all plays of the throw just made in `pos`) of
    /// the play to make. Any randomness must come from `rng`.
    fn choose(&self, game: &G, pos: &G::Pos, plays: &[(G::Play, G::Pos)], rng: &mut Rng) -> usize;
}

/// Picks a play uniformly at random.
#[derive(Debug, Clone, Copy, Default)]
pub struct RandomPlayer;

impl<G: Game> Player<G> for RandomPlayer {
    fn choose(&self, _: &G, _: &G::Pos, plays: &[(G::Play, G::Pos)], rng: &mut Rng) -> usize {
        rng.below(plays.len() as u64) as usize
    }
}

/// Expectiminimax to a fixed depth (a fresh single-threaded search per
/// move, so games can run in parallel and stay deterministic).
#[derive(Debug, Clone, Copy)]
pub struct EnginePlayer {
    /// The search settings; `opts.depth` is the depth.
    pub opts: SearchOptions,
}

impl EnginePlayer {
    /// An engine searching `depth` throws with the default settings.
    pub fn new(depth: u32) -> EnginePlayer {
        EnginePlayer {
            opts: SearchOptions {
                depth,
                ..SearchOptions::default()
            },
        }
    }
}

impl<G: Game> Player<G> for EnginePlayer {
    fn choose(&self, game: &G, pos: &G::Pos, plays: &[(G::Play, G::Pos)], _: &mut Rng) -> usize {
        Searcher::new(game, self.opts)
            .best_play(pos, plays, self.opts.depth)
            .0
    }
}

/// [`EnginePlayer`] with the hand-fitted evaluation (`EvalWeights`, the
/// engine before the learned one), whatever game it is handed.
#[derive(Debug, Clone)]
pub struct HandPlayer {
    /// The search.
    pub engine: EnginePlayer,
    /// The game searched: the game handed, with the hand-fitted evaluation.
    pub game: Daldos,
}

impl HandPlayer {
    /// `hand:depth` for games of `game`.
    pub fn new(game: &Daldos, depth: u32) -> HandPlayer {
        HandPlayer {
            engine: EnginePlayer::new(depth),
            game: game.clone().hand(),
        }
    }
}

impl Player<Daldos> for HandPlayer {
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

/// Captures when it can (the most pieces; among those the play leaving its
/// own pieces least exposed), otherwise the play that leaves its own
/// pieces least exposed. Exposure is the sum over its own pieces of the
/// probability that the opponent's next throw captures them, from
/// [`capture_risk_f64`] (no rethrows followed). Ties go to the first play.
#[derive(Debug, Clone, Copy, Default)]
pub struct GreedyPlayer;

impl GreedyPlayer {
    /// Sum of the capture risks of `mover`'s pieces in `result`, with the
    /// opponent to throw.
    pub fn exposure(game: &Daldos, mover: Side, result: &Position) -> f64 {
        let facing = result.with_side_to_move(mover.other());
        capture_risk_f64(&facing, &game.variants)
            .iter()
            .map(|&(_, r)| r)
            .sum()
    }
}

impl Player<Daldos> for GreedyPlayer {
    fn choose(
        &self,
        game: &Daldos,
        pos: &Position,
        plays: &[(Play, Position)],
        _: &mut Rng,
    ) -> usize {
        let mover = pos.side_to_move();
        let mut best = 0;
        let mut best_key = (0usize, f64::NEG_INFINITY);
        for (i, (play, result)) in plays.iter().enumerate() {
            let key = (play.captures(), -Self::exposure(game, mover, result));
            if key.0 > best_key.0 || (key.0 == best_key.0 && key.1 > best_key.1) {
                best = i;
                best_key = key;
            }
        }
        best
    }
}

/// Plays the tables' best play (ties: the generator's first). Make it with
/// [`PerfectPlayer::for_game`], which checks that the tables cover the
/// game.
#[derive(Debug, Clone)]
pub struct PerfectPlayer {
    tables: Arc<Tables>,
}

impl PerfectPlayer {
    /// The perfect player of `tables`, not checked against a game: it
    /// ranks plays the tables do not cover last.
    pub fn new(tables: Arc<Tables>) -> PerfectPlayer {
        PerfectPlayer { tables }
    }

    /// The perfect player for games under `variants` from `start`, refused
    /// unless `tables` cover every position such a game reaches.
    pub fn for_game(
        tables: Arc<Tables>,
        variants: &Variants,
        start: &Position,
    ) -> Result<PerfectPlayer, PerfectError> {
        check_coverage(Some(&tables), variants, start)?;
        Ok(PerfectPlayer { tables })
    }

    /// Its tables.
    pub fn tables(&self) -> &Arc<Tables> {
        &self.tables
    }
}

impl Player<Daldos> for PerfectPlayer {
    fn choose(&self, _: &Daldos, pos: &Position, plays: &[(Play, Position)], _: &mut Rng) -> usize {
        best_by_tables(&self.tables, pos, plays).0
    }
}

/// A player named on the command line: `random`, `greedy`, `engine:N`,
/// `hand:N` or `perfect` (`learned:N`, the name `engine:N` had before the
/// learned evaluation was the default, still reads as `engine:N`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayerSpec {
    /// [`RandomPlayer`].
    Random,
    /// [`GreedyPlayer`].
    Greedy,
    /// [`EnginePlayer`] searching this many throws, the game's own
    /// (default: learned) evaluation.
    Engine(u32),
    /// [`HandPlayer`] searching this many throws.
    Hand(u32),
    /// [`PerfectPlayer`]: the best play by the solved tables.
    Perfect,
}

/// Why a player name was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayerSpecError {
    /// Not `random`, `greedy`, `engine:N`, `hand:N` or `perfect`.
    #[error("unknown player {0:?}: expected random, greedy, engine:N, hand:N or perfect")]
    Unknown(String),
    /// `engine:N` or `hand:N` with `N` not a number in `1..=MAX_DEPTH`.
    #[error("bad engine depth {0:?}: expected a number from 1 to {MAX_DEPTH}")]
    Depth(String),
}

impl FromStr for PlayerSpec {
    type Err = PlayerSpecError;

    fn from_str(s: &str) -> Result<PlayerSpec, PlayerSpecError> {
        match s {
            "random" => Ok(PlayerSpec::Random),
            "greedy" => Ok(PlayerSpec::Greedy),
            "perfect" => Ok(PlayerSpec::Perfect),
            _ => {
                let (n, make): (&str, fn(u32) -> PlayerSpec) = if let Some(n) = s
                    .strip_prefix("engine:")
                    .or_else(|| s.strip_prefix("learned:"))
                {
                    (n, PlayerSpec::Engine)
                } else if let Some(n) = s.strip_prefix("hand:") {
                    (n, PlayerSpec::Hand)
                } else {
                    return Err(PlayerSpecError::Unknown(dalkon_rules::excerpt(s)));
                };
                match n.parse::<u32>() {
                    Ok(d) if (1..=MAX_DEPTH).contains(&d) => Ok(make(d)),
                    _ => Err(PlayerSpecError::Depth(dalkon_rules::excerpt(n))),
                }
            }
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => write!(f, "random"),
            PlayerSpec::Greedy => write!(f, "greedy"),
            PlayerSpec::Engine(d) => write!(f, "engine:{d}"),
            PlayerSpec::Hand(d) => write!(f, "hand:{d}"),
            PlayerSpec::Perfect => write!(f, "perfect"),
        }
    }
}

impl PlayerSpec {
    /// Whether this player plays from solved tables (`perfect`).
    pub fn needs_tables(self) -> bool {
        self == PlayerSpec::Perfect
    }

    /// The Daldøs player this names, for games of `game` from `start`.
    /// Only `perfect` uses `tables`, and is refused unless they cover every
    /// position such a game can reach (the error names the command that
    /// builds them); the others never fail.
    pub fn build(
        self,
        game: &Daldos,
        start: &Position,
        tables: Option<&Arc<Tables>>,
    ) -> Result<Box<dyn Player<Daldos>>, PerfectError> {
        Ok(match self {
            PlayerSpec::Random => Box::new(RandomPlayer),
            PlayerSpec::Greedy => Box::new(GreedyPlayer),
            PlayerSpec::Engine(d) => Box::new(EnginePlayer::new(d)),
            PlayerSpec::Hand(d) => Box::new(HandPlayer::new(game, d)),
            PlayerSpec::Perfect => {
                // No tables: empty ones, refused unless the game is over.
                let tables = match tables {
                    Some(t) => Arc::clone(t),
                    None => Arc::new(Tables::new(start.board(), game.variants, None)),
                };
                Box::new(PerfectPlayer::for_game(tables, &game.variants, start)?)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::game::Game;
    use dalkon_rules::daldos::Throw;

    #[test]
    fn greedy_captures_and_otherwise_hides() {
        let game = Daldos::default();
        // b on M4 can take a on M3 with the 1; b on B1 spends the 2.
        let pos: Position = "....../...ab../b..... b".parse().unwrap();
        let throw: Throw = "1,2".parse().unwrap();
        let plays = game.plays(&pos, throw);
        let i = GreedyPlayer.choose(&game, &pos, &plays, &mut Rng::new(0));
        assert_eq!(plays[i].0.captures(), 1);
        // No capture in reach: the chosen play leaves B least exposed.
        let pos: Position = "....../a...b../b..... b".parse().unwrap();
        let plays = game.plays(&pos, throw);
        let i = GreedyPlayer.choose(&game, &pos, &plays, &mut Rng::new(0));
        let exposure = |k: usize| GreedyPlayer::exposure(&game, Side::B, &plays[k].1);
        assert!(plays.iter().all(|(p, _)| p.captures() == 0));
        assert!((0..plays.len()).all(|k| exposure(i) <= exposure(k)));
        assert!((0..plays.len()).any(|k| exposure(i) < exposure(k)));
    }

    /// `engine:N` searches the game's evaluation (the learned one by
    /// default), `hand:N` the hand-fitted one: they value the start
    /// differently, each as its evaluation does.
    #[test]
    fn engine_is_learned_and_hand_is_hand_fitted() {
        let game = Daldos::default();
        assert!(game.learned.is_some());
        let hand = HandPlayer::new(&game, 1);
        assert!(hand.game.learned.is_none());
        assert_eq!(
            hand.game.weights,
            crate::engine::eval::EvalWeights::default()
        );
        let start = Position::start(dalkon_rules::daldos::Board::DANISH);
        let learned = game.evaluate(&start);
        let fitted = hand.game.evaluate(&start);
        assert!((learned - 0.528564).abs() < 1e-6, "{learned}");
        assert!((fitted - learned).abs() > 0.01, "{fitted} {learned}");
    }

    #[test]
    fn specs_parse_and_print() {
        for s in [
            "random", "greedy", "engine:1", "engine:3", "hand:2", "perfect",
        ] {
            assert_eq!(s.parse::<PlayerSpec>().unwrap().to_string(), s);
        }
        // The old name of the learned engine reads as the default engine.
        assert_eq!("learned:2".parse::<PlayerSpec>(), Ok(PlayerSpec::Engine(2)));
        assert_eq!(
            "hand:0".parse::<PlayerSpec>(),
            Err(PlayerSpecError::Depth("0".into()))
        );
        assert_eq!(
            "engine:0".parse::<PlayerSpec>(),
            Err(PlayerSpecError::Depth("0".into()))
        );
        assert!("engine:x".parse::<PlayerSpec>().is_err());
        assert!("engine:9".parse::<PlayerSpec>().is_err());
        assert_eq!(
            "minimax".parse::<PlayerSpec>(),
            Err(PlayerSpecError::Unknown("minimax".into()))
        );
    }
}
