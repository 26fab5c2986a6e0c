//! A match between two players (`daldos match`, Python's `match`, and the
//! engine benchmark `reproduce` writes to `data/daldos/matches.json`): the
//! request (validated, its defaults below), its run, and the one mapping
//! from a [`MatchResult`] to the JSON of docs/cli.md.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use dalkon_rules::daldos::{Board, Position, Record, Variants, DEFAULT_MAX_THROWS};
use serde::Serialize;

use crate::engine::{
    game_record, match_game_moves, play_match_keeping, Daldos, MatchConfig, MatchResult,
    MatchTurns, PerfectError, PlayerSpec,
};
use crate::solved::Tables;

/// Games of a match when none are asked for.
pub const DEFAULT_GAMES: u32 = 1000;
/// The seed of a match when none is given.
pub const DEFAULT_MATCH_SEED: u64 = 1;
/// Throws after which an unfinished game is stopped, won by neither.
pub const DEFAULT_TURN_CAP: u32 = DEFAULT_MAX_THROWS;

/// Why a match cannot be played.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// A match of no games.
    #[error("--games must be at least 1")]
    NoGames,
    /// A turn cap of 0 throws.
    #[error("--turn-cap must be at least 1")]
    NoTurns,
    /// A player could not be built (`perfect` without the tables of the
    /// whole game). The front end names the player, `a` or `b`, in its own
    /// words (`--a`, `a`).
    #[error("{source}")]
    Player {
        /// `"a"` or `"b"`.
        player: &'static str,
        /// What is missing.
        source: PerfectError,
    },
}

/// A match of `a` against `b` from the start of `board`: game `i` is
/// played from `(seed, i)` alone, `a` starting the even-indexed games.
#[derive(Debug, Clone)]
pub struct MatchRequest {
    pub a: PlayerSpec,
    pub b: PlayerSpec,
    pub board: Board,
    pub variants: Variants,
    pub config: MatchConfig,
    /// Keep every game's record in the outcome (`--records`).
    pub records: bool,
    /// List game 1's throws and plays in the report (`--moves`).
    pub first_game: bool,
}

/// What a match gives: the report (the CLI's JSON), the result game by
/// game, and each game's record when asked for.
#[derive(Debug, Clone)]
pub struct MatchOutcome {
    pub report: MatchReport,
    pub result: MatchResult,
    /// Game `i`'s record at index `i`, tagged with the match's event, its
    /// round and who played each side; empty unless asked for.
    pub records: Vec<Record>,
}

impl MatchRequest {
    /// A match of `games` games with `seed` and `turn_cap`, refused when
    /// either count is 0.
    pub fn new(
        (a, b): (PlayerSpec, PlayerSpec),
        (board, variants): (Board, Variants),
        games: u32,
        seed: u64,
        turn_cap: u32,
    ) -> Result<MatchRequest, MatchError> {
        if games == 0 {
            return Err(MatchError::NoGames);
        }
        if turn_cap == 0 {
            return Err(MatchError::NoTurns);
        }
        Ok(MatchRequest {
            a,
            b,
            board,
            variants,
            config: MatchConfig {
                games,
                seed,
                turn_cap,
            },
            records: false,
            first_game: false,
        })
    }

    /// Whether a player needs the solved tables (`perfect`).
    pub fn needs_tables(&self) -> bool {
        self.a.needs_tables() || self.b.needs_tables()
    }

    /// Play the match, calling `progress` after each game; `None` when
    /// `stop` was raised. `tables` serve `perfect` (see
    /// [`MatchRequest::needs_tables`]); the other players never read them.
    pub fn run(
        &self,
        tables: Option<&Arc<Tables>>,
        progress: &(dyn Fn() + Sync),
        stop: &AtomicBool,
    ) -> Result<Option<MatchOutcome>, MatchError> {
        let game = Daldos::new(self.variants);
        let start = Position::start(self.board);
        let build = |player: &'static str, spec: PlayerSpec| {
            spec.build(&game, &start, tables)
                .map_err(|source| MatchError::Player { player, source })
        };
        let (pa, pb) = (build("a", self.a)?, build("b", self.b)?);
        let started = Instant::now();
        let Some((result, turns)) = play_match_keeping(
            &game,
            &start,
            pa.as_ref(),
            pb.as_ref(),
            self.config,
            progress,
            stop,
            self.records,
        ) else {
            return Ok(None);
        };
        let mut report = MatchReport::new(
            (&self.a, &self.b),
            self.board,
            &self.variants,
            self.config,
            &result,
            started.elapsed().as_secs_f64(),
        );
        if self.first_game {
            let moves = match_game_moves(&game, &start, pa.as_ref(), pb.as_ref(), self.config, 0);
            report.first_game = Some(
                moves
                    .iter()
                    .map(|(t, p)| format!("{t} {}", p.notation(self.board)))
                    .collect(),
            );
        }
        let records = if self.records {
            self.records_of(&turns)
        } else {
            Vec::new()
        };
        Ok(Some(MatchOutcome {
            report,
            result,
            records,
        }))
    }

    /// Each game's record, tagged `Event`, `Round`, `A` and `B`.
    fn records_of(&self, turns: &MatchTurns<Daldos>) -> Vec<Record> {
        let start = Position::start(self.board);
        let (a, b) = (self.a.to_string(), self.b.to_string());
        turns
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let mut record = game_record(start, self.variants, t);
                // Player a takes side A in the odd-numbered games (even index).
                let (on_a, on_b) = if i % 2 == 0 {
                    (("a", &a), ("b", &b))
                } else {
                    (("b", &b), ("a", &a))
                };
                record.set_tag("Event", format!("daldos match --seed {}", self.config.seed));
                record.set_tag("Round", (i + 1).to_string());
                record.set_tag("A", format!("{} (player {})", on_a.1, on_a.0));
                record.set_tag("B", format!("{} (player {})", on_b.1, on_b.0));
                record
            })
            .collect()
    }
}

