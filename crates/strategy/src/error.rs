//! What can be wrong with a strategy file before any game is played.
//!
//! Every message names the line (counted from 1, comments included) and
//! quotes at most [`dalkon_rules::EXCERPT_MAX`] characters of it.

use dalkon_rules::dakon::{ParseError, RulesError};
use thiserror::Error;

/// A file that is not a well-formed `dalkon-strategy 1` file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FormatError {
    /// The bytes start like gzip (`1f 8b`) but do not decompress to the end.
    #[error("the gzip stream cannot be read to its end: {0}")]
    Gzip(String),
    /// The file cannot be read (an I/O error) at this line.
    #[error("line {line}: cannot read the file: {message}")]
    Read {
        /// The line being read.
        line: u64,
        /// What the system said.
        message: String,
    },
    /// A line longer than any a strategy file has: read no further.
    #[error("line {line} is longer than {max} bytes, the most a line of a strategy file may have")]
    LineTooLong {
        /// The line.
        line: u64,
        /// The bound, in bytes (`\n` not counted).
        max: usize,
    },
    /// The (decompressed) text is not UTF-8.
    #[error("line {line}: not UTF-8 text (byte {byte} of the line is not valid UTF-8)")]
    Utf8 {
        /// The line holding the first bad byte.
        line: u64,
        /// 1-based byte within that line.
        byte: usize,
    },
    /// The first line is not `dalkon-strategy <version>`.
    #[error("line 1: expected `dalkon-strategy 1` (this is not a strategy file), got {0:?}")]
    NotStrategy(String),
    /// A version of the format this reader does not know.
    #[error("line 1: format version {0:?} is not known (this reader reads `dalkon-strategy 1`)")]
    Version(String),
    /// A header line missing, or out of its place.
    #[error("line {line}: expected `{expected}`, got {text:?}")]
    Field {
        /// The line.
        line: u64,
        /// What the header needs there, e.g. `player 0|1`.
        expected: &'static str,
        /// The line found.
        text: String,
    },
    /// The file ends inside the header.
    #[error("line {line}: the file ends inside the header (expected `{expected}`)")]
    EndOfHeader {
        /// The line that is missing.
        line: u64,
        /// What it should say.
        expected: &'static str,
    },
    /// A game other than Dakon.
    #[error("line {line}: the game is {game:?}, but this reader checks `dakon` strategies only")]
    Game {
        /// The line.
        line: u64,
        /// The game named.
        game: String,
    },
    /// The rules line is not exactly `rules origin=… mikul=… nembak=…`.
    #[error("line {line}: bad rules line {text:?}: {source}")]
    Rules {
        /// The line.
        line: u64,
        /// The text after `rules `.
        text: String,
        /// What is wrong with it.
        source: RulesError,
    },
    /// The root is not a position in the notation of docs/rules.md §2.5.
    #[error("line {line}: bad root {text:?}: {source}")]
    Root {
        /// The line.
        line: u64,
        /// The text after `root `.
        text: String,
        /// What is wrong with it.
        source: ParseError,
    },
    /// The player is not `0` or `1`.
    #[error("line {line}: the player must be 0 or 1, got {text:?}")]
    Player {
        /// The line.
        line: u64,
        /// The text after `player `.
        text: String,
    },
    /// The guarantee is not a whole number.
    #[error("line {line}: guarantees must be a whole number (e.g. 12 or -3), got {text:?}")]
    Guarantees {
        /// The line.
        line: u64,
        /// The text after `guarantees `.
        text: String,
    },
    /// The line count is not a whole number from 0.
    #[error("line {line}: lines must be a count (a whole number from 0), got {text:?}")]
    LinesField {
        /// The line.
        line: u64,
        /// The text after `lines `.
        text: String,
    },
    /// The header's line count is not the number of strategy lines.
    #[error("line {line}: the header says `lines {declared}` but {found} strategy lines follow")]
    LineCount {
        /// The line of the `lines` field.
        line: u64,
        /// The count the header gives.
        declared: u64,
        /// The strategy lines in the file.
        found: u64,
    },
    /// A `lines` count whose table would not fit in the memory this
    /// machine can spare.
    #[error("line {line}: `lines {declared}` would need {needed_mib} MiB of memory to read, more than the {usable_mib} MiB this machine can spare")]
    LinesMemory {
        /// The line of the `lines` field.
        line: u64,
        /// The count the header gives.
        declared: u64,
        /// MiB the table of that many lines needs.
        needed_mib: u128,
        /// MiB that may be used.
        usable_mib: u64,
    },
    /// One strategy line more than the header declares.
    #[error(
        "line {line}: one strategy line more than the `lines {declared}` of line {lines_line}"
    )]
    ExtraLine {
        /// The first line beyond the count.
        line: u64,
        /// The count the header gives.
        declared: u64,
        /// The line of the `lines` field.
        lines_line: u64,
    },
    /// A strategy line that cannot be read.
    #[error("line {line}: bad strategy line {text:?}: {problem}")]
    Line {
        /// The line.
        line: u64,
        /// The line found.
        text: String,
        /// What is wrong with it.
        problem: LineProblem,
    },
    /// A second line for the same rows.
    #[error("line {line}: the rows {rows} already have a line (line {first}); each position has at most one")]
    Duplicate {
        /// The second line.
        line: u64,
        /// The line that came first.
        first: u64,
        /// The rows, `<row 0>/<row 1>`.
        rows: String,
    },
}

/// What is wrong with one strategy line `<row 0>/<row 1> <move>`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LineProblem {
    /// An empty line (comments start with `#`).
    #[error("empty line (comment lines start with `#`)")]
    Empty,
    /// Not two rows, one space and a move.
    #[error("expected `<row 0>/<row 1> <move>`")]
    Shape,
    /// A count that is not a whole number from 0 to 255.
    #[error("{row}, item {item}: {text:?} is not a seed count (a whole number from 0 to 255)")]
    Count {
        /// `row 0` or `row 1`.
        row: &'static str,
        /// 1-based item within the row.
        item: usize,
        /// The text found.
        text: String,
    },
    /// A row of another length than the root's.
    #[error("{row} has {found} holes, but the root's board has {holes}")]
    Holes {
        /// `row 0` or `row 1`.
        row: &'static str,
        /// Holes found.
        found: usize,
        /// Holes per row of the root.
        holes: usize,
    },
    /// More seeds on the board than the whole game has.
    #[error("{found} seeds on the board, more than the {total} seeds of the root's game")]
    Seeds {
        /// Seeds in the two rows.
        found: u32,
        /// Seeds of the root, stores included.
        total: u32,
    },
    /// The move is not a hole number.
    #[error("the move {text:?} is not a hole number from 1 to {holes}")]
    Move {
        /// The text found.
        text: String,
        /// Holes per row.
        holes: usize,
    },
}

/// Why a strategy file on disk cannot be read ([`crate::read_file`]).
#[derive(Debug, Error)]
pub enum ReadError {
    /// The path cannot be looked at or opened.
    #[error("{0}")]
    Open(std::io::Error),
    /// A folder, FIFO, device or socket: only a regular file is read, so
    /// that reading never blocks or runs without end.
    #[error("it is {kind}, not a regular file")]
    NotAFile {
        /// What it is, e.g. `a FIFO (named pipe)`.
        kind: &'static str,
    },
    /// The file is not a well-formed strategy file.
    #[error(transparent)]
    Format(FormatError),
}
