//! `dalkon dakon play`: apply moves and show each position with what
//! happened (relays, bonus, captures, the end sweep).

use anyhow::Context;
use dalkon_rules::dakon::Position;
use serde_json::json;

use super::draw::{draw, side_name};
use super::RuleArgs;
use crate::common::{quote, Format, Global};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Position in docs/rules.md §2.5 notation (1 to 32 holes a row, at most
    /// 255 seeds in all), e.g. "7,7,7,7,7,7,7/7,7,7,7,7,7,7/0,0 0".
    #[arg(long)]
    pub position: String,
    /// Holes to play in order, comma-separated (1 = the mover's first hole).
    #[arg(long, value_delimiter = ',', required = true)]
    pub moves: Vec<usize>,
    #[command(flatten)]
    pub rules: RuleArgs,
}

pub fn run(global: &Global, args: Args, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    let rules = args.rules.rules();
    let start: Position = args
        .position
        .parse()
        .with_context(|| format!("bad --position {}", quote(&args.position)))?;
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
        writeln!(out, "{json}")?;
        return Ok(());
    }
    writeln!(out, "Rules: {rules}\n")?;
    writeln!(out, "{}", draw(&start))?;
    for ((mover, hole, pos), log) in positions.iter().zip(&events) {
        writeln!(out, "{} plays hole {hole}:", side_name(*mover))?;
        for e in log {
            writeln!(out, "  {e}")?;
        }
        writeln!(out, "\n{}", draw(pos))?;
    }
    Ok(())
}
