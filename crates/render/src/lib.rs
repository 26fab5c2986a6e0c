//! Drawings of both games' positions, as text for a terminal and as SVG
//! pictures, shared by every front end (the CLI's `show`, `best` and
//! `game`, the Python package's `__str__` and `_repr_svg_`), so that a
//! position looks the same wherever it is shown.
//!
//! `page` holds the SVG building blocks (a white page, text, arrowheads,
//! coordinates rounded so the same picture is always the same bytes).

pub mod dakon;
pub mod page;
