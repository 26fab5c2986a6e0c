//! Solved Daldøs values on tiny boards from a reference solver that is
//! deliberately independent of the table builder, so that the builder can
//! be checked against values computed a second, different way.

mod reference;
mod reference_tests;
