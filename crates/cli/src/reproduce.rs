//! `dalkon reproduce`: the flags become a [`dalkon_reproduce::Config`], the
//! run reports to [`Bars`], and the summary is printed: the lines of text as
//! the parts finish, or with `--format json` one JSON summary at the end
//! (`{"out", "full", "only", "summary": [the lines of text], "log",
//! "seconds"}`).
//!
//! On standard error each step of the run gets one line as it starts when
//! standard error is not a terminal, so that a log or a CI job shows where a
//! run of several minutes is; a terminal has the progress bars instead.

use std::path::{Path, PathBuf};

use dalkon_dakon::openings::OpeningsProgress;
use dalkon_dakon::search::SearchProgress;
use dalkon_daldos::request::SolveProgress;
use dalkon_reproduce::{Config, Items};
use dalkon_rules::daldos::Board;

use crate::common::{Format, Global, TEXT_JSON};
use crate::dakon::progress::{with_search_spinner, BuildBar, LayerBar};
use crate::daldos::solve::Bar as SolveBar;
use crate::progress::{on_terminal, Bar};

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
    let format = global.require_format(TEXT_JSON)?;
    let config = Config {
        out: args.out,
        full: args.full,
        only: args.only.map(|g| match g {
            Game::Daldos => dalkon_reproduce::Game::Daldos,
            Game::Dakon => dalkon_reproduce::Game::Dakon,
        }),
    };
    let bars = Bars {
        lines: !on_terminal(),
    };
    if format == Format::Json {
        let report = dalkon_reproduce::run(&config, &bars, &mut std::io::sink())?;
        writeln!(out, "{}", serde_json::to_string(&report)?)?;
    } else {
        let report = dalkon_reproduce::run(&config, &bars, out)?;
        writeln!(out, "{}", report.closing_line())?;
    }
    Ok(())
}

/// The run's progress on standard error: bars on a terminal, else one line
/// per step.
struct Bars {
    /// Whether to print the step lines (standard error is not a terminal).
    lines: bool,
}

impl dalkon_reproduce::Progress for Bars {
    /// `reproduce: daldos matches (2/8) …`. A standard error that cannot be
    /// written does not stop the run: the data files are what matters.
    fn step(&self, what: &str, index: usize, total: usize) {
        if self.lines {
            use std::io::Write;
            let _ = writeln!(std::io::stderr(), "reproduce: {what} ({index}/{total}) …");
        }
    }

    fn items(&self, len: u64, label: &str) -> Box<dyn Items + '_> {
        Box::new(Bar::count(len, label))
    }

    fn games(&self, games: u64, label: &str) -> Box<dyn Items + '_> {
        Box::new(Bar::games(games, label))
    }

    fn dakon_build(&self, last: u32) -> Box<dyn dalkon_dakon::Progress + '_> {
        Box::new(BuildBar::new(last))
    }

    fn dakon_search(&self, label: &str, work: &mut (dyn FnMut(&SearchProgress) + Send)) {
        with_search_spinner(label, |p| work(p));
    }

    fn openings(&self, label: &str, resuming: Option<&Path>) -> Box<dyn OpeningsProgress + '_> {
        if let Some(dir) = resuming.filter(|_| on_terminal()) {
            eprintln!("resuming the count from {}", dir.display());
        }
        Box::new(LayerBar::new(label))
    }

    fn daldos_solve(&self, board: Board) -> Box<dyn SolveProgress + '_> {
        Box::new(SolveBar::new(board))
    }
}

/// A bar of items (a count or a match's games).
impl Items for Bar {
    fn message(&self, msg: String) {
        self.0.set_message(msg);
    }
    fn inc(&self) {
        self.0.inc(1);
    }
}
