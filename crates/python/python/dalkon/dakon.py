"""Dakon: rules, exact solver and proofs (wrapping the Rust crates)."""
