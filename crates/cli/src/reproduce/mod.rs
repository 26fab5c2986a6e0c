//! `dalkon reproduce`: regenerate everything under `data/`.

mod dakon;
mod daldos;

use std::path::PathBuf;

use crate::common::Global;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Folder to write into (its `daldos/` and `dakon/` subfolders).
    #[arg(long, default_value = "data")]
    pub out: PathBuf,
    /// Also solve the large boards (may take much longer than the default run).
    #[arg(long)]
    pub full: bool,
    /// Regenerate only this game's files.
    #[arg(long, value_enum)]
    pub only: Option<Game>,
}

/// A game whose files `reproduce` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Game {
    Daldos,
    Dakon,
}

pub fn run(global: &Global, args: Args, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    global.require_format(&[crate::common::Format::Text])?;
    if args.only != Some(Game::Dakon) {
        daldos::reproduce(&args.out, args.full)?;
    }
    if args.only != Some(Game::Daldos) {
        dakon::reproduce(&args.out, args.full)?;
    }
    writeln!(out, "data regenerated under {}", args.out.display())?;
    Ok(())
}
