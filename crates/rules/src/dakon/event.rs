//! What happened during a move, for people (`dalkon dakon play`).
//!
//! Holes are named by row letter and number: `S3` is hole 3 of player 0
//! (South), `N5` hole 5 of player 1 (North).

use std::fmt;

use super::side::Side;

/// One step of a move, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The mover lifts `seeds` from its own hole `hole` and sows them.
    Lap {
        /// The row of the hole.
        side: Side,
        /// 1-based hole.
        hole: u8,
        /// Seeds lifted.
        seeds: u8,
    },
    /// The last seed fell into an occupied hole: its `seeds` are lifted and
    /// sown on (relay sowing).
    Relay {
        /// The row of the hole.
        side: Side,
        /// 1-based hole.
        hole: u8,
        /// Seeds lifted, the arriving one included.
        seeds: u8,
    },
    /// The last seed fell into the mover's store: the mover moves again.
    Bonus,
    /// The last seed fell into an empty hole of the mover's row.
    Nembak {
        /// The row of the landing hole (the mover's).
        side: Side,
        /// 1-based landing hole.
        hole: u8,
        /// Seeds taken from the opposite hole (0: it was empty).
        captured: u8,
        /// Whether the landing seed went to the store too (`nembak=take`).
        landing_taken: bool,
    },
    /// The last seed fell into an empty hole of the opponent's row (a mikul
    /// capture when `captured > 0`).
    Mikul {
        /// The row of the landing hole (the opponent's).
        side: Side,
        /// 1-based landing hole.
        hole: u8,
        /// Seeds taken, the landing seed included (0: no capture).
        captured: u8,
    },
    /// The side to move had no seeds: the rest went to `to`'s store.
    Sweep {
        /// Whose store received them.
        to: Side,
        /// Seeds swept.
        seeds: u8,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Event::Lap { side, hole, seeds } => {
                write!(f, "lap: {seeds} seeds from {}{hole}", side.letter())
            }
            Event::Relay { side, hole, seeds } => {
                write!(f, "relay: {seeds} seeds from {}{hole}", side.letter())
            }
            Event::Bonus => f.write_str("bonus: last seed in own store, move again"),
            Event::Nembak {
                side,
                hole,
                captured,
                landing_taken,
            } => {
                let l = side.letter();
                if captured == 0 {
                    write!(
                        f,
                        "nembak at {l}{hole}: opposite hole empty, nothing captured"
                    )
                } else if landing_taken {
                    write!(
                        f,
                        "nembak at {l}{hole}: captured {} ({captured} opposite + the landing seed)",
                        u32::from(captured) + 1
                    )
                } else {
                    write!(
                        f,
                        "nembak at {l}{hole}: captured {captured} from the opposite hole"
                    )
                }
            }
            Event::Mikul {
                side,
                hole,
                captured,
            } => {
                let l = side.letter();
                if captured == 0 {
                    write!(
                        f,
                        "last seed in empty {l}{hole} on the opponent's side: no capture"
                    )
                } else {
                    write!(f, "mikul at {l}{hole}: captured {captured} (both neighbours + the landing seed)")
                }
            }
            Event::Sweep { to, seeds } => {
                write!(
                    f,
                    "game over: {seeds} seeds left on the board go to {to}'s store"
                )
            }
        }
    }
}
