//! The SVG picture of a Daldøs position: the boat with its three rows,
//! every piece, the way along the rows and the turns, a legend and who
//! throws; with a play (the best one of `show --best`), one arrow per step.

use dalkon_rules::daldos::{Board, Cell, Hole, Play, Position, Row, Side, Throw};
use svg::node::element::{Circle, Definitions, Group, Path};

use super::text::side_name;
use crate::page::{arrowhead, finish, page, px, text};

/// Colours of the two sides: fill and a darker outline.
const A_COLOR: (&str, &str) = ("#d9534f", "#8e1f1b");
const B_COLOR: (&str, &str) = ("#3a7bd5", "#163d7a");
const BEST_COLOR: &str = "#1b9e3e";
/// The way along the rows and round the stern.
const WAY_COLOR: &str = "#5a4122";

/// Distance between columns, between rows, and the radii of a hole and a
/// piece.
const DX: f64 = 40.0;
const DY: f64 = 50.0;
const HOLE_R: f64 = 14.0;
const PIECE_R: f64 = 11.0;

/// Where the holes are: the bow at the left.
struct Layout {
    board: Board,
    x0: f64,
    y_a: f64,
}

impl Layout {
    fn x(&self, col: u8) -> f64 {
        self.x0 + DX * f64::from(col)
    }

    fn y(&self, row: Row) -> f64 {
        self.y_a
            + match row {
                Row::A => 0.0,
                Row::M => DY,
                Row::B => 2.0 * DY,
            }
    }

    fn at(&self, h: Hole) -> (f64, f64) {
        let (row, col) = self.board.row_col(h);
        (self.x(col), self.y(row))
    }
}

/// A piece at `(x, y)`: dalt pieces filled, undalt ones an outline.
fn piece(x: f64, y: f64, side: Side, dalt: bool, class: &str) -> Circle {
    let (fill, dark) = match side {
        Side::A => A_COLOR,
        Side::B => B_COLOR,
    };
    Circle::new()
        .set("class", class)
        .set("cx", px(x))
        .set("cy", px(y))
        .set("r", PIECE_R)
        .set("fill", if dalt { fill } else { "white" })
        .set("stroke", if dalt { dark } else { fill })
        .set("stroke-width", if dalt { 2.0 } else { 4.0 })
}

/// A curved arrow from `a` to `b`, bulging `bend` pixels to the left of
/// the way it goes.
fn curve(a: (f64, f64), b: (f64, f64), bend: f64) -> String {
    let (mx, my) = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (cx, cy) = (mx + bend * dy / len, my - bend * dx / len);
    format!(
        "M {} {} Q {} {} {} {}",
        px(a.0),
        px(a.1),
        px(cx),
        px(cy),
        px(b.0),
        px(b.1)
    )
}

/// The path data of an arrow for a step of `side` from `from` to `to`: a
/// curve beside the row when the step stays on one row, else a line
/// through the hole centres it passes, round the corner.
fn route(lay: &Layout, side: Side, from: Hole, to: Hole) -> String {
    let board = lay.board;
    let d = board.path_distance(side, from, to).unwrap_or(1).max(1);
    let mut points: Vec<(f64, f64)> = vec![lay.at(from)];
    points.extend(
        (1..=d)
            .filter_map(|k| board.step(side, from, k))
            .map(|h| lay.at(h)),
    );
    let (a, z) = (points[0], points[points.len() - 1]);
    if points.iter().all(|p| p.1 == a.1) {
        let (a, z) = (toward(a, z, 6.0), toward(z, a, PIECE_R + 1.0));
        return curve(a, z, 10.0 + 3.0 * f64::from(d));
    }
    let n = points.len();
    points[0] = toward(a, points[1], 6.0);
    points[n - 1] = toward(z, points[n - 2], PIECE_R + 1.0);
    let parts: Vec<String> = points
        .iter()
        .map(|p| format!("{} {}", px(p.0), px(p.1)))
        .collect();
    format!("M {}", parts.join(" L "))
}

