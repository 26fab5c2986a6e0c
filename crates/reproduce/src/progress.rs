//! What a run tells its caller while it works: the steps as they start,
//! and the progress of each long job (boards, proofs, games, database and
//! table builds). The pipeline only reports; the caller draws. The CLI
//! draws bars on a terminal and one line per step otherwise; [`Silent`]
//! shows nothing (tests, and callers that only want the files).
//!
//! Every handle a method returns ends its display when it is dropped.

use std::path::Path;

use dalkon_dakon::openings::{NoOpeningsProgress, OpeningsProgress};
use dalkon_dakon::search::SearchProgress;
use dalkon_daldos::request::SolveProgress;
use dalkon_daldos::solved::NoProgress as NoTableProgress;
use dalkon_rules::daldos::Board;

/// The progress sink of a run (see the module documentation).
pub trait Progress: Sync {
    /// Step `index` (from 1) of `total` starts: `what`, e.g. `daldos
    /// matches`.
    fn step(&self, what: &str, index: usize, total: usize) {
        let _ = (what, index, total);
    }

    /// A job of `len` items (boards, proofs) starts, named `label`.
    fn items(&self, len: u64, label: &str) -> Box<dyn Items + '_> {
        let _ = (len, label);
        Box::new(NoItems)
    }

    /// A match of `games` games starts, `label` naming its players.
    fn games(&self, games: u64, label: &str) -> Box<dyn Items + '_> {
        self.items(games, label)
    }

    /// A Dakon database build up to level `last` starts.
    fn dakon_build(&self, last: u32) -> Box<dyn dalkon_dakon::Progress + '_> {
        let _ = last;
        Box::new(dalkon_dakon::NoProgress)
    }

    /// Run `work`, a Dakon search named `label`, showing the live counters
    /// it updates.
    fn dakon_search(&self, label: &str, work: &mut (dyn FnMut(&SearchProgress) + Send)) {
        let _ = label;
        work(&SearchProgress::default());
    }

    /// A Dakon openings count named `label` starts; `resuming` names the
    /// checkpoint folder it resumes from.
    fn openings(&self, label: &str, resuming: Option<&Path>) -> Box<dyn OpeningsProgress + '_> {
        let _ = (label, resuming);
        Box::new(NoOpeningsProgress)
    }

    /// A build of Daldøs solved tables on `board` starts.
    fn daldos_solve(&self, board: Board) -> Box<dyn SolveProgress + '_> {
        let _ = board;
        Box::new(NoTableProgress)
    }
}

/// The progress of a job of counted items.
pub trait Items: Sync {
    /// Say what is being worked on.
    fn message(&self, msg: String) {
        let _ = msg;
    }
    /// One more item done.
    fn inc(&self) {}
}

/// Items that show nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoItems;

impl Items for NoItems {}

/// A run that shows nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Silent;

impl Progress for Silent {}

/// The steps of a run, counted and handed to [`Progress::step`] as they
/// start.
pub(crate) struct Steps<'a> {
    progress: &'a dyn Progress,
    total: usize,
    started: usize,
}

impl<'a> Steps<'a> {
    pub(crate) fn new(progress: &'a dyn Progress, total: usize) -> Steps<'a> {
        Steps {
            progress,
            total,
            started: 0,
        }
    }

    /// The sink the steps report to.
    pub(crate) fn progress(&self) -> &'a dyn Progress {
        self.progress
    }

    /// Announce the next step.
    pub(crate) fn start(&mut self, what: &str) {
        self.started += 1;
        self.progress.step(what, self.started, self.total);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    /// Records the steps it is told.
    #[derive(Default)]
    struct Recorder(Mutex<Vec<(String, usize, usize)>>);

    impl Progress for Recorder {
        fn step(&self, what: &str, index: usize, total: usize) {
            self.0.lock().unwrap().push((what.to_owned(), index, total));
        }
    }

    /// Steps are numbered from 1 of the run's total, in the order they start.
    #[test]
    fn steps_are_counted_from_one_of_the_total() {
        let r = Recorder::default();
        let mut steps = Steps::new(&r, 8);
        steps.start("daldos capture tables");
        steps.start("daldos matches");
        assert_eq!(
            *r.0.lock().unwrap(),
            [
                ("daldos capture tables".to_owned(), 1, 8),
                ("daldos matches".to_owned(), 2, 8)
            ]
        );
    }

    /// The silent sink still runs the search it is handed.
    #[test]
    fn a_silent_search_runs_its_work() {
        let mut ran = 0;
        Silent.dakon_search("solving 2x2", &mut |_| ran += 1);
        assert_eq!(ran, 1);
    }
}
