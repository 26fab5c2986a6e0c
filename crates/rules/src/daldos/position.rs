//! A validated Daldøs position (docs/rules.md §1): the board, the pieces and
//! the side to move. `Copy`, 64 bytes: one bit per hole and side, plus
//! one bit per hole for "undalt". Bit `i` is hole `Hole(i)` (see `hole.rs`).
//!
//! Invariants kept by every constructor: no hole holds pieces of both
//! sides, undalt pieces lie on their owner's start row, at most `L` pieces
//! a side, no bit beyond the board's `3L + 1` holes.

use std::fmt;

use super::board::Board;
use super::cell::Cell;
use super::hole::Hole;
use super::side::Side;
use super::variants::Variants;

/// A position: pieces on a board and the side to move (the side that
/// throws next).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    pub(crate) pieces: [u128; 2],
    pub(crate) undalt: u128,
    pub(crate) board: Board,
    pub(crate) side: Side,
}

/// Why a cell could not be set (`Position::with_cell`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The hole index is not on this board.
    #[error("hole index {hole} is off a board with {cells} holes")]
    OffBoard {
        /// The index given.
        hole: u8,
        /// Holes on the board.
        cells: usize,
    },
    /// An undalt piece outside its owner's start row.
    #[error("undalt piece of {side} on {hole}: undalt pieces stay on their own start row")]
    UndaltOutsideStartRow {
        /// Owner of the piece.
        side: Side,
        /// Name of the hole.
        hole: String,
    },
    /// Pieces of both sides on one hole (`Position::from_masks`).
    #[error("hole {hole} holds pieces of both sides")]
    SharedHole {
        /// Name of the hole.
        hole: String,
    },
    /// An undalt bit on a hole with no piece (`Position::from_masks`).
    #[error("hole {hole} is marked undalt but holds no piece")]
    UndaltWithoutPiece {
        /// Name of the hole.
        hole: String,
    },
    /// More than `L` pieces for one side.
    #[error("{side} would have more than {max} pieces")]
    TooManyPieces {
        /// The side.
        side: Side,
        /// `L`.
        max: u8,
    },
}

/// Mask of the bits of `len` holes starting at `start`.
#[inline]
pub(crate) const fn span(start: u32, len: u32) -> u128 {
    if len == 0 {
        0
    } else {
        (u128::MAX >> (128 - len)) << start
    }
}

impl Position {
    /// The start position (docs/rules.md §1.1): A on every hole of row A, B on
    /// every hole of row B, all undalt; A to move.
    pub fn start(board: Board) -> Position {
        let l = u32::from(board.len());
        let a = span(0, l);
        let b = span(2 * l + 1, l);
        Position {
            pieces: [a, b],
            undalt: a | b,
            board,
            side: Side::A,
        }
    }

    /// An empty board with `side_to_move` to move (a builder base).
    pub fn empty(board: Board, side_to_move: Side) -> Position {
        Position {
            pieces: [0, 0],
            undalt: 0,
            board,
            side: side_to_move,
        }
    }

    /// A position from bit masks (bit `i` = `Hole(i)`): `pieces[0]` for A,
    /// `pieces[1]` for B, `undalt` the undalt pieces of both sides;
    /// validated as [`Position::with_cell`] does, plus: no hole with
    /// pieces of both sides, no undalt bit without a piece, no bit off the
    /// board. For engines that build positions by the million.
    pub fn from_masks(
        board: Board,
        pieces: [u128; 2],
        undalt: u128,
        side: Side,
    ) -> Result<Position, PositionError> {
        let cells = board.cells();
        let on_board = span(0, cells as u32);
        let all = pieces[0] | pieces[1] | undalt;
        if all & !on_board != 0 {
            return Err(PositionError::OffBoard {
                hole: (127 - (all & !on_board).leading_zeros()) as u8,
                cells,
            });
        }
        let both = pieces[0] & pieces[1];
        if both != 0 {
            return Err(PositionError::SharedHole {
                hole: board.hole_name(Hole(both.trailing_zeros() as u8)),
            });
        }
        let stray = undalt & !(pieces[0] | pieces[1]);
        if stray != 0 {
            return Err(PositionError::UndaltWithoutPiece {
                hole: board.hole_name(Hole(stray.trailing_zeros() as u8)),
            });
        }
        let l = u32::from(board.len());
        let rows = [span(0, l), span(2 * l + 1, l)];
        for s in Side::BOTH {
            let off_row = undalt & pieces[s.index()] & !rows[s.index()];
            if off_row != 0 {
                return Err(PositionError::UndaltOutsideStartRow {
                    side: s,
                    hole: board.hole_name(Hole(off_row.trailing_zeros() as u8)),
                });
            }
            if pieces[s.index()].count_ones() > l {
                return Err(PositionError::TooManyPieces {
                    side: s,
                    max: board.len(),
                });
            }
        }
        Ok(Position {
            pieces,
            undalt,
            board,
            side,
        })
    }

