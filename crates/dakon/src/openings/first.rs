//! The first winning chain of a turn in move order, found by a depth-first
//! search without counting the others.

use dalkon_rules::dakon::{Position, Rules};

use super::board::Board;
use super::OpeningsError;

/// A winning chain found without counting the others.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FirstChain {
    /// The lexicographically first winning chain (holes ascending at every
    /// step), or `None` when the turn cannot be won.
    pub chain: Option<Vec<usize>>,
    /// Its final store difference, first player minus opponent.
    pub margin: Option<i32>,
    /// Distinct positions expanded to find it.
    pub positions: u64,
}

/// The lexicographically first winning chain of the side to move's turn,
/// by a depth-first search in move order that remembers the positions it
/// has left without a win. Far cheaper than [`super::openings`] when wins come
/// early in move order, and exact either way: `chain: None` means no
/// chain wins. Stops with [`OpeningsError::TooManyPositions`] beyond
/// `max_positions` expanded positions, and with
/// [`OpeningsError::TooMuchMemory`] when the positions remembered would
/// take more than `memory_bytes`.
pub fn first_winning_chain(
    pos: &Position,
    rules: &Rules,
    max_positions: u64,
    memory_bytes: u64,
) -> Result<FirstChain, OpeningsError> {
    let board = Board::new(pos, rules);
    struct Dfs<'a> {
        board: &'a Board,
        dead: hashbrown::HashSet<(usize, u128)>,
        positions: u64,
        max_positions: u64,
        max_dead: usize,
        chain: Vec<usize>,
    }
    impl Dfs<'_> {
        /// The margin of the first winning continuation from `p` (its
        /// moves pushed on `chain`), or `None`.
        fn go(&mut self, p: &Position) -> Result<Option<i32>, OpeningsError> {
            let key = self.board.key(p);
            if self.dead.contains(&key) {
                return Ok(None);
            }
            self.positions += 1;
            if self.positions > self.max_positions {
                return Err(OpeningsError::TooManyPositions {
                    limit: self.max_positions,
                    layer: key.0 as u32,
                    layer_positions: 0,
                });
            }
            let me = self.board.me;
            for h in p.moves() {
                let child = p.play_unchecked(h, &self.board.rules);
                self.chain.push(h);
                if let Some(tv) = child.terminal_value() {
                    let margin = if child.side_to_move() == me { tv } else { -tv };
                    if margin > 0 {
                        return Ok(Some(margin));
                    }
                } else if child.side_to_move() == me {
                    if let Some(m) = self.go(&child)? {
                        return Ok(Some(m));
                    }
                }
                self.chain.pop();
            }
            if self.dead.len() >= self.max_dead {
                return Err(OpeningsError::TooMuchMemory {
                    needed: (self.dead.len() as u64 + 1) * DEAD_ENTRY_BYTES,
                    budget: self.max_dead as u64 * DEAD_ENTRY_BYTES,
                });
            }
            self.dead.insert(key);
            Ok(None)
        }
    }
    // A hash-set slot with its share of the table's spare room.
    const DEAD_ENTRY_BYTES: u64 = 56;
    let mut dfs = Dfs {
        board: &board,
        dead: hashbrown::HashSet::new(),
        positions: 0,
        max_positions,
        max_dead: (memory_bytes / DEAD_ENTRY_BYTES) as usize,
        chain: Vec::new(),
    };
    let margin = dfs.go(pos)?;
    Ok(FirstChain {
        chain: margin.map(|_| dfs.chain.clone()),
        margin,
        positions: dfs.positions,
    })
}
