//! Only names its build-dependency (see Cargo.toml: the features of the
//! proc-macro crates' `syn` are pinned here like the others).
use syn as _;

fn main() {}
