//! `dalkon daldos show`: draw a position, as text for the terminal or as
//! an SVG picture of the boat (both drawn by `dalkon_render::daldos`); with
//! `--best` (and `--dice`) the best play for that throw, asked as the same
//! [`BestRequest`] as `daldos best` (the solved tables of `--db-dir`
//! included, within `--max-nodes`), is marked (text) or drawn as arrows
//! (SVG), and labelled exact only where the report says so.

use std::path::PathBuf;

use dalkon_daldos::request::best::{BestReport, DEFAULT_DEPTH, SHOW_MAX_NODES};
use dalkon_render::daldos::{best_line, draw_marked, svg};
use dalkon_rules::daldos::{Hole, Play, Position, Throw};
use serde_json::json;

use super::best::{analyst, analysts, parse_request};
use super::RuleArgs;
use crate::common::{Format, Global};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position (docs/rules.md §1.6), e.g. "AAAA/...../BBBB a".
    #[arg(long, value_name = "POS")]
    pub position: String,
    /// The throw, two faces 1..=4, e.g. 3,1 (needed by --best).
    #[arg(long, value_name = "D1,D2")]
    pub dice: Option<String>,
    /// Mark the engine's best play for --dice (the search of `daldos best`).
    #[arg(long)]
    pub best: bool,
    /// Search depth of --best in throws, 1 to 8.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_DEPTH)]
    pub depth: u32,
    /// Nodes the --best search may visit, all depths together, at least 1.
    #[arg(long, value_name = "N", default_value_t = SHOW_MAX_NODES,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: u64,
    /// Folder of the solved tables --best uses where they cover a position
    /// (default: as for `daldos best`).
    #[arg(long, value_name = "DIR")]
    pub db_dir: Option<PathBuf>,
    #[command(flatten)]
    pub rules: RuleArgs,
}

pub fn run(global: &Global, args: Args, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Svg, Format::Json])?;
    let q = parse_request(
        args.dice.as_deref(),
        args.depth,
        args.max_nodes,
        false,
        true,
        None,
    )?;
    let pos = args.rules.position(&args.position)?;
    let throw = q.throw();
    let best = match (args.best, throw) {
        (false, _) => None,
        (true, None) => {
            anyhow::bail!("--best needs --dice D1,D2: the throw to find the best play for")
        }
        (true, Some(_)) => {
            let mut all = analysts(args.db_dir.clone(), &args.rules)?;
            Some(q.run(analyst(&mut all, &pos)?, &pos, &(), None)?)
        }
    };
    let marked = best.as_ref().and_then(|b| marked(&pos, b));
    match format {
        Format::Svg => {
            let b = marked.as_ref().map(|(play, line)| (play, line.as_str()));
            write!(out, "{}", svg(&pos, throw, b))?
        }
        Format::Json => {
            let mut j = json!({
                "position": pos.to_string(),
                "dice": throw.map(|t| t.to_string()),
            });
            if let Some(b) = &best {
                j["best"] = json!(b.best);
                j["value"] = json!(b.value);
                j["depth"] = json!(b.depth);
                j["exact"] = json!(b.exact);
            }
            writeln!(out, "{j}")?;
        }
        _ => {
            let holes: Vec<Hole> = marked.as_ref().map_or(Vec::new(), |(p, _)| {
                p.steps.iter().flat_map(|s| [s.from, s.to]).collect()
            });
            write!(out, "{}", draw_marked(&pos, &holes))?;
            match (&marked, throw) {
                (Some((_, line)), _) => writeln!(out, "   {line}")?,
                (None, Some(t)) => writeln!(out, "   throw {t}")?,
                (None, None) => {}
            }
        }
    }
    Ok(())
}

/// The best play of the report and the line that describes it.
fn marked(pos: &Position, b: &BestReport) -> Option<(Play, String)> {
    let (throw, play): (Throw, &Play) = (b.throw?, b.best_play.as_ref()?);
    let line = best_line(pos, throw, play, b.value, b.label(), b.depth);
    Some((play.clone(), line))
}
