//! `dalkon dakon show`: draw a position, as text for the terminal or as an
//! SVG picture (`dalkon_render::dakon`); with `--best` the best moves, found
//! by the request of `dakon best` within a node limit
//! (`dalkon_dakon::request::show`), are marked.

use dalkon_dakon::request::{ShowReport, ShowRequest, SHOW_MAX_NODES};
use dalkon_render::dakon::{draw_marked, svg, Best};

use super::args::ProbeArgs;
use super::progress::open_databases;
use super::{position, print_json, RuleArgs};
use crate::common::{Format, Global};
use dalkon_dakon::request::best::Analyst;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Position in docs/rules.md §2.5 notation, e.g.
    /// "7,7,7,7,7,7,7/7,7,7,7,7,7,7/0,0 0".
    #[arg(long)]
    pub position: String,
    /// Mark the best moves of the side to move (the search of `dakon best`,
    /// cut short after --max-nodes nodes: then a shallow estimate).
    #[arg(long)]
    pub best: bool,
    /// Nodes the --best search may visit, at least 1.
    #[arg(long, value_name = "N", default_value_t = SHOW_MAX_NODES,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: u64,
    #[command(flatten)]
    pub probe: ProbeArgs,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// The report's best moves as the drawings mark them.
fn best(r: &ShowReport) -> Option<Best<'_>> {
    r.best.as_ref().map(|b| Best {
        moves: &b.best_moves,
        value: b.value,
        label: b.label().to_string(),
    })
}

pub fn run(global: &Global, args: Args, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Svg, Format::Json])?;
    let pos = position(&args.position, "--position ")?;
    let request = ShowRequest::new(pos, args.rules.rules(), args.best, args.max_nodes)?
        .probe(args.probe.probe_seeds, args.probe.db_dir())?;
    let mut analyst = Analyst::default();
    if let Some(b) = &request.best {
        open_databases(&mut analyst, b, pos.holes())?;
    }
    let report = request.run_in(&mut analyst)?;
    let best = best(&report);
    match format {
        Format::Svg => write!(out, "{}", svg(&pos, best.as_ref()))?,
        Format::Json => print_json(out, &report)?,
        _ => {
            write!(
                out,
                "{}",
                draw_marked(&pos, best.as_ref().map_or(&[], |b| b.moves))
            )?;
            if let Some(b) = &best {
                writeln!(out, "{}", b.line(&pos))?;
            }
        }
    }
    Ok(())
}
