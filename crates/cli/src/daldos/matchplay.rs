//! `dalkon daldos match --a engine:2 --b random --games 1000 --seed 1`
//! (docs/cli.md): seeded, replayable matches from the start position, `a` and
//! `b` alternating as the starting side (game 0: `a` starts).
//!
//! `perfect` plays the best play by the solved tables (docs/cli.md,
//! "Daldøs solved") found in `--db-dir` (default `$DALKON_DB_DIR`, else
//! `./dalkon-db` if it exists, else `$XDG_DATA_HOME/dalkon`, else `~/.local/share/dalkon`); it is refused, before any game, unless they cover every
//! position a game on the board can reach (every layer up to L v L), with
//! the command that builds them. The other players never read tables.
//!
//! JSON fields beyond docs/cli.md: `a`, `b`, `seed`, `board`, `rules`,
//! `turn_cap`, `capped` (games stopped at the turn cap, won by neither),
//! `first_player_wins`, and `seconds` (wall time: the only field that
//! changes from run to run).

use anyhow::Context;
use std::path::PathBuf;

use dalkon_daldos::engine::PlayerSpec;
use dalkon_daldos::request::{
    record_file_name, MatchError, MatchRequest, DEFAULT_GAMES, DEFAULT_MATCH_SEED, DEFAULT_TURN_CAP,
};
use dalkon_render::daldos::report::match_result;
use dalkon_rules::daldos::Board;

use super::RuleArgs;
use crate::common::{Format, Global};
use crate::progress::Bar;

#[derive(Debug, clap::Args)]
#[command(mut_arg("board", |a| a.help(
    "Board the games are played on: `danish` (L=16, the default), `norwegian` (L=12) \
     or a row length L from 4 to 32"
)))]
pub struct Args {
    /// Player a: random, greedy, engine:N (the engine, learned
    /// evaluation), hand:N (the engine with the hand-fitted evaluation) or
    /// perfect (the solved tables' best play, from --db-dir).
    #[arg(long, value_name = "PLAYER")]
    pub a: String,
    /// Player b: random, greedy, engine:N, hand:N or perfect.
    #[arg(long, value_name = "PLAYER")]
    pub b: String,
    /// Number of games.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_GAMES)]
    pub games: u32,
    /// Seed: game i is played from (seed, i) alone.
    #[arg(long, value_name = "S", default_value_t = DEFAULT_MATCH_SEED)]
    pub seed: u64,
    /// Throws after which an unfinished game is stopped (won by neither).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_TURN_CAP)]
    pub turn_cap: u32,
    /// Also list game 1's throws and plays (JSON `first_game`: `"d1,d2
    /// play"` per throw), the game `daldos game` plays with the same seed.
    #[arg(long)]
    pub moves: bool,
    /// Keep every game as a game record (docs/formats.md) in this folder,
    /// `game-0001.record` for game 1 and so on, for `daldos analyse`.
    #[arg(long, value_name = "DIR")]
    pub records: Option<PathBuf>,
    /// Folder of the solved tables `perfect` plays from (`dalkon daldos
    /// solve`; default: $DALKON_DB_DIR, else ./dalkon-db if it exists, else $XDG_DATA_HOME/dalkon, else
    /// ~/.local/share/dalkon).
    #[arg(long, value_name = "DIR")]
    pub db_dir: Option<PathBuf>,
    #[command(flatten)]
    pub rules: RuleArgs,
}

pub fn run(global: &Global, args: Args, w: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    let a: PlayerSpec = args.a.parse().context("--a")?;
    let b: PlayerSpec = args.b.parse().context("--b")?;
    let board = args.rules.board()?.unwrap_or(Board::DANISH);
    let mut request = MatchRequest::new(
        (a, b),
        (board, args.rules.variants()),
        args.games,
        args.seed,
        args.turn_cap,
    )?;
    request.records = args.records.is_some();
    request.first_game = args.moves;
    let tables = if request.needs_tables() {
        let dir = super::best::db_dir(args.db_dir.clone())?;
        Some(super::best::load_tables(&dir, board, request.variants)?)
    } else {
        None
    };
    let bar = Bar::games(u64::from(args.games), &format!("{a} vs {b}"));
    let never = std::sync::atomic::AtomicBool::new(false);
    let outcome = request
        .run(tables.as_ref(), &|| bar.0.inc(1), &never)
        .map_err(|e| match e {
            MatchError::Player { player, .. } => {
                anyhow::Error::new(e).context(format!("--{player}"))
            }
            e => e.into(),
        })?
        .expect("a flag nobody raises stops nothing");
    drop(bar);
    let mut report = outcome.report;
    if let Some(dir) = &args.records {
        std::fs::create_dir_all(dir).with_context(|| format!("--records {}", dir.display()))?;
        for (i, record) in outcome.records.iter().enumerate() {
            let path = dir.join(record_file_name(i));
            dalkon_store::atomic::write(&path, record.to_string().as_bytes())
                .with_context(|| format!("writing {}", path.display()))?;
        }
        report.records = Some(dir.display().to_string());
    }
    match format {
        Format::Json => writeln!(w, "{}", serde_json::to_string(&report)?)?,
        _ => write!(w, "{}", match_result(&report))?,
    }
    Ok(())
}
