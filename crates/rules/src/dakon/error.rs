//! Error types for Dakon positions, notation and moves.

use thiserror::Error;

/// A position that breaks the limits of docs/rules.md §2 or of this implementation.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionError {
    /// A board needs at least one hole per row.
    #[error("a board needs at least 1 hole per row")]
    NoHoles,
    /// Rows are stored in fixed arrays of `MAX_HOLES` bytes.
    #[error(
        "{holes} holes per row is more than the {max} a Dakon position can hold \
         (each row is a fixed array of {max} one-byte counts)"
    )]
    TooManyHoles {
        /// Holes asked for.
        holes: usize,
        /// The limit.
        max: usize,
    },
    /// The two rows must have the same number of holes.
    #[error("row 0 has {row0} holes but row 1 has {row1}")]
    UnequalRows {
        /// Holes in row 0.
        row0: usize,
        /// Holes in row 1.
        row1: usize,
    },
    /// Counts are stored in bytes, so a game holds at most `MAX_SEEDS` seeds.
    #[error(
        "{total} seeds in all (holes and stores) is more than the {max} a Dakon position can hold \
         (every count is one byte, and a store may end up with all the seeds)"
    )]
    TooManySeeds {
        /// Seeds in the position.
        total: u32,
        /// The limit.
        max: u32,
    },
    /// The start position needs at least one seed per hole.
    #[error("the start position needs at least 1 seed per hole")]
    NoSeeds,
}

/// Text that is not a Dakon position in the notation of docs/rules.md §2.5.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseError {
    /// Not `<rows and stores> <side>`.
    #[error("expected `<row 0>/<row 1>/<store 0>,<store 1> <side>`, got {0:?}")]
    Shape(String),
    /// Not three `/`-separated fields.
    #[error("expected 3 fields separated by `/` (row 0, row 1, stores), found {0}")]
    Fields(usize),
    /// A count that is not a whole number from 0 to 255.
    #[error("{field}, item {item}: {text:?} is not a seed count (a whole number from 0 to 255)")]
    Count {
        /// `row 0`, `row 1` or `stores`.
        field: &'static str,
        /// 1-based item within the field.
        item: usize,
        /// The text found.
        text: String,
    },
    /// A negative count.
    #[error("{field}, item {item}: seed counts cannot be negative ({text:?})")]
    Negative {
        /// `row 0`, `row 1` or `stores`.
        field: &'static str,
        /// 1-based item within the field.
        item: usize,
        /// The text found.
        text: String,
    },
    /// The stores field must hold exactly two counts.
    #[error("the stores field must be two counts `<store 0>,<store 1>`, found {0}")]
    Stores(usize),
    /// The side must be `0` or `1`.
    #[error("the side to move must be 0 or 1, got {0:?}")]
    Side(String),
    /// Well formed, but not a valid position.
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// A move that cannot be played in a position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    /// Holes are numbered 1..=n.
    #[error("there is no hole {hole}: holes are numbered 1 to {holes}")]
    NoSuchHole {
        /// The hole asked for.
        hole: usize,
        /// Holes per row.
        holes: usize,
    },
    /// Only a non-empty hole can be played.
    #[error("hole {hole} of the side to move is empty")]
    EmptyHole {
        /// The hole asked for.
        hole: usize,
    },
    /// Nothing can be played in a finished game.
    #[error("the game is over")]
    GameOver,
}

/// A rule set or option value that is not spelt as the CLI spells it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RulesError {
    /// Not `origin=… mikul=… nembak=…`.
    #[error("expected `origin=… mikul=… nembak=…` (all three, in this order), got {0:?}")]
    Shape(String),
    /// An option value that the option does not have.
    #[error("{option}: {text:?} is not a value of this option (expected {expected})")]
    Value {
        /// `origin`, `mikul` or `nembak`.
        option: &'static str,
        /// The text found.
        text: String,
        /// The values the option has.
        expected: &'static str,
    },
}
