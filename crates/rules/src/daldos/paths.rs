//! Precomputed path tables for play generation: for each side, hole and
//! distance `d` in `0..=8` (two dice at most), the hole `d` steps ahead and
//! the mask of the holes passed or landed on (steps `1..=d`). Built once
//! per row length on first use, from `Board::step`.

use std::sync::OnceLock;

use super::board::{Board, MAX_LEN};
use super::hole::Hole;
use super::side::Side;

/// Longest move: both dice added, 4 + 4.
pub(crate) const MAX_DISTANCE: usize = 8;

/// Path tables of one board (see module doc).
#[derive(Debug)]
pub(crate) struct Paths {
    reach: [[[u128; MAX_DISTANCE + 1]; 97]; 2],
    target: [[[u8; MAX_DISTANCE + 1]; 97]; 2],
}

impl Paths {
    fn build(board: Board) -> Paths {
        let mut p = Paths {
            reach: [[[0; MAX_DISTANCE + 1]; 97]; 2],
            target: [[[0; MAX_DISTANCE + 1]; 97]; 2],
        };
        for side in Side::BOTH {
            for h in board.holes() {
                let mut mask = 0u128;
                p.target[side.index()][h.index()][0] = h.0;
                for d in 1..=MAX_DISTANCE {
                    // Every hole of the board is on every side's path.
                    let t = board.step(side, h, d as u32).unwrap_or(h);
                    mask |= 1u128 << t.0;
                    p.reach[side.index()][h.index()][d] = mask;
                    p.target[side.index()][h.index()][d] = t.0;
                }
            }
        }
        p
    }

    /// The tables of `board`, built on first use.
    pub(crate) fn of(board: Board) -> &'static Paths {
        static TABLES: [OnceLock<Box<Paths>>; MAX_LEN as usize + 1] =
            [const { OnceLock::new() }; MAX_LEN as usize + 1];
        TABLES[usize::from(board.len())].get_or_init(|| Box::new(Paths::build(board)))
    }

    /// Holes on the way from `h`, `d` steps along `side`'s path (the last
    /// included), as a mask.
    #[inline]
    pub(crate) fn reach(&self, side: Side, h: Hole, d: u8) -> u128 {
        self.reach[side.index()][h.index()][usize::from(d)]
    }

    /// The hole `d` steps along `side`'s path from `h`.
    #[inline]
    pub(crate) fn target(&self, side: Side, h: Hole, d: u8) -> Hole {
        Hole(self.target[side.index()][h.index()][usize::from(d)])
    }
}
