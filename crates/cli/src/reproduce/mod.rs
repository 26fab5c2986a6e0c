//! `dalkon reproduce`: regenerate everything under `data/`.
//!
//! Every file under `data/` is a pure function of the code (docs/cli.md, "Data
//! files written by `reproduce`"): the same bytes on every run and with any
//! thread count, written atomically. What varies from run to run goes to
//! `reproduce.log` beside the out folder ([`log`]).

mod csv;
mod dakon;
mod daldos;
mod log;

use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::common::Global;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Folder to write into (its `daldos/` and `dakon/` subfolders). The
    /// run's timings go to `reproduce.log` in the folder above it.
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
    let mut command = format!("dalkon reproduce --out {}", args.out.display());
    if args.full {
        command.push_str(" --full");
    }
    match args.only {
        Some(Game::Daldos) => command.push_str(" --only daldos"),
        Some(Game::Dakon) => command.push_str(" --only dakon"),
        None => {}
    }
    let mut log = log::RunLog::new(&command);
    let result = (|| {
        if args.only != Some(Game::Dakon) {
            daldos::reproduce(&args.out, args.full, &mut log, out)?;
        }
        if args.only != Some(Game::Daldos) {
            dakon::reproduce(&args.out, args.full, &mut log, out)?;
        }
        anyhow::Ok(())
    })();
    if let Err(e) = &result {
        log.note(format!("failed: {e:#}"));
    }
    log.note(format!("total: seconds={:.1}", log.elapsed()));
    // The log is written even when the run failed: it says how far it got.
    let log_path = log::RunLog::path_for(&args.out);
    let logged = log
        .write(&log_path)
        .with_context(|| format!("cannot write {}", log_path.display()));
    result?;
    logged?;
    writeln!(
        out,
        "data regenerated under {} in {:.1} s; timings and counters in {}",
        args.out.display(),
        log.elapsed(),
        log_path.display()
    )?;
    Ok(())
}

/// Write one data file atomically (temporary file, then rename): a failure
/// leaves the old file intact.
fn write_file(path: &Path, text: &str) -> anyhow::Result<()> {
    write_bytes(path, text.as_bytes())
}

/// [`write_file`] for bytes that are not text (the gzip proofs).
fn write_bytes(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    dalkon_solver::atomic::write(path, bytes)
        .with_context(|| format!("cannot write {}", path.display()))
}
