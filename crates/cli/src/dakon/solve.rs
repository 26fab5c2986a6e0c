//! `dalkon dakon solve`: the exact value of a board's initial position, by
//! retrograde databases or by search (`dalkon_dakon::solve`).

use clap::ValueEnum;
use dalkon_dakon::request::SolveReport;
use dalkon_dakon::solve::{self, MethodChoice, Plan, SolveRequest, Solved};
use dalkon_dakon::SolveError;
use dalkon_render::dakon::report;

use super::args::{DbDirArgs, SearchArgs};
use super::progress::{with_search_spinner, BuildBar};
use super::{print_json, RuleArgs};
use crate::common::{Format, Global};

/// How to solve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Method {
    /// Retrograde when the whole databases are small, search otherwise.
    Auto,
    /// Build (or load) every database level up to the seeds on the board.
    Retrograde,
    /// Exact alpha-beta (MTD(f)) from the initial position.
    Search,
}

impl From<Method> for MethodChoice {
    fn from(m: Method) -> MethodChoice {
        match m {
            Method::Auto => MethodChoice::Auto,
            Method::Retrograde => MethodChoice::Retrograde,
            Method::Search => MethodChoice::Search,
        }
    }
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Holes per row (n), 1 to 32 (16 for databases).
    #[arg(long)]
    pub holes: usize,
    /// Seeds per hole at the start (m): 2·n·m at most 255 (seed counts are
    /// bytes).
    #[arg(long)]
    pub seeds: u32,
    /// Solving method.
    #[arg(long, value_enum, default_value_t = Method::Auto)]
    pub method: Method,
    #[command(flatten)]
    pub db: DbDirArgs,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Search only: answer positions with at most K seeds on the board from
    /// retrograde databases (built in memory, or loaded from / written to
    /// the database folder). Default 0: no probing (the search settles
    /// every traditional start in seconds without them).
    #[arg(long, value_name = "K")]
    pub probe_seeds: Option<u32>,
    #[command(flatten)]
    pub rules: RuleArgs,
}

impl Args {
    fn request(&self) -> anyhow::Result<SolveRequest> {
        Ok(SolveRequest {
            holes: self.holes,
            seeds: self.seeds,
            rules: self.rules.rules(),
            method: self.method.into(),
            db_dir: Some(dalkon_store::data_dir(self.db.db_dir.clone())?),
            tt_mb: self.search.tt_mb,
            probe_seeds: self.probe_seeds,
        })
    }
}

/// Run a plan with a bar for the database build and, for a search, a
/// spinner (both only on a terminal).
pub(crate) fn run_with_progress(plan: &Plan) -> Result<Solved, SolveError> {
    let last = match plan.method {
        solve::Method::Retrograde => plan.start.seeds_on_board(),
        solve::Method::Search => plan.probe_seeds,
    };
    let bar = BuildBar::new(last);
    let s = match plan.method {
        solve::Method::Retrograde => plan.run(&bar, None),
        solve::Method::Search => {
            let label = format!("solving {}x{}", plan.holes, plan.seeds);
            with_search_spinner(&label, |p| plan.run(&bar, Some(p)))
        }
    };
    drop(bar);
    s
}

pub fn run(global: &Global, args: Args, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    let request = args.request()?;
    // Both methods read and write the databases (search probes them).
    let db_dir = request.db_dir.clone().unwrap_or_default();
    let plan = solve::plan(&request)?;
    let s = run_with_progress(&plan)?;
    if let Some(why) = &s.unsaved {
        eprintln!(
            "note: the databases were not saved ({why}); they were built in memory for this answer"
        );
    }
    let report = SolveReport::new(s, &db_dir);
    if format == Format::Json {
        return print_json(out, &report);
    }
    Ok(write!(
        out,
        "{}",
        report::solve(&plan.start, &report, &db_dir)
    )?)
}
