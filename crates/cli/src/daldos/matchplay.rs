//! `dalkon daldos match --a engine:2 --b random --games 1000 --seed 1`
//! (docs/cli.md): seeded, replayable matches from the start position, `a` and
//! `b` alternating as the starting side (game 0: `a` starts).
//!
//! `perfect` plays the best play by the solved tables (docs/cli.md,
//! "Daldøs solved") found in `--db-dir` (default `$DALKON_DB_DIR`, else
//! `$XDG_DATA_HOME/dalkon`, else `~/.local/share/dalkon`); it is refused, before any game, unless they cover every
//! position a game on the board can reach (every layer up to L v L), with
//! the command that builds them. The other players never read tables.
//!
//! JSON fields beyond docs/cli.md: `a`, `b`, `seed`, `board`, `rules`,
//! `turn_cap`, `capped` (games stopped at the turn cap, won by neither),
//! `first_player_wins`, and `seconds` (wall time: the only field that
//! changes from run to run).

use anyhow::Context;
use std::path::PathBuf;
use std::time::Instant;

use dalkon_daldos::engine::PlayerSpec;
use dalkon_daldos::engine::{
    game_record, match_game_moves, play_match_keeping, MatchConfig, MatchTurns,
};
use dalkon_daldos::engine::{Daldos, Player};
use dalkon_daldos::request::MatchReport;
use dalkon_rules::daldos::{Board, Position, DEFAULT_MAX_THROWS};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::RuleArgs;
use crate::common::{Format, Global};

