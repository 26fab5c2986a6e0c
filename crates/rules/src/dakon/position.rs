//! The validated Dakon position.

use super::error::PositionError;
use super::side::Side;

/// The largest number of holes per row: a position keeps each row in a
/// fixed array of this many bytes (a `Copy` value of 68 bytes, copied on
/// every move by the engines), so boards up to 32 holes a row are positions.
pub const MAX_HOLES: usize = 32;
/// The largest number of seeds in a game, stores included: every count (a
/// hole's, a store's) is one byte, and a store can end up holding them all.
pub const MAX_SEEDS: u32 = 255;
/// The standard board, 7 holes a row of 7 seeds each (docs/rules.md), where
/// a game starts when none is named.
pub const STANDARD_BOARD: (usize, u32) = (7, 7);

/// A Dakon position: both rows, both stores and the side to move.
///
/// Always valid: `1 <= holes <= MAX_HOLES`, at most `MAX_SEEDS` seeds in all,
/// and the unused tail of each row array is zero (so derived `Eq` and `Hash`
/// compare positions, not garbage).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(super) n: u8,
    pub(super) pits: [[u8; MAX_HOLES]; 2],
    pub(super) stores: [u8; 2],
    pub(super) side: Side,
}

impl Position {
    /// The start of a board: `holes` holes a row, `seeds` seeds in each,
    /// empty stores, player 0 (South) to move.
    pub fn start(holes: usize, seeds: u8) -> Result<Position, PositionError> {
        if seeds == 0 {
            return Err(PositionError::NoSeeds);
        }
        // Checked before the rows are built: a huge count must not allocate.
        if holes > MAX_HOLES {
            return Err(PositionError::TooManyHoles {
                holes,
                max: MAX_HOLES,
            });
        }
        let row = vec![seeds; holes];
        Position::new(&row, &row, [0, 0], Side::South)
    }

    /// A position from its parts, validated.
    pub fn new(
        south: &[u8],
        north: &[u8],
        stores: [u8; 2],
        side: Side,
    ) -> Result<Position, PositionError> {
        if south.len() != north.len() {
            return Err(PositionError::UnequalRows {
                row0: south.len(),
                row1: north.len(),
            });
        }
        let n = south.len();
        if n == 0 {
            return Err(PositionError::NoHoles);
        }
        if n > MAX_HOLES {
            return Err(PositionError::TooManyHoles {
                holes: n,
                max: MAX_HOLES,
            });
        }
        let total: u32 = south
            .iter()
            .chain(north)
            .chain(&stores)
            .map(|&c| u32::from(c))
            .sum();
        if total > MAX_SEEDS {
            return Err(PositionError::TooManySeeds {
                total,
                max: MAX_SEEDS,
            });
        }
        let mut pits = [[0u8; MAX_HOLES]; 2];
        pits[0][..n].copy_from_slice(south);
        pits[1][..n].copy_from_slice(north);
        Ok(Position {
            n: n as u8,
            pits,
            stores,
            side,
        })
    }

    /// Holes per row.
    #[inline]
    pub fn holes(&self) -> usize {
        usize::from(self.n)
    }

    /// The row of `side`, hole 1 first.
    #[inline]
    pub fn pits(&self, side: Side) -> &[u8] {
        &self.pits[side.index()][..self.holes()]
    }

    /// The row of `side` as its whole fixed array: hole 1 first, zero from
    /// hole `holes() + 1` on. For engines that read a row in words (the
    /// search's table keys) rather than hole by hole.
    #[inline]
    pub fn padded_row(&self, side: Side) -> &[u8; MAX_HOLES] {
        &self.pits[side.index()]
    }

    /// Seeds in hole `hole` (1-based) of `side`'s row.
    ///
    /// # Panics
    /// If `hole` is not in `1..=holes()`.
    #[inline]
    pub fn pit(&self, side: Side, hole: usize) -> u8 {
        self.pits(side)[hole - 1]
    }

    /// Seeds in `side`'s store.
    #[inline]
    pub fn store(&self, side: Side) -> u8 {
        self.stores[side.index()]
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// The same position with another side to move.
    pub fn with_side_to_move(mut self, side: Side) -> Position {
        self.side = side;
        self
    }

    /// The same board with both stores emptied (engines factor stores out).
    pub fn without_stores(mut self) -> Position {
        self.stores = [0, 0];
        self
    }

    /// Seeds in `side`'s row.
    #[inline]
    pub fn row_seeds(&self, side: Side) -> u32 {
        self.pits(side).iter().map(|&c| u32::from(c)).sum()
    }

    /// Seeds in both rows.
    #[inline]
    pub fn seeds_on_board(&self) -> u32 {
        self.row_seeds(Side::South) + self.row_seeds(Side::North)
    }

    /// Seeds in rows and stores.
    pub fn total_seeds(&self) -> u32 {
        self.seeds_on_board() + u32::from(self.stores[0]) + u32::from(self.stores[1])
    }

    /// The game is over: the side to move has no seeds in its row
    /// (docs/rules.md §2.3). After any move the sweep has already emptied the
    /// other row too; a position typed in may still hold the opponent's
    /// seeds, which [`Position::terminal_value`] counts for the opponent.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.pits(self.side).iter().all(|&c| c == 0)
    }

    /// The side to move's store minus the opponent's.
    #[inline]
    pub fn store_diff(&self) -> i32 {
        i32::from(self.stores[self.side.index()])
            - i32::from(self.stores[self.side.other().index()])
    }

    /// The final value for the side to move (docs/rules.md §2.3) when the game is
    /// over: store difference after the sweep of the opponent's seeds
    /// ([`Position::final_score`]).
    #[inline]
    pub fn terminal_value(&self) -> Option<i32> {
        Some(self.final_score()?.difference(self.side))
    }

    /// Legal moves: the non-empty holes (1-based) of the side to move,
    /// ascending. None when the game is over.
    pub fn moves(&self) -> impl Iterator<Item = usize> + '_ {
        self.pits(self.side)
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(i, _)| i + 1)
    }

    /// The same game seen from the other player: rows, stores and side
    /// swapped. Values for the side to move are unchanged by flipping.
    pub fn flipped(&self) -> Position {
        Position {
            n: self.n,
            pits: [self.pits[1], self.pits[0]],
            stores: [self.stores[1], self.stores[0]],
            side: self.side.other(),
        }
    }
}
