//! A Dakon line of play for people: the holes of a `pv` (each a hole of
//! the side to move at that point, bonus moves included) named with their
//! row, the moves of one turn together and a `|` where the turn passes,
//! so that `1,6,1,3,5,2` from the start of a game reads
//! `S1 S6 S1 | N3 N5 | S2`. `dakon best`, `best --multipv`, the game's hint
//! and the analysis of a game print their lines so.

use dalkon_rules::dakon::{Position, Rules};

use super::text::row_letter;

/// `pv` played from `start` under `rules`, for people: each hole named as
/// the board names it (`S4` for South's hole 4, `N2` for North's), the
/// moves of one side's turn (a move and its bonus moves) separated by a
/// space, turns by ` | `. The rules replay the line to know whose move
/// each hole is. An empty `pv` gives an empty string.
///
/// A hole that is not a legal move where it comes (a line that does not
/// belong to `start`, or one going on after the end of the game) ends the
/// readable part: it and the holes after it follow as bare numbers in
/// `(not legal here: …)`, so that nothing of the line is hidden.
///
/// ```
/// use dalkon_rules::dakon::{Position, Rules};
/// // South's S2 ends in South's store (a bonus move); S1 then captures
/// // North's N1 and the turn passes; North's N2 ends the game.
/// let start: Position = "1,1/1,1/0,0 0".parse().unwrap();
/// let text = dalkon_render::dakon::line(&start, &Rules::default(), &[2, 1, 2]);
/// assert_eq!(text, "S2 S1 | N2");
/// ```
pub fn line(start: &Position, rules: &Rules, pv: &[usize]) -> String {
    let mut out = String::new();
    let mut pos = *start;
    let mut last = None;
    for (i, &hole) in pv.iter().enumerate() {
        let side = pos.side_to_move();
        let next = match pos.is_over() {
            true => None,
            false => pos.play(hole, rules).ok(),
        };
        let Some(next) = next else {
            let rest: Vec<String> = pv[i..].iter().map(|h| h.to_string()).collect();
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&format!("(not legal here: {})", rest.join(" ")));
            break;
        };
        match last {
            None => {}
            Some(s) if s == side => out.push(' '),
            Some(_) => out.push_str(" | "),
        }
        out.push(row_letter(side));
        out.push_str(&hole.to_string());
        last = Some(side);
        pos = next;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::line;
    use dalkon_rules::dakon::{Position, Rules};

    /// The 4 × 4 start's principal variation (`dakon best`), read off
    /// `dakon play --moves`: thirteen moves of South's first turn, every
    /// one ending in South's store but the last (a capture), North's one
    /// move, South's last.
    #[test]
    fn the_start_of_four_by_four() {
        let start = Position::start(4, 4).unwrap();
        let pv = [1, 4, 2, 4, 1, 4, 1, 3, 2, 3, 4, 1, 2, 2, 1];
        assert_eq!(
            line(&start, &Rules::default(), &pv),
            "S1 S4 S2 S4 S1 S4 S1 S3 S2 S3 S4 S1 S2 | N2 | S1"
        );
    }

    #[test]
    fn bad_holes_end_the_readable_part() {
        let start: Position = "1,1/1,1/0,0 0".parse().unwrap();
        let rules = Rules::default();
        assert_eq!(line(&start, &rules, &[]), "");
        assert_eq!(line(&start, &rules, &[2, 5, 2]), "S2 (not legal here: 5 2)");
        assert_eq!(line(&start, &rules, &[9]), "(not legal here: 9)");
        // After the end of the game nothing is legal.
        assert_eq!(
            line(&start, &rules, &[2, 1, 2, 1]),
            "S2 S1 | N2 (not legal here: 1)"
        );
    }
}
