//! `dalkon reproduce`: regenerate everything under `data/`.
//!
//! Every file under `data/` is a pure function of the code (docs/cli.md, "Data
//! files written by `reproduce`"): the same bytes on every run and with any
//! thread count, written atomically. What varies from run to run goes to
//! `reproduce.log` beside the out folder ([`log`]).
//!
//! `--format json` prints, instead of the lines of text, one JSON summary
//! at the end: `{"out", "full", "only", "summary": [the lines of text],
//! "log", "seconds"}`.
//!
//! On standard error each step of the run gets one line as it starts
//! ([`Steps`]) when standard error is not a terminal, so that a log or a CI
//! job shows where a run of several minutes is; a terminal has the
//! progress bars instead.

mod csv;
mod dakon;
mod daldos;
mod log;

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::Serialize;

use crate::common::{Format, Global, TEXT_JSON};

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

/// The JSON summary of a run.
#[derive(Debug, Serialize)]
struct Summary {
    out: String,
    full: bool,
    only: Option<&'static str>,
    /// The lines the text output prints, one per part.
    summary: Vec<String>,
    log: String,
    seconds: f64,
}

pub fn run(global: &Global, args: Args, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let format = global.require_format(TEXT_JSON)?;
    // Text goes out line by line as the parts finish; JSON is one summary
    // at the end, of the same lines.
    let mut lines: Vec<u8> = Vec::new();
    let say: &mut dyn std::io::Write = match format {
        Format::Json => &mut lines,
        _ => &mut *out,
    };
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
    let daldos = args.only != Some(Game::Dakon);
    let dakon = args.only != Some(Game::Daldos);
    let total = usize::from(daldos) * daldos::STEPS + usize::from(dakon) * dakon::STEPS;
    let mut steps = Steps::new(total, !std::io::stderr().is_terminal());
    let result = (|| {
        if daldos {
            daldos::reproduce(&args.out, args.full, &mut log, &mut steps, say)?;
        }
        if dakon {
            dakon::reproduce(&args.out, args.full, &mut log, &mut steps, say)?;
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
    if format == Format::Json {
        let summary = Summary {
            out: args.out.display().to_string(),
            full: args.full,
            only: args.only.map(|g| match g {
                Game::Daldos => "daldos",
                Game::Dakon => "dakon",
            }),
            summary: String::from_utf8_lossy(&lines)
                .lines()
                .map(str::to_owned)
                .collect(),
            log: log_path.display().to_string(),
            seconds: log.elapsed(),
        };
        writeln!(out, "{}", serde_json::to_string(&summary)?)?;
        return Ok(());
    }
    writeln!(
        say,
        "data regenerated under {} in {:.1} s; timings and counters in {}",
        args.out.display(),
        log.elapsed(),
        log_path.display()
    )?;
    Ok(())
}

/// The steps of a run, announced one line each on standard error as they
/// start: `reproduce: daldos matches (2/8) …`.
pub struct Steps {
    total: usize,
    started: usize,
    /// Whether to print the lines (standard error is not a terminal).
    lines: bool,
}

impl Steps {
    fn new(total: usize, lines: bool) -> Steps {
        Steps {
            total,
            started: 0,
            lines,
        }
    }

    /// Announce the next step. A standard error that cannot be written
    /// does not stop the run: the data files are what matters.
    pub fn start(&mut self, what: &str) {
        self.started += 1;
        if self.lines {
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "reproduce: {what} ({}/{}) …",
                self.started,
                self.total
            );
        }
    }
}

/// Write one data file atomically (temporary file, then rename): a failure
/// leaves the old file intact.
fn write_file(path: &Path, text: &str) -> anyhow::Result<()> {
    write_bytes(path, text.as_bytes())
}

/// [`write_file`] for bytes that are not text (the gzip proofs).
fn write_bytes(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    dalkon_store::atomic::write(path, bytes)
        .with_context(|| format!("cannot write {}", path.display()))
}
