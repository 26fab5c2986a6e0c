//! The `dalkon` binary: argument parsing and output formatting only.
//! Every game rule and every engine lives in the library crates.

mod common;
mod dakon;
mod daldos;
mod reproduce;

use clap::{Parser, Subcommand};
use common::Global;

/// Game-theoretic solver and analysis engine for Daldøs and Dakon.
#[derive(Debug, Parser)]
#[command(name = "dalkon", version, about)]
struct Cli {
    #[command(flatten)]
    global: Global,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Regenerate everything under data/ (tables, solved boards, plots).
    Reproduce(reproduce::Args),
    /// Daldøs: dice odds, capture tables, plays and best play.
    #[command(subcommand)]
    Daldos(daldos::Command),
    /// Dakon: exact solving, best moves, playing moves, openings.
    #[command(subcommand)]
    Dakon(dakon::Command),
}

fn main() {
    let cli = Cli::parse();
    if let Err(err) = cli.global.init_threads() {
        eprintln!("error: {err:#}");
        std::process::exit(2);
    }
    let result = match cli.command {
        Command::Reproduce(args) => reproduce::run(&cli.global, args),
        Command::Daldos(cmd) => daldos::run(&cli.global, cmd),
        Command::Dakon(cmd) => dakon::run(&cli.global, cmd),
    };
    if let Err(err) = result {
        eprintln!("error: {err:#}");
        std::process::exit(common::exit_code(&err));
    }
}
