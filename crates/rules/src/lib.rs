//! Rules, position notation and move generation for the two games dalkon
//! analyses: Daldøs (`daldos`) and Dakon (`dakon`).
//!
//! The rules contract is `shared/RULES.md`; every module here cites the
//! section it implements. Nothing in this crate knows about search.

pub mod dakon;
pub mod daldos;
