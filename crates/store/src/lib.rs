//! The file and memory utilities of dalkon's table builders (today the
//! Dakon solver's databases and openings count), kept out of the solver so
//! that the Daldøs tables of `dalkon-daldos` can use them without depending on
//! the Dakon solver:
//!
//! - [`cache`]: a prefetch hint for lookups in tables larger than the
//!   caches;
//! - [`huge`]: such tables' memory asked for on huge pages;
//! - [`atomic`]: atomic file writes (temporary, fsync, rename) and the
//!   clean-up of temporaries left behind;
//! - [`data_dir`]: the per-user folder of the databases and tables, shared
//!   by both games;
//! - [`checksum`]: FNV-1a 64, fed in pieces, and the seal of a file whose
//!   header carries it;
//! - [`header`]: the fixed-size headers of the binary files (magic,
//!   version, fields at fixed offsets) and the check of their start;
//! - [`error`]: the `NotAFolder` and `Io` errors of every file format;
//! - [`memory`]: how much memory this machine lets a build use;
//! - [`mapped`]: read-only mapping of a file written with [`atomic`];
//! - [`lines`]: reading untrusted text one line at a time, with a bound on
//!   the line's length (standard input, strategy files);
//! - [`text`]: a small text file read whole, with a bound on its size (game
//!   records).

pub mod atomic;
pub mod cache;
pub mod checksum;
pub mod data_dir;
pub mod error;
pub mod header;
pub mod huge;
pub mod lines;
pub mod mapped;
pub mod memory;
pub mod text;

pub use data_dir::{data_dir, NoDataDir, DB_DIR_ENV};
pub use error::FileError;
pub use text::{read_text, TextFileError};
