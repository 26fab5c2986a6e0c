//! What a hole holds (docs/rules.md §1.1, §1.6).

use super::side::Side;

/// The content of one hole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Cell {
    /// No piece.
    #[default]
    Empty,
    /// A piece not yet activated; only ever on its owner's start row.
    Undalt(Side),
    /// An activated piece.
    Dalt(Side),
}

impl Cell {
    /// The owner, if any.
    #[inline]
    pub const fn side(self) -> Option<Side> {
        match self {
            Cell::Empty => None,
            Cell::Undalt(s) | Cell::Dalt(s) => Some(s),
        }
    }

    /// The notation character: `.`, `A`, `a`, `B`, `b`.
    pub const fn to_char(self) -> char {
        match self {
            Cell::Empty => '.',
            Cell::Undalt(Side::A) => 'A',
            Cell::Dalt(Side::A) => 'a',
            Cell::Undalt(Side::B) => 'B',
            Cell::Dalt(Side::B) => 'b',
        }
    }

    /// The cell for a notation character, if it is one.
    pub const fn from_char(c: char) -> Option<Cell> {
        match c {
            '.' => Some(Cell::Empty),
            'A' => Some(Cell::Undalt(Side::A)),
            'a' => Some(Cell::Dalt(Side::A)),
            'B' => Some(Cell::Undalt(Side::B)),
            'b' => Some(Cell::Dalt(Side::B)),
            _ => None,
        }
    }
}
