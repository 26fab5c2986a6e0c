//! Dakon exact solvers: retrograde databases and alpha-beta search.
