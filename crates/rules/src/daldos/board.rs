//! Board geometry (docs/rules.md §1.1–1.2): row length `L`, hole names, and each
//! side's path — its start row toward the stern, then a loop of `2L + 1`
//! holes (middle row stern → bow, enemy row bow → stern) for ever.
//!
//! Path index of a hole for a side: `0..L` the own start row (column - 1),
//! `L..=2L` the middle row (`ML` first, `M0` last), `2L+1..=3L` the enemy
//! row (column `c` at `2L + c`). Indices `L..=3L` form the loop.

use std::fmt;
use std::str::FromStr;

use super::hole::{Hole, HoleError, Row};
use super::side::Side;

/// Largest row length supported: `3L + 1 = 97` cells fit one `u128`.
pub const MAX_LEN: u8 = 32;
/// Smallest row length the rules allow.
pub const MIN_LEN: u8 = 4;

/// A board of row length `L` (`4 <= L <= 32`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    len: u8,
}

/// Why a board was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// `L` is below 4.
    #[error("board length {0} is too short: the rules need L >= {MIN_LEN}")]
    TooShort(u32),
    /// `L` is above the implementation cap of 32.
    #[error("board length {0} is too long: this implementation supports L <= {MAX_LEN} (a position is a 128-bit mask of the 3L+1 holes)")]
    TooLong(u32),
    /// Not `danish`, `norwegian` or a number.
    #[error("unknown board {0:?}: expected danish, norwegian or a row length L from {MIN_LEN} to {MAX_LEN}")]
    Unknown(String),
}

impl Board {
    /// The Danish board, `L = 16`.
    pub const DANISH: Board = Board { len: 16 };
    /// The Norwegian board, `L = 12`.
    pub const NORWEGIAN: Board = Board { len: 12 };

    /// A board of row length `len`.
    pub fn new(len: u8) -> Result<Board, BoardError> {
        Self::checked(u32::from(len))
    }

    fn checked(len: u32) -> Result<Board, BoardError> {
        if len < u32::from(MIN_LEN) {
            Err(BoardError::TooShort(len))
        } else if len > u32::from(MAX_LEN) {
            Err(BoardError::TooLong(len))
        } else {
            Ok(Board { len: len as u8 })
        }
    }

    /// `danish`, `norwegian` (any case) or a row length such as `10`.
    pub fn from_name(name: &str) -> Result<Board, BoardError> {
        let t = name.trim();
        match t.to_ascii_lowercase().as_str() {
            "danish" => Ok(Board::DANISH),
            "norwegian" => Ok(Board::NORWEGIAN),
            _ => match t.parse::<u32>() {
                Ok(n) => Self::checked(n),
                Err(_) => Err(BoardError::Unknown(crate::excerpt(name))),
            },
        }
    }

    /// `danish`, `norwegian` or the number `L`.
    pub fn name(self) -> String {
        match self.len {
            16 => "danish".to_owned(),
            12 => "norwegian".to_owned(),
            n => n.to_string(),
        }
    }

    /// Row length `L` (holes in row A or B; the middle row has `L + 1`).
    // A board is never empty (L >= 4), so `is_empty` would mean nothing.
    #[allow(clippy::len_without_is_empty)]
    #[inline]
    pub const fn len(self) -> u8 {
        self.len
    }

    /// Number of holes, `3L + 1`.
    #[inline]
    pub const fn cells(self) -> usize {
        3 * self.len as usize + 1
    }

    /// Holes of the loop part of a path, `2L + 1`.
    #[inline]
    pub const fn path_len_loop(self) -> usize {
        2 * self.len as usize + 1
    }

    /// Every hole, in cell order (A1..AL, M0..ML, B1..BL).
    pub fn holes(self) -> impl Iterator<Item = Hole> {
        (0..self.cells() as u8).map(Hole)
    }

    /// The hole at `row`, `col`; `None` if the column is outside the row
    /// (`1..=L` for A and B, `0..=L` for M).
    pub fn hole(self, row: Row, col: u8) -> Option<Hole> {
        let l = self.len;
        match row {
            Row::A if (1..=l).contains(&col) => Some(Hole(col - 1)),
            Row::M if col <= l => Some(Hole(l + col)),
            Row::B if (1..=l).contains(&col) => Some(Hole(2 * l + col)),
            _ => None,
        }
    }

    /// Row and column of a hole of this board.
    #[inline]
    pub const fn row_col(self, h: Hole) -> (Row, u8) {
        let l = self.len;
        let i = h.0;
        if i < l {
            (Row::A, i + 1)
        } else if i <= 2 * l {
            (Row::M, i - l)
        } else {
            (Row::B, i - 2 * l)
        }
    }

    /// Whether `h` is a hole of this board.
    #[inline]
    pub const fn contains(self, h: Hole) -> bool {
        (h.0 as usize) < self.cells()
    }

