//! Daldøs rules tests (docs/rules.md §1): geometry, notation, hand-worked play
//! cases for every clause of §1.3, golden perft counts, and property tests
//! against an independent reference generator.

mod common;

mod daldos {
    pub mod actions;
    pub mod cases;
    pub mod geometry;
    pub mod golden;
    pub mod notation;
    pub mod props;
    pub mod reference;
    pub mod util;
}
