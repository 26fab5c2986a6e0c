//! `dalkon dakon` commands (docs/cli.md, "Dakon"). Each command lives in its own
//! file; this one only dispatches.

mod analyse;
mod args;
mod best;
mod game;
pub(crate) mod openings;
mod play;
pub(crate) mod progress;
pub(crate) mod prove;
mod rule_args;
mod show;
pub(crate) mod solve;
mod verify;

use crate::common::Global;
use anyhow::Context;
use dalkon_render::error_line::quote;
use dalkon_rules::dakon::Position;

pub use rule_args::RuleArgs;

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Solve the initial position of a board exactly.
    Solve(solve::Args),
    /// Value and best moves of a position.
    Best(best::Args),
    /// Apply moves and show each position and what happened.
    Play(play::Args),
    /// Openings that win outright in the first player's first turn.
    Openings(openings::Args),
    /// Solve a position and write the proof of its value (two strategy files).
    Prove(prove::Args),
    /// Check a strategy file (a proof of what a player secures) with the
    /// rules alone.
    Verify(verify::Args),
    /// Draw a position (text or SVG), with --best the best moves marked.
    Show(show::Args),
    /// Play a game in the terminal: human against engine, engines or humans.
    Game(game::Args),
    /// Judge every decision of a game record: values, losses, marks.
    Analyse(analyse::Args),
}

pub fn run(
    global: &Global,
    cmd: Command,
    out: &mut dyn std::io::Write,
    stdin: &mut dyn std::io::BufRead,
) -> anyhow::Result<()> {
    match cmd {
        Command::Solve(args) => solve::run(global, args, out),
        Command::Best(args) => best::run(global, args, out, stdin),
        Command::Play(args) => play::run(global, args, out),
        Command::Openings(args) => openings::run(global, args, out),
        Command::Prove(args) => prove::run(global, args, out),
        Command::Verify(args) => verify::run(global, args, out),
        Command::Show(args) => show::run(global, args, out),
        Command::Game(args) => game::run(global, args, out, stdin),
        Command::Analyse(args) => analyse::run(global, args, out),
    }
}

/// A report as the CLI's JSON: through `serde_json::Value`, whose keys are
/// sorted, so that the bytes do not depend on the report's field order.
fn print_json(out: &mut dyn std::io::Write, report: &impl serde::Serialize) -> anyhow::Result<()> {
    writeln!(out, "{}", serde_json::to_value(report)?)?;
    Ok(())
}

/// `--position` (or `flag`) parsed, the input quoted in the error.
fn position(text: &str, flag: &str) -> anyhow::Result<Position> {
    text.parse()
        .with_context(|| format!("bad {flag}{}", quote(text)))
}
