//! `dalkon daldos` commands (docs/cli.md, "Daldøs"). Each command lives in its
//! own file; this one only dispatches.

mod analyse;
mod best;
mod game;
pub(crate) mod matchplay;
mod moves;
mod odds;
mod progress;
mod rule_args;
mod show;
pub(crate) mod solve;
pub(crate) mod table;
mod train;
mod value;

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
    /// Draw a position (text or SVG), with --best the best play of a throw.
    Show(show::Args),
    /// Play a game in the terminal: humans, engines, random or greedy players.
    Game(game::Args),
    /// Build (or load) the tables of exact values W up to A,B pieces a side.
    Solve(solve::Args),
    /// The exact value of a position from the tables, every play ranked.
    Value(value::Args),
    /// Judge every throw of a game record: values, losses, luck, marks.
    Analyse(analyse::Args),
    /// Train the learned evaluation on the solved tables; write its weights.
    Train(train::Args),
}

pub fn run(
    global: &Global,
    cmd: Command,
    out: &mut dyn std::io::Write,
    stdin: &mut dyn std::io::BufRead,
) -> anyhow::Result<()> {
    match cmd {
        Command::Table(args) => table::run(global, args, out),
        Command::Odds(args) => odds::run(global, args, out, stdin),
        Command::Moves(args) => moves::run(global, args, out, stdin),
        Command::Best(args) => best::run(global, args, out, stdin),
        Command::Match(args) => matchplay::run(global, args, out),
        Command::Show(args) => show::run(global, args, out),
        Command::Game(args) => game::run(global, args, out, stdin),
        Command::Solve(args) => solve::run(global, args, out),
        Command::Value(args) => value::run(global, args, out, stdin),
        Command::Analyse(args) => analyse::run(global, args, out),
        Command::Train(args) => train::run(global, args, out),
    }
}
