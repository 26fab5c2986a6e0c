//! `dalkon dakon openings`: chains of the first player's first turn that
//! win the game outright before the opponent moves.

use std::path::PathBuf;

use dalkon_dakon::openings::{plan_count, CountLimits, CountPlan, CountRequest, Openings};
use dalkon_dakon::request::{
    FirstReport, OpeningsReport, DEFAULT_CHECKPOINT_MINUTES, DEFAULT_MAX_POSITIONS,
};
use dalkon_dakon::SolveError;
use dalkon_render::dakon::{chain, draw};

use super::progress::{on_terminal, LayerBar};
use super::{print_json, RuleArgs};
use crate::common::{Format, Global};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Holes per row (n), 1 to 32 (16 for databases).
    #[arg(long)]
    pub holes: usize,
    /// Seeds per hole at the start (m): 2·n·m at most 255 (seed counts are
    /// bytes).
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
    /// in the database folder ($DALKON_DB_DIR, else
    /// $XDG_DATA_HOME/dalkon, else ~/.local/share/dalkon).
    #[arg(long, value_name = "DIR")]
    pub work_dir: Option<PathBuf>,
    /// Minutes between checkpoints of a long count.
    #[arg(long, value_name = "MIN", default_value_t = DEFAULT_CHECKPOINT_MINUTES)]
    pub checkpoint_minutes: u64,
    /// Give up beyond this many distinct positions.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_POSITIONS)]
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

impl Args {
    fn request(&self) -> CountRequest {
        CountRequest {
            holes: self.holes,
            seeds: self.seeds,
            rules: self.rules.rules(),
            limits: CountLimits {
                memory_mb: self.memory_mb,
                work_dir: self.work_dir.clone(),
                max_positions: self.max_positions,
                checkpoint_minutes: Some(self.checkpoint_minutes),
            },
        }
    }
}

/// Run a count with a layer bar, saying on a terminal when it resumes.
pub(crate) fn count(plan: &CountPlan) -> Result<(Openings, f64), SolveError> {
    if plan.resuming && on_terminal() {
        eprintln!("resuming the count from {}", plan.work_dir.display());
    }
    let bar = LayerBar::new(&format!("openings {}x{}", plan.holes, plan.seeds));
    let r = plan.count(&bar);
    bar.finish();
    r
}

pub fn run(global: &Global, args: Args, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    let plan = plan_count(&args.request())?;
    let rules = plan.rules;
    if args.first {
        return run_first(&plan, format, out);
    }
    let (o, seconds) = count(&plan)?;
    let r = OpeningsReport::new(&plan.start, &rules, args.seeds, o)?;
    if format == Format::Json {
        return print_json(out, &r);
    }
    writeln!(
        out,
        "Dakon {}×{} ({rules}): first-turn openings\n",
        args.holes, args.seeds
    )?;
    write!(out, "{}", draw(&plan.start))?;
    writeln!(out)?;
    match r.after_best {
        None => writeln!(
            out,
            "No chain of the first turn wins the game before the opponent moves."
        )?,
        Some(end) => {
            writeln!(out, "winning chains  {}", r.winning_chains)?;
            let (shortest, best) = (&r.shortest, &r.best);
            writeln!(
                out,
                "shortest        {}  ({} moves)",
                chain(shortest, " "),
                shortest.len()
            )?;
            writeln!(
                out,
                "best            {}  ({} moves, final margin {:+})",
                chain(best, " "),
                best.len(),
                r.best_margin.unwrap_or(0)
            )?;
            writeln!(out, "\nafter the best chain:\n{}", draw(&end))?;
        }
    }
    let o = &r.openings;
    writeln!(
        out,
        "positions       {} ({} from which the turn can still be won)",
        o.positions, o.winning_positions
    )?;
    writeln!(
        out,
        "peak memory     {:.1} MiB",
        o.peak_bytes as f64 / f64::from(1u32 << 20)
    )?;
    writeln!(out, "seconds         {seconds:.3}")?;
    Ok(())
}

fn run_first(plan: &CountPlan, format: Format, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let (f, seconds) = plan.first()?;
    if format == Format::Json {
        return print_json(out, &FirstReport::new(plan.holes, plan.seeds, &f));
    }
    writeln!(
        out,
        "Dakon {}×{} ({}): the first winning chain of the first turn\n",
        plan.holes, plan.seeds, plan.rules
    )?;
    match &f.chain {
        None => writeln!(
            out,
            "No chain of the first turn wins the game before the opponent moves."
        ),
        Some(c) => writeln!(
            out,
            "first chain     {}  ({} moves, final margin {:+})",
            chain(c, " "),
            c.len(),
            f.margin.unwrap_or(0)
        ),
    }?;
    writeln!(out, "positions       {}", f.positions)?;
    writeln!(out, "seconds         {seconds:.3}")?;
    Ok(())
}
