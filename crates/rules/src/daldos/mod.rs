//! Daldøs (RULES.md §1).
