//! The SVG picture of a Dakon position (`dakon show --format svg`, Python's
//! `_repr_svg_`): the board seen from South as in the text drawing.

use dalkon_rules::dakon::{Position, Side};
use svg::node::element::{Circle, Definitions, Group, Line, Rectangle};

use super::text::{game_over, row_letter, side_name, Best};
use crate::page::{arrowhead, finish, page, px, text};

/// Distance between hole centres, and a hole's radius.
const STEP: f64 = 64.0;
const HOLE_R: f64 = 24.0;
/// Width of a store.
const STORE_W: f64 = 56.0;

/// The picture: the board seen from South as in the text drawing, seed
/// counts in the holes and stores, hole names, an arrow per row for the
/// way its owner sows, the side to move; with `best`, a ring round each
/// best move's hole and a line saying what the search found.
pub fn svg(pos: &Position, best: Option<&Best<'_>>) -> String {
    let n = pos.holes();
    let wood = "#c9a36b";
    let left = 20.0;
    let holes_x0 = left + 10.0 + STORE_W + 20.0 + HOLE_R;
    let hole_x = |col: usize| holes_x0 + STEP * col as f64;
    let right_store_x = hole_x(n - 1) + HOLE_R + 20.0;
    let board_width = right_store_x + STORE_W + 10.0 - left;
    let (board_top, north_y) = (70.0, 126.0);
    let south_y = north_y + STEP + 8.0;
    let board_bottom = south_y + HOLE_R + 32.0;
    let mid_y = (north_y + south_y) / 2.0;
    let footer_y = board_bottom + 62.0;
    let height = footer_y + if best.is_some() { 30.0 } else { 12.0 };
    // Wide enough for the lines of text under a small board.
    let width = (board_width + 2.0 * left).max(620.0);
    let mover = pos.side_to_move();
    let mut doc = page(width, height).add(Definitions::new().add(arrowhead("sow", "#555", 6.0)));
    let title = if pos.is_over() {
        game_over(pos)
    } else {
        format!("{} to move", side_name(mover))
    };
    doc = doc.add(text(
        left,
        26.0,
        17.0,
        "start",
        format!(
            "Dakon, {n} hole{} a row: {title}",
            if n == 1 { "" } else { "s" }
        ),
    ));
    doc = doc.add(
        Rectangle::new()
            .set("class", "board")
            .set("x", px(left))
            .set("y", px(board_top))
            .set("width", px(board_width))
            .set("height", px(board_bottom - board_top))
            .set("rx", 30)
            .set("fill", wood)
            .set("stroke", "#7a5230")
            .set("stroke-width", 2),
    );
    // The stores span both rows: North's on the left, South's on the right.
    for (side, x) in [(Side::North, left + 10.0), (Side::South, right_store_x)] {
        let top = north_y - HOLE_R;
        let h = south_y - north_y + 2.0 * HOLE_R;
        doc = doc
            .add(
                Rectangle::new()
                    .set("class", "store")
                    .set("data-side", side.index())
                    .set("x", px(x))
                    .set("y", px(top))
                    .set("width", STORE_W)
                    .set("height", px(h))
                    .set("rx", 26)
                    .set("fill", "#f3e3c3")
                    .set("stroke", "#7a5230")
                    .set("stroke-width", 2),
            )
            .add(
                text(
                    x + STORE_W / 2.0,
                    mid_y + 2.0,
                    22.0,
                    "middle",
                    pos.store(side).to_string(),
                )
                .set("font-weight", "bold"),
            )
            .add(text(
                x + STORE_W / 2.0,
                top + h - 30.0,
                11.0,
                "middle",
                side_label(side),
            ))
            .add(text(
                x + STORE_W / 2.0,
                top + h - 17.0,
                11.0,
                "middle",
                "store",
            ));
    }
    let best_moves = best.map_or(&[][..], |b| b.moves);
    for side in [Side::North, Side::South] {
        let (y, label_y) = match side {
            Side::North => (north_y, north_y - HOLE_R - 12.0),
            Side::South => (south_y, south_y + HOLE_R + 22.0),
        };
        let to_move = side == mover && !pos.is_over();
        for i in 1..=n {
            // North's hole 1 faces South's hole n.
            let col = match side {
                Side::North => n - i,
                Side::South => i - 1,
            };
            let x = hole_x(col);
            let seeds = pos.pit(side, i);
            let mut group = Group::new()
                .add(
                    Circle::new()
                        .set("class", "hole")
                        .set("data-hole", format!("{}{i}", row_letter(side)))
                        .set("cx", px(x))
                        .set("cy", px(y))
                        .set("r", HOLE_R)
                        .set("fill", "#f3e3c3")
                        .set("stroke", "#7a5230")
                        .set("stroke-width", 2),
                )
                .add(
                    text(x, y + 7.0, 20.0, "middle", seeds.to_string())
                        .set("fill", if seeds == 0 { "#9a8a70" } else { "black" }),
                )
                .add(
                    text(
                        x,
                        label_y,
                        13.0,
                        "middle",
                        format!("{}{i}", row_letter(side)),
                    )
                    .set("font-weight", if to_move { "bold" } else { "normal" }),
                );
            if to_move && best_moves.contains(&i) {
                group = group.add(
                    Circle::new()
                        .set("class", "best")
                        .set("cx", px(x))
                        .set("cy", px(y))
                        .set("r", HOLE_R + 5.0)
                        .set("fill", "none")
                        .set("stroke", "#d62728")
                        .set("stroke-width", 4),
                );
            }
            doc = doc.add(group);
        }
    }
    // Sowing: South's row left to right, North's right to left (round the
    // board counter-clockwise), each above or below its own row, outside
    // the board.
    let (x_first, x_last) = (hole_x(0) - HOLE_R, hole_x(n - 1) + HOLE_R);
    for (side, line_y, text_y, from, to) in [
        (
            Side::North,
            board_top - 10.0,
            board_top - 18.0,
            x_last,
            x_first,
        ),
        (
            Side::South,
            board_bottom + 12.0,
            board_bottom + 32.0,
            x_first,
            x_last,
        ),
    ] {
        let letter = row_letter(side);
        let label = format!(
            "{} sows this way, {letter}1 to {letter}{n}, then into {} store",
            side_name(side),
            side_label(side)
        );
        doc = doc
            .add(
                Line::new()
                    .set("class", "direction")
                    .set("x1", px(from))
                    .set("y1", px(line_y))
                    .set("x2", px(to))
                    .set("y2", px(line_y))
                    .set("stroke", "#555")
                    .set("stroke-width", 2)
                    .set("marker-end", "url(#sow)"),
            )
            .add(
                text(
                    // Centred on the arrow, but never off the page.
                    ((from + to) / 2.0).max(left + 3.2 * label.chars().count() as f64),
                    text_y,
                    12.0,
                    "middle",
                    label,
                )
                .set("fill", "#333"),
            );
    }
    doc = doc.add(text(left, footer_y, 13.0, "start", pos.to_string()));
    if let Some(b) = best {
        doc = doc.add(text(left, footer_y + 20.0, 13.0, "start", b.line(pos)));
    }
    finish(doc)
}

