//! Rules, position notation and move generation for the two games dalkon
//! analyses: Daldøs (`daldos`) and Dakon (`dakon`).
//!
//! The rules are written out in `docs/rules.md`; every module here cites
//! the section it implements. Nothing in this crate knows about search.

pub mod dakon;
pub mod daldos;
pub mod record;

mod excerpt;

// Only for its manifest: every build resolves shared features alike.
use dalkon_unify as _;

pub use excerpt::{excerpt, EXCERPT_MAX};
pub use record::{RecordError, MAX_RECORD_BYTES};