/// `a` moved `by` pixels toward `b`.
fn toward(a: (f64, f64), b: (f64, f64), by: f64) -> (f64, f64) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    (a.0 + by * dx / len, a.1 + by * dy / len)
}

/// The picture: the boat with its three rows (the middle one a hole longer,
/// at the bow), every piece (A red, B blue; dalt filled, undalt an outline),
/// the way along each row and the turns at both ends that make up each
/// side's path, a legend and who throws; with `best` (a play and the line
/// that describes it, the picture's footer), one arrow per step of the play.
pub fn svg(pos: &Position, throw: Option<Throw>, best: Option<(&Play, &str)>) -> String {
    let board = pos.board();
    let l = board.len();
    let lay = Layout {
        board,
        x0: 90.0,
        y_a: 96.0,
    };
    let (top, bottom) = (lay.y(Row::A) - 30.0, lay.y(Row::B) + 30.0);
    let stern = lay.x(l) + 30.0;
    // Wide enough for the legend under a small board.
    let width = (stern + 90.0).max(640.0);
    let height = bottom + 128.0;
    let mut doc = page(width, height).add(
        Definitions::new()
            .add(arrowhead("way", WAY_COLOR, 6.0))
            .add(arrowhead("turn-a", A_COLOR.1, 6.0))
            .add(arrowhead("turn-b", B_COLOR.1, 6.0))
            .add(arrowhead("turn", WAY_COLOR, 6.0))
            .add(arrowhead("best", BEST_COLOR, 3.5)),
    );
    let name = if board == Board::DANISH || board == Board::NORWEGIAN {
        format!("{} board ({l} a row)", board.name())
    } else {
        format!("board of {l} a row")
    };
    let mut title = format!(
        "Daldøs, {name}: player {} to throw",
        side_name(pos.side_to_move())
    );
    if let Some(t) = throw {
        title.push_str(&format!(", throw {t}"));
    }
    doc = doc.add(text(20.0, 28.0, 17.0, "start", title));
    // The hull: pointed at the bow (left), square at the stern.
    let bow = lay.x(0) - 40.0;
    let mid = lay.y(Row::M);
    let hull = format!(
        "M {bow} {mid} Q {} {top} {} {top} L {stern} {top} L {stern} {bottom} L {} {bottom} Q {} {bottom} {bow} {mid} Z",
        px(lay.x(1) - 10.0),
        px(lay.x(2)),
        px(lay.x(2)),
        px(lay.x(1) - 10.0),
    );
    doc = doc.add(
        Path::new()
            .set("class", "boat")
            .set("d", hull)
            .set("fill", "#e8c88e")
            .set("stroke", "#6b4f2a")
            .set("stroke-width", 2.5),
    );
    doc = doc
        .add(text(bow - 6.0, mid + 4.0, 12.0, "end", "bow"))
        .add(text(stern + 6.0, top - 10.0, 12.0, "start", "stern"));
    // The way along each row, under the holes: an arrowhead in every gap.
    for row in [Row::A, Row::M, Row::B] {
        let y = lay.y(row);
        let first = if row == Row::M { 0 } else { 1 };
        let mut xs: Vec<f64> = (first..l).map(|c| lay.x(c) + DX / 2.0).collect();
        if row == Row::M {
            xs.reverse();
        }
        let points: Vec<String> = xs.iter().map(|&x| format!("{} {}", px(x), px(y))).collect();
        doc = doc.add(
            Path::new()
                .set("class", "way")
                .set("d", format!("M {}", points.join(" L ")))
                .set("fill", "none")
                .set("stroke", WAY_COLOR)
                .set("stroke-width", 1.5)
                .set("marker-mid", "url(#way)")
                .set("marker-end", "url(#way)"),
        );
    }
    // The turns: at the stern both rows A and B lead into the middle row
    // (for both sides); at the bow M0 leads A's pieces to B1 and B's to A1.
    let hole = |row, col| board.hole(row, col).expect("a hole of the board");
    let turns = [
        (
            hole(Row::M, 0),
            hole(Row::B, 1),
            1.0,
            "turn-a",
            A_COLOR.1,
            "turn a",
        ),
        (
            hole(Row::M, 0),
            hole(Row::A, 1),
            -1.0,
            "turn-b",
            B_COLOR.1,
            "turn b",
        ),
    ];
    for (from, to, bend, marker, color, class) in turns {
        let (a, b) = (lay.at(from), lay.at(to));
        let (a, b) = (toward(a, b, HOLE_R + 2.0), toward(b, a, HOLE_R + 3.0));
        doc = doc.add(
            Path::new()
                .set("class", class)
                .set("d", curve(a, b, bend * 10.0))
                .set("fill", "none")
                .set("stroke", color)
                .set("stroke-width", 2)
                .set("marker-end", format!("url(#{marker})")),
        );
    }
    // At the stern, round the outside of the last holes.
    let edge = lay.x(l) + HOLE_R;
    for (row, sign) in [(Row::A, 1.0), (Row::B, -1.0)] {
        let (y0, y1) = (lay.y(row) + sign * 7.0, lay.y(Row::M) - sign * 7.0);
        doc = doc.add(
            Path::new()
                .set("class", "turn")
                .set(
                    "d",
                    format!(
                        "M {} {} Q {} {} {} {}",
                        px(edge),
                        px(y0),
                        px(edge + 22.0),
                        px((y0 + y1) / 2.0),
                        px(edge + 1.0),
                        px(y1)
                    ),
                )
                .set("fill", "none")
                .set("stroke", WAY_COLOR)
                .set("stroke-width", 2)
                .set("marker-end", "url(#turn)"),
        );
    }
    // The holes, their column numbers, the row letters.
    for row in [Row::A, Row::M, Row::B] {
        let first = if row == Row::M { 0 } else { 1 };
        for c in first..=l {
            let (x, y) = (lay.x(c), lay.y(row));
            doc = doc.add(
                Circle::new()
                    .set("class", "hole")
                    .set("data-hole", board.hole_name(hole(row, c)))
                    .set("cx", px(x))
                    .set("cy", px(y))
                    .set("r", HOLE_R)
                    .set("fill", "#8b6a3e")
                    .set("stroke", "#5a4122")
                    .set("stroke-width", 1),
            );
        }
        doc = doc.add(
            text(
                stern + 14.0,
                lay.y(row) + 5.0,
                15.0,
                "start",
                row.letter().to_string(),
            )
            .set("font-weight", "bold"),
        );
    }
    for c in 0..=l {
        let label = c.to_string();
        if c > 0 {
            doc = doc.add(text(lay.x(c), top - 10.0, 11.0, "middle", label.clone()));
        }
        doc = doc.add(text(lay.x(c), bottom + 18.0, 11.0, "middle", label));
    }
    // The pieces.
    for h in board.holes() {
        let (x, y) = lay.at(h);
        match pos.cell(h) {
            Cell::Empty => {}
            Cell::Undalt(s) => doc = doc.add(piece(x, y, s, false, "piece")),
            Cell::Dalt(s) => doc = doc.add(piece(x, y, s, true, "piece")),
        }
    }
    // The best play: one arrow per step, from hole to hole along the
    // mover's path.
    if let Some((play, _)) = best {
        let mut arrows = Group::new().set("class", "best-play");
        for s in &play.steps {
            arrows = arrows.add(
                Path::new()
                    .set("class", "best")
                    .set("d", route(&lay, pos.side_to_move(), s.from, s.to))
                    .set("fill", "none")
                    .set("stroke", BEST_COLOR)
                    .set("stroke-width", 3.5)
                    .set("stroke-linejoin", "round")
                    .set("stroke-opacity", 0.9)
                    .set("marker-end", "url(#best)"),
            );
        }
        doc = doc.add(arrows);
    }
    // The legend.
    let y = bottom + 48.0;
    let mut x = 30.0;
    for (side, dalt, label) in [
        (Side::A, false, "A undalt"),
        (Side::A, true, "a dalt"),
        (Side::B, false, "B undalt"),
        (Side::B, true, "b dalt"),
    ] {
        doc = doc.add(piece(x, y - 5.0, side, dalt, "legend")).add(text(
            x + 18.0,
            y,
            13.0,
            "start",
            label,
        ));
        x += 110.0;
    }
    let (own_l, m_l) = (format!("{l}"), format!("M{l}"));
    doc = doc.add(text(
        30.0,
        y + 26.0,
        12.0,
        "start",
        format!(
            "A's path: A1 to A{own_l}, {m_l} to M0, then B1 to B{own_l}, {m_l} to M0, B1 … (red turn at the bow)"
        ),
    ));
    doc = doc.add(text(
        30.0,
        y + 44.0,
        12.0,
        "start",
        format!(
            "B's path: B1 to B{own_l}, {m_l} to M0, then A1 to A{own_l}, {m_l} to M0, A1 … (blue turn at the bow)"
        ),
    ));
    let footer = match best {
        Some((_, line)) => line.to_owned(),
        None => pos.to_string(),
    };
    doc = doc.add(text(30.0, y + 66.0, 12.0, "start", footer));
    finish(doc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::check::{elements, with_class};

    #[test]
    fn every_hole_and_piece_is_drawn() {
        for (text, holes, pieces) in [
            ("Aa../.a.bb/B..a b", 13, 7),
            (
                "AAAAAAAAAAAAAAAA/................./BBBBBBBBBBBBBBBB a",
                49,
                32,
            ),
        ] {
            let pos: Position = text.parse().unwrap();
            let e = elements(&svg(&pos, None, None));
            assert_eq!(with_class(&e, "hole").len(), holes, "{text}");
            assert_eq!(with_class(&e, "piece").len(), pieces, "{text}");
            assert!(with_class(&e, "piece").iter().all(|p| p.name == "circle"));
            assert_eq!(with_class(&e, "boat").len(), 1);
            assert_eq!(with_class(&e, "way").len(), 3);
            assert!(with_class(&e, "best").is_empty());
        }
    }

    /// Dalt and undalt pieces differ by fill, A and B by colour.
    #[test]
    fn pieces_show_side_and_state() {
        let pos: Position = "Aa../...../B..b a".parse().unwrap();
        let e = elements(&svg(&pos, None, None));
        let fills: Vec<(&str, &str)> = with_class(&e, "piece")
            .iter()
            .map(|p| (p.get("fill").unwrap(), p.get("stroke").unwrap()))
            .collect();
        assert_eq!(
            fills,
            [
                ("white", A_COLOR.0),
                (A_COLOR.0, A_COLOR.1),
                ("white", B_COLOR.0),
                (B_COLOR.0, B_COLOR.1)
            ]
        );
    }

    /// `--best` draws one arrow per step of the play, ending by the hole
    /// the step reaches.
    #[test]
    fn the_best_play_is_drawn_as_arrows() {
        let pos: Position = "AAA./.b.a./BBB. a".parse().unwrap();
        let throw: Throw = "2,1".parse().unwrap();
        let all = dalkon_rules::daldos::plays(&pos, &Default::default(), throw);
        let play = all
            .iter()
            .map(|o| &o.play)
            .find(|p| p.notation(pos.board()) == "M3-M1x A3-A4")
            .unwrap();
        let e = elements(&svg(&pos, Some(throw), Some((play, "the best play"))));
        let arrows = with_class(&e, "best");
        assert_eq!(arrows.len(), 2);
        assert!(arrows
            .iter()
            .all(|a| a.get("marker-end") == Some("url(#best)")));
    }
}
