//! Dakon drawings: the text board for a terminal ([`text`]) and the SVG
//! picture ([`svg`]); the text form of each report ([`report`]) and the
//! readable line of play ([`line()`]).

pub mod analyse;
pub mod game;
pub mod line;
pub mod report;
pub mod svg;
pub mod text;

pub use line::line;
pub use svg::svg;
pub use text::{chain, draw, draw_marked, game_over, side_name, verdict, Best};
