//! Why a solver job ([`crate::solve`], [`crate::best`], the openings plan)
//! was refused or failed, and whether the fault is in the input.
//!
//! Messages name the command-line flags (`--seeds`, `--tt-mb`,
//! `--memory-mb`) because the request fields mirror them one to one.

use std::path::PathBuf;

use dalkon_rules::dakon::PositionError;
use thiserror::Error;

use crate::openings::OpeningsError;
use crate::retro::DbError;
use crate::search::SearchError;

/// The longest `time` a request takes, in seconds.
pub const MAX_SECONDS: f64 = 1e7;

/// Errors of the solver's job entry points.
#[derive(Debug, Error)]
pub enum SolveError {
    /// No folder for the databases or the openings' working folder.
    #[error(transparent)]
    NoDataDir(#[from] dalkon_store::NoDataDir),
    /// Seeds per hole must fit a pit of the rules crate and be at least one.
    #[error("--seeds {seeds} must be between 1 and 255")]
    Seeds {
        /// Seeds per hole asked for.
        seeds: u32,
    },
    /// The rules refuse the board (e.g. no holes, too many).
    #[error("cannot set up {holes} holes × {seeds} seeds")]
    Setup {
        /// Holes per row asked for.
        holes: usize,
        /// Seeds per hole asked for.
        seeds: u32,
        /// What the rules said.
        #[source]
        source: PositionError,
    },
    /// The probe level is more than a database level can hold.
    #[error(
        "--probe-seeds {k} must be between 0 and {max} (a database entry is one signed byte, \
         so a level holds at most {max} seeds on the board)"
    )]
    ProbeSeeds {
        /// The level asked for.
        k: u32,
        /// The largest database level.
        max: u32,
    },
    /// The transposition table asked for is larger than the free memory.
    #[error("--tt-mb {mb} does not fit: only {available_mib} MiB of memory are available")]
    TableDoesNotFit {
        /// MiB asked for.
        mb: usize,
        /// MemAvailable in MiB.
        available_mib: u64,
    },
    /// The transposition table is below the smallest usable size.
    #[error(
        "the transposition table needs at least {min_mib} MiB, but only {mib} MiB fit or were given"
    )]
    TableTooSmall {
        /// Smallest usable table in MiB.
        min_mib: usize,
        /// MiB given (or chosen by default).
        mib: usize,
    },
    /// `--memory-mb 0`: a count needs some memory.
    #[error("--memory-mb must be at least 1")]
    NoMemory,
    /// The memory asked for an openings count is more than may be used.
    #[error(
        "--memory-mb {mb} does not fit: {usable_mib} MiB of memory are available, \
         and at least a tenth is left free"
    )]
    MemoryDoesNotFit {
        /// MiB asked for.
        mb: u64,
        /// MiB a count may use on this machine.
        usable_mib: u64,
    },
    /// The working folder named for a count exists but holds no checkpoint
    /// to resume (the message keeps the words of the count's own check).
    #[error(
        "{}: the folder exists but holds no checkpoint of an openings count; \
         name a new folder or remove it",
        dir.display()
    )]
    NotACheckpoint {
        /// The folder.
        dir: PathBuf,
    },
    /// Building or opening the databases of a retrograde solve failed.
    #[error("retrograde solve failed")]
    Retrograde(#[source] DbError),
    /// Building or opening the endgame databases of a search failed.
    #[error("cannot prepare the probe databases")]
    Probe(#[source] DbError),
    /// The exact search failed.
    #[error(transparent)]
    Search(SearchError),
    /// An openings count (or the search for a first winning chain) failed.
    #[error(transparent)]
    Openings(OpeningsError),
    /// A proof's strategy file could not be written.
    #[error("cannot write {}", path.display())]
    WriteProof {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// A search time outside the range a request takes.
    #[error("--time must be more than 0 seconds and at most {}", MAX_SECONDS)]
    Time,
    /// Neither a position nor a board (holes and seeds), or both.
    #[error("give either a position or both holes and seeds")]
    Root,
    /// A move of a sequence to play is not legal where it is played.
    #[error("move {index} (hole {hole}) in {position}")]
    Move {
        /// Its place in the sequence, from 1.
        index: usize,
        /// The hole asked for.
        hole: usize,
        /// The position it was asked in.
        position: dalkon_rules::dakon::Position,
        /// What the rules said.
        #[source]
        source: dalkon_rules::dakon::MoveError,
    },
    /// A request's value outside the range it takes (`--estimate-depth`,
    /// `--max-nodes`): the flag, then what it must be.
    #[error("{flag} must be {range}")]
    OutOfRange {
        /// The flag (or keyword) at fault.
        flag: &'static str,
        /// The values it takes.
        range: &'static str,
    },
    /// An openings count stopped after a checkpoint, which is kept, for a
    /// reason that running again can get past (a requested stop, a full
    /// disk, memory); a damaged checkpoint says what to delete instead.
    #[error(
        "the count stopped; its last checkpoint is kept in {}: {} (or remove the folder)",
        dir.display(),
        resume_hint(source)
    )]
    CountStopped {
        /// The working folder holding the checkpoint.
        dir: PathBuf,
        /// Why the count stopped.
        #[source]
        source: OpeningsError,
    },
}

