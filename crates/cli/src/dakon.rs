//! `dalkon dakon` commands.

use std::path::Path;

use crate::common::Global;

#[derive(Debug, clap::Subcommand)]
pub enum Command {}

pub fn run(_global: &Global, cmd: Command) -> anyhow::Result<()> {
    match cmd {}
}

/// Write this game's part of `data/` under `out`.
pub fn reproduce(_out: &Path, _full: bool) -> anyhow::Result<()> {
    Ok(())
}
