//! Progress bars for long Dakon work, on stderr and only on a terminal:
//! a spinner fed by the search's live counters, a bar fed by the database
//! build's events, and one fed by an openings count.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use dalkon_dakon::search::{unpack_bounds, SearchProgress};
use indicatif::{ProgressBar, ProgressStyle};

use crate::progress::{on_terminal, Bar};

/// Run `work` (given live counters to update) while a spinner shows the
/// nodes searched and root moves solved.
pub fn with_search_spinner<T: Send>(
    label: &str,
    work: impl FnOnce(&SearchProgress) -> T + Send,
) -> T {
    let progress = SearchProgress::default();
    if !on_terminal() {
        return work(&progress);
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {prefix} {elapsed_precise} {msg}")
            .expect("valid template"),
    );
    bar.set_prefix(label.to_owned());
    let done = AtomicBool::new(false);
    let result = std::thread::scope(|s| {
        s.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                // Nothing to show before the search starts (the work may
                // first build databases, under a bar of its own).
                if progress.roots_total.load(Ordering::Relaxed) == 0 {
                    std::thread::sleep(Duration::from_millis(50));
                    continue;
                }
                let nodes = progress.nodes.load(Ordering::Relaxed);
                let roots = progress.roots_done.load(Ordering::Relaxed);
                let total = progress.roots_total.load(Ordering::Relaxed);
                let bounds = match unpack_bounds(progress.bounds.load(Ordering::Relaxed)) {
                    Some((lo, hi)) if lo < hi => format!(", value proved in [{lo:+}, {hi:+}]"),
                    _ => String::new(),
                };
                bar.set_message(format!(
                    "{:.1} M nodes, root moves settled {roots}/{total}{bounds}",
                    nodes as f64 / 1e6
                ));
                bar.tick();
                std::thread::sleep(Duration::from_millis(200));
            }
        });
        let r = work(&progress);
        done.store(true, Ordering::Relaxed);
        r
    });
    bar.finish_and_clear();
    result
}

/// A database-build progress bar (one level at a time), removed when the
/// last level is done.
#[derive(Debug)]
pub struct BuildBar {
    bar: Bar,
    last: u32,
}

impl BuildBar {
    /// A bar for a build of levels up to `last`.
    pub fn new(last: u32) -> BuildBar {
        let bar = Bar::new(
            0,
            "{prefix} [{bar:30}] {pos}/{len} positions {elapsed_precise}",
        );
        BuildBar { bar, last }
    }
}

impl dalkon_dakon::Progress for BuildBar {
    fn level_started(&self, level: u32, entries: u64) {
        let b = &self.bar.0;
        b.set_prefix(format!("database level {level}"));
        b.set_length(entries);
        b.set_position(0);
    }
    fn advance(&self, entries: u64) {
        self.bar.0.inc(entries);
    }
    fn level_finished(&self, level: u32) {
        if level == self.last {
            self.bar.0.finish_and_clear();
        }
    }
    fn level_loaded(&self, level: u32, _entries: u64) {
        self.level_finished(level);
    }
}

/// Open (or build once, with a bar) the databases `request` probes on
/// boards of `holes` holes a row; nothing when it probes none.
pub fn open_databases(
    analyst: &mut dalkon_dakon::request::best::Analyst,
    request: &dalkon_dakon::request::best::BestRequest,
    holes: usize,
) -> Result<(), dalkon_dakon::SolveError> {
    match request.probe_seeds {
        Some(k) => analyst.open_databases(request, holes, &BuildBar::new(k)),
        None => Ok(()),
    }
}

/// A bar for an openings count: one pass at a time, layer by layer.
#[derive(Debug)]
pub struct LayerBar {
    bar: Bar,
    label: String,
}

impl LayerBar {
    pub fn new(label: &str) -> LayerBar {
        let bar = Bar::new(
            0,
            "{prefix} [{bar:30}] {pos}/{len} layers {elapsed_precise} {msg}",
        );
        LayerBar {
            bar,
            label: label.to_owned(),
        }
    }
}

impl dalkon_dakon::openings::OpeningsProgress for LayerBar {
    fn layer(&self, pass: dalkon_dakon::openings::Pass, layer: u32, layers: u32, positions: u64) {
        let (name, done) = match pass {
            dalkon_dakon::openings::Pass::Forward => ("forward", layer),
            dalkon_dakon::openings::Pass::Backward => ("backward", layers - layer),
        };
        let b = &self.bar.0;
        b.set_prefix(format!("{} {name}", self.label));
        b.set_length(u64::from(layers));
        b.set_position(u64::from(done));
        b.set_message(format!(
            "store {layer}: {:.1} M positions",
            positions as f64 / 1e6
        ));
    }

    /// The count's log in a build with MPI: a line a layer on standard
    /// error, the same for every run of the count (one process, or a job of
    /// any number of ranks) but the bytes exchanged.
    fn layer_done(&self, d: &dalkon_dakon::openings::LayerDone) {
        if !cfg!(feature = "mpi") {
            return;
        }
        let (pass, what) = match d.pass {
            dalkon_dakon::openings::Pass::Forward => ("forward", "positions"),
            dalkon_dakon::openings::Pass::Backward => ("backward", "winning positions"),
        };
        let line = format!(
            "layer {pass} {}: {} {what}, hash {:016x}, {} bytes exchanged",
            d.layer, d.positions, d.hash, d.exchanged_bytes
        );
        self.bar.0.suspend(|| eprintln!("{line}"));
    }
}
