//! `dalkon dakon best`: the exact value of a position and of each move
//! (`dalkon_solver::best`). `--position -` reads one position per line from
//! stdin and writes one JSON line per position.

use anyhow::Context;
use dalkon_rules::dakon::Position;
use dalkon_solver::best::{analyse, Analysis, DEFAULT_MAX_NODES};
use dalkon_solver::search::Limits;
use dalkon_solver::solve::search_limits;
use serde_json::json;

use super::args::SearchArgs;
use super::draw::{chain, draw};
use super::progress::with_search_spinner;
use super::RuleArgs;
use crate::common::{quote, Format, Global};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Position in docs/rules.md §2.5 notation (1 to 32 holes a row, at most
    /// 255 seeds in all), or `-` for one position per line
    /// on stdin (JSON lines out).
    #[arg(long, allow_hyphen_values = true)]
    pub position: String,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Give up the exact search after this many nodes and answer with a
    /// depth-limited estimate instead (`"exact": false`); 0 for no limit.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_NODES)]
    pub max_nodes: u64,
    /// Plies of the estimate used when the node limit is reached.
    #[arg(long, default_value_t = 6)]
    pub estimate_depth: u32,
    #[command(flatten)]
    pub rules: RuleArgs,
}

impl Args {
    fn limits(&self, holes: usize) -> anyhow::Result<Limits> {
        let max_nodes = (self.max_nodes > 0).then_some(self.max_nodes);
        Ok(search_limits(holes, self.search.tt_mb, max_nodes)?)
    }
}

fn to_json(a: &Analysis) -> serde_json::Value {
    json!({
        "value": a.value,
        "best_moves": a.best_moves,
        "moves": a.moves.iter().map(|&(h, v)| json!({"move": h, "value": v})).collect::<Vec<_>>(),
        "exact": a.exact,
    })
}

/// The last line of the text output: the work done, or that the answer is
/// an estimate.
fn note(a: &Analysis) -> String {
    match a.estimate_depth {
        None => format!(
            "{} positions, {} nodes, {:.3} s",
            a.positions, a.nodes, a.seconds
        ),
        Some(depth) => format!(
            "node limit reached after {} nodes: estimate {depth} plies deep, NOT exact",
            a.nodes
        ),
    }
}

pub fn run(
    global: &Global,
    args: Args,
    out: &mut dyn std::io::Write,
    stdin: &mut dyn std::io::BufRead,
) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    let rules = args.rules.rules();
    if args.position == "-" {
        // The table's size depends on the board: keep the limits of the
        // last board seen.
        let mut limits: Option<(usize, Limits)> = None;
        crate::batch::run(stdin, out, |text| {
            let pos: Position = text
                .parse()
                .with_context(|| format!("bad position {}", quote(text)))?;
            let lim = match limits {
                Some((n, l)) if n == pos.holes() => l,
                _ => {
                    let l = args.limits(pos.holes())?;
                    limits = Some((pos.holes(), l));
                    l
                }
            };
            Ok(to_json(&analyse(
                &pos,
                &rules,
                &lim,
                args.estimate_depth,
                None,
            )?))
        })?;
        return Ok(());
    }
    let pos: Position = args
        .position
        .parse()
        .with_context(|| format!("bad --position {}", quote(&args.position)))?;
    let limits = args.limits(pos.holes())?;
    let r = with_search_spinner("solving", |p| {
        analyse(&pos, &rules, &limits, args.estimate_depth, Some(p))
    })?;
    if format == Format::Json {
        writeln!(out, "{}", to_json(&r))?;
        return Ok(());
    }
    writeln!(out, "{}", draw(&pos))?;
    writeln!(
        out,
        "value       {:+}  (final store difference for the side to move, {})",
        r.value,
        if r.exact { "exact" } else { "ESTIMATE" }
    )?;
    writeln!(
        out,
        "best moves  {}",
        if r.best_moves.is_empty() {
            "none (game over)".to_owned()
        } else {
            chain(&r.best_moves, " ")
        }
    )?;
    if !r.moves.is_empty() {
        writeln!(out, "\n move  value")?;
        for (h, v) in &r.moves {
            writeln!(out, "{h:>5}  {v:>+5}")?;
        }
    }
    writeln!(out, "\n{}", note(&r))?;
    Ok(())
}