#[derive(Debug, clap::Args)]
#[command(mut_arg("board", |a| a.help(
    "Board the games are played on: `danish` (L=16, the default), `norwegian` (L=12) \
     or a row length L from 4 to 32"
)))]
pub struct Args {
    /// Player a: random, greedy, engine:N or perfect (the solved tables'
    /// best play, from --db-dir).
    #[arg(long, value_name = "PLAYER")]
    pub a: String,
    /// Player b: random, greedy, engine:N or perfect.
    #[arg(long, value_name = "PLAYER")]
    pub b: String,
    /// Number of games.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub games: u32,
    /// Seed: game i is played from (seed, i) alone.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Throws after which an unfinished game is stopped (won by neither).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_THROWS)]
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
    /// solve`; default: $DALKON_DB_DIR, else $XDG_DATA_HOME/dalkon, else
    /// ~/.local/share/dalkon).
    #[arg(long, value_name = "DIR")]
    pub db_dir: Option<PathBuf>,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// Play one match with a progress bar on a terminal, the players built
/// (`a` and `b` name them).
fn play_built(
    a: &PlayerSpec,
    b: &PlayerSpec,
    (pa, pb): (&dyn Player<Daldos>, &dyn Player<Daldos>),
    board: Board,
    game: &Daldos,
    cfg: MatchConfig,
    keep: bool,
) -> (MatchReport, MatchTurns<Daldos>) {
    let start = Position::start(board);
    let bar =
        ProgressBar::with_draw_target(Some(u64::from(cfg.games)), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{msg} {bar:40} {pos}/{len} games, eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message(format!("{a} vs {b}"));
    let started = Instant::now();
    let never = std::sync::atomic::AtomicBool::new(false);
    let (r, turns) = play_match_keeping(game, &start, pa, pb, cfg, &|| bar.inc(1), &never, keep)
        .expect("a flag nobody raises stops nothing");
    bar.finish_and_clear();
    let report = MatchReport::new(
        (a, b),
        board,
        &game.variants,
        cfg,
        &r,
        started.elapsed().as_secs_f64(),
    );
    (report, turns)
}

/// Write game `i`'s record as `dir/game-000i.record` (atomically), for
/// every game of the match.
fn write_records(
    dir: &std::path::Path,
    (a, b): (&PlayerSpec, &PlayerSpec),
    board: Board,
    game: &Daldos,
    cfg: MatchConfig,
    turns: &MatchTurns<Daldos>,
) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("--records {}", dir.display()))?;
    for (i, t) in turns.iter().enumerate() {
        let mut record = game_record(Position::start(board), game.variants, t);
        // Player a takes side A in the odd-numbered games (even index).
        let (on_a, on_b) = if i % 2 == 0 {
            (("a", a), ("b", b))
        } else {
            (("b", b), ("a", a))
        };
        record.set_tag("Event", format!("daldos match --seed {}", cfg.seed));
        record.set_tag("Round", (i + 1).to_string());
        record.set_tag("A", format!("{} (player {})", on_a.1, on_a.0));
        record.set_tag("B", format!("{} (player {})", on_b.1, on_b.0));
        let path = dir.join(format!("game-{:04}.record", i + 1));
        dalkon_store::atomic::write(&path, record.to_string().as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

pub fn run(global: &Global, args: Args, w: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    let a: PlayerSpec = args.a.parse().context("--a")?;
    let b: PlayerSpec = args.b.parse().context("--b")?;
    if args.games == 0 {
        anyhow::bail!("--games must be at least 1");
    }
    if args.turn_cap == 0 {
        anyhow::bail!("--turn-cap must be at least 1");
    }
    let board = args.rules.board()?.unwrap_or(Board::DANISH);
    let cfg = MatchConfig {
        games: args.games,
        seed: args.seed,
        turn_cap: args.turn_cap,
    };
    let variants = args.rules.variants();
    let game = Daldos::new(variants);
    let start = Position::start(board);
    let tables = if a.needs_tables() || b.needs_tables() {
        let dir = super::best::db_dir(args.db_dir.clone())?;
        Some(super::best::load_tables(&dir, board, variants)?)
    } else {
        None
    };
    let pa = a.build(&game, &start, tables.as_ref()).context("--a")?;
    let pb = b.build(&game, &start, tables.as_ref()).context("--b")?;
    let (mut out, turns) = play_built(
        &a,
        &b,
        (pa.as_ref(), pb.as_ref()),
        board,
        &game,
        cfg,
        args.records.is_some(),
    );
    if let Some(dir) = &args.records {
        write_records(dir, (&a, &b), board, &game, cfg, &turns)?;
        out.records = Some(dir.display().to_string());
    }
    if args.moves {
        let moves = match_game_moves(&game, &start, pa.as_ref(), pb.as_ref(), cfg, 0);
        out.first_game = Some(
            moves
                .iter()
                .map(|(t, p)| format!("{t} {}", p.notation(board)))
                .collect(),
        );
    }
    match format {
        Format::Json => writeln!(w, "{}", serde_json::to_string(&out)?)?,
        _ => {
            writeln!(
                w,
                "{} (a) vs {} (b): {} games on the {} board, {}, seed {}",
                out.a, out.b, out.games, out.board, out.rules, out.seed
            )?;
            writeln!(
                w,
                "  a wins {:>5}  rate {:.4}  95% CI [{:.4}, {:.4}]",
                out.a_wins, out.a_win_rate, out.ci95[0], out.ci95[1]
            )?;
            writeln!(w, "  b wins {:>5}", out.b_wins)?;
            if out.capped > 0 {
                writeln!(
                    w,
                    "  capped {:>5}  (no winner after {} throws)",
                    out.capped, out.turn_cap
                )?;
            }
            writeln!(
                w,
                "  first player won {:.4} of the games; {:.1} throws per game on average",
                out.first_player_win_rate, out.mean_turns
            )?;
            writeln!(w, "  {:.1} s", out.seconds)?;
            if let Some(dir) = &out.records {
                writeln!(w, "  {} game records in {dir}", out.games)?;
            }
            for (k, m) in out.first_game.iter().flatten().enumerate() {
                writeln!(w, "  game 1, throw {}: {m}", k + 1)?;
            }
        }
    }
    Ok(())
}
