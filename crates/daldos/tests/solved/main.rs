//! Solved Daldøs values: the value tables (`tables.rs`), and a reference
//! solver on tiny boards that is deliberately independent of the table
//! builder (`reference.rs`), so that the builder is checked against values
//! computed a second, different way (`against_reference.rs`).

mod against_reference;
mod partitioned;
mod reference;
mod reference_tests;
mod tables;
