//! The data pipeline of dalkon (`dalkon reproduce`): regenerate everything
//! under `data/` — the Daldøs capture tables, engine benchmark, solved
//! tables and the engine measured against them; the Dakon solved boards,
//! their proofs and openings; their Markdown summaries and plots.
//!
//! Every file under `data/` is a pure function of the code (docs/cli.md, "Data
//! files written by `reproduce`"): the same bytes on every run and with any
//! thread count, written atomically. What varies from run to run goes to
//! `reproduce.log` beside the out folder ([`log`]).
//!
//! [`run`] takes a [`Config`] and a [`Progress`] sink (the steps as they
//! start, the progress of long jobs: the caller draws them), writes the
//! summary lines to a writer as the parts finish, and returns them in a
//! [`Report`] (the JSON of `dalkon reproduce --format json`: `{"out",
//! "full", "only", "summary": [the lines of text], "log", "seconds"}`).
//!
//! # Studies a run does not regenerate
//!
//! The evaluation weights of the Daldøs engine and some README numbers come
//! from measurements too slow or too exploratory for `reproduce` (each takes
//! minutes and prints its result rather than writing `data/`). They are
//! this crate's examples, run from the workspace root:
//!
//! - `engine_vs_perfect`: the error rates of greedy and `engine:N` against
//!   the solved tables (the rows of `data/daldos/engine_vs_perfect.csv`,
//!   which `reproduce` does write) and, with `--extra`, of
//!   `engine:N+tables` and `engine:N(exact-fit)`: the "+tables" and
//!   "exact-fit" columns of the README's table. Builds the tables it needs
//!   in `DIR`. `cargo run --release -p dalkon-reproduce --example
//!   engine_vs_perfect -- DIR --extra`
//! - `eval_features`: the training data of the default evaluation weights
//!   (`EvalWeights::GAMES_FIT`): one CSV line per position of engine:1
//!   against greedy, fitted by `scripts/daldos_fit_eval.py`. `cargo run
//!   --release -p dalkon-reproduce --example eval_features -- 3000 777 >
//!   feat.csv`
//! - `fit_eval_exact`: the weights fitted to exact values instead
//!   (`EvalWeights::EXACT_FIT`), by Newton's method on positions of the
//!   L = 4 game and the Norwegian layers up to 2 v 2. `cargo run --release
//!   -p dalkon-reproduce --example fit_eval_exact -- DIR 777`
//! - `weights_match`: matches between engines with different weights (and
//!   greedy) on any board, the check that a refit carries over to full
//!   games. `cargo run --release -p dalkon-reproduce --example
//!   weights_match -- danish 2 1000 1000 exact games`

mod csv;
mod dakon;
mod daldos;
mod log;
pub mod progress;

use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::Serialize;

use progress::Steps;
pub use progress::{Items, NoItems, Progress, Silent};

/// A data file that a run reads back and finds damaged or inconsistent
/// (a kept row that disagrees with what was just computed): a failure of
/// the data, not of what was asked.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct DamagedData(pub String);

/// What to regenerate.
#[derive(Debug, Clone)]
pub struct Config {
    /// Folder to write into (its `daldos/` and `dakon/` subfolders); the
    /// run's timings go to `reproduce.log` in the folder above it.
    pub out: PathBuf,
    /// Also solve the large boards (may take much longer than the default run).
    pub full: bool,
    /// Regenerate only this game's files.
    pub only: Option<Game>,
}

/// A game whose files `reproduce` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Game {
    Daldos,
    Dakon,
}

impl Game {
    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Game::Daldos => "daldos",
            Game::Dakon => "dakon",
        }
    }
}

/// The summary of a finished run.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub out: String,
    pub full: bool,
    pub only: Option<&'static str>,
    /// The lines the text output prints, one per part.
    pub summary: Vec<String>,
    pub log: String,
    pub seconds: f64,
}

impl Report {
    /// The last line of the text output.
    pub fn closing_line(&self) -> String {
        format!(
            "data regenerated under {} in {:.1} s; timings and counters in {}",
            self.out, self.seconds, self.log
        )
    }
}

/// A writer that passes everything on and keeps a copy (the summary lines).
struct Tee<'a> {
    kept: Vec<u8>,
    to: &'a mut dyn std::io::Write,
}

impl std::io::Write for Tee<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.to.write(buf)?;
        self.kept.extend_from_slice(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.to.flush()
    }
}

/// Regenerate what `config` asks, telling `progress` how it goes and
/// writing each part's summary line to `say` as it finishes. The log is
/// written even when the run fails: it says how far it got.
pub fn run(
    config: &Config,
    progress: &dyn Progress,
    say: &mut dyn std::io::Write,
) -> anyhow::Result<Report> {
    let mut command = format!("dalkon reproduce --out {}", config.out.display());
    if config.full {
        command.push_str(" --full");
    }
    if let Some(g) = config.only {
        command.push_str(" --only ");
        command.push_str(g.name());
    }
    let mut log = log::RunLog::new(&command);
    let daldos = config.only != Some(Game::Dakon);
    let dakon = config.only != Some(Game::Daldos);
    let total = usize::from(daldos) * daldos::STEPS + usize::from(dakon) * dakon::STEPS;
    let mut steps = Steps::new(progress, total);
    let mut tee = Tee {
        kept: Vec::new(),
        to: say,
    };
    let result = (|| {
        if daldos {
            daldos::reproduce(&config.out, config.full, &mut log, &mut steps, &mut tee)?;
        }
        if dakon {
            dakon::reproduce(&config.out, config.full, &mut log, &mut steps, &mut tee)?;
        }
        anyhow::Ok(())
    })();
    if let Err(e) = &result {
        log.note(format!("failed: {e:#}"));
    }
    log.note(format!("total: seconds={:.1}", log.elapsed()));
    let log_path = log::RunLog::path_for(&config.out);
    let logged = log
        .write(&log_path)
        .with_context(|| format!("cannot write {}", log_path.display()));
    result?;
    logged?;
    Ok(Report {
        out: config.out.display().to_string(),
        full: config.full,
        only: config.only.map(Game::name),
        summary: String::from_utf8_lossy(&tee.kept)
            .lines()
            .map(str::to_owned)
            .collect(),
        log: log_path.display().to_string(),
        seconds: log.elapsed(),
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The report's JSON has the fields of `reproduce --format json`, and
    /// its closing line is the text output's last line.
    #[test]
    fn the_report_is_the_summary_of_the_cli() {
        let r = Report {
            out: "data".into(),
            full: false,
            only: Some(Game::Dakon.name()),
            summary: vec!["dakon: 1 boards solved".into()],
            log: "/w/reproduce.log".into(),
            seconds: 1.5,
        };
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"{"out":"data","full":false,"only":"dakon","summary":["dakon: 1 boards solved"],"log":"/w/reproduce.log","seconds":1.5}"#
        );
        assert_eq!(
            r.closing_line(),
            "data regenerated under data in 1.5 s; timings and counters in /w/reproduce.log"
        );
    }
}
