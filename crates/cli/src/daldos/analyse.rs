//! `dalkon daldos analyse FILE` (docs/cli.md, "Analysing a game"): a game
//! record read (docs/formats.md §5), the solved tables of its board loaded
//! from `--db-dir` (exact values wherever they cover a position), every
//! throw judged by the library's `AnalyseRequest`, the report printed as a
//! table, JSON or the chart of A's `W` over the game.

use std::path::PathBuf;

use dalkon_daldos::request::analyse::{
    AnalyseProgress, AnalyseRequest, DEFAULT_ANALYSE_MAX_NODES, DEFAULT_ANALYSE_SECONDS,
};
use dalkon_daldos::request::best::Analyst;
use dalkon_render::daldos::analyse as render;
use dalkon_rules::daldos::Record;

use crate::common::{Format, Global};
use crate::progress::Bar;
use crate::record_file;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game record (docs/formats.md §5): written by `daldos game
    /// --save`, `daldos match --records`, or by hand.
    pub file: PathBuf,
    /// Seconds of search for each throw not covered by the tables.
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_ANALYSE_SECONDS)]
    pub time: f64,
    /// Nodes of search for each throw not covered by the tables; 0 for no
    /// limit.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_ANALYSE_MAX_NODES)]
    pub max_nodes: u64,
    /// Folder of the solved tables (`dalkon daldos solve`; default:
    /// $DALKON_DB_DIR, else ./dalkon-db if it exists, else $XDG_DATA_HOME/dalkon, else
    /// ~/.local/share/dalkon).
    #[arg(long, value_name = "DIR")]
    pub db_dir: Option<PathBuf>,
}

/// The bar, fed by the analysis.
impl AnalyseProgress for Bar {
    fn position_done(&self, done: usize, total: usize) {
        self.at(done, total);
    }
}

pub fn run(global: &Global, args: Args, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json, Format::Svg])?;
    let record: Record = record_file::load(&args.file)?;
    let dir = super::best::db_dir(args.db_dir.clone())?;
    let tables = super::best::load_tables(&dir, record.start.board(), record.variants)?;
    let analyst = Analyst::with_tables(tables);
    let request = AnalyseRequest::new()
        .time(Some(args.time))?
        .max_nodes(Some(args.max_nodes));
    let bar = Bar::count(0, "analysing");
    let report = request.run_record(&analyst, &record, &bar, None);
    drop(bar);
    let report = report?;
    match format {
        Format::Json => {
            writeln!(out, "{}", serde_json::to_value(&report)?)?;
            Ok(())
        }
        Format::Svg => Ok(write!(out, "{}", render::analyse_svg(&report))?),
        _ => Ok(write!(out, "{}", render::analyse(&report))?),
    }
}
