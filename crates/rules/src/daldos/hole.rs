//! Holes and rows (docs/rules.md §1.1): a hole is a small index into the board's
//! `3L + 1` cells. Cells are numbered row A first (`A1..AL` = `0..L`), then
//! the middle row (`M0..ML` = `L..=2L`), then row B (`B1..BL` = `2L+1..=3L`).
//! The board (`Board`) turns names into holes and back.

use std::fmt;

/// A hole of the board: an index `0..3L+1` into its cells (see module doc).
/// A `Hole` only has a meaning together with its `Board`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hole(pub u8);

impl Hole {
    /// The index as `usize`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// The three rows of the boat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Row {
    /// Player A's start row, `A1..AL`.
    A,
    /// The middle row, `M0..ML` (`M0` at the bow tip).
    M,
    /// Player B's start row, `B1..BL`.
    B,
}

impl Row {
    /// The row's letter in hole names and in the drawing.
    pub const fn letter(self) -> char {
        match self {
            Row::A => 'A',
            Row::M => 'M',
            Row::B => 'B',
        }
    }
}

impl fmt::Display for Row {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Why a hole name was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HoleError {
    /// The name does not start with a row letter `A`, `M` or `B`.
    #[error("hole {0:?}: expected a row letter A, M or B followed by a column number")]
    BadRow(String),
    /// The column is not a number.
    #[error("hole {0:?}: the column is not a number")]
    BadColumn(String),
    /// The column is outside the row (`1..=L` for A and B, `0..=L` for M).
    #[error("hole {name:?}: column {column} is outside row {row} (columns {min}..={max})")]
    OutOfRange {
        /// The name as given.
        name: String,
        /// Its row.
        row: Row,
        /// The column read.
        column: u32,
        /// Lowest column of the row.
        min: u8,
        /// Highest column of the row.
        max: u8,
    },
}
