//! The board of one count: how the positions of a turn map to (layer,
//! rank) and back, and what is known of a position's winning
//! continuations ([`Summary`]).

use dalkon_rules::dakon::{Position, Rules, Side, MAX_HOLES};
use hashbrown::HashMap;

use super::OpeningsError;
use crate::rank::Compositions;

/// What is known of the winning continuations of one position.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Summary {
    /// Number of winning continuations.
    pub(super) count: u64,
    /// Length of the shortest winning continuation.
    pub(super) short_len: u16,
    /// First move of the shortest winning continuation (0: none).
    pub(super) short_first: u8,
    /// Final margin of the best winning continuation.
    pub(super) best_margin: i16,
    /// First move of the best winning continuation (0: none).
    pub(super) best_first: u8,
}

/// The board of one count: how positions map to (layer, rank) and back.
pub(super) struct Board {
    pub(super) holes: usize,
    pub(super) me: Side,
    pub(super) opp_store: u8,
    /// Seeds on the board and in the mover's store.
    pub(super) seeds: u32,
    /// Ranks of the rows within a layer, in 128 bits.
    pub(super) ranker: Compositions<u128>,
    pub(super) rules: Rules,
}

impl Board {
    /// The board of the turn of the side to move in `pos`.
    pub(super) fn new(pos: &Position, rules: &Rules) -> Board {
        let me = pos.side_to_move();
        let seeds = pos.seeds_on_board() + u32::from(pos.store(me));
        Board {
            holes: pos.holes(),
            me,
            opp_store: pos.store(me.other()),
            seeds,
            ranker: Compositions::new(2 * pos.holes(), seeds),
            rules: *rules,
        }
    }

    /// Seeds on the board in layer `layer`.
    pub(super) fn sum(&self, layer: usize) -> u32 {
        self.seeds - layer as u32
    }

    /// The (layer, rank) of `p`, a position of the turn.
    pub(super) fn key(&self, p: &Position) -> (usize, u128) {
        let mut cells = [0u8; 2 * MAX_HOLES];
        let n = self.holes;
        cells[..n].copy_from_slice(p.pits(self.me));
        cells[n..2 * n].copy_from_slice(p.pits(self.me.other()));
        let layer = usize::from(p.store(self.me));
        (layer, self.ranker.rank(&cells[..2 * n], self.sum(layer)))
    }

    /// The position of rank `rank` in layer `layer` (inverse of
    /// [`Board::key`]).
    pub(super) fn position(&self, layer: usize, rank: u128) -> Position {
        let mut cells = [0u8; 2 * MAX_HOLES];
        let n = self.holes;
        self.ranker
            .unrank(rank, self.sum(layer), &mut cells[..2 * n]);
        let (mine, theirs) = cells[..2 * n].split_at(n);
        let (south, north, stores) = match self.me {
            Side::South => (mine, theirs, [layer as u8, self.opp_store]),
            Side::North => (theirs, mine, [self.opp_store, layer as u8]),
        };
        Position::new(south, north, stores, self.me).expect("a valid rank")
    }

    /// The positions that follow `p` by a bonus move.
    pub(super) fn bonus_children(&self, p: &Position, out: &mut Vec<(usize, u128)>) {
        for h in p.moves() {
            let c = p.play_unchecked(h, &self.rules);
            if c.terminal_value().is_none() && c.side_to_move() == self.me {
                out.push(self.key(&c));
            }
        }
    }

    /// Evaluate `p` from its moves, given the summaries of higher layers.
    pub(super) fn summarise(
        &self,
        p: &Position,
        win: &[HashMap<u128, Summary>],
    ) -> Result<Summary, OpeningsError> {
        self.summarise_with(p, |layer, rank| win[layer].get(&rank).copied())
    }

    /// [`Board::summarise`], the summaries of higher layers' winning
    /// positions given by `lookup` (layer, rank).
    pub(super) fn summarise_with(
        &self,
        p: &Position,
        lookup: impl Fn(usize, u128) -> Option<Summary>,
    ) -> Result<Summary, OpeningsError> {
        let mut s = Summary::default();
        for h in p.moves() {
            let child = p.play_unchecked(h, &self.rules);
            let (count, len, margin) = if let Some(tv) = child.terminal_value() {
                let margin = if child.side_to_move() == self.me {
                    tv
                } else {
                    -tv
                };
                if margin <= 0 {
                    continue;
                }
                (1, 1, margin)
            } else if child.side_to_move() == self.me {
                let (layer, rank) = self.key(&child);
                let Some(c) = lookup(layer, rank) else {
                    continue;
                };
                (c.count, c.short_len + 1, i32::from(c.best_margin))
            } else {
                continue;
            };
            s.count = s
                .count
                .checked_add(count)
                .ok_or(OpeningsError::CountOverflow)?;
            let hb = h as u8;
            if s.short_first == 0 || len < s.short_len {
                s.short_len = len;
                s.short_first = hb;
            }
            if s.best_first == 0 || margin > i32::from(s.best_margin) {
                s.best_margin = margin as i16;
                s.best_first = hb;
            }
        }
        Ok(s)
    }
}
