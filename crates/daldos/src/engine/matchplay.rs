//! Seeded, replayable matches between two players (docs/cli.md, `daldos match`).
//!
//! Game `i` of a match is a [`Session`] (the game loop `daldos game`
//! shares) drawing all its dice and random choices from
//! `Rng::for_index(seed, i)`, and player `a` takes the side that starts in
//! even-numbered games, `b` in odd ones. Games run in parallel with rayon;
//! since each depends only on `(seed, i)` and the players are deterministic
//! functions of their inputs, the result is the same for any thread count.
//!
//! A game that reaches `turn_cap` throws without a winner is stopped
//! and counted as `capped` (a win for neither player).
//!
//! [`play_match_with_stop`] also takes a flag another thread may raise (a
//! Ctrl-C handler): every game reads it before each throw and the match
//! then ends without a result. The flag is only read, so a match that
//! finished before it was raised is the same as without it.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::engine::game::Game;
use crate::engine::players::Player;
use crate::engine::rng::Rng;
use crate::engine::session::{Session, Status};

/// Match settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchConfig {
    /// Number of games.
    pub games: u32,
    /// Seed of the whole match.
    pub seed: u64,
    /// Throws after which an unfinished game is stopped.
    pub turn_cap: u32,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig {
            games: 1000,
            seed: 1,
            turn_cap: 5000,
        }
    }
}

/// How one game went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameRecord {
    /// The winner: 0 for player `a`, 1 for `b`, `None` if capped.
    pub winner: Option<u8>,
    /// Whether `a` started (had the side to move in the start position).
    pub a_first: bool,
    /// Throws made (dal-dal rethrows included).
    pub turns: u32,
}

/// The outcome of a match.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchResult {
    /// Games played.
    pub games: u32,
    /// Games won by `a`.
    pub a_wins: u32,
    /// Games won by `b`.
    pub b_wins: u32,
    /// Games stopped at the turn cap.
    pub capped: u32,
    /// `a_wins / games`.
    pub a_win_rate: f64,
    /// Wilson 95% interval for `a`'s win rate.
    pub ci95: (f64, f64),
    /// Games won by whoever started.
    pub first_player_wins: u32,
    /// `first_player_wins / games`.
    pub first_player_win_rate: f64,
    /// Mean throws per game.
    pub mean_turns: f64,
    /// Every game, in index order.
    pub records: Vec<GameRecord>,
}

/// Play one game from `start`: `first` plays the side to move in `start`,
/// `second` the other. Returns the winner (0 = `first`, 1 = `second`;
/// `None` if capped) and the throws made.
pub fn play_game<G: Game>(
    game: &G,
    start: &G::Pos,
    first: &dyn Player<G>,
    second: &dyn Player<G>,
    rng: &mut Rng,
    turn_cap: u32,
) -> (Option<u8>, u32) {
    let never = AtomicBool::new(false);
    let (winner, turns, _) = game_until(game, start, first, second, rng, turn_cap, &never)
        .expect("a flag nobody raises stops nothing");
    (winner, turns)
}

/// [`play_game`], or `None` once `stop` is raised (read before each throw);
/// with the game's throws and plays.
fn game_until<G: Game>(
    game: &G,
    start: &G::Pos,
    first: &dyn Player<G>,
    second: &dyn Player<G>,
    rng: &mut Rng,
    turn_cap: u32,
    stop: &AtomicBool,
) -> Option<(Option<u8>, u32, Turns<G>)> {
    let first_side = game.to_move(start);
    let mut seats = [Some(first), Some(second)];
    if first_side == 1 {
        seats.swap(0, 1);
    }
    let mut session = Session::new(game, start.clone(), seats, rng.clone(), turn_cap);
    let outcome = session.run(&|| stop.load(Ordering::Relaxed));
    *rng = session.rng().clone();
    let (winner, turns) = outcome?;
    Some((
        winner.map(|w| u8::from(w != first_side)),
        turns,
        session.turns().to_vec(),
    ))
}

/// The throws and plays of game `index` of a match of `cfg` between `a`
/// and `b` from `start` (as [`play_match`] plays it: `a` starts in even
/// games), in order.
pub fn match_game_moves<G: Game>(
    game: &G,
    start: &G::Pos,
    a: &dyn Player<G>,
    b: &dyn Player<G>,
    cfg: MatchConfig,
    index: u32,
) -> Vec<(G::Throw, G::Play)> {
    let (first, second) = if index % 2 == 0 { (a, b) } else { (b, a) };
    let mut seats = [Some(first), Some(second)];
    if game.to_move(start) == 1 {
        seats.swap(0, 1);
    }
    let rng = Rng::for_index(cfg.seed, u64::from(index));
    let mut session = Session::new(game, start.clone(), seats, rng, cfg.turn_cap);
    let mut moves = Vec::new();
    while session.status() == Status::ToThrow {
        session.throw();
        let Some(i) = session.machine_choice() else {
            break;
        };
        if let Some(mut t) = session.play(i, false) {
            moves.push((t.throw, t.plays.swap_remove(i).0));
        }
    }
    moves
}

