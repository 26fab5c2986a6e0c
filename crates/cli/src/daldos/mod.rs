//! `dalkon daldos` commands (CLI.md, "Daldøs"). Each command lives in its
//! own file; this one only dispatches.

mod best;
mod draw;
mod matchplay;
mod moves;
mod odds;
mod rule_args;
mod table;

use std::path::Path;

use crate::common::Global;

pub use rule_args::RuleArgs;

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Capture-probability tables: closed-form model beside real board positions.
    Table(table::Args),
    /// Capture probability of every enemy piece this turn, for a position.
    Odds(odds::Args),
    /// Every distinct legal play for a throw.
    Moves(moves::Args),
    /// Best play for a throw (or for each of the 16 throws), by expectiminimax.
    Best(best::Args),
    /// Seeded, replayable matches between players.
    Match(matchplay::Args),
}

pub fn run(global: &Global, cmd: Command) -> anyhow::Result<()> {
    match cmd {
        Command::Table(args) => table::run(global, args),
        Command::Odds(args) => odds::run(global, args),
        Command::Moves(args) => moves::run(global, args),
        Command::Best(args) => best::run(global, args),
        Command::Match(args) => matchplay::run(global, args),
    }
}

/// Write the Daldøs part of `data/` under `out` (`out/daldos/...`).
pub fn reproduce(out: &Path, full: bool) -> anyhow::Result<()> {
    table::reproduce(out, full)?;
    matchplay::reproduce(out, full)
}
