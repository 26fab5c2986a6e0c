//! The final score of a finished game (docs/rules.md §2.3): every seed left
//! on the board goes to the store of the side not to move, then the larger
//! store wins. Every front end that names a game's result asks
//! [`Position::final_score`], so none can count the leftover seeds
//! differently.

use super::{Position, Side};

/// The stores at the end of a game, the sweep of the leftover seeds done.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FinalScore {
    stores: [u32; 2],
}

impl FinalScore {
    /// `side`'s final store.
    #[inline]
    pub fn store(&self, side: Side) -> u32 {
        self.stores[side.index()]
    }

    /// `side`'s final store minus the other's.
    #[inline]
    pub fn difference(&self, side: Side) -> i32 {
        self.store(side) as i32 - self.store(side.other()) as i32
    }

    /// The side with the larger store, `None` for a draw.
    pub fn winner(&self) -> Option<Side> {
        match self.difference(Side::South) {
            d if d > 0 => Some(Side::South),
            d if d < 0 => Some(Side::North),
            _ => None,
        }
    }

    /// By how many seeds the winner wins (0 for a draw).
    pub fn margin(&self) -> u32 {
        self.difference(Side::South).unsigned_abs()
    }
}

impl Position {
    /// The final score when the game is over (the side to move has no
    /// seeds), else `None`. A position typed in may be over with the
    /// opponent's seeds still on the board: they are the opponent's.
    #[inline]
    pub fn final_score(&self) -> Option<FinalScore> {
        if !self.is_over() {
            return None;
        }
        let owner = self.side_to_move().other();
        let mut stores = [0; 2];
        for side in Side::BOTH {
            stores[side.index()] = u32::from(self.store(side));
        }
        stores[owner.index()] += self.seeds_on_board();
        Some(FinalScore { stores })
    }
}
