//! `dalkon dakon prove`: solve a position and write the proof of its value
//! as two strategy files (`dalkon_dakon::prove`; format in
//! docs/formats.md), which `dalkon dakon verify` checks without solving.

use std::path::PathBuf;

use dalkon_dakon::prove::{prove, ProveRequest};
use dalkon_dakon::request::ProveReport;
use dalkon_dakon::solve::root_position;
use dalkon_render::dakon::report;
use dalkon_rules::dakon::Position;

use super::args::SearchArgs;
use super::progress::with_search_spinner;
use super::{position, print_json, RuleArgs};
use crate::common::{Format, Global};

#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("root").required(true).args(["holes", "position"])))]
pub struct Args {
    /// Prove the start of a board of this many holes a row (with --seeds).
    #[arg(long, requires = "seeds")]
    pub holes: Option<usize>,
    /// Seeds per hole at the start (with --holes).
    #[arg(long, requires = "holes")]
    pub seeds: Option<u32>,
    /// Prove this position instead (docs/rules.md §2.5 notation).
    #[arg(long, allow_hyphen_values = true, conflicts_with_all = ["holes", "seeds"])]
    pub position: Option<String>,
    /// Folder to write `mover.strategy` and `opponent.strategy` into
    /// (created if missing; a pair already there is replaced only once
    /// both new files are complete).
    #[arg(long)]
    pub out: PathBuf,
    /// Write the files gzip-compressed (`mover.strategy.gz`, ...).
    #[arg(long)]
    pub gzip: bool,
    /// Give up when a strategy needs more than this many lines.
    #[arg(long, value_name = "N")]
    pub max_lines: Option<u64>,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub rules: RuleArgs,
}

impl Args {
    fn root(&self) -> anyhow::Result<Position> {
        let pos = match &self.position {
            Some(text) => Some(position(text, "--position ")?),
            None => None,
        };
        Ok(root_position(pos, self.holes, self.seeds)?)
    }
}

pub fn run(global: &Global, args: Args, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    let request = ProveRequest {
        root: args.root()?,
        rules: args.rules.rules(),
        tt_mb: args.search.tt_mb,
        max_lines: args.max_lines,
    };
    let p = with_search_spinner("proving", |progress| prove(&request, Some(progress)))?;
    let files = p.write(&args.out, args.gzip)?;
    let report = ProveReport::new(&p, &files);
    if format == Format::Json {
        return print_json(out, &report);
    }
    Ok(write!(
        out,
        "{}",
        report::prove(&request.root, &request.rules, &report)
    )?)
}
