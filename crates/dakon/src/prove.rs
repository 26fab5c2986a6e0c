//! Proving a position's value: one entry point, and the strategy files.
//!
//! [`prove`] solves a position exactly (the search's best-moves goal) and
//! reads off the two strategies whose guarantees meet at the value
//! (`search/proof.rs`): the side to move secures at least `v`, the other
//! side at least `-v`. [`Proved::write`] writes them as `mover.strategy`
//! and `opponent.strategy` (format `dalkon-strategy 1`, docs/formats.md),
//! which `dalkon-strategy` checks with the rules alone.

use std::path::{Path, PathBuf};
use std::time::Instant;

use dalkon_rules::dakon::{Position, Rules, Side};
use dalkon_store::atomic;
use dalkon_strategy::Strategy;

use crate::error::SolveError;
use crate::search::proof::{self, Lines};
use crate::search::{SearchProgress, SolveResult};
use crate::solve::search_limits;

/// What to prove, as asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProveRequest {
    /// The position (a board's start, or any position).
    pub root: Position,
    /// The rule set.
    pub rules: Rules,
    /// Transposition-table memory in MiB (`None`: as for `solve`).
    pub tt_mb: Option<usize>,
    /// Give up (an error) when a strategy needs more lines than this.
    pub max_lines: Option<u64>,
}

/// A proved value and its two strategies.
#[derive(Debug, Clone)]
pub struct Proved {
    /// Final store difference for the side to move at the root.
    pub value: i32,
    /// Every root move reaching `value`, ascending.
    pub best_moves: Vec<usize>,
    /// The side to move's strategy (secures at least `value`).
    pub mover: Strategy,
    /// The other side's strategy (secures at least `-value`).
    pub opponent: Strategy,
    /// Positions (either side to move) the games of each strategy reach:
    /// mover's, opponent's.
    pub reached: [u64; 2],
    /// Of those, the positions already settled (any play from there
    /// secures what the strategy still needs), mover's, opponent's.
    pub settled: [u64; 2],
    /// The root search.
    pub search: SolveResult,
    /// Seconds: the search, then reading the strategies off it.
    pub seconds: [f64; 2],
}

/// One strategy file written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenFile {
    /// Where.
    pub path: PathBuf,
    /// Whose strategy.
    pub player: Side,
    /// What it secures.
    pub guarantees: i32,
    /// Strategy lines.
    pub lines: u64,
    /// Bytes of the file.
    pub bytes: u64,
}

/// Solve `request.root` exactly and read off the proof of its value.
pub fn prove(
    request: &ProveRequest,
    progress: Option<&SearchProgress>,
) -> Result<Proved, SolveError> {
    let limits = search_limits(request.root.holes(), request.tt_mb, None)?;
    let t0 = Instant::now();
    let p = proof::prove(
        &request.root,
        &request.rules,
        &limits,
        None,
        progress,
        request.max_lines,
    )
    .map_err(SolveError::Search)?;
    let total = t0.elapsed().as_secs_f64();
    let strategy = |lines: Lines| Strategy {
        rules: request.rules,
        root: request.root,
        player: lines.player,
        guarantees: lines.guarantees,
        moves: lines.moves,
    };
    Ok(Proved {
        value: p.search.value,
        best_moves: p.search.best_moves.clone(),
        reached: [p.mover.positions, p.opponent.positions],
        settled: [p.mover.settled, p.opponent.settled],
        mover: strategy(p.mover),
        opponent: strategy(p.opponent),
        seconds: [total - p.extract_seconds, p.extract_seconds],
        search: p.search,
    })
}

/// The file names of the two strategies in a proof folder.
pub const FILE_NAMES: [&str; 2] = ["mover.strategy", "opponent.strategy"];

