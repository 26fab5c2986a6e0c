//! `dalkon dakon best`: the value of a position and of each move
//! (`dalkon_dakon::request::best`). `--position -` reads one position per
//! line from stdin and writes one JSON line per position.

use std::time::Duration;

use dalkon_dakon::request::best::{seconds, Analyst, BestRequest};
use dalkon_dakon::request::DEFAULT_ESTIMATE_DEPTH;
use dalkon_render::dakon::report;

use super::args::{ProbeArgs, SearchArgs};
use super::progress::{open_databases, with_search_spinner};
use super::{position, print_json, RuleArgs};
use crate::common::{Format, Global};
use dalkon_render::error_line::quote;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Position in docs/rules.md §2.5 notation (1 to 32 holes a row, at most
    /// 255 seeds in all), or `-` for one position per line
    /// on stdin (JSON lines out).
    #[arg(long, allow_hyphen_values = true)]
    pub position: String,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Answer within about this many seconds: exact when the proof
    /// finishes, otherwise the best move found with proved bounds
    /// (`"exact": false`). Default: no limit (exact).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time: Option<Duration>,
    /// Answer within about this many search nodes, like --time; 0 for no
    /// limit (the default).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub max_nodes: u64,
    /// Also solve every move that is not best exactly (more work), so that
    /// every move has a value rather than an upper bound.
    #[arg(long)]
    pub every_move: bool,
    /// Also give the K best moves, each with its value (or proved bounds)
    /// and its own line of play (UCI's MultiPV); more than the legal moves
    /// gives them all.
    #[arg(long, value_name = "K")]
    pub multipv: Option<usize>,
    /// Plies of the estimate that picks the move when the budget ends
    /// before anything is proved.
    #[arg(long, default_value_t = DEFAULT_ESTIMATE_DEPTH)]
    pub estimate_depth: u32,
    #[command(flatten)]
    pub probe: ProbeArgs,
    #[command(flatten)]
    pub rules: RuleArgs,
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    let s: f64 = text
        .parse()
        .map_err(|_| format!("{} is not a number of seconds", quote(text)))?;
    seconds(s).map_err(|e| e.to_string())
}

impl Args {
    fn request(&self) -> anyhow::Result<BestRequest> {
        Ok(BestRequest {
            time: self.time,
            every_move: self.every_move,
            estimate_depth: self.estimate_depth,
            tt_mb: self.search.tt_mb,
            ..BestRequest::new(self.rules.rules())
                .max_nodes(Some(self.max_nodes))
                .multipv(self.multipv)?
                .probe(self.probe.probe_seeds, self.probe.db_dir())?
        })
    }
}

pub fn run(
    global: &Global,
    args: Args,
    out: &mut dyn std::io::Write,
    stdin: &mut dyn std::io::BufRead,
) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    let request = args.request()?;
    let mut analyst = Analyst::default();
    if args.position == "-" {
        // One table for the whole batch while the board stays the same.
        crate::batch::run(stdin, out, |text| {
            let pos = position(text, "position ")?;
            Ok(serde_json::to_value(analyst.run(&request, &pos, None)?)?)
        })?;
        return Ok(());
    }
    let pos = position(&args.position, "--position ")?;
    open_databases(&mut analyst, &request, pos.holes())?;
    let r = with_search_spinner("solving", |p| analyst.run(&request, &pos, Some(p)))?;
    if format == Format::Json {
        return print_json(out, &r);
    }
    Ok(write!(out, "{}", report::best(&pos, &request.rules, &r))?)
}
