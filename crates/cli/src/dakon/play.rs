//! `dalkon dakon play`: apply moves and show each position with what
//! happened (relays, bonus, captures, the end sweep).

use anyhow::Context;
use dalkon_rules::dakon::{Position, Side};
use serde_json::json;

use super::RuleArgs;
use crate::common::{Format, Global};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Position in RULES.md §2.5 notation, e.g. "7,7,7,7,7,7,7/7,7,7,7,7,7,7/0,0 0".
    #[arg(long)]
    pub position: String,
    /// Holes to play in order, comma-separated (1 = the mover's first hole).
    #[arg(long, value_delimiter = ',', required = true)]
    pub moves: Vec<usize>,
    #[command(flatten)]
    pub rules: RuleArgs,
}

pub fn run(global: &Global, args: Args) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    let rules = args.rules.rules();
    let start: Position = args
        .position
        .parse()
        .with_context(|| format!("bad --position {:?}", args.position))?;
    let mut positions = Vec::new();
    let mut events = Vec::new();
    let mut p = start;
    for (i, &hole) in args.moves.iter().enumerate() {
        let mover = p.side_to_move();
        let (next, log) = p
            .play_logged(hole, &rules)
            .with_context(|| format!("move {} (hole {hole}) in {p}", i + 1))?;
        positions.push((mover, hole, next));
        events.push(log);
        p = next;
    }
    if format == Format::Json {
        let json = json!({
            "positions": positions.iter().map(|(_, _, p)| p.to_string()).collect::<Vec<_>>(),
            "events": events
                .iter()
                .map(|log| log.iter().map(|e| e.to_string()).collect::<Vec<_>>())
                .collect::<Vec<_>>(),
        });
        println!("{json}");
        return Ok(());
    }
    println!("Rules: {rules}\n");
    println!("{}", draw(&start));
    for ((mover, hole, pos), log) in positions.iter().zip(&events) {
        println!("{} plays hole {hole}:", side_name(*mover));
        for e in log {
            println!("  {e}");
        }
        println!("\n{}", draw(pos));
    }
    Ok(())
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::South => "South (0)",
        Side::North => "North (1)",
    }
}

/// The board as players see it from South: North's row on top running
/// right to left (its hole 1 faces South's hole n), North's store on the
/// left, South's on the right; then the notation and the side to move.
pub fn draw(p: &Position) -> String {
    let n = p.holes();
    let cell = |c: u8| format!("[{c:>3}]");
    let label = |s: char, i: usize| format!("{:>4} ", format!("{s}{i}"));
    let pad = " ".repeat(6);
    let north: String = (1..=n).rev().map(|i| cell(p.pit(Side::North, i))).collect();
    let south: String = (1..=n).map(|i| cell(p.pit(Side::South, i))).collect();
    let north_labels: String = (1..=n).rev().map(|i| label('N', i)).collect();
    let south_labels: String = (1..=n).map(|i| label('S', i)).collect();
    let width = 5 * n;
    let to_move = if p.is_over() {
        "game over".to_owned()
    } else {
        format!("{} to move", side_name(p.side_to_move()))
    };
    format!(
        "{pad}{north_labels}\n{pad}{north}\n{:>5} {:width$} {:<5}\n{pad}{south}\n{pad}{south_labels}\n{p}   ({to_move})\n",
        format!("[{}]", p.store(Side::North)),
        "",
        format!("[{}]", p.store(Side::South)),
    )
}