/// The steps of [`Proved::write`] after which it could be stopped, in
/// their order (a test stops it at each).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// The new `mover` file is complete in the temporary folder.
    WroteMover,
    /// The new `opponent` file is complete there too.
    WroteOpponent,
    /// The old `opponent` file is gone (the old `mover` is alone).
    RemovedOldOpponent,
    /// The old `mover` file is gone (no file of the pair is left).
    RemovedOldMover,
    /// The new `opponent` file is in place (alone).
    MovedOpponent,
    /// The new `mover` file is in place: the new pair is complete.
    MovedMover,
}

/// The temporary folder of this process in a proof folder.
fn temp_dir(dir: &Path) -> PathBuf {
    dir.join(format!(".prove-{}.tmp", std::process::id()))
}

/// Remove the temporary folders (`.prove-<pid>.tmp`) that stopped runs of
/// `prove` left in `dir`: those of processes no longer running. Best
/// effort: one that cannot be removed is left for the next run.
fn remove_stale_temp_dirs(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let pid = name
            .to_str()
            .and_then(|n| n.strip_prefix(".prove-")?.strip_suffix(".tmp"))
            .filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|p| p.parse::<u32>().ok());
        if pid.is_some_and(|pid| !atomic::is_running(pid)) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Remove `path`; a file already absent is no error.
