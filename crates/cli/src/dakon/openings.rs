//! `dalkon dakon openings`: chains of the first player's first turn that
//! win the game outright before the opponent moves.

use std::path::PathBuf;

use dalkon_cluster::Exchange;
use dalkon_dakon::openings::{
    plan_count, CountLimits, CountPlan, CountRequest, NoOpeningsProgress, Openings,
};
use dalkon_dakon::request::{
    FirstReport, OpeningsReport, DEFAULT_CHECKPOINT_MINUTES, DEFAULT_MAX_POSITIONS,
};
use dalkon_dakon::SolveError;
use dalkon_render::dakon::report;

use super::progress::LayerBar;
use super::{print_json, RuleArgs};
use crate::common::{Format, Global};
use crate::progress::on_terminal;

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
    /// ./dalkon-db if it exists, else $XDG_DATA_HOME/dalkon, else ~/.local/share/dalkon).
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

/// Run a count as one rank of the job `job` (every rank the same call),
/// with a layer bar on rank 0, saying on a terminal when it resumes.
pub(crate) fn count(plan: &CountPlan, job: &dyn Exchange) -> Result<(Openings, f64), SolveError> {
    if job.rank() != 0 {
        return plan.count_on(job, &NoOpeningsProgress);
    }
    if plan.resuming && on_terminal() {
        eprintln!("resuming the count from {}", plan.work_dir.display());
    }
    let bar = LayerBar::new(&format!("openings {}x{}", plan.holes, plan.seeds));
    let r = plan.count_on(job, &bar);
    drop(bar);
    r
}

pub fn run(global: &Global, args: Args, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    #[cfg(feature = "mpi")]
    let job = crate::cluster::Cluster::join()?;
    #[cfg(not(feature = "mpi"))]
    let job = dalkon_cluster::Solo;
    let plan = plan_count(&args.request())?;
    let rules = plan.rules;
    if args.first {
        // A search of one process: rank 0 alone runs it and prints.
        if job.rank() != 0 {
            return Ok(());
        }
        return run_first(&plan, format, out);
    }
    let (o, seconds) = count(&plan, &job)?;
    // Every rank has the answer; rank 0 prints it.
    if job.rank() != 0 {
        return Ok(());
    }
    let r = OpeningsReport::new(&plan.start, &rules, args.seeds, o)?;
    if format == Format::Json {
        return print_json(out, &r);
    }
    Ok(write!(
        out,
        "{}",
        report::openings(&plan.start, &rules, &r, seconds)
    )?)
}

fn run_first(plan: &CountPlan, format: Format, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let (f, seconds) = plan.first()?;
    if format == Format::Json {
        return print_json(out, &FirstReport::new(plan.holes, plan.seeds, &f));
    }
    let text = report::first((plan.holes, plan.seeds), &plan.rules, &f, seconds);
    Ok(write!(out, "{text}")?)
}
