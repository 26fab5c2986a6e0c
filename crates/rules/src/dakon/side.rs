//! The two players.

use std::fmt;

/// Player 0 (South) moves first from the start; player 1 is North.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Player 0.
    South,
    /// Player 1.
    North,
}

impl Side {
    /// Both sides, player 0 first.
    pub const BOTH: [Side; 2] = [Side::South, Side::North];

    /// The opponent.
    #[inline]
    pub const fn other(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// 0 for South, 1 for North (the notation's player number).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side with notation number `i` (0 or 1).
    pub const fn from_index(i: usize) -> Option<Side> {
        match i {
            0 => Some(Side::South),
            1 => Some(Side::North),
            _ => None,
        }
    }

    /// One letter used to name holes in event logs: `S` or `N`.
    pub const fn letter(self) -> char {
        match self {
            Side::South => 'S',
            Side::North => 'N',
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::South => "South (0)",
            Side::North => "North (1)",
        })
    }
}
