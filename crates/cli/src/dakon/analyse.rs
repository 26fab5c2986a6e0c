//! `dalkon dakon analyse FILE` (docs/cli.md, "Analysing a game"): a game
//! record read (docs/formats.md §5), every decision judged by the library's
//! `AnalyseRequest`, the report printed as a table, JSON or the value
//! chart. A bar counts the searches on a terminal; Ctrl-C is not caught
//! here, so an interrupted analysis prints nothing.

use std::path::PathBuf;

use dalkon_dakon::request::analyse::{AnalyseRequest, DEFAULT_ANALYSE_SECONDS};
use dalkon_render::dakon::analyse as render;
use dalkon_rules::dakon::Record;

use super::args::ProbeArgs;
use super::print_json;
use super::progress::open_databases;
use crate::common::{Format, Global};
use crate::progress::Bar;
use crate::record_file;
use dalkon_dakon::request::best::Analyst;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game record (docs/formats.md §5): written by `dakon game
    /// --save`, or by hand.
    pub file: PathBuf,
    /// Seconds of search for each decision; 0 for no limit (every
    /// decision exact, however long it takes).
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_ANALYSE_SECONDS)]
    pub time: f64,
    /// Nodes of search for each decision (with or instead of --time); 0
    /// for no limit.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    #[command(flatten)]
    pub probe: ProbeArgs,
}

pub fn run(global: &Global, args: Args, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json, Format::Svg])?;
    let record: Record = record_file::load(&args.file)?;
    let time = (args.time != 0.0).then_some(args.time);
    let request = AnalyseRequest::new(record.rules)
        .time(time)?
        .max_nodes(args.max_nodes)
        .probe(args.probe.probe_seeds, args.probe.db_dir())?;
    let mut analyst = Analyst::default();
    open_databases(&mut analyst, &request.best(), record.start.holes())?;
    let bar = Bar::count(0, "analysing");
    let progress = |done: usize, all: usize| bar.at(done, all);
    let report = request.run_in(
        &mut analyst,
        &record.start,
        &record.moves,
        Some(&progress),
        None,
    );
    drop(bar);
    let report = report?;
    match format {
        Format::Json => print_json(out, &report),
        Format::Svg => Ok(write!(out, "{}", render::analyse_svg(&report))?),
        _ => Ok(write!(out, "{}", render::analyse(&report))?),
    }
}
