//! Dakon (RULES.md §2).
