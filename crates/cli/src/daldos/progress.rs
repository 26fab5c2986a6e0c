//! The progress bars of the Daldøs commands, on stderr: the search of
//! `daldos best` (one tick per root play of each depth, then per rollout game) and the build and
//! check of `daldos solve` (also used by `reproduce`), only on a terminal.

use dalkon_daldos::engine::DeepenProgress;
use dalkon_daldos::request::solve::SolveProgress;
use dalkon_daldos::request::RolloutProgress;
use dalkon_daldos::solved::{BuildProgress, LayerKey};
use dalkon_rules::daldos::Board;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::progress::{on_terminal, Bar};

/// The progress bar of one `daldos best` answer, on stderr: each depth
/// restarts it, one tick per root play searched.
pub(super) struct SearchBar(ProgressBar);

impl SearchBar {
    pub(super) fn new() -> SearchBar {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("depth {msg} {bar:40} {pos}/{len} root plays, eta {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        SearchBar(bar)
    }

    pub(super) fn finish(&self) {
        self.0.finish_and_clear();
    }
}

impl DeepenProgress for SearchBar {
    fn depth_started(&self, depth: u32, depth_asked: u32, root_plays: usize) {
        self.0.set_length(root_plays as u64);
        self.0.set_position(0);
        self.0.set_message(format!("{depth} of {depth_asked}"));
    }

    fn root_play_done(&self) {
        self.0.inc(1)
    }
}

/// `--rollouts`: the same bar counts the rollout games.
impl RolloutProgress for SearchBar {
    fn started(&self, games: u64) {
        self.0.set_style(
            ProgressStyle::with_template("rollouts {bar:40} {pos}/{len} games, eta {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        self.0.set_length(games);
        self.0.set_position(0);
    }

    fn game_done(&self) {
        self.0.inc(1)
    }
}

/// The build's progress bar, on stderr and only on a terminal: one pair of
/// layers at a time.
#[derive(Debug)]
pub(crate) struct SolveBar {
    bar: Bar,
    board: Board,
}

impl SolveBar {
    pub(crate) fn new(board: Board) -> SolveBar {
        let bar = Bar::new(
            0,
            "{prefix} [{bar:30}] {pos}/{len} positions {elapsed_precise}",
        );
        SolveBar { bar, board }
    }
}

impl BuildProgress for SolveBar {
    fn pair_started(&mut self, key: LayerKey, positions: u64, loaded: bool) {
        let what = if loaded { "loading" } else { "solving" };
        let swap = if key.a == key.b {
            String::new()
        } else {
            format!(" and {} v {}", key.b, key.a)
        };
        let b = &self.bar.0;
        b.set_prefix(format!(
            "board {}: {what} layer {} v {}{swap}",
            self.board.name(),
            key.a,
            key.b
        ));
        b.set_length(positions);
        b.set_position(if loaded { positions } else { 0 });
    }

    fn advanced(&mut self, positions: u64) {
        self.bar.0.set_position(positions);
    }
}

impl SolveProgress for SolveBar {
    fn finished(&mut self) {
        self.bar.0.finish_and_clear();
    }

    /// `--check` of one layer (no count: the check reports only its end).
    fn checking(&mut self, key: LayerKey, positions: u64) {
        let b = &self.bar.0;
        b.reset();
        b.set_prefix(format!(
            "board {}: checking layer {} v {} ({positions} positions)",
            self.board.name(),
            key.a,
            key.b
        ));
        b.set_length(0);
        if on_terminal() {
            b.enable_steady_tick(std::time::Duration::from_millis(200));
        }
    }
}
