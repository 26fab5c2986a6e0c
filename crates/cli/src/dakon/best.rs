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
    #[command(flatten)]
    pub rules: RuleArgs,
}

fn solve_json(pos: &Position, rules: &Rules, limits: &Limits) -> anyhow::Result<serde_json::Value> {
    let r = search::solve(pos, rules, limits, None, None)?;
    Ok(json!({
        "value": r.value,
        "best_moves": r.best_moves,
        "moves": r.moves.iter().map(|&(h, v)| json!({"move": h, "value": v})).collect::<Vec<_>>(),
        "exact": true,
    }))
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
                    let l = args.search.limits(pos.holes())?;
                    limits = Some((pos.holes(), l));
                    l
                }
            };
            println!("{}", solve_json(&pos, &rules, &lim)?);
        }
        return Ok(());
    }
    let pos: Position = args
        .position
        .parse()
        .with_context(|| format!("bad --position {:?}", args.position))?;
    let limits = args.search.limits(pos.holes())?;
    if format == Format::Json {
        println!("{}", solve_json(&pos, &rules, &limits)?);
        return Ok(());
    }
    let r = with_search_spinner("solving", |p| {
        search::solve(&pos, &rules, &limits, None, Some(p))
    })?;
    println!("{}", draw(&pos));
    println!(
        "value       {:+}  (final store difference for the side to move, exact)",
        r.value
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
    println!(
        "\n{} positions, {} nodes, {:.3} s",
        r.positions, r.nodes, r.seconds
    );
    Ok(())
}