    /// `A1`..`AL`, `M0`..`ML`, `B1`..`BL`.
    pub fn hole_name(self, h: Hole) -> String {
        let (row, col) = self.row_col(h);
        format!("{}{}", row.letter(), col)
    }

    /// Parse `A3`, `m0`, `B16` (row letter case-insensitive).
    pub fn parse_hole(self, s: &str) -> Result<Hole, HoleError> {
        let t = s.trim();
        let mut chars = t.chars();
        let row = match chars.next().map(|c| c.to_ascii_uppercase()) {
            Some('A') => Row::A,
            Some('M') => Row::M,
            Some('B') => Row::B,
            _ => return Err(HoleError::BadRow(crate::excerpt(s))),
        };
        let rest = chars.as_str();
        if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) {
            return Err(HoleError::BadColumn(crate::excerpt(s)));
        }
        let column: u32 = rest.parse().unwrap_or(u32::MAX);
        let (min, max) = match row {
            Row::M => (0, self.len),
            _ => (1, self.len),
        };
        u8::try_from(column)
            .ok()
            .and_then(|c| self.hole(row, c))
            .ok_or(HoleError::OutOfRange {
                name: crate::excerpt(s),
                row,
                column,
                min,
                max,
            })
    }

    /// The start row of `side` (A for A, B for B).
    #[inline]
    pub const fn start_row(side: Side) -> Row {
        match side {
            Side::A => Row::A,
            Side::B => Row::B,
        }
    }

    /// Whether `h` lies on `side`'s own start row.
    #[inline]
    pub const fn on_start_row(self, side: Side, h: Hole) -> bool {
        let l = self.len;
        match side {
            Side::A => h.0 < l,
            Side::B => h.0 > 2 * l && h.0 <= 3 * l,
        }
    }

    /// Position of `h` along `side`'s path (see module doc): `0..L` on the
    /// start row, `L..=3L` on the loop.
    #[inline]
    pub const fn path_index(self, side: Side, h: Hole) -> u8 {
        let l = self.len;
        let i = h.0;
        let (own, enemy_col) = if i < l {
            // Row A: own for A (column i+1), enemy for B.
            (matches!(side, Side::A), i + 1)
        } else if i <= 2 * l {
            // Middle row, column i - l: same for both sides.
            return 2 * l - (i - l);
        } else {
            (matches!(side, Side::B), i - 2 * l)
        };
        if own {
            enemy_col - 1
        } else {
            2 * l + enemy_col
        }
    }

    /// The hole at path index `p` (`0..=3L`) of `side`'s path.
    #[inline]
    pub const fn hole_at(self, side: Side, p: u8) -> Hole {
        let l = self.len;
        let (own_base, enemy_base) = match side {
            Side::A => (0, 2 * l + 1),
            Side::B => (2 * l + 1, 0),
        };
        if p < l {
            Hole(own_base + p)
        } else if p <= 2 * l {
            Hole(l + (2 * l - p))
        } else {
            Hole(enemy_base + (p - 2 * l - 1))
        }
    }

    /// Path index `d` steps after path index `p` (wrapping round the loop).
    #[inline]
    pub const fn advance(self, p: u8, d: u32) -> u8 {
        let l = self.len as u32;
        let q = p as u32 + d;
        if q <= 3 * l {
            q as u8
        } else {
            (l + (q - l) % (2 * l + 1)) as u8
        }
    }

    /// The hole `d` steps forward along `side`'s path from `h`. Every hole
    /// lies on both sides' paths (the own start row on the start segment,
    /// the rest on the loop), so this is `None` only when `h` is not a hole
    /// of this board.
    #[inline]
    pub fn step(self, side: Side, h: Hole, d: u32) -> Option<Hole> {
        if !self.contains(h) {
            return None;
        }
        let p = self.path_index(side, h);
        Some(self.hole_at(side, self.advance(p, d)))
    }

    /// "`from` is d positions behind `to`" (docs/rules.md §1.2): the smallest
    /// `d >= 0` with `step(side, from, d) == to`. `None` when `to` cannot be
    /// reached: `to` on `side`'s start row behind (or level with, for
    /// `d > 0`) `from`, or `to` on the start row while `from` is on the loop,
    /// or either hole off the board.
    pub fn path_distance(self, side: Side, from: Hole, to: Hole) -> Option<u32> {
        if !self.contains(from) || !self.contains(to) {
            return None;
        }
        let l = u32::from(self.len);
        let pf = u32::from(self.path_index(side, from));
        let pt = u32::from(self.path_index(side, to));
        if pt < l {
            // Target on the start row: only reachable from behind on it.
            return (pf <= pt).then(|| pt - pf);
        }
        if pf <= pt {
            Some(pt - pf)
        } else if pf >= l {
            Some(pt + 2 * l + 1 - pf)
        } else {
            None
        }
    }
}

impl Default for Board {
    fn default() -> Self {
        Board::DANISH
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl FromStr for Board {
    type Err = BoardError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Board::from_name(s)
    }
}
