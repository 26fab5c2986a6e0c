//! Why a retrograde database could not be built, opened or used.

use std::path::PathBuf;

use dalkon_store::FileError;
use thiserror::Error;

/// Errors of the retrograde databases (`databases.rs`, `file.rs`, `memory.rs`).
#[derive(Debug, Error)]
pub enum DbError {
    /// Databases are built for boards of at most `MAX_DB_HOLES` holes.
    #[error(
        "a database needs 1 to {max} holes per side, not {holes} (the database builder is \
         sized for at most {max} holes a row; wider boards are solved by search, without \
         databases)"
    )]
    Holes {
        /// Holes asked for.
        holes: usize,
        /// The largest supported.
        max: usize,
    },
    /// Entries are `i8` margins, which bound the seeds on the board.
    #[error(
        "{level} seeds on the board is more than the {max} a database level can hold \
         (entries are one signed byte)"
    )]
    LevelTooLarge {
        /// Level asked for.
        level: u32,
        /// The largest supported level.
        max: u32,
    },
    /// The build would not fit in memory.
    #[error(
        "building databases for {holes} holes up to {level} seeds needs {needed} bytes \
         ({needed_gib:.2} GiB) but only {budget} bytes ({budget_gib:.2} GiB) may be used \
         (MemAvailable {available} bytes minus headroom)",
        needed_gib = *needed as f64 / GIB,
        budget_gib = *budget as f64 / GIB
    )]
    OutOfMemory {
        /// Holes per side.
        holes: usize,
        /// Highest level asked for.
        level: u32,
        /// Bytes needed (saturated at `u64::MAX` when it does not even fit a `u64`).
        needed: u64,
        /// Bytes we allow ourselves.
        budget: u64,
        /// MemAvailable from /proc/meminfo (or the assumed figure).
        available: u64,
    },
    /// The database folder named is a file (or something else that is not
    /// a folder).
    #[error("{}", dalkon_store::error::not_a_folder(path, FOLDER_FOR))]
    NotAFolder {
        /// The path given.
        path: PathBuf,
    },
    /// A file or folder operation failed. The system's message is the
    /// source, not repeated here: the CLI prints the chain once.
    #[error("{}", dalkon_store::error::io_failed(path))]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The file does not start with the database magic.
    #[error("{}: not a dalkon database file (bad magic)", path.display())]
    NotADatabase {
        /// The file.
        path: PathBuf,
    },
    /// A format version this build does not read (version 1 files, whose
    /// checksum left the header unprotected, among them).
    #[error(
        "{}: database format version {found}, this build reads only version {expected}; \
         the database folder is a cache: delete the file (or the folder) and the level is rebuilt",
        path.display()
    )]
    Version {
        /// The file.
        path: PathBuf,
        /// Version in the file.
        found: u32,
        /// The version this build reads (`file::FORMAT_VERSION`), carried
        /// here so that this module needs nothing from `file.rs`.
        expected: u32,
    },
    /// A database of another game.
    #[error("{}: a database for the game {found:?}, not dakon", path.display())]
    WrongGame {
        /// The file.
        path: PathBuf,
        /// Game tag in the file.
        found: String,
    },
    /// A database of another board size.
    #[error("{}: a database for {found} holes per side, expected {expected}", path.display())]
    WrongBoard {
        /// The file.
        path: PathBuf,
        /// Holes wanted.
        expected: u32,
        /// Holes in the file.
        found: u32,
    },
    /// A database of another rule set.
    #[error("{}: a database for rules code {found}, expected {expected} ({})", path.display(),
        dalkon_rules::dakon::Rules::from_code(*expected).map(|r| r.to_string()).unwrap_or_default())]
    WrongRules {
        /// The file.
        path: PathBuf,
        /// Rules code wanted.
        expected: u8,
        /// Rules code in the file.
        found: u32,
    },
    /// A database of another level.
    #[error("{}: a database for {found} seeds on the board, expected {expected}", path.display())]
    WrongLevel {
        /// The file.
        path: PathBuf,
        /// Level wanted.
        expected: u32,
        /// Level in the file.
        found: u32,
    },
    /// Entries of a width this build does not read.
    #[error("{}: entries of {found} bytes, expected 1", path.display())]
    EntryWidth {
        /// The file.
        path: PathBuf,
        /// Width in the file.
        found: u32,
    },
    /// The header's entry count is not the level's.
    #[error("{}: header says {found} entries, the level has {expected}", path.display())]
    WrongCount {
        /// The file.
        path: PathBuf,
        /// Entries the level has.
        expected: u64,
        /// Entries the header claims.
        found: u64,
    },
    /// The file is shorter or longer than its header says.
    #[error("{}: {found} bytes, expected {expected} (truncated or damaged; delete it to rebuild)", path.display())]
    Truncated {
        /// The file.
        path: PathBuf,
        /// Bytes expected.
        expected: u64,
        /// Bytes found.
        found: u64,
    },
    /// The header's reserved bytes are not zero.
    #[error("{}: the reserved header bytes are not zero: the file is damaged or forged; delete it to rebuild", path.display())]
    Reserved {
        /// The file.
        path: PathBuf,
    },
    /// The header and payload do not match the checksum.
    #[error("{}: checksum mismatch (recorded {recorded:#018x}, computed {actual:#018x}): the file is damaged or its header was edited; delete it to rebuild", path.display())]
    Checksum {
        /// The file.
        path: PathBuf,
        /// Checksum in the header.
        recorded: u64,
        /// Checksum of the header and payload read.
        actual: u64,
    },
    /// An entry larger in size than the seeds on the board: no play can
    /// gain more than every seed left, so the file was damaged and its
    /// checksum forged (or the file written by a broken build).
    #[error(
        "{}: entry {index} is {value}, but no margin exceeds the {level} seeds on the board: \
         the file is damaged or forged; delete it to rebuild",
        path.display()
    )]
    OutOfRange {
        /// The file.
        path: PathBuf,
        /// Rank of the entry.
        index: u64,
        /// The entry read.
        value: i8,
        /// The file's level (seeds on the board).
        level: u32,
    },
    /// A position's entry is not the best of its moves' values: two levels
    /// (or two entries of one) disagree, each file passing its own checks.
    #[error(
        "{where_}: the entry of {position} gives the value {value}, but its best move gives \
         {best}: the databases are damaged or forged; delete the folder to rebuild"
    )]
    Inconsistent {
        /// The level file of the position (or "the databases in memory").
        where_: String,
        /// The position, in the notation of docs/rules.md §2.5.
        position: String,
        /// Its value from its own entry.
        value: i32,
        /// The best of its moves' values, from the successors' entries.
        best: i32,
    },
    /// Levels asked to be opened only (a server never builds in a
    /// request) are not in the folder.
    #[error(
        "the databases for {holes} holes per side up to {max_k} seeds on the board are not built \
         in {} (level {missing} is missing): build them once with `dalkon dakon best \
         --probe-seeds {max_k} --db-dir {}` (any position of the board)",
        dir.display(),
        dir.display()
    )]
    NotBuilt {
        /// The folder.
        dir: PathBuf,
        /// Holes per side.
        holes: usize,
        /// The highest level asked for.
        max_k: u32,
        /// The first level missing.
        missing: u32,
    },
    /// A position the databases do not cover (another board size, or more
    /// seeds on the board than the highest level).
    #[error(
        "the databases hold {holes} holes per side and up to {max_k} seeds on the board; \
         {position} is not covered"
    )]
    NotCovered {
        /// Holes per side of the databases.
        holes: usize,
        /// Their highest level.
        max_k: u32,
        /// The position asked for.
        position: String,
    },
}

const GIB: f64 = (1u64 << 30) as f64;

/// What the folder of [`DbError::NotAFolder`] is for.
pub(crate) const FOLDER_FOR: &str = "the databases";

impl From<FileError> for DbError {
    fn from(e: FileError) -> DbError {
        match e {
            FileError::NotAFolder { path, .. } => DbError::NotAFolder { path },
            FileError::Io { path, source } => DbError::Io { path, source },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;

    #[test]
    fn an_io_error_leaves_the_system_message_to_its_source() {
        let err = DbError::Io {
            path: PathBuf::from("/db/x.db"),
            source: std::io::Error::other("disk on fire"),
        };
        assert_eq!(err.to_string(), "cannot read or write /db/x.db");
        assert_eq!(err.source().unwrap().to_string(), "disk on fire");
    }
}
