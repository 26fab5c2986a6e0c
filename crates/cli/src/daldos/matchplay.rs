//! `dalkon daldos match --a engine:2 --b random --games 1000 --seed 1`
//! (CLI.md): seeded, replayable matches from the start position, `a` and
//! `b` alternating as the starting side (game 0: `a` starts).
//!
//! JSON fields beyond CLI.md: `a`, `b`, `seed`, `board`, `rules`,
//! `turn_cap`, `capped` (games stopped at the turn cap, won by neither),
//! `first_player_wins`, and `seconds` (wall time: the only field that
//! changes from run to run).

use std::time::Instant;

use dalkon_odds::engine::Daldos;
use dalkon_odds::engine::PlayerSpec;
use dalkon_odds::engine::{play_match, MatchConfig};
use dalkon_rules::daldos::{Board, Position};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use super::RuleArgs;
use crate::common::{Format, Global};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Player a: random, greedy or engine:N.
    #[arg(long, value_name = "PLAYER")]
    pub a: String,
    /// Player b: random, greedy or engine:N.
    #[arg(long, value_name = "PLAYER")]
    pub b: String,
    /// Number of games.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub games: u32,
    /// Seed: game i is played from (seed, i) alone.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Throws after which an unfinished game is stopped (won by neither).
    #[arg(long, value_name = "N", default_value_t = 5000)]
    pub turn_cap: u32,
    #[command(flatten)]
    pub rules: RuleArgs,
}

#[derive(Debug, Serialize)]
struct MatchJson {
    games: u32,
    a_wins: u32,
    b_wins: u32,
    a_win_rate: f64,
    ci95: [f64; 2],
    first_player_win_rate: f64,
    mean_turns: f64,
    a: String,
    b: String,
    seed: u64,
    board: String,
    rules: String,
    turn_cap: u32,
    capped: u32,
    first_player_wins: u32,
    seconds: f64,
}

/// Play one match with a progress bar on a terminal.
fn play(a: &PlayerSpec, b: &PlayerSpec, board: Board, game: Daldos, cfg: MatchConfig) -> MatchJson {
    let start = Position::start(board);
    let bar =
        ProgressBar::with_draw_target(Some(u64::from(cfg.games)), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{msg} {bar:40} {pos}/{len} games, eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message(format!("{a} vs {b}"));
    let started = Instant::now();
    let (pa, pb) = (a.build(), b.build());
    let r = play_match(&game, &start, pa.as_ref(), pb.as_ref(), cfg, &|| bar.inc(1));
    bar.finish_and_clear();
    MatchJson {
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
        rules: game.variants.to_string(),
        turn_cap: cfg.turn_cap,
        capped: r.capped,
        first_player_wins: r.first_player_wins,
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// Write `out/daldos/matches.json`: the three 1000-game engine:2 matches
/// of the README (and engine:3 vs greedy with `full`), seed 1, Danish
/// board, default rules — the same file `scripts/daldos_matches.sh` writes.
pub fn reproduce(out: &std::path::Path, full: bool) -> anyhow::Result<()> {
    let mut matches = vec![
        ("engine2_vs_random", "engine:2", "random"),
        ("engine2_vs_greedy", "engine:2", "greedy"),
        ("engine2_vs_engine2", "engine:2", "engine:2"),
    ];
    if full {
        matches.push(("engine3_vs_greedy", "engine:3", "greedy"));
    }
    let cfg = MatchConfig {
        games: 1000,
        seed: 1,
        turn_cap: 5000,
    };
    let dir = out.join("daldos");
    let path = dir.join("matches.json");
    // The default run keeps the --full-only match of an earlier run.
    let kept = if full {
        None
    } else {
        std::fs::read_to_string(&path)
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|v| v.get("engine3_vs_greedy").cloned())
    };
    let mut json = serde_json::Map::new();
    let command = match (full, kept.is_some()) {
        (true, _) => "dalkon reproduce --full",
        (false, true) => "dalkon reproduce (engine3_vs_greedy kept from an earlier --full run)",
        (false, false) => "dalkon reproduce",
    };
    json.insert("command".into(), command.into());
    for (key, a, b) in matches {
        let (a, b): (PlayerSpec, PlayerSpec) = (
            a.parse().map_err(|e| anyhow::anyhow!("{e}"))?,
            b.parse().map_err(|e| anyhow::anyhow!("{e}"))?,
        );
        let result = play(&a, &b, Board::DANISH, Daldos::new(Default::default()), cfg);
        eprintln!(
            "daldos match {a} vs {b}: a wins {}/{} ({:.1} s)",
            result.a_wins, result.games, result.seconds
        );
        json.insert(key.into(), serde_json::to_value(&result)?);
    }
    if let Some(v) = kept {
        json.insert("engine3_vs_greedy".into(), v);
    }
    std::fs::create_dir_all(&dir)?;
    let tmp = dir.join("matches.json.tmp");
    std::fs::write(&tmp, serde_json::to_string_pretty(&json)? + "\n")?;
    std::fs::rename(&tmp, &path)?;
    Ok(())
}

pub fn run(global: &Global, args: Args) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    let a: PlayerSpec = args.a.parse().map_err(|e| anyhow::anyhow!("--a: {e}"))?;
    let b: PlayerSpec = args.b.parse().map_err(|e| anyhow::anyhow!("--b: {e}"))?;
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
    let out = play(&a, &b, board, Daldos::new(args.rules.variants()), cfg);
    match format {
        Format::Json => println!("{}", serde_json::to_string(&out)?),
        _ => {
            println!(
                "{} (a) vs {} (b): {} games on the {} board, {}, seed {}",
                out.a, out.b, out.games, out.board, out.rules, out.seed
            );
            println!(
                "  a wins {:>5}  rate {:.4}  95% CI [{:.4}, {:.4}]",
                out.a_wins, out.a_win_rate, out.ci95[0], out.ci95[1]
            );
            println!("  b wins {:>5}", out.b_wins);
            if out.capped > 0 {
                println!(
                    "  capped {:>5}  (no winner after {} throws)",
                    out.capped, out.turn_cap
                );
            }
            println!(
                "  first player won {:.4} of the games; {:.1} throws per game on average",
                out.first_player_win_rate, out.mean_turns
            );
            println!("  {:.1} s", out.seconds);
        }
    }
    Ok(())
}