    /// This position with hole `hole` set to `cell`, validated.
    pub fn with_cell(mut self, hole: Hole, cell: Cell) -> Result<Position, PositionError> {
        if !self.board.contains(hole) {
            return Err(PositionError::OffBoard {
                hole: hole.0,
                cells: self.board.cells(),
            });
        }
        let bit = 1u128 << hole.0;
        self.pieces[0] &= !bit;
        self.pieces[1] &= !bit;
        self.undalt &= !bit;
        match cell {
            Cell::Empty => {}
            Cell::Undalt(s) | Cell::Dalt(s) => {
                if matches!(cell, Cell::Undalt(_)) {
                    if !self.board.on_start_row(s, hole) {
                        return Err(PositionError::UndaltOutsideStartRow {
                            side: s,
                            hole: self.board.hole_name(hole),
                        });
                    }
                    self.undalt |= bit;
                }
                self.pieces[s.index()] |= bit;
                if self.count(s) > usize::from(self.board.len()) {
                    return Err(PositionError::TooManyPieces {
                        side: s,
                        max: self.board.len(),
                    });
                }
            }
        }
        Ok(self)
    }

    /// The board.
    #[inline]
    pub const fn board(&self) -> Board {
        self.board
    }

    /// The side that throws next.
    #[inline]
    pub const fn side_to_move(&self) -> Side {
        self.side
    }

    /// The same pieces with another side to move.
    #[inline]
    pub const fn with_side_to_move(mut self, side: Side) -> Position {
        self.side = side;
        self
    }

    /// The mirror image: rows A and B exchanged (`Ac` <-> `Bc`, the middle
    /// row unchanged), every piece given to the other side, and the other
    /// side to move. The rules are symmetric between the players, so the
    /// mirror has the same plays, mirrored, and the same value for the side
    /// to move (used by the value tables, which store A to move only).
    pub fn mirror(&self) -> Position {
        let l = u32::from(self.board.len());
        let row = span(0, l);
        let mid = span(l, l + 1);
        let shift = 2 * l + 1;
        let m = |x: u128| ((x & row) << shift) | ((x >> shift) & row) | (x & mid);
        Position {
            pieces: [m(self.pieces[1]), m(self.pieces[0])],
            undalt: m(self.undalt),
            board: self.board,
            side: self.side.other(),
        }
    }

    /// What hole `h` holds (`Empty` for a hole off the board).
    #[inline]
    pub fn cell(&self, h: Hole) -> Cell {
        if h.0 >= 128 {
            return Cell::Empty;
        }
        let bit = 1u128 << h.0;
        let und = self.undalt & bit != 0;
        for s in Side::BOTH {
            if self.pieces[s.index()] & bit != 0 {
                return if und { Cell::Undalt(s) } else { Cell::Dalt(s) };
            }
        }
        Cell::Empty
    }

    /// The holes of `side`'s pieces, in cell order.
    pub fn pieces(&self, side: Side) -> impl Iterator<Item = Hole> {
        Bits(self.pieces[side.index()]).map(Hole)
    }

    /// Number of pieces of `side`.
    #[inline]
    pub const fn count(&self, side: Side) -> usize {
        self.pieces[side.index()].count_ones() as usize
    }

    /// Bit mask of `side`'s pieces (bit `i` = `Hole(i)`).
    #[inline]
    pub const fn mask(&self, side: Side) -> u128 {
        self.pieces[side.index()]
    }

    /// Bit mask of all undalt pieces (both sides).
    #[inline]
    pub const fn undalt_mask(&self) -> u128 {
        self.undalt
    }

    /// Whether `side` has lost under `variants.end` (no pieces, or one
    /// under `end=one`).
    #[inline]
    pub fn has_lost(&self, side: Side, variants: &Variants) -> bool {
        self.count(side) <= variants.end.losing_count()
    }

    /// Whether the game is over (docs/rules.md §1.4, `end` variant).
    #[inline]
    pub fn is_over(&self, variants: &Variants) -> bool {
        self.has_lost(Side::A, variants) || self.has_lost(Side::B, variants)
    }

    /// The winner if the game is over: the side that has not lost. If both
    /// sides have lost (impossible in play: only set up by hand) the side
    /// not to move wins, as it would have made the last capture.
    pub fn winner(&self, variants: &Variants) -> Option<Side> {
        match (
            self.has_lost(Side::A, variants),
            self.has_lost(Side::B, variants),
        ) {
            (false, false) => None,
            (true, false) => Some(Side::B),
            (false, true) => Some(Side::A),
            (true, true) => Some(self.side.other()),
        }
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

/// Iterator over the set bits of a mask, lowest first.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bits(pub(crate) u128);

impl Iterator for Bits {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(i)
        }
    }
}
