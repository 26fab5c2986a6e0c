//! Dakon, the Javanese two-row mancala with relay sowing (docs/rules.md §2).
//!
//! [`Position`] is a small `Copy` value; moves are applied copy-make with
//! [`Position::play`] (checked), [`Position::play_unchecked`] (the engines'
//! hot path) or [`Position::play_logged`] (with an [`Event`] log for people).

mod error;
mod event;
mod length;
mod notation;
mod position;
mod record;
mod rules;
mod score;
mod side;
mod sow;

pub use error::{MoveError, ParseError, PositionError, RulesError};
pub use event::Event;
pub use length::max_game_length;
pub use position::{Position, MAX_HOLES, MAX_SEEDS, STANDARD_BOARD};
pub use record::Record;
pub use rules::{Mikul, Nembak, Origin, Rules};
pub use score::FinalScore;
pub use side::Side;
