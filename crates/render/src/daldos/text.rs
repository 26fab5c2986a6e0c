//! The text drawing of a Daldøs board (the boat, docs/rules.md §1.1): three
//! rows with the bow at the left, row A on top, the middle row M (one hole
//! longer, `M0` at the bow tip) in the middle, row B at the bottom, column
//! numbers above and below, so that a hole's name is its row letter and
//! column; an arrow after each row for the way pieces travel along it, each
//! side's path, a legend of the piece letters and who throws. Shared by
//! the CLI's `moves`, `odds`, `best`, `value` and `show`, and Python's
//! `Position.__str__`.

use std::fmt::Write;

use dalkon_rules::daldos::{Board, Cell, Hole, Play, Position, Row, Side, Throw};

/// The board of `pos` as lines of text (ending in a newline), e.g. for a
/// board of 4:
///
/// ```text
///      bow          stern
///            1  2  3  4
///    A    /  A  a  .  .  |  --> toward the stern
///    M   <.  a  .  b  b  |  <-- toward the bow
///    B    \  B  .  .  a  |  --> toward the stern
///         0  1  2  3  4
/// ```
/// (the M row one hole longer, `M0` under the `/`), then the paths, the
/// legend and a line with the side to throw and the piece counts.
pub fn draw(pos: &Position) -> String {
    draw_marked(pos, &[])
}

/// [`draw`] with the holes `marked` starred (`*a`): `show --best` marks
/// the holes the best play starts from and reaches.
pub fn draw_marked(pos: &Position, marked: &[Hole]) -> String {
    let board = pos.board();
    let l = board.len();
    let mut out = String::new();
    // Every hole is a column of 3 characters: the piece letter last, a
    // star before it when marked. Column c ends at character 8 + 3c.
    let cell = |row: Row, col: u8| -> String {
        match board.hole(row, col) {
            Some(h) => {
                let star = if marked.contains(&h) { '*' } else { ' ' };
                format!(" {star}{}", pos.cell(h).to_char())
            }
            None => "   ".to_owned(),
        }
    };
    let stern = 8 + 3 * usize::from(l) + 2;
    let _ = writeln!(out, "{:<w$}stern", "     bow", w = stern - 4);
    let numbers = |out: &mut String, zero: bool| {
        out.push_str(if zero { "        0" } else { "         " });
        for c in 1..=l {
            let _ = write!(out, "{c:>3}");
        }
        out.push('\n');
    };
    numbers(&mut out, false);
    for (row, left, arrow) in [
        (Row::A, "   A    /", "--> toward the stern"),
        (Row::M, "   M   ", "<-- toward the bow"),
        (Row::B, "   B    \\", "--> toward the stern"),
    ] {
        out.push_str(left);
        if row == Row::M {
            // M0 sits right after the bow's `<`, under the `/` of row A;
            // marked, its star takes the place of the `<`.
            let m0 = cell(Row::M, 0).replace("  ", "<");
            out.push_str(m0.trim_start());
        }
        for c in 1..=l {
            out.push_str(&cell(row, c));
        }
        let _ = writeln!(out, "  |  {arrow}");
    }
    numbers(&mut out, true);
    for side in [Side::A, Side::B] {
        let own = Board::start_row(side).letter();
        let enemy = Board::start_row(side.other()).letter();
        let name = side_name(side);
        let _ = writeln!(
            out,
            "   {name} travels {own}1..{own}{l} > M{l}..M0 > {enemy}1..{enemy}{l} > M{l}..M0 > {enemy}1.. (never back to row {own})"
        );
    }
    let _ = writeln!(
        out,
        "   A, B: undalt pieces of A, B;  a, b: dalt pieces of A, B;  .: empty{}",
        if marked.is_empty() {
            ""
        } else {
            ";  *: the best play"
        }
    );
    let summary = |s: Side| {
        let total = pos.count(s);
        let undalt = pos
            .pieces(s)
            .filter(|&h| matches!(pos.cell(h), Cell::Undalt(_)))
            .count();
        format!("{}: {total} pieces ({undalt} undalt)", side_name(s))
    };
    let _ = writeln!(
        out,
        "   {} to throw; {}, {}",
        side_name(pos.side_to_move()),
        summary(Side::A),
        summary(Side::B)
    );
    out
}

/// The line that gives a best play (`show --best`, under the text drawing
/// and at the foot of the picture): the play, its value for the mover,
/// how it is known (`exact`, `estimate`) and the depth searched.
pub fn best_line(
    pos: &Position,
    throw: Throw,
    play: &Play,
    value: f64,
    label: &str,
    depth: u32,
) -> String {
    format!(
        "best play for the throw {throw}: {}  (value {value:.4}: {}'s chance to win, {label}, depth {depth})",
        play.notation(pos.board()),
        side_name(pos.side_to_move()),
    )
}

/// `A` or `B`: the players are named by their start rows.
pub fn side_name(side: Side) -> char {
    side.letter().to_ascii_uppercase()
}

#[cfg(test)]
mod tests {
    use super::{draw, draw_marked};
    use dalkon_rules::daldos::{Position, Row};

    /// Checked by hand: A's pieces on A1 (undalt), A2, M1 and B4, B's on
    /// M3, M4 and B1 (undalt); B throws.
    #[test]
    fn small_board_drawing() {
        let pos: Position = "Aa../.a.bb/B..a b".parse().unwrap();
        assert_eq!(
            draw(&pos),
            "     bow          stern\n\
             \x20          1  2  3  4\n\
             \x20  A    /  A  a  .  .  |  --> toward the stern\n\
             \x20  M   <.  a  .  b  b  |  <-- toward the bow\n\
             \x20  B    \\  B  .  .  a  |  --> toward the stern\n\
             \x20       0  1  2  3  4\n\
             \x20  A travels A1..A4 > M4..M0 > B1..B4 > M4..M0 > B1.. (never back to row A)\n\
             \x20  B travels B1..B4 > M4..M0 > A1..A4 > M4..M0 > A1.. (never back to row B)\n\
             \x20  A, B: undalt pieces of A, B;  a, b: dalt pieces of A, B;  .: empty\n\
             \x20  B to throw; A: 4 pieces (1 undalt), B: 3 pieces (1 undalt)\n"
        );
    }

    /// Marks keep every column in place, M0's included (its star stands
    /// where the bow's `<` was).
    #[test]
    fn marks_keep_the_columns() {
        let pos: Position = "Aa../.a.bb/B..a b".parse().unwrap();
        let board = pos.board();
        let at = |row, col| board.hole(row, col).unwrap();
        let text = draw_marked(&pos, &[at(Row::M, 3), at(Row::M, 0), at(Row::B, 4)]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[3], "   M   *.  a  . *b  b  |  <-- toward the bow");
        assert_eq!(lines[4], "   B    \\  B  .  . *a  |  --> toward the stern");
        assert!(lines[8].ends_with(";  *: the best play"), "{}", lines[8]);
    }
}
