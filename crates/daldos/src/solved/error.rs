//! Why value tables could not be built, opened or used.

use std::path::{Path, PathBuf};

use dalkon_rules::daldos::Variants;
use dalkon_store::FileError;

use thiserror::Error;

const GIB: f64 = (1u64 << 30) as f64;

/// Errors of the Daldøs value tables.
#[derive(Debug, Error)]
pub enum TableError {
    /// The build was stopped (`Tables::build_until`) while solving a pair
    /// of layers; the layers finished before it are kept.
    #[error("the build was interrupted while solving layer {a} v {b}; the layers finished before it are kept, and a new build resumes from them")]
    Interrupted {
        /// Pieces of the side to throw in the pair's first layer.
        a: u8,
        /// Pieces of the other side.
        b: u8,
    },
    /// In a job partitioned across ranks, another rank failed (it reports
    /// its own error); this one stopped with it.
    #[error("rank {rank} of the job failed (its own error says why); this rank stopped with it")]
    OtherRank {
        /// The failed rank (the lowest, if several failed).
        rank: usize,
    },
    /// The build would not fit in memory.
    #[error(
        "solving {what} needs {} of memory but only {budget} \
         bytes ({budget_gib:.2} GiB) may be used (MemAvailable {available} bytes minus headroom); \
         the largest layer, {largest}, has {} positions of 16 bytes",
        count(*needed, *needed_approx, " bytes", true),
        count(*largest_positions, *largest_approx, "", false),
        budget_gib = *budget as f64 / GIB
    )]
    OutOfMemory {
        /// What was asked for, e.g. `board 6 up to 6 v 6`.
        what: String,
        /// Bytes needed (`u64::MAX`: more than 64 bits count).
        needed: u64,
        /// Bytes needed, in floating point (never saturated).
        needed_approx: f64,
        /// Bytes we allow ourselves.
        budget: u64,
        /// MemAvailable (or the figure assumed).
        available: u64,
        /// The largest layer, `a v b`.
        largest: String,
        /// Its positions (`u64::MAX`: more than 64 bits count).
        largest_positions: u64,
        /// Its positions in floating point.
        largest_approx: f64,
    },
    /// Pieces asked for beyond the board.
    #[error("{pieces} pieces a side do not fit board {board}: each side has at most L = {board}")]
    TooManyPieces {
        /// Pieces asked for.
        pieces: u8,
        /// `L`.
        board: u8,
    },
    /// Pieces asked for at or below the losing count.
    #[error(
        "a layer needs at least {min} pieces a side under end={end} (with fewer the game is over)"
    )]
    TooFewPieces {
        /// The least pieces of a layer.
        min: u8,
        /// The end rule.
        end: String,
    },
    /// A position the tables do not cover, with what would cover it.
    #[error("{position} is not covered by the tables in {}: {}", dir.display(), if *unreachable {
        "it has a dalt piece on its own first hole, which no game reaches and no table holds".to_owned()
    } else {
        format!("it needs layer {a} v {b} (pieces of the side to throw v the other); build it with `dalkon daldos solve --board {board} --pieces {a},{b}{flags}`")
    })]
    NotCovered {
        /// The position.
        position: String,
        /// The tables' folder.
        dir: PathBuf,
        /// Pieces of the side to throw.
        a: u8,
        /// Pieces of the other side.
        b: u8,
        /// The board's name.
        board: String,
        /// A dalt piece on its owner's first hole.
        unreachable: bool,
        /// The rule flags (beyond the defaults) and `--db-dir` of the
        /// command that builds the layer.
        flags: String,
    },
    /// The table folder is a file.
    #[error("{}", dalkon_store::error::not_a_folder(path, FOLDER_FOR))]
    NotAFolder {
        /// The path.
        path: PathBuf,
    },
    /// A file or folder operation failed (the system's message is the
    /// source).
    #[error("{}", dalkon_store::error::io_failed(path))]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// A file that is not a table of this layer, or is damaged.
    #[error(
        "{}: {reason}; the folder is a cache: delete the file and the layer is rebuilt",
        path.display()
    )]
    BadFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
}

impl TableError {
    /// Whether what was asked is at fault (too many or too few pieces, a
    /// table folder that is a file, a position the tables do not cover:
    /// the CLI's exit code 2, Python's `InputError`), rather than the
    /// machine: memory, and files that cannot be read, written or trusted
    /// (exit code 1, `DataError`), as for Dakon's databases.
    pub fn is_bad_input(&self) -> bool {
        !matches!(
            self,
            TableError::OutOfMemory { .. } | TableError::Io { .. } | TableError::BadFile { .. }
        )
    }
}

/// What the folder of [`TableError::NotAFolder`] is for.
pub(crate) const FOLDER_FOR: &str = "the tables";

impl From<FileError> for TableError {
    fn from(e: FileError) -> TableError {
        match e {
            FileError::NotAFolder { path, .. } => TableError::NotAFolder { path },
            FileError::Io { path, source } => TableError::Io { path, source },
        }
    }
}

/// A count for a message: exact, or where it saturated at `u64::MAX`
/// (beyond 64 bits: it said 18446744073709551615 bytes) `about` its
/// floating-point value; `gib` adds the size in GiB.
fn count(exact: u64, about: f64, unit: &str, gib: bool) -> String {
    match (exact == u64::MAX, gib) {
        (true, true) => format!("about {about:.2e}{unit} ({:.2e} GiB)", about / GIB),
        (true, false) => format!("about {about:.2e}{unit}"),
        (false, true) => format!("{exact}{unit} ({:.2} GiB)", exact as f64 / GIB),
        (false, false) => format!("{exact}{unit}"),
    }
}

/// The flags of `dalkon daldos solve` for rules other than the defaults,
/// and the folder.
pub(crate) fn solve_flags(v: &Variants, dir: Option<&Path>) -> String {
    let d = Variants::default();
    let mut s = String::new();
    if v.dal != d.dal {
        s += &format!(" --dal {}", v.dal);
    }
    if v.capture != d.capture {
        s += &format!(" --capture {}", v.capture);
    }
    if v.end != d.end {
        s += &format!(" --end {}", v.end);
    }
    if let Some(dir) = dir {
        s += &format!(" --db-dir {}", dir.display());
    }
    s
}