fn remove_if_present(path: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

impl Proved {
    /// Write both strategies into `dir` (created if missing):
    /// `mover.strategy` and `opponent.strategy`, gzip-compressed with a
    /// `.gz` suffix when `gzip`, replacing the pair of the same names.
    ///
    /// Both files are written whole into a temporary folder in `dir`
    /// first; only then is the old pair removed (`opponent` first) and the
    /// new one renamed in (`opponent` first). However the run is stopped,
    /// `dir` holds the old pair, the new pair, or one file of one of them
    /// alone, never a file of each run; a temporary folder left by a
    /// killed run is removed by the next one.
    pub fn write(&self, dir: &Path, gzip: bool) -> Result<Vec<WrittenFile>, SolveError> {
        self.write_stopping(dir, gzip, &mut |_| Ok(()))
    }

    /// [`Proved::write`], calling `after` after each [`Step`]; an error
    /// from it stops the writing there, as a signal or a crash would.
    fn write_stopping(
        &self,
        dir: &Path,
        gzip: bool,
        after: &mut dyn FnMut(Step) -> std::io::Result<()>,
    ) -> Result<Vec<WrittenFile>, SolveError> {
        std::fs::create_dir_all(dir).map_err(fail(dir))?;
        remove_stale_temp_dirs(dir);
        let temp = temp_dir(dir);
        let _ = std::fs::remove_dir_all(&temp);
        std::fs::create_dir(&temp).map_err(fail(&temp))?;
        let result = self.write_pair(dir, &temp, gzip, after);
        // Empty once the pair is in place; after a failure it holds what
        // was written, of no use to anyone.
        let _ = std::fs::remove_dir_all(&temp);
        result
    }

    fn write_pair(
        &self,
        dir: &Path,
        temp: &Path,
        gzip: bool,
        after: &mut dyn FnMut(Step) -> std::io::Result<()>,
    ) -> Result<Vec<WrittenFile>, SolveError> {
        let names = FILE_NAMES.map(|name| {
            if gzip {
                format!("{name}.gz")
            } else {
                name.to_owned()
            }
        });
        let mut files = Vec::new();
        let strategies = [&self.mover, &self.opponent];
        for ((strategy, name), step) in strategies
            .into_iter()
            .zip(&names)
            .zip([Step::WroteMover, Step::WroteOpponent])
        {
            let path = dir.join(name);
            let bytes = if gzip {
                strategy.to_gzip().map_err(fail(&path))?
            } else {
                strategy.to_text()
            };
            atomic::write(&temp.join(name), &bytes).map_err(fail(&path))?;
            after(step).map_err(fail(&path))?;
            files.push(WrittenFile {
                path,
                player: strategy.player,
                guarantees: strategy.guarantees,
                lines: strategy.moves.len() as u64,
                bytes: bytes.len() as u64,
            });
        }
        let [mover, opponent] = names.map(|n| dir.join(n));
        remove_if_present(&opponent).map_err(fail(&opponent))?;
        after(Step::RemovedOldOpponent).map_err(fail(&opponent))?;
        remove_if_present(&mover).map_err(fail(&mover))?;
        after(Step::RemovedOldMover).map_err(fail(&mover))?;
        for (path, step) in [(&opponent, Step::MovedOpponent), (&mover, Step::MovedMover)] {
            let from = temp.join(path.file_name().unwrap_or_default());
            std::fs::rename(&from, path).map_err(fail(path))?;
            after(step).map_err(fail(path))?;
        }
        // Best effort, as for every atomic write: the data is on disk.
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(files)
    }
}

/// The error of a failed write of `path`, for `map_err`.
fn fail(path: &Path) -> impl FnOnce(std::io::Error) -> SolveError {
    let path = path.to_path_buf();
    move |source| SolveError::WriteProof { path, source }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proved() -> Proved {
        let request = ProveRequest {
            root: "2,2/2,2/0,0 0".parse().unwrap(),
            rules: Rules::default(),
            tt_mb: Some(16),
            max_lines: None,
        };
        prove(&request, None).unwrap()
    }

    /// What a file of the pair holds: the old run's, the new run's, none.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Held {
        Old,
        New,
        Absent,
    }

    fn held(path: &Path, new: &[u8]) -> Held {
        match std::fs::read(path) {
            Err(_) => Held::Absent,
            Ok(b) if b == new => Held::New,
            Ok(b) => {
                assert!(b.starts_with(b"old"), "{}: neither run's", path.display());
                Held::Old
            }
        }
    }

    #[test]
    fn a_stopped_write_never_leaves_a_file_of_each_run() {
        use Held::*;
        use Step::*;
        let p = proved();
        let new = [p.mover.to_gzip().unwrap(), p.opponent.to_gzip().unwrap()];
        let dir = std::env::temp_dir().join(format!("dalkon-prove-pair-{}", std::process::id()));
        let paths = FILE_NAMES.map(|n| dir.join(format!("{n}.gz")));
        let steps = [
            (WroteMover, [Old, Old]),
            (WroteOpponent, [Old, Old]),
            (RemovedOldOpponent, [Old, Absent]),
            (RemovedOldMover, [Absent, Absent]),
            (MovedOpponent, [Absent, New]),
            (MovedMover, [New, New]),
        ];
        for (stop, want) in steps {
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&paths[0], b"old mover").unwrap();
            std::fs::write(&paths[1], b"old opponent").unwrap();
            let err = p
                .write_stopping(&dir, true, &mut |step| {
                    if step == stop {
                        Err(std::io::Error::other("stopped"))
                    } else {
                        Ok(())
                    }
                })
                .unwrap_err();
            assert!(matches!(err, SolveError::WriteProof { .. }), "{err}");
            let got = [held(&paths[0], &new[0]), held(&paths[1], &new[1])];
            assert_eq!(got, want, "stopped after {stop:?}");
            assert!(!temp_dir(&dir).exists(), "the temporary folder is removed");
        }
        // Not stopped: the new pair, and nothing else in the folder.
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(&paths[0], b"old mover").unwrap();
        let written = p.write(&dir, true).unwrap();
        assert_eq!(written.len(), 2);
        assert_eq!(
            [held(&paths[0], &new[0]), held(&paths[1], &new[1])],
            [New, New]
        );
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_temporary_folder_of_a_killed_run_is_removed_by_the_next() {
        let p = proved();
        let dir = std::env::temp_dir().join(format!("dalkon-prove-stale-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // No process has this id: Linux pids stop at 2^22.
        let stale = dir.join(".prove-999999999.tmp");
        std::fs::create_dir_all(&stale).unwrap();
        std::fs::write(stale.join("mover.strategy"), b"half").unwrap();
        p.write(&dir, false).unwrap();
        assert!(!stale.exists());
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, FILE_NAMES);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
