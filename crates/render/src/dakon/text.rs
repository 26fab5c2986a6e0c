//! Text drawings of Dakon boards and move chains (the CLI's boards, and
//! the line saying which moves are best).

use dalkon_rules::dakon::{FinalScore, Position, Side};

/// "South (0)" or "North (1)".
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::South => "South (0)",
        Side::North => "North (1)",
    }
}

/// The board as players see it from South, for the terminal: North's row
/// on top, drawn right to left (its hole 1 faces South's hole n) with each
/// hole's name right above it, so no row has to be read backwards; North's
/// store on the left, South's on the right, both labelled; an arrow line
/// for each row saying which way its owner sows; then the side to move
/// and the position's notation. For 3 holes:
///
/// ```text
///                   <-- North (1) sows N1 to N3, then into North store
///                     N3    N2    N1
///                   [  6] [  5] [  4]
/// North store [  8]                   [  7] South store
///                   [  1] [  2] [  3]
///                     S1    S2    S3
///                   --> South (0) sows S1 to S3, then into South store
/// South (0) to move   (1,2,3/4,5,6/7,8 0)
/// ```
pub fn draw(p: &Position) -> String {
    draw_marked(p, &[])
}

/// [`draw`] with the holes `marked` of the side to move starred (`*S2`):
/// `show --best` marks the best moves so.
pub fn draw_marked(p: &Position, marked: &[usize]) -> String {
    let n = p.holes();
    let mover = p.side_to_move();
    let star = |side: Side, i: usize| side == mover && !p.is_over() && marked.contains(&i);
    let row = |side: Side| -> (String, String) {
        let order: Vec<usize> = match side {
            Side::North => (1..=n).rev().collect(),
            Side::South => (1..=n).collect(),
        };
        let cells: Vec<String> = order
            .iter()
            .map(|&i| format!("[{:>3}]", p.pit(side, i)))
            .collect();
        let letter = match side {
            Side::North => 'N',
            Side::South => 'S',
        };
        let labels: String = order
            .iter()
            .map(|&i| {
                let name = format!("{}{letter}{i}", if star(side, i) { "*" } else { "" });
                format!("{name:>4}  ")
            })
            .collect();
        (cells.join(" "), labels.trim_end().to_owned())
    };
    let (north, north_labels) = row(Side::North);
    let (south, south_labels) = row(Side::South);
    let left = format!("North store [{:>3}] ", p.store(Side::North));
    let pad = " ".repeat(left.len());
    let gap = " ".repeat(north.len());
    let to_move = if p.is_over() {
        game_over(p)
    } else {
        format!("{} to move", side_name(mover))
    };
    let mut out = String::new();
    let mut line = |text: String| {
        out.push_str(text.trim_end());
        out.push('\n');
    };
    line(format!(
        "{pad}<-- {} sows N1 to N{n}, then into North store",
        side_name(Side::North)
    ));
    line(format!("{pad}{north_labels}"));
    line(format!("{pad}{north}"));
    line(format!(
        "{left}{gap} [{:>3}] South store",
        p.store(Side::South)
    ));
    line(format!("{pad}{south}"));
    line(format!("{pad}{south_labels}"));
    line(format!(
        "{pad}--> {} sows S1 to S{n}, then into South store",
        side_name(Side::South)
    ));
    if marked.is_empty() || p.is_over() {
        line(format!("{to_move}   ({p})"));
    } else {
        line(format!("{to_move}   ({p});   * best move"));
    }
    out
}

/// The result of a game: "South (0) wins by 2" or "a draw".
pub fn verdict(score: &FinalScore) -> String {
    match score.winner() {
        Some(side) => format!("{} wins by {}", side_name(side), score.margin()),
        None => "a draw".to_owned(),
    }
}

/// "game over: North (1) wins by 2" (or "game over: a draw"): the final
/// score of the rules (leftover seeds to the side not to move); "game not
/// over" for a game still going.
pub fn game_over(p: &Position) -> String {
    match p.final_score() {
        Some(score) => format!("game over: {}", verdict(&score)),
        None => "game not over".to_owned(),
    }
}

/// `S` or `N`: the letter of a row's hole names (`S1`, `N3`).
pub fn row_letter(side: Side) -> char {
    match side {
        Side::South => 'S',
        Side::North => 'N',
    }
}

