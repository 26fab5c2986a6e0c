//! Drawings of both games' positions, as text for a terminal and as SVG
//! pictures, shared by every front end (the CLI's `show`, `best` and
//! `game`, the Python package's `draw()` and `_repr_svg_`), so that a
//! position looks the same wherever it is shown.
//!
//! `dakon` and `daldos` hold each game's drawings (text and SVG) and the
//! text form of its reports; `graph` the chart of a game's value over its
//! decisions; `error_line` the one-line form of an error; `page`
//! holds the SVG building blocks (a white page, text, arrowheads,
//! coordinates rounded so the same picture is always the same bytes).

pub mod dakon;
pub mod daldos;
pub mod error_line;
pub mod graph;
pub mod page;

pub use error_line::one_line;
