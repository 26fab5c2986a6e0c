//! No code. This crate exists for its `Cargo.toml`: it pins the features of
//! dependencies shared across the workspace so that `cargo test
//! --workspace`, `cargo build -p dalkon-cli` and the Python package's build
//! resolve them alike and compile them once (see the manifest's comment and
//! `scripts/unify_check.sh`).

use bitflags as _;
use either as _;
use libc as _;
use memchr as _;
use num_integer as _;
use serde as _;
use serde_core as _;
use serde_json as _;
