//! The strategy itself: what a file says, as a value.

use dalkon_rules::dakon::{Position, Rules, Side};

/// A strategy file in memory (docs/formats.md §3).
///
/// `moves` maps the rows of each position in which `player` is to move to
/// the hole it plays there. A key is normalised by [`Strategy::key`]:
/// stores emptied (the choice of move never depends on them) and `player`
/// as the side to move. [`crate::verify`] ignores a key that is not in that
/// form or not of the root's board (it counts as an unused line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strategy {
    /// The rule set the strategy is played under.
    pub rules: Rules,
    /// The position the claim is about, stores and side to move included.
    pub root: Position,
    /// The side whose strategy this is.
    pub player: Side,
    /// The final store difference, `player` minus opponent, stores at the
    /// root included, that the strategy claims to secure against every reply.
    pub guarantees: i32,
    /// Rows key ([`Strategy::key`]) to hole (1 to the holes per row).
    pub moves: hashbrown::HashMap<Position, u8>,
}

impl Strategy {
    /// The key of `pos` in [`Strategy::moves`]: its rows, with both stores
    /// empty and `player` to move.
    pub fn key(pos: &Position, player: Side) -> Position {
        pos.without_stores().with_side_to_move(player)
    }

    /// The number of strategy lines (the `lines` field of the file).
    pub fn lines(&self) -> u64 {
        self.moves.len() as u64
    }

    /// The least final store difference any game can end with: minus every
    /// seed of the game. A strategy that claims no more holds whatever is
    /// played (docs/formats.md §3).
    pub fn trivial_bound(&self) -> i32 {
        -(self.root.total_seeds() as i32)
    }
}