/// The best moves of the side to move as a search found them, for the
/// line under a drawing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Best<'a> {
    /// The best moves (holes of the side to move); empty when the game is
    /// over.
    pub moves: &'a [usize],
    /// Their value: final store difference for the side to move.
    pub value: i32,
    /// How far that value is proved (`exact`, or the proved bounds), as
    /// the analysis labels it.
    pub label: String,
}

impl Best<'_> {
    /// What the search found, in words: "best moves S1, S3: value +3 for
    /// South (0) (exact)".
    pub fn line(&self, pos: &Position) -> String {
        if self.moves.is_empty() {
            return "no best move: the game is over".to_owned();
        }
        let letter = row_letter(pos.side_to_move());
        let names: Vec<String> = self.moves.iter().map(|h| format!("{letter}{h}")).collect();
        format!(
            "best move{} {}: value {:+} for {} ({})",
            if names.len() > 1 { "s" } else { "" },
            names.join(", "),
            self.value,
            side_name(pos.side_to_move()),
            self.label
        )
    }
}

/// Hole numbers joined by `sep`.
pub fn chain(holes: &[usize], sep: &str) -> String {
    holes
        .iter()
        .map(|h| h.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

#[cfg(test)]
mod tests {
    use super::{draw, draw_marked, Best};
    use dalkon_rules::dakon::Position;

    #[test]
    fn the_best_line_names_the_holes() {
        let pos: Position = "1,2,3/4,5,6/7,8 0".parse().unwrap();
        let best = Best {
            moves: &[1, 3],
            value: 3,
            label: "exact".to_owned(),
        };
        assert_eq!(
            best.line(&pos),
            "best moves S1, S3: value +3 for South (0) (exact)"
        );
    }

    /// A small position checked by hand: North's 4,5,6 in holes N1,N2,N3
    /// read right to left under their names, stores 8 (North) and 7.
    #[test]
    fn three_holes() {
        let p: Position = "1,2,3/4,5,6/7,8 0".parse().unwrap();
        assert_eq!(
            draw(&p),
            "                  <-- North (1) sows N1 to N3, then into North store\n\
             \x20                   N3    N2    N1\n\
             \x20                 [  6] [  5] [  4]\n\
             North store [  8]                   [  7] South store\n\
             \x20                 [  1] [  2] [  3]\n\
             \x20                   S1    S2    S3\n\
             \x20                 --> South (0) sows S1 to S3, then into South store\n\
             South (0) to move   (1,2,3/4,5,6/7,8 0)\n"
        );
    }

    /// Leftover seeds go to the side not to move (rules.md §2.3): South
    /// to move with an empty row, North's 5 make North 5 to South's 3.
    #[test]
    fn leftover_seeds_count_for_their_owner() {
        let p: Position = "0,0/5,0/3,0 0".parse().unwrap();
        assert!(draw(&p).ends_with("game over: North (1) wins by 2   (0,0/5,0/3,0 0)\n"));
        let p: Position = "0,0/1,1/0,0 0".parse().unwrap();
        assert!(draw(&p).ends_with("game over: North (1) wins by 2   (0,0/1,1/0,0 0)\n"));
        // North to move with an empty row: South's leftover seeds are South's.
        let p: Position = "1,1/0,0/0,2 1".parse().unwrap();
        assert!(draw(&p).ends_with("game over: a draw   (1,1/0,0/0,2 1)\n"));
    }

    #[test]
    fn a_finished_game_names_the_winner() {
        let p: Position = "0/0/3,4 0".parse().unwrap();
        assert!(draw(&p).ends_with("game over: North (1) wins by 1   (0/0/3,4 0)\n"));
        let p: Position = "0,0/0,0/4,4 1".parse().unwrap();
        assert!(draw(&p).ends_with("game over: a draw   (0,0/0,0/4,4 1)\n"));
    }

    #[test]
    fn marked_holes_are_the_movers() {
        let p: Position = "1,2,3/4,5,6/7,8 1".parse().unwrap();
        let text = draw_marked(&p, &[2]);
        assert!(text.contains("  N3   *N2    N1\n"), "{text}");
        assert!(text.contains("  S1    S2    S3\n"), "{text}");
        assert!(text.ends_with("North (1) to move   (1,2,3/4,5,6/7,8 1);   * best move\n"));
    }
}
