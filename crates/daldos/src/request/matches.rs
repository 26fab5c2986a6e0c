//! The report of a match between two players (`daldos match`, and the
//! engine benchmark `reproduce` writes to `data/daldos/matches.json`): the
//! one mapping from a [`MatchResult`] to the JSON of docs/cli.md.

use dalkon_rules::daldos::{Board, Variants};
use serde::Serialize;

use crate::engine::{MatchConfig, MatchResult, PlayerSpec};

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
