//! Position notation (docs/rules.md §1.6): `<row A>/<row M>/<row B> <side>`,
//! each row from the bow. Parsing first splits the text (rows, side), then
//! validates every character; an error names the problem and the column
//! (1-based character position in the text) where it was found.

use std::fmt;
use std::str::FromStr;

use super::board::{Board, BoardError};
use super::cell::Cell;
use super::hole::{Hole, Row};
use super::position::Position;
use super::side::Side;

/// Why a position text was rejected. Every column is the 1-based character
/// position in the text given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// Nothing but spaces.
    #[error("empty position: expected <row A>/<row M>/<row B> <side>")]
    Empty,
    /// Not three rows separated by `/`.
    #[error("column {column}: expected 3 rows separated by '/', found {found}")]
    RowCount {
        /// Rows found.
        found: usize,
        /// Where the problem was seen.
        column: usize,
    },
    /// Row A's length is not a supported `L`.
    #[error("column {column}: row A has {len} holes: {source}")]
    BadLength {
        /// Length of row A.
        len: usize,
        /// Where row A starts.
        column: usize,
        /// The board problem.
        source: BoardError,
    },
    /// Row M or B has the wrong length for the `L` read from row A.
    #[error("column {column}: row {row} has {found} holes, expected {expected} (row A has {len})")]
    RowLength {
        /// The row at fault.
        row: Row,
        /// Its length.
        found: usize,
        /// The length it must have.
        expected: usize,
        /// `L` from row A.
        len: usize,
        /// Where the row starts.
        column: usize,
    },
    /// A character that is not `.`, `A`, `a`, `B` or `b`.
    #[error("column {column}: unknown character {ch:?} at hole {hole} (expected '.', 'A', 'a', 'B' or 'b')")]
    UnknownChar {
        /// The character.
        ch: char,
        /// Its column.
        column: usize,
        /// The hole it stands for.
        hole: String,
    },
    /// `A` outside row A or `B` outside row B.
    #[error("column {column}: undalt piece {ch:?} at hole {hole}: undalt pieces may only stand on their own start row")]
    UndaltOutsideStartRow {
        /// The character.
        ch: char,
        /// Its column.
        column: usize,
        /// The hole.
        hole: String,
    },
    /// More than `L` pieces for one side.
    #[error("column {column}: side {side} has more than {max} pieces")]
    TooManyPieces {
        /// The side.
        side: Side,
        /// `L`.
        max: usize,
        /// Column of the first piece too many.
        column: usize,
    },
    /// Neither side has a piece: no game reaches that (the game ends when
    /// one side loses its last piece, and then the other side has won).
    #[error("no pieces on the board: a position needs at least one piece of either side")]
    NoPieces,
    /// No side to move after the rows.
    #[error("column {column}: missing side to move ('a' or 'b') after the rows")]
    MissingSide {
        /// Where it was expected.
        column: usize,
    },
    /// The side to move is not `a` or `b`.
    #[error("column {column}: side to move must be 'a' or 'b', found {found:?}")]
    BadSide {
        /// What was found.
        found: String,
        /// Its column.
        column: usize,
    },
    /// Text after the side to move.
    #[error("column {column}: unexpected text {found:?} after the side to move")]
    Trailing {
        /// The extra text.
        found: String,
        /// Its column.
        column: usize,
    },
}

/// Split `chars` into whitespace-separated tokens with their 1-based columns.
fn tokens(chars: &[char]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && !chars[i].is_whitespace() {
            i += 1;
        }
        out.push((start + 1, chars[start..i].iter().collect()));
    }
    out
}

impl FromStr for Position {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let chars: Vec<char> = s.chars().collect();
        let toks = tokens(&chars);
        let Some((rows_col, rows)) = toks.first() else {
            return Err(NotationError::Empty);
        };
        // Rows: split on '/', remembering where each row starts.
        let mut parts: Vec<(usize, Vec<char>)> = vec![(*rows_col, Vec::new())];
        for (k, c) in rows.chars().enumerate() {
            if c == '/' {
                if parts.len() == 3 {
                    return Err(NotationError::RowCount {
                        found: 4,
                        column: rows_col + k,
                    });
                }
                parts.push((rows_col + k + 1, Vec::new()));
            } else if let Some(p) = parts.last_mut() {
                p.1.push(c);
            }
        }
        if parts.len() != 3 {
            return Err(NotationError::RowCount {
                found: parts.len(),
                column: rows_col + rows.chars().count(),
            });
        }
        let len = parts[0].1.len();
        let board = u8::try_from(len)
            .map_err(|_| BoardError::TooLong(u32::try_from(len).unwrap_or(u32::MAX)))
            .and_then(Board::new)
            .map_err(|source| NotationError::BadLength {
                len,
                column: parts[0].0,
                source,
            })?;
        for (k, row, expected) in [(1, Row::M, len + 1), (2, Row::B, len)] {
            if parts[k].1.len() != expected {
                return Err(NotationError::RowLength {
                    row,
                    found: parts[k].1.len(),
                    expected,
                    len,
                    column: parts[k].0,
                });
            }
        }
        let side = match toks.get(1) {
            None => {
                return Err(NotationError::MissingSide {
                    column: rows_col + rows.chars().count(),
                })
            }
            Some((_, t)) if t == "a" => Side::A,
            Some((_, t)) if t == "b" => Side::B,
            Some((column, t)) => {
                return Err(NotationError::BadSide {
                    found: crate::excerpt(t),
                    column: *column,
                })
            }
        };
        if let Some((column, t)) = toks.get(2) {
            return Err(NotationError::Trailing {
                found: crate::excerpt(t),
                column: *column,
            });
        }
        let mut pos = Position::empty(board, side);
        let mut counts = [0usize; 2];
        for (k, row) in [Row::A, Row::M, Row::B].into_iter().enumerate() {
            let (start_col, cells) = &parts[k];
            let first = if row == Row::M { 0 } else { 1 };
            for (j, &ch) in cells.iter().enumerate() {
                let column = start_col + j;
                // The column fits: j < L + 1 <= 33.
                let hole: Hole = board.hole(row, first + j as u8).unwrap_or(Hole(0));
                let hole_name = || board.hole_name(hole);
                let cell = Cell::from_char(ch).ok_or_else(|| NotationError::UnknownChar {
                    ch,
                    column,
                    hole: hole_name(),
                })?;
                if let Cell::Undalt(s) = cell {
                    if !board.on_start_row(s, hole) {
                        return Err(NotationError::UndaltOutsideStartRow {
                            ch,
                            column,
                            hole: hole_name(),
                        });
                    }
                }
                if let Some(s) = cell.side() {
                    counts[s.index()] += 1;
                    if counts[s.index()] > len {
                        return Err(NotationError::TooManyPieces {
                            side: s,
                            max: len,
                            column,
                        });
                    }
                    let bit = 1u128 << hole.0;
                    pos.pieces[s.index()] |= bit;
                    if matches!(cell, Cell::Undalt(_)) {
                        pos.undalt |= bit;
                    }
                }
            }
        }
        if counts == [0, 0] {
            return Err(NotationError::NoPieces);
        }
        Ok(pos)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let board = self.board;
        let mut s = String::with_capacity(board.cells() + 4);
        for (k, h) in board.holes().enumerate() {
            if k == usize::from(board.len()) || k == 2 * usize::from(board.len()) + 1 {
                s.push('/');
            }
            s.push(self.cell(h).to_char());
        }
        write!(f, "{s} {}", self.side)
    }
}
