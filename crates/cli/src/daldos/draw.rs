//! The text drawing of a Daldøs board (the boat, docs/rules.md §1.1): three
//! rows with the bow at the left, row A on top, the middle row M (one hole
//! longer, `M0` at the bow tip) in the middle, row B at the bottom, column
//! numbers above and below. Shared by `moves`, `odds` and `best`.

use std::fmt::Write;

use dalkon_rules::daldos::{Cell, Position, Row, Side};

/// The board of `pos` as lines of text (ending in a newline), e.g. for the
/// Danish start:
///
/// ```text
///            1  2  3  …  16
///    A    /  A  A  A  …   A  |
///    M   <.  .  .  .  …   .  |
///    B    \  B  B  B  …   B  |
///         0  1  2  3  …  16
/// ```
/// followed by a line with the side to move and the piece counts.
pub fn draw(pos: &Position) -> String {
    let board = pos.board();
    let l = board.len();
    let mut out = String::new();
    let cell = |row: Row, col: u8| -> char {
        board
            .hole(row, col)
            .map(|h| pos.cell(h).to_char())
            .unwrap_or(' ')
    };
    let numbers = |out: &mut String, zero: bool| {
        out.push_str(if zero { "        0" } else { "         " });
        for c in 1..=l {
            let _ = write!(out, "{c:>3}");
        }
        out.push('\n');
    };
    numbers(&mut out, false);
    for (row, left) in [
        (Row::A, "   A    /"),
        (Row::M, "   M   <"),
        (Row::B, "   B    \\"),
    ] {
        out.push_str(left);
        if row == Row::M {
            out.push(cell(Row::M, 0));
        }
        for c in 1..=l {
            let _ = write!(out, "{:>3}", cell(row, c));
        }
        out.push_str("  |\n");
    }
    numbers(&mut out, true);
    let summary = |s: Side| {
        let total = pos.count(s);
        let undalt = pos
            .pieces(s)
            .filter(|&h| matches!(pos.cell(h), Cell::Undalt(_)))
            .count();
        format!("{}: {total} pieces ({undalt} undalt)", s.letter())
    };
    let _ = writeln!(
        out,
        "   {} to move; {}, {}",
        pos.side_to_move().letter(),
        summary(Side::A),
        summary(Side::B)
    );
    out
}

#[cfg(test)]
mod tests {
    use super::draw;
    use dalkon_rules::daldos::Position;

    #[test]
    fn small_board_drawing() {
        let pos: Position = "Aa../.a.bb/B..a b".parse().unwrap();
        assert_eq!(
            draw(&pos),
            "           1  2  3  4\n\
             \x20  A    /  A  a  .  .  |\n\
             \x20  M   <.  a  .  b  b  |\n\
             \x20  B    \\  B  .  .  a  |\n\
             \x20       0  1  2  3  4\n\
             \x20  b to move; a: 4 pieces (1 undalt), b: 3 pieces (1 undalt)\n"
        );
    }
}
