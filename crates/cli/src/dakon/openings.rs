//! `dalkon dakon openings`: chains of the first player's first turn that
//! win the game outright before the opponent moves.

use dalkon_rules::dakon::{Position, Rules};
use dalkon_solver::openings::{openings, OpeningLimits, Openings};
use serde_json::json;

use super::RuleArgs;
use crate::common::{Format, Global};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Holes per row (n).
    #[arg(long)]
    pub holes: usize,
    /// Seeds per hole at the start (m).
    #[arg(long)]
    pub seeds: u32,
    /// Memory for the memo in MiB (default: a quarter of the available
    /// memory, at most 4096). Only speed depends on it.
    #[arg(long, value_name = "MIB")]
    pub memo_mb: Option<usize>,
    /// Give up after expanding this many positions.
    #[arg(long, value_name = "N", default_value_t = 20_000_000_000)]
    pub max_positions: u64,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// The openings of a board's initial position, with the seconds taken.
pub fn board_openings(
    holes: usize,
    seeds: u32,
    rules: &Rules,
    max_expanded: u64,
    memo_mb: Option<usize>,
) -> anyhow::Result<(Openings, f64)> {
    let m = u8::try_from(seeds)
        .ok()
        .filter(|&m| m >= 1)
        .ok_or_else(|| anyhow::anyhow!("--seeds {seeds} must be between 1 and 255"))?;
    let pos = Position::start(holes, m)
        .map_err(|e| anyhow::anyhow!("cannot set up {holes} holes × {seeds} seeds: {e}"))?;
    // The memo is a cache: a bigger one only saves work. Take a quarter of
    // the available memory, at most 4 GiB.
    let avail = dalkon_solver::memory::available_memory().unwrap_or(1 << 30) as usize;
    let memo_bytes = match memo_mb {
        Some(mb) => {
            let bytes = mb.saturating_mul(1 << 20);
            if bytes > avail.saturating_sub(256 << 20) {
                anyhow::bail!(
                    "--memo-mb {mb} does not fit: only {} MiB of memory are available",
                    avail >> 20
                );
            }
            bytes
        }
        None => (avail / 4).min(4 << 30),
    };
    let limits = OpeningLimits {
        memo_bytes,
        max_expanded,
    };
    let t0 = std::time::Instant::now();
    let o = openings(&pos, rules, &limits)?;
    Ok((o, t0.elapsed().as_secs_f64()))
}

/// Hole numbers joined by `sep`.
pub fn chain(holes: &[usize], sep: &str) -> String {
    holes
        .iter()
        .map(|h| h.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

pub fn run(global: &Global, args: Args) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    let rules = args.rules.rules();
    let (o, seconds) = board_openings(
        args.holes,
        args.seeds,
        &rules,
        args.max_positions,
        args.memo_mb,
    )?;
    if format == Format::Json {
        let j = json!({
            "holes": args.holes,
            "seeds": args.seeds,
            "winning_chains": o.winning_chains,
            "shortest": o.shortest,
            "best": o.best,
            "best_margin": o.best_margin,
        });
        println!("{j}");
        return Ok(());
    }
    println!(
        "Dakon {}×{} ({rules}): first-turn openings\n",
        args.holes, args.seeds
    );
    if o.winning_chains == 0 {
        println!("No chain of the first turn wins the game before the opponent moves.");
    } else {
        println!("winning chains  {}", o.winning_chains);
        println!(
            "shortest        {}  ({} moves)",
            chain(&o.shortest, " "),
            o.shortest.len()
        );
        println!(
            "best            {}  ({} moves, final margin {:+})",
            chain(&o.best, " "),
            o.best.len(),
            o.best_margin.unwrap_or(0)
        );
    }
    println!("positions       {}", o.positions);
    println!("seconds         {seconds:.3}");
    Ok(())
}
