"""Daldøs: rules, exact odds, engine and solved values (wrapping the Rust crates)."""
