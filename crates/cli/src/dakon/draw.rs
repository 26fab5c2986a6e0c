//! Text drawings of Dakon boards and move chains.

use dalkon_rules::dakon::{Position, Side};

/// "South (0)" or "North (1)".
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::South => "South (0)",
        Side::North => "North (1)",
    }
}

/// The board as players see it from South: North's row on top running
/// right to left (its hole 1 faces South's hole n), North's store on the
/// left, South's on the right; then the notation and the side to move.
pub fn draw(p: &Position) -> String {
    let n = p.holes();
    let cell = |c: u8| format!("[{c:>3}]");
    let label = |s: char, i: usize| format!("{:>4} ", format!("{s}{i}"));
    let pad = " ".repeat(6);
    let north: String = (1..=n).rev().map(|i| cell(p.pit(Side::North, i))).collect();
    let south: String = (1..=n).map(|i| cell(p.pit(Side::South, i))).collect();
    let north_labels: String = (1..=n).rev().map(|i| label('N', i)).collect();
    let south_labels: String = (1..=n).map(|i| label('S', i)).collect();
    let width = 5 * n;
    let to_move = if p.is_over() {
        "game over".to_owned()
    } else {
        format!("{} to move", side_name(p.side_to_move()))
    };
    format!(
        "{pad}{north_labels}\n{pad}{north}\n{:>5} {:width$} {:<5}\n{pad}{south}\n{pad}{south_labels}\n{p}   ({to_move})\n",
        format!("[{}]", p.store(Side::North)),
        "",
        format!("[{}]", p.store(Side::South)),
    )
}

/// Hole numbers joined by `sep`.
pub fn chain(holes: &[usize], sep: &str) -> String {
    holes
        .iter()
        .map(|h| h.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}
