//! Daldøs drawings: the text drawing of the boat (`text`) and its SVG
//! picture (`svg`), the same for the CLI and for Python; the text of each
//! report (`report`, and `solved` for the answers from the solved tables);
//! the analysis of a whole game (`analyse`).

pub mod analyse;
pub mod game;
pub mod report;
pub mod solved;
pub mod svg;
pub mod text;
pub mod train;

pub use svg::svg;
pub use text::{best_line, draw, draw_marked, side_name};