/// Wilson score interval at 95% for `wins` out of `n`.
pub fn wilson(wins: u32, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let n = f64::from(n);
    let p = f64::from(wins) / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Play a match of `cfg.games` games between `a` and `b` from `start`
/// (module documentation). `progress` is called once per finished game.
pub fn play_match<G: Game>(
    game: &G,
    start: &G::Pos,
    a: &dyn Player<G>,
    b: &dyn Player<G>,
    cfg: MatchConfig,
    progress: &(dyn Fn() + Sync),
) -> MatchResult {
    let never = AtomicBool::new(false);
    play_match_with_stop(game, start, a, b, cfg, progress, &never)
        .expect("a flag nobody raises stops nothing")
}

/// [`play_match`], or `None` when `stop` was raised before every game had
/// ended (module documentation).
pub fn play_match_with_stop<G: Game>(
    game: &G,
    start: &G::Pos,
    a: &dyn Player<G>,
    b: &dyn Player<G>,
    cfg: MatchConfig,
    progress: &(dyn Fn() + Sync),
    stop: &AtomicBool,
) -> Option<MatchResult> {
    play_match_keeping(game, start, a, b, cfg, progress, stop, false).map(|(r, _)| r)
}

/// The throws and plays of one game, in order.
pub type Turns<G> = Vec<(<G as Game>::Throw, <G as Game>::Play)>;

/// The throws and plays of each game of a match, in game order.
pub type MatchTurns<G> = Vec<Turns<G>>;

/// [`play_match_with_stop`], and, when `keep`, every game's throws and
/// plays (`daldos match --records`; empty lists otherwise).
#[allow(clippy::too_many_arguments)] // the match's parts, as its siblings take them, and one switch
pub fn play_match_keeping<G: Game>(
    game: &G,
    start: &G::Pos,
    a: &dyn Player<G>,
    b: &dyn Player<G>,
    cfg: MatchConfig,
    progress: &(dyn Fn() + Sync),
    stop: &AtomicBool,
    keep: bool,
) -> Option<(MatchResult, MatchTurns<G>)> {
    let games: Option<Vec<(GameRecord, Turns<G>)>> = (0..cfg.games)
        .into_par_iter()
        .map(|i| {
            let mut rng = Rng::for_index(cfg.seed, u64::from(i));
            let a_first = i % 2 == 0;
            let (first, second) = if a_first { (a, b) } else { (b, a) };
            let (w, turns, moves) =
                game_until(game, start, first, second, &mut rng, cfg.turn_cap, stop)?;
            progress();
            let record = GameRecord {
                // Map "first/second" back to "a/b".
                winner: w.map(|f| if a_first { f } else { 1 - f }),
                a_first,
                turns,
            };
            Some((record, if keep { moves } else { Vec::new() }))
        })
        .collect();
    let (records, moves): (Vec<GameRecord>, MatchTurns<G>) = games?.into_iter().unzip();
    Some((summarise(cfg.games, records), moves))
}

fn summarise(games: u32, records: Vec<GameRecord>) -> MatchResult {
    let a_wins = records.iter().filter(|r| r.winner == Some(0)).count() as u32;
    let b_wins = records.iter().filter(|r| r.winner == Some(1)).count() as u32;
    let capped = games - a_wins - b_wins;
    let first_player_wins = records
        .iter()
        .filter(|r| r.winner == Some(if r.a_first { 0 } else { 1 }))
        .count() as u32;
    let total_turns: u64 = records.iter().map(|r| u64::from(r.turns)).sum();
    let rate = |k: u32| {
        if games == 0 {
            0.0
        } else {
            f64::from(k) / f64::from(games)
        }
    };
    MatchResult {
        games,
        a_wins,
        b_wins,
        capped,
        a_win_rate: rate(a_wins),
        ci95: wilson(a_wins, games),
        first_player_wins,
        first_player_win_rate: rate(first_player_wins),
        mean_turns: if games == 0 {
            0.0
        } else {
            total_turns as f64 / f64::from(games)
        },
        records,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::daldos::Daldos;
    use crate::engine::players::{GreedyPlayer, RandomPlayer};
    use crate::engine::session::Session;
    use dalkon_rules::daldos::{Board, Position, Variants};

    /// A session between machines is the match's game: same winner, throws,
    /// and (throw, play) list.
    #[test]
    fn a_session_plays_the_match_game() {
        let game = Daldos::new(Variants::default());
        let start = Position::start(Board::new(4).unwrap());
        let (a, b) = (&RandomPlayer as &dyn Player<Daldos>, &GreedyPlayer as _);
        for seed in 0..20 {
            let cfg = MatchConfig {
                games: 1,
                seed,
                turn_cap: 500,
            };
            let mut rng = Rng::for_index(seed, 0);
            let (winner, turns) = play_game(&game, &start, a, b, &mut rng, 500);
            let mut s = Session::new(
                &game,
                start,
                [Some(a), Some(b)],
                Rng::for_index(seed, 0),
                500,
            );
            assert_eq!(s.run(&|| false), Some((winner, turns)));
            assert_eq!(s.rng(), &rng);
            let moves = match_game_moves(&game, &start, a, b, cfg, 0);
            assert_eq!(moves.len() as u32, turns);
        }
    }

    #[test]
    fn wilson_reference_values() {
        // 50 of 100: 0.5 -+ 0.0962 (the Wilson interval is symmetric at 1/2).
        let (lo, hi) = wilson(50, 100);
        assert!((lo - 0.403_831).abs() < 1e-6, "{lo}");
        assert!((hi - 0.596_169).abs() < 1e-6, "{hi}");
        // 0 of 10: [0, z^2 / (n + z^2)].
        let (lo, hi) = wilson(0, 10);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.277_533).abs() < 1e-6, "{hi}");
        assert_eq!(wilson(0, 0), (0.0, 1.0));
    }
}
