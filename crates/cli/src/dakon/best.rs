//! `dalkon dakon best`: the exact value of a position and of each move.
//! `--position -` reads one position per line from stdin and writes one
//! JSON line per position.

use std::io::BufRead;

use anyhow::Context;
use dalkon_rules::dakon::{Position, Rules};
use dalkon_solver::search::{self, Limits};
use serde_json::json;

use super::play::draw;
use super::progress::with_search_spinner;
use super::solve::SearchArgs;
use super::RuleArgs;
use crate::common::{Format, Global};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Position in RULES.md §2.5 notation, or `-` for one position per line
    /// on stdin (JSON lines out).
    #[arg(long, allow_hyphen_values = true)]
    pub position: String,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Give up the exact search after this many nodes and answer with a
    /// depth-limited estimate instead (`"exact": false`).
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Plies of the estimate used when the node limit is reached.
    #[arg(long, default_value_t = 6)]
    pub estimate_depth: u32,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// Value, best moves and per-move values, and whether they are exact.
struct Answer {
    value: i32,
    best_moves: Vec<usize>,
    moves: Vec<(usize, i32)>,
    exact: bool,
    note: String,
}

fn answer(
    pos: &Position,
    rules: &Rules,
    limits: &Limits,
    depth: u32,
    progress: Option<&search::SearchProgress>,
) -> anyhow::Result<Answer> {
    match search::solve(pos, rules, limits, None, progress) {
        Ok(r) => Ok(Answer {
            value: r.value,
            best_moves: r.best_moves,
            moves: r.moves,
            exact: true,
            note: format!(
                "{} positions, {} nodes, {:.3} s",
                r.positions, r.nodes, r.seconds
            ),
        }),
        Err(search::SearchError::NodeLimit { nodes }) => {
            let moves = search::estimate_moves(pos, rules, depth);
            let value = moves.iter().map(|m| m.1).max().unwrap_or(0);
            let best_moves = moves.iter().filter(|m| m.1 == value).map(|m| m.0).collect();
            Ok(Answer {
                value,
                best_moves,
                moves,
                exact: false,
                note: format!(
                    "node limit reached after {nodes} nodes: estimate {depth} plies deep, NOT exact"
                ),
            })
        }
        Err(e) => Err(e.into()),
    }
}

fn to_json(a: &Answer) -> serde_json::Value {
    json!({
        "value": a.value,
        "best_moves": a.best_moves,
        "moves": a.moves.iter().map(|&(h, v)| json!({"move": h, "value": v})).collect::<Vec<_>>(),
        "exact": a.exact,
    })
}

pub fn run(global: &Global, args: Args) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    let rules = args.rules.rules();
    if args.position == "-" {
        let stdin = std::io::stdin();
        let mut limits: Option<(usize, Limits)> = None;
        for (i, line) in stdin.lock().lines().enumerate() {
            let line = line.context("cannot read stdin")?;
            let text = line.trim();
            if text.is_empty() {
                continue;
            }
            let pos: Position = text
                .parse()
                .with_context(|| format!("line {}: bad position {text:?}", i + 1))?;
            let lim = match limits {
                Some((n, l)) if n == pos.holes() => l,
                _ => {
                    let mut l = args.search.limits(pos.holes())?;
                    l.max_nodes = args.max_nodes;
                    limits = Some((pos.holes(), l));
                    l
                }
            };
            let a = answer(&pos, &rules, &lim, args.estimate_depth, None)?;
            println!("{}", to_json(&a));
        }
        return Ok(());
    }
    let pos: Position = args
        .position
        .parse()
        .with_context(|| format!("bad --position {:?}", args.position))?;
    let mut limits = args.search.limits(pos.holes())?;
    limits.max_nodes = args.max_nodes;
    if format == Format::Json {
        let a = answer(&pos, &rules, &limits, args.estimate_depth, None)?;
        println!("{}", to_json(&a));
        return Ok(());
    }
    let r = with_search_spinner("solving", |p| {
        answer(&pos, &rules, &limits, args.estimate_depth, Some(p))
    })?;
    println!("{}", draw(&pos));
    println!(
        "value       {:+}  (final store difference for the side to move, {})",
        r.value,
        if r.exact { "exact" } else { "ESTIMATE" }
    );
    let best: Vec<String> = r.best_moves.iter().map(|h| h.to_string()).collect();
    println!(
        "best moves  {}",
        if best.is_empty() {
            "none (game over)".to_owned()
        } else {
            best.join(" ")
        }
    );
    if !r.moves.is_empty() {
        println!("\n move  value");
        for (h, v) in &r.moves {
            println!("{h:>5}  {v:>+5}");
        }
    }
    println!("\n{}", r.note);
    Ok(())
}