/// The file name of game `i`'s record (`game-0001.record` for the first).
pub fn record_file_name(i: usize) -> String {
    format!("game-{:04}.record", i + 1)
}

/// A match's result as `daldos match` prints it in JSON. Fields beyond
/// docs/cli.md: `a`, `b`, `seed`, `board`, `rules`, `turn_cap`, `capped`
/// (games stopped at the turn cap, won by neither), `first_player_wins`,
/// and `seconds` (wall time: the only field that changes from run to run).
#[derive(Debug, Clone, Serialize)]
pub struct MatchReport {
    pub games: u32,
    pub a_wins: u32,
    pub b_wins: u32,
    pub a_win_rate: f64,
    pub ci95: [f64; 2],
    pub first_player_win_rate: f64,
    pub mean_turns: f64,
    pub a: String,
    pub b: String,
    pub seed: u64,
    pub board: String,
    pub rules: String,
    pub turn_cap: u32,
    pub capped: u32,
    pub first_player_wins: u32,
    pub seconds: f64,
    /// Game 1's throws and plays, `"3,1 A16-M16 M16-M13"`, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_game: Option<Vec<String>>,
    /// The folder the games' records were written to, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub records: Option<String>,
}

impl MatchReport {
    /// The report of `r`, a match of `a` against `b` on `board` under
    /// `variants` and `cfg`, that took `seconds`.
    pub fn new(
        (a, b): (&PlayerSpec, &PlayerSpec),
        board: Board,
        variants: &Variants,
        cfg: MatchConfig,
        r: &MatchResult,
        seconds: f64,
    ) -> MatchReport {
        MatchReport {
            games: r.games,
            a_wins: r.a_wins,
            b_wins: r.b_wins,
            a_win_rate: r.a_win_rate,
            ci95: [r.ci95.0, r.ci95.1],
            first_player_win_rate: r.first_player_win_rate,
            mean_turns: r.mean_turns,
            a: a.to_string(),
            b: b.to_string(),
            seed: cfg.seed,
            board: board.name(),
            rules: variants.to_string(),
            turn_cap: cfg.turn_cap,
            capped: r.capped,
            first_player_wins: r.first_player_wins,
            seconds,
            first_game: None,
            records: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dalkon_rules::daldos::Side;

    fn request(games: u32, turn_cap: u32) -> Result<MatchRequest, MatchError> {
        let board = Board::new(4).unwrap();
        MatchRequest::new(
            (PlayerSpec::Greedy, PlayerSpec::Random),
            (board, Variants::default()),
            games,
            7,
            turn_cap,
        )
    }

    #[test]
    fn counts_of_zero_are_refused_with_the_flags_names() {
        assert_eq!(
            request(0, 10).unwrap_err().to_string(),
            "--games must be at least 1"
        );
        assert_eq!(
            request(3, 0).unwrap_err().to_string(),
            "--turn-cap must be at least 1"
        );
    }

    #[test]
    fn the_records_replay_to_the_results_game_by_game() {
        let mut q = request(6, DEFAULT_TURN_CAP).unwrap();
        q.records = true;
        let never = AtomicBool::new(false);
        let out = q.run(None, &|| {}, &never).unwrap().unwrap();
        assert_eq!(out.records.len(), 6);
        assert_eq!(out.report.a_wins + out.report.b_wins + out.report.capped, 6);
        for (i, (record, game)) in out.records.iter().zip(&out.result.records).enumerate() {
            assert_eq!(record.tag("Round"), Some((i + 1).to_string().as_str()));
            assert_eq!(game.a_first, i % 2 == 0);
            assert_eq!(record.turns.len() as u32, game.turns);
            // The side that won the record is the winner's side in game i.
            let winner_side = match (game.winner, game.a_first) {
                (Some(0), true) | (Some(1), false) => Some(Side::A),
                (Some(_), _) => Some(Side::B),
                (None, _) => None,
            };
            let expected = match winner_side {
                Some(Side::A) => "1-0",
                Some(Side::B) => "0-1",
                None => "*",
            };
            assert_eq!(record.result(), expected, "game {i}");
        }
        // Without --records the outcome keeps none; the result is the same.
        q.records = false;
        let plain = q.run(None, &|| {}, &never).unwrap().unwrap();
        assert!(plain.records.is_empty());
        assert_eq!(plain.result, out.result);
    }

    #[test]
    fn perfect_without_tables_names_its_player() {
        let mut q = request(2, 10).unwrap();
        q.b = PlayerSpec::Perfect;
        let never = AtomicBool::new(false);
        match q.run(None, &|| {}, &never) {
            Err(MatchError::Player { player: "b", .. }) => {}
            other => panic!("{other:?}"),
        }
    }
}
