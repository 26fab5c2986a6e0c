//! `reproduce.log`: what changes from run to run (seconds, search and
//! match counters that depend on timing), kept out of `data/` so that the
//! data files are the same bytes on every run (docs/cli.md, "Data files").
//!
//! The log goes next to the out folder (`<out>/../reproduce.log`: the
//! working directory for the default `--out data`), is untracked, and
//! holds the last run only.

use std::path::{Path, PathBuf};
use std::time::Instant;

/// The lines of one run's log.
#[derive(Debug)]
pub struct RunLog {
    started: Instant,
    lines: Vec<String>,
}

impl RunLog {
    /// A log whose first line names the command.
    pub fn new(command: &str) -> RunLog {
        let unix = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        RunLog {
            started: Instant::now(),
            lines: vec![format!(
                "# {command} (started at unix time {unix}, {} threads)",
                rayon::current_num_threads()
            )],
        }
    }

    /// Add one line.
    pub fn note(&mut self, line: impl Into<String>) {
        self.lines.push(line.into());
    }

    /// Seconds since the run started.
    pub fn elapsed(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// Where the log of a run writing into `out` goes.
    pub fn path_for(out: &Path) -> PathBuf {
        let out = std::path::absolute(out).unwrap_or_else(|_| out.to_owned());
        match out.parent() {
            Some(p) => p.join("reproduce.log"),
            None => PathBuf::from("reproduce.log"),
        }
    }

    /// Write the log to `path` (atomically, like the data files).
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        let mut text = self.lines.join("\n");
        text.push('\n');
        dalkon_store::atomic::write(path, text.as_bytes())
    }
}