/// What gets a count stopped by `source` further from its checkpoint.
fn resume_hint(source: &OpeningsError) -> &'static str {
    match source {
        OpeningsError::TooMuchMemory { .. } => {
            "run the same command with a larger --memory-mb (or on a machine with more memory) to resume"
        }
        _ => "run the same command again to resume",
    }
}

impl SolveError {
    /// Whether the request itself is at fault (exit code 2), rather than
    /// the machine, its files or a resource limit (exit code 1).
    pub fn is_bad_input(&self) -> bool {
        match self {
            SolveError::Seeds { .. }
            | SolveError::ProbeSeeds { .. }
            | SolveError::Setup { .. }
            | SolveError::TableDoesNotFit { .. }
            | SolveError::TableTooSmall { .. }
            | SolveError::MemoryDoesNotFit { .. }
            | SolveError::NoMemory
            | SolveError::NotACheckpoint { .. }
            | SolveError::NoDataDir(_)
            | SolveError::Time
            | SolveError::Move { .. }
            | SolveError::OutOfRange { .. }
            | SolveError::Root => true,
            SolveError::Retrograde(e) | SolveError::Probe(e) => e.is_bad_input(),
            SolveError::Search(e) => e.is_bad_input(),
            SolveError::WriteProof { .. } => false,
            SolveError::Openings(e) | SolveError::CountStopped { source: e, .. } => {
                e.is_bad_input()
            }
        }
    }
}

impl DbError {
    /// Whether the board asked for is at fault (too many holes or seeds),
    /// rather than the memory, the files or the folder.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            DbError::Holes { .. }
                | DbError::LevelTooLarge { .. }
                | DbError::NotAFolder { .. }
                | DbError::NotBuilt { .. }
        )
    }
}

impl SearchError {
    /// Whether the limits given are at fault (a table below the minimum, a
    /// bad `RAYON_NUM_THREADS`); running out of nodes is a limit reached,
    /// not bad input.
    pub fn is_bad_input(&self) -> bool {
        match self {
            SearchError::TableTooSmall { .. } => true,
            SearchError::Threads(e) => e.is_bad_input(),
            _ => false,
        }
    }
}

impl OpeningsError {
    /// Whether the request is at fault: a board too big to index, or more
    /// positions than the `--max-positions` asked for; memory and layer
    /// files are not.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            OpeningsError::BoardTooBig(_)
                | OpeningsError::TooManyPositions { .. }
                | OpeningsError::NotACheckpoint { .. }
                | OpeningsError::SingleProcessCheckpoint { .. }
                | OpeningsError::NotAFolder { .. }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_are_kept_and_not_repeated() {
        let e = SolveError::Retrograde(DbError::Holes { holes: 99, max: 10 });
        let source = std::error::Error::source(&e).expect("a source");
        assert!(!e.to_string().contains(&source.to_string()));
        assert!(e.is_bad_input());
        let e = SolveError::Openings(OpeningsError::Io {
            path: "layer-001.bin".into(),
            source: std::io::Error::other("disk full"),
        });
        assert!(!e.is_bad_input());
    }
}
