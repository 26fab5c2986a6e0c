//! `dalkon dakon openings`: chains of the first player's first turn that
//! win the game outright before the opponent moves.

use std::path::PathBuf;

use dalkon_rules::dakon::{Position, Rules};
use dalkon_solver::openings::{
    first_winning_chain, openings_with_progress, FirstChain, OpeningLimits, Openings,
};
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
    /// The count's working folder: finished layers that do not fit in
    /// memory, and checkpoints. Removed when the count is complete; an
    /// interrupted count run again with the same folder resumes from its
    /// last checkpoint. Default: `openings-<n>x<m>-<origin>-<mikul>-<nembak>`
    /// in $DALKON_DB_DIR, else in `dalkon-db`.
    #[arg(long, value_name = "DIR")]
    pub work_dir: Option<PathBuf>,
    /// Minutes between checkpoints of a long count.
    #[arg(long, value_name = "MIN", default_value_t = 10)]
    pub checkpoint_minutes: u64,
    /// Give up beyond this many distinct positions.
    #[arg(long, value_name = "N", default_value_t = 50_000_000_000)]
    pub max_positions: u64,
    /// Do not count: only find the lexicographically first winning chain
    /// (or show that none exists) by a depth-first search, for boards
    /// whose whole first turn is out of reach (8×8, 9×9). JSON:
    /// `{"holes","seeds","first","first_margin","positions"}`.
    #[arg(long)]
    pub first: bool,
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
    /// See [`Args::checkpoint_minutes`] (`None`: no checkpoints).
    pub checkpoint_minutes: Option<u64>,
}

/// The openings of a board's initial position, with the seconds taken.
pub fn board_openings(
    holes: usize,
    seeds: u32,
    rules: &Rules,
    limits: &CountLimits,
) -> anyhow::Result<(Openings, f64)> {
    let pos = start(holes, seeds)?;
    let memory_bytes = memory_budget(limits.memory_mb)?;
    let work_dir = limits.work_dir.clone().unwrap_or_else(|| {
        let (o, mi, ne) = rules.names();
        super::solve::db_dir(None).join(format!("openings-{holes}x{seeds}-{o}-{mi}-{ne}"))
    });
    let resuming = work_dir.exists();
    let lim = OpeningLimits {
        memory_bytes,
        max_positions: limits.max_positions,
        work_dir: Some(work_dir.clone()),
        // Finished layers take one to three bytes a position; keep up to
        // a sixteenth of the budget of them in memory (all of them on any
        // board up to 7×6), the rest in files: the memory is needed by
        // the layers still being collected.
        layers_in_memory: memory_bytes / 16,
        checkpoint_every: limits
            .checkpoint_minutes
            .map(|m| std::time::Duration::from_secs(60 * m)),
        stop_after_checkpoints: None,
    };
    if resuming && super::progress::on_terminal() {
        eprintln!("resuming the count from {}", work_dir.display());
    }
    let bar = super::progress::LayerBar::new(&format!("openings {holes}x{seeds}"));
    let t0 = std::time::Instant::now();
    let o = openings_with_progress(&pos, rules, &lim, &bar);
    bar.finish();
    let o = o.map_err(|e| {
        let kept = work_dir.join("state").exists();
        let err = anyhow::Error::new(e);
        if kept {
            err.context(format!(
                "the count stopped; its last checkpoint is kept in {}: run the same command again to resume (or remove the folder)",
                work_dir.display()
            ))
        } else {
            err
        }
    })?;
    Ok((o, t0.elapsed().as_secs_f64()))
}

/// The start of a board, checked.
fn start(holes: usize, seeds: u32) -> anyhow::Result<Position> {
    let m = u8::try_from(seeds)
        .ok()
        .filter(|&m| m >= 1)
        .ok_or_else(|| anyhow::anyhow!("--seeds {seeds} must be between 1 and 255"))?;
    Position::start(holes, m)
        .map_err(|e| anyhow::anyhow!("cannot set up {holes} holes × {seeds} seeds: {e}"))
}

/// Bytes of memory a count may use: `--memory-mb`, checked against the
/// memory available, or by default all of it but a tenth (at least 512
/// MiB left free).
fn memory_budget(memory_mb: Option<u64>) -> anyhow::Result<u64> {
    let avail = dalkon_solver::memory::available_memory().unwrap_or(2 << 30);
    let usable = avail.saturating_sub((avail / 10).max(512 << 20));
    match memory_mb {
        Some(mb) => {
            let bytes = mb.saturating_mul(1 << 20);
            if bytes > usable {
                anyhow::bail!(
                    "--memory-mb {mb} does not fit: {} MiB of memory are available, \
                     and at least a tenth is left free",
                    usable >> 20
                );
            }
            Ok(bytes)
        }
        None => Ok(usable),
    }
}

/// The lexicographically first winning chain of a board's start, with the
/// seconds taken.
pub fn board_first_chain(
    holes: usize,
    seeds: u32,
    rules: &Rules,
    limits: &CountLimits,
) -> anyhow::Result<(FirstChain, f64)> {
    let pos = start(holes, seeds)?;
    let memory_bytes = memory_budget(limits.memory_mb)?;
    let t0 = std::time::Instant::now();
    let f = first_winning_chain(&pos, rules, limits.max_positions, memory_bytes)?;
    Ok((f, t0.elapsed().as_secs_f64()))
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
        checkpoint_minutes: Some(args.checkpoint_minutes),
    };
    if args.first {
        return run_first(&args, &rules, &limits, format);
    }
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
    let pos = start(args.holes, args.seeds)?;
    print!("{}", super::play::draw(&pos));
    println!();
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
        let mut end = pos;
        for &h in &o.best {
            end = end.play(h, &rules)?;
        }
        println!("\nafter the best chain:\n{}", super::play::draw(&end));
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

fn run_first(
    args: &Args,
    rules: &Rules,
    limits: &CountLimits,
    format: Format,
) -> anyhow::Result<()> {
    let (f, seconds) = board_first_chain(args.holes, args.seeds, rules, limits)?;
    if format == Format::Json {
        let j = json!({
            "holes": args.holes,
            "seeds": args.seeds,
            "first": f.chain.clone().unwrap_or_default(),
            "first_margin": f.margin,
            "positions": f.positions,
        });
        println!("{j}");
        return Ok(());
    }
    println!(
        "Dakon {}×{} ({rules}): the first winning chain of the first turn\n",
        args.holes, args.seeds
    );
    match &f.chain {
        None => println!("No chain of the first turn wins the game before the opponent moves."),
        Some(c) => println!(
            "first chain     {}  ({} moves, final margin {:+})",
            chain(c, " "),
            c.len(),
            f.margin.unwrap_or(0)
        ),
    }
    println!("positions       {}", f.positions);
    println!("seconds         {seconds:.3}");
    Ok(())
}
