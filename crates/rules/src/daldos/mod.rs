//! Daldøs (docs/rules.md §1): board geometry, positions and their notation,
//! throws, and play generation. Everything is re-exported flat here.
//!
//! ```
//! use dalkon_rules::daldos::{plays, Board, Position, Throw, Variants};
//! let start = Position::start(Board::DANISH);
//! let out = plays(&start, &Variants::default(), "1,3".parse().unwrap());
//! // The only piece that can be dalled is A16, into M16 (docs/rules.md §1.5 note).
//! assert!(out.iter().all(|o| o.play.steps[0].from == Board::DANISH.parse_hole("A16").unwrap()));
//! ```

mod action;
mod board;
mod cell;
mod hole;
mod movegen;
mod notation;
mod paths;
mod play;
mod position;
mod record;
mod side;
mod throw;
mod variants;

pub use action::{action_code, action_codes, max_game_length, num_actions, DEFAULT_MAX_THROWS};
pub use board::{Board, BoardError, MAX_LEN, MIN_LEN};
pub use cell::Cell;
pub use hole::{Hole, HoleError, Row};
pub use movegen::{play_results, plays};
pub use notation::NotationError;
pub use play::{Play, PlayOutcome, Step};
pub use position::{Position, PositionError};
pub use record::{Record, Turn, RECORD_DEFAULT_BOARD};
pub use side::Side;
pub use throw::{Throw, ThrowError};
pub use variants::{CaptureRule, DalRule, EndRule, VariantError, Variants};
