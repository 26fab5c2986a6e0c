//! `dalkon dakon openings`: chains of the first player's first turn that
//! win the game outright before the opponent moves.

use std::path::PathBuf;

use dalkon_rules::dakon::{Position, Rules};
use dalkon_solver::openings::{openings_with_progress, OpeningLimits, Openings};
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
    /// Memory the count may use, in MiB (default: the available memory
    /// less a tenth, at least 512 MiB left free). A count that needs more
    /// stops with an error before it is allocated.
    #[arg(long, value_name = "MIB")]
    pub memory_mb: Option<u64>,
    /// Folder for finished layers that do not fit in memory (created, then
    /// removed at the end; default: a new folder in the system's
    /// temporary folder).
    #[arg(long, value_name = "DIR")]
    pub work_dir: Option<PathBuf>,
    /// Give up beyond this many distinct positions.
    #[arg(long, value_name = "N", default_value_t = 50_000_000_000)]
    pub max_positions: u64,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// Limits of one count.
#[derive(Debug, Clone, Default)]
pub struct CountLimits {
    /// See [`Args::memory_mb`].
    pub memory_mb: Option<u64>,
    /// See [`Args::work_dir`].
    pub work_dir: Option<PathBuf>,
    /// See [`Args::max_positions`].
    pub max_positions: u64,
}

/// The openings of a board's initial position, with the seconds taken.
pub fn board_openings(
    holes: usize,
    seeds: u32,
    rules: &Rules,
    limits: &CountLimits,
) -> anyhow::Result<(Openings, f64)> {
    let m = u8::try_from(seeds)
        .ok()
        .filter(|&m| m >= 1)
        .ok_or_else(|| anyhow::anyhow!("--seeds {seeds} must be between 1 and 255"))?;
    let pos = Position::start(holes, m)
        .map_err(|e| anyhow::anyhow!("cannot set up {holes} holes × {seeds} seeds: {e}"))?;
    let avail = dalkon_solver::memory::available_memory().unwrap_or(2 << 30);
    let usable = avail.saturating_sub((avail / 10).max(512 << 20));
    let memory_bytes = match limits.memory_mb {
        Some(mb) => {
            let bytes = mb.saturating_mul(1 << 20);
            if bytes > usable {
                anyhow::bail!(
                    "--memory-mb {mb} does not fit: {} MiB of memory are available, \
                     and at least a tenth is left free",
                    usable >> 20
                );
            }
            bytes
        }
        None => usable,
    };
    let work_dir = match &limits.work_dir {
        Some(d) => {
            if d.exists() {
                anyhow::bail!(
                    "--work-dir {}: the folder must not exist yet (the count creates it and removes it at the end)",
                    d.display()
                );
            }
            d.clone()
        }
        None => std::env::temp_dir().join(format!(
            "dalkon-openings-{holes}x{seeds}-{}",
            std::process::id()
        )),
    };
    let lim = OpeningLimits {
        memory_bytes,
        max_positions: limits.max_positions,
        work_dir: Some(work_dir),
        // Finished layers take one to three bytes a position; keep up to
        // a sixteenth of the budget of them in memory (all of them on any
        // board up to 7×6), the rest in files: the memory is needed by
        // the layers still being collected.
        layers_in_memory: memory_bytes / 16,
    };
    let bar = super::progress::LayerBar::new(&format!("openings {holes}x{seeds}"));
    let t0 = std::time::Instant::now();
    let o = openings_with_progress(&pos, rules, &lim, &bar);
    bar.finish();
    Ok((o?, t0.elapsed().as_secs_f64()))
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
    let limits = CountLimits {
        memory_mb: args.memory_mb,
        work_dir: args.work_dir.clone(),
        max_positions: args.max_positions,
    };
    let (o, seconds) = board_openings(args.holes, args.seeds, &rules, &limits)?;
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
    println!(
        "positions       {} ({} from which the turn can still be won)",
        o.positions, o.winning_positions
    );
    println!(
        "peak memory     {:.1} MiB",
        o.peak_bytes as f64 / f64::from(1u32 << 20)
    );
    println!("seconds         {seconds:.3}");
    Ok(())
}
