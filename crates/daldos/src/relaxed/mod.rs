//! An upper bound on the capture odds of one target: the board relaxed to
//! the capturer's pieces that can still reach the target, with any die the
//! player does not want spent elsewhere for free (no "both dice must be
//! used"), any undalt piece dallable (`dal=any`), and no game end. Every
//! legal play of the real board is a play here with the same effect on the
//! target, so this value, cut after `r` rethrows exactly like the board
//! search, is at least the board's. It is the closed form of the published
//! tables (`closed_form`) generalised to any pieces on a real path. The
//! capture rule does not matter here: an added move whose first die lands
//! on the target can always be replaced by that die alone, the other spent
//! elsewhere, and a capture is worth the most there is.
//!
//! Pieces farther than `2r + 8` holes from the target cannot land on it in
//! the rethrows left (a piece moves at most 2 holes per dal-dal and 8 on
//! any other throw), nor stand in the way of one that can (a piece only
//! blocks pieces behind it), so they are left out; this keeps the state
//! small. Pieces up to 3 holes past the target are kept: they can block
//! the nearest piece from jumping over the target with one die so that
//! the next lands on it with the other (leaving them out would only loosen
//! the bound, which then fails to meet the board). The state is the sorted
//! list of the remaining pieces' path indices, each with a flag for undalt.
//!
//! Values are memoised in a table that several targets of one position
//! share: where all the pieces come to the target by one road (all on the
//! loop, or all on the start row with the target there too), the value
//! depends only on the distances to the target, so the key is those
//! distances and targets further along the same road reuse each other's
//! states.
//!
//! The files: this one holds what every relaxed model shares (a piece, a
//! line of pieces, how far a piece can go, the memos, and the recurrence
//! of one turn, `turn`); `target.rs` the model for one target, by path
//! index, which hands one-road lines to `lin.rs` (by distance) and lines
//! where two roads meet to `two.rs`; `any.rs` the model for "at least one
//! capture" (`RelaxedAny`).

use std::cell::RefCell;
use std::rc::Rc;

use dalkon_rules::daldos::Throw;
use hashbrown::HashMap;

pub(crate) mod any;
mod lin;
pub(crate) mod target;
mod two;

/// A piece: `path index << 1 | undalt` (path indices are at most 96).
type Piece = u8;

/// The pieces that matter, sorted; at most 32 (a side has at most L).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Line {
    len: u8,
    pieces: [Piece; 32],
}

impl Line {
    pub(crate) fn as_slice(&self) -> &[Piece] {
        &self.pieces[..usize::from(self.len)]
    }
}

/// A memo key: `tag` 0 (all on the loop) or 1 (all on the start row) with
/// the pieces' distances to the target, or `2 + target path index` with
/// their path indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    tag: u8,
    line: Line,
}

/// Pieces this many holes past the target still matter: the nearest
/// piece may jump over the target with one die (at most 3 past it, the
/// target at least 1 ahead) so that the next one lands on it, and a piece
/// standing there blocks that jump. Farther ones can never block a piece
/// that is still behind the target.
const PAST: u8 = 3;

/// Holes a piece can cover with `r` rethrows left: 2 per dal-dal, 8 on
/// the last throw.
const fn reach(r: u32) -> u32 {
    2 * r + 8
}

/// Path index of a piece.
const fn index(p: Piece) -> u8 {
    p >> 1
}

/// Whether a piece is undalt.
const fn undalt(p: Piece) -> bool {
    p & 1 != 0
}

/// Bit of signed distance `d` to the target (`-PAST..=32`) in the masks
/// of `Lin` and `Two`.
const fn bit(d: i32) -> u64 {
    1 << (d + PAST as i32)
}

/// Relaxed values, shared by the targets of one position: lines by path
/// index (where two roads meet), one-road lines by distance (`Lin`) and
/// two-road lines by distance (`Two`).
#[derive(Debug, Default)]
pub(crate) struct Memos {
    lines: HashMap<(Key, u32), u64>,
    lin: HashMap<u128, u64>,
    two: HashMap<u128, u64>,
}

/// Values shared by the relaxed models of one position's targets.
pub(crate) type Memo = Rc<RefCell<Memos>>;

/// An empty shared memo.
pub(crate) fn memo() -> Memo {
    Rc::new(RefCell::new(Memos::default()))
}

/// Whether a piece `d` holes behind the target lands on it with the throw
/// `(x, y)`, its road clear: a dalt piece with one die or the sum; an
/// undalt one must be dalled first, so with the dal alone (`d = 1`) or the
/// dal and then the other die.
fn lands(d: i32, x: i32, y: i32, undalt: bool) -> bool {
    if undalt {
        (x == 1 && (d == 1 || d == 1 + y)) || (y == 1 && (d == 1 || d == 1 + x))
    } else {
        d == x || d == y || d == x + y
    }
}

/// One turn of every relaxed model, with `r` rethrows left, in units of
/// `1 / (15 * 16^(r+1))`: each throw but the dal-dal adds its weight (out
/// of 16) where some play of it captures (`captures(model, x, y)`); the
/// dal-dal is worth a whole capture (`15 * 16^r` units) where it captures
/// itself, else the best of the lines it leaves, one rethrow less
/// (`rethrow`, not called once no rethrow is left). The models differ
/// only in their states and how they find captures and children, so this
/// is written once for all of them.
fn turn<M: ?Sized>(
    model: &mut M,
    r: u32,
    captures: impl Fn(&M, u8, u8) -> bool,
    rethrow: impl FnOnce(&mut M) -> u64,
) -> u64 {
    let weight: u64 = Throw::DISTINCT
        .iter()
        .filter(|(t, _)| !t.is_daldal() && captures(model, t.first, t.second))
        .map(|&(_, w)| u64::from(w))
        .sum();
    let scale = 16u64.pow(r);
    let best = if captures(model, 1, 1) {
        15 * scale
    } else if r > 0 {
        rethrow(model)
    } else {
        0
    };
    weight * 15 * scale + best
}