fn side_label(side: Side) -> &'static str {
    match side {
        Side::South => "South",
        Side::North => "North",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::check::{elements, with_class};

    fn best(moves: &[usize]) -> Best<'_> {
        Best {
            moves,
            value: 3,
            label: "exact".to_owned(),
        }
    }

    #[test]
    fn every_hole_and_both_stores_are_drawn() {
        for (text, n) in [
            ("1,2,3/4,5,6/7,8 0", 3),
            ("7,7,7,7,7,7,7/7,7,7,7,7,7,7/0,0 1", 7),
        ] {
            let pos: Position = text.parse().unwrap();
            let e = elements(&svg(&pos, None));
            assert_eq!(with_class(&e, "hole").len(), 2 * n);
            assert!(with_class(&e, "hole").iter().all(|h| h.name == "circle"));
            assert_eq!(with_class(&e, "store").len(), 2);
            assert!(with_class(&e, "store").iter().all(|s| s.name == "rect"));
            assert_eq!(with_class(&e, "direction").len(), 2);
            assert!(with_class(&e, "best").is_empty());
            let names: Vec<&str> = with_class(&e, "hole")
                .iter()
                .filter_map(|h| h.get("data-hole"))
                .collect();
            assert!(names.contains(&"N1") && names.contains(&format!("S{n}").as_str()));
        }
    }

    /// The ring goes round the mover's hole: North's hole 1 is the
    /// rightmost hole of the top row.
    #[test]
    fn the_best_hole_is_ringed() {
        let pos: Position = "1,2,3/4,5,6/7,8 1".parse().unwrap();
        let e = elements(&svg(&pos, Some(&best(&[1]))));
        let best = with_class(&e, "best");
        assert_eq!(best.len(), 1);
        let n1 = with_class(&e, "hole")
            .into_iter()
            .find(|h| h.get("data-hole") == Some("N1"))
            .unwrap();
        assert_eq!(best[0].get("cx"), n1.get("cx"));
        assert_eq!(best[0].get("cy"), n1.get("cy"));
        let xs: Vec<f64> = with_class(&e, "hole")
            .iter()
            .filter(|h| h.get("cy") == n1.get("cy"))
            .map(|h| h.get("cx").unwrap().parse().unwrap())
            .collect();
        let x: f64 = n1.get("cx").unwrap().parse().unwrap();
        assert!(xs.iter().all(|&o| o <= x));
    }
}
