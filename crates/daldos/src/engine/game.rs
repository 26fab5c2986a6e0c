//! The game interface of the engine: what the search, the players and
//! match play need to know of a two-player dice game. Kept apart from the
//! search so that a game (Daldøs in `daldos.rs`, toy games in the tests)
//! depends only on this trait, not on how it is searched.
//!
//! A game may also know some values outright ([`Game::known`]: Daldøs
//! reads them from its solved tables); the search takes them instead of
//! searching or evaluating.

use std::fmt;
use std::hash::Hash;

/// A two-player game with dice, as the search sees it.
///
/// A position records the side to move, which is the side that throws next.
pub trait Game: Sync + fmt::Debug {
    /// A position (before a throw).
    type Pos: Clone + Eq + Hash + Send + Sync + fmt::Debug;
    /// One outcome of the dice.
    type Throw: Copy + Send + Sync + fmt::Debug;
    /// A play for a throw.
    type Play: Clone + Send + Sync + fmt::Debug;

    /// The distinct throws with integer weights. Each weight and their sum
    /// must be powers of two (checked when a searcher is made).
    fn throws(&self) -> &[(Self::Throw, u32)];

    /// The side to move (0 or 1).
    fn to_move(&self, pos: &Self::Pos) -> u8;

    /// The winner (0 or 1) if the game is over.
    fn winner(&self, pos: &Self::Pos) -> Option<u8>;

    /// Every distinct play for `throw` with its result. Never empty for a
    /// position whose game is not over (a lost throw is one play).
    fn plays(&self, pos: &Self::Pos, throw: Self::Throw) -> Vec<(Self::Play, Self::Pos)>;

    /// The distinct results of [`Game::plays`], in any fixed order, into
    /// `out` (cleared first). Inside the search only results matter, so a
    /// game can make this cheaper than `plays`.
    fn results(&self, pos: &Self::Pos, throw: Self::Throw, out: &mut Vec<Self::Pos>) {
        out.clear();
        out.extend(self.plays(pos, throw).into_iter().map(|(_, r)| r));
    }

    /// Estimated win probability, in `[0, 1]`, of the side to move of a
    /// position whose game is not over.
    fn evaluate(&self, pos: &Self::Pos) -> f64;

    /// The value of a position whose game is not over, when the game knows
    /// it without a search (from solved tables, say); `None` (the default)
    /// when it does not. The search uses it wherever it is known, at any
    /// depth, in place of searching or evaluating the position.
    fn known(&self, _pos: &Self::Pos) -> Option<Known> {
        None
    }
}

/// A value known without a search ([`Game::known`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Known {
    /// Win probability, in `[0, 1]`, of the side to move.
    pub value: f64,
    /// `value` is the game's value (to within the source's precision, for
    /// Daldøs tables [`crate::solved::EPS`]); otherwise it counts as an
    /// estimate, as a static evaluation does.
    pub exact: bool,
}
