//! `dalkon daldos show`: draw a position, as text for the terminal (the
//! drawing of `draw.rs`) or as an SVG picture of the boat; with `--best`
//! (and `--dice`) the engine's best play for that throw, found by the
//! search of `daldos best` within a node limit, is marked (text) or drawn
//! as arrows (SVG).

use anyhow::Context;
use dalkon_daldos::engine::{
    analyse_throw, Daldos, RootMode, SearchError, SearchOptions, MAX_DEPTH,
};
use dalkon_rules::daldos::{Board, Cell, Hole, Play, Position, Row, Side, Throw};
use serde_json::json;
use svg::node::element::{Circle, Definitions, Group, Path};

use super::draw::{draw_marked, side_name};
use super::RuleArgs;
use crate::common::{Format, Global};
use dalkon_render::page::{arrowhead, finish, page, px, text};

/// The default `--max-nodes` of the `--best` search: a second or two; the
/// search deepens 1, 2, … up to `--depth` and keeps the deepest depth that
/// finished within it.
pub const SHOW_MAX_NODES: u64 = 2_000_000;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position (docs/rules.md §1.6), e.g. "AAAA/...../BBBB a".
    #[arg(long, value_name = "POS")]
    pub position: String,
    /// The throw, two faces 1..=4, e.g. 3,1 (needed by --best).
    #[arg(long, value_name = "D1,D2")]
    pub dice: Option<String>,
    /// Mark the engine's best play for --dice (the search of `daldos best`).
    #[arg(long)]
    pub best: bool,
    /// Search depth of --best in throws, 1 to 8.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub depth: u32,
    /// Nodes the --best search may visit, all depths together, at least 1.
    #[arg(long, value_name = "N", default_value_t = SHOW_MAX_NODES,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: u64,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// The engine's best play for a throw and what it is worth.
#[derive(Debug, Clone)]
pub struct BestPlay {
    pub throw: Throw,
    pub play: Play,
    /// The mover's win probability as the engine estimates it.
    pub value: f64,
    /// The deepest depth that finished within the node limit.
    pub depth: u32,
}

pub fn run(global: &Global, args: Args, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Svg, Format::Json])?;
    if args.depth == 0 || args.depth > MAX_DEPTH {
        anyhow::bail!("--depth {} is out of range 1..={MAX_DEPTH}", args.depth);
    }
    let pos = args.rules.position(&args.position)?;
    let throw: Option<Throw> = args
        .dice
        .as_deref()
        .map(|d| d.parse::<Throw>().context("--dice"))
        .transpose()?;
    let variants = args.rules.variants();
    let best = match (args.best, throw) {
        (false, _) => None,
        (true, None) => {
            anyhow::bail!("--best needs --dice D1,D2: the throw to find the best play for")
        }
        (true, Some(t)) => {
            if let Some(w) = pos.winner(&variants) {
                anyhow::bail!(
                    "the game is already over in this position ({} has won under end={})",
                    side_name(w),
                    variants.end
                );
            }
            Some(best_play(
                &Daldos::new(variants),
                &pos,
                t,
                args.depth,
                args.max_nodes,
            )?)
        }
    };
    let board = pos.board();
    match format {
        Format::Svg => write!(out, "{}", svg(&pos, throw, best.as_ref()))?,
        Format::Json => {
            let mut j = json!({
                "position": pos.to_string(),
                "dice": throw.map(|t| t.to_string()),
            });
            if let Some(b) = &best {
                j["best"] = json!(b.play.notation(board));
                j["value"] = json!(b.value);
                j["depth"] = json!(b.depth);
            }
            writeln!(out, "{j}")?;
        }
        _ => {
            let marked: Vec<Hole> = best.as_ref().map_or(Vec::new(), |b| {
                b.play.steps.iter().flat_map(|s| [s.from, s.to]).collect()
            });
            write!(out, "{}", draw_marked(&pos, &marked))?;
            match (&best, throw) {
                (Some(b), _) => writeln!(out, "   {}", best_line(&pos, b))?,
                (None, Some(t)) => writeln!(out, "   throw {t}")?,
                (None, None) => {}
            }
        }
    }
    Ok(())
}

/// The best play of `throw` by expectiminimax, deepening 1, 2, … up to
/// `depth` within `max_nodes` nodes (as `daldos best` does; depth 1 always
/// finishes).
fn best_play(
    game: &Daldos,
    pos: &Position,
    throw: Throw,
    depth: u32,
    max_nodes: u64,
) -> anyhow::Result<BestPlay> {
    let mut used = 0u64;
    let mut found = None;
    for d in 1..=depth {
        let opts = SearchOptions {
            depth: d,
            max_nodes: Some(max_nodes.saturating_sub(used)),
            ..SearchOptions::default()
        };
        match analyse_throw(game, pos, throw, opts, RootMode::AllExact) {
            Ok(a) => {
                used += a.stats.nodes();
                found = Some(BestPlay {
                    throw,
                    play: a.plays[0].play.clone(),
                    value: a.value,
                    depth: d,
                });
            }
            Err(SearchError::NodeLimit { .. }) => break,
            Err(e) => return Err(e.into()),
        }
    }
    found.context("the search found no play within the node limit")
}

/// The best play in words.
fn best_line(pos: &Position, b: &BestPlay) -> String {
    format!(
        "best play for the throw {}: {}  (value {:.4}: {}'s chance to win, depth {})",
        b.throw,
        b.play.notation(pos.board()),
        b.value,
        side_name(pos.side_to_move()),
        b.depth
    )
}

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
/// side's path, a legend and who throws; with `best`, one arrow per step of
/// the best play.
pub fn svg(pos: &Position, throw: Option<Throw>, best: Option<&BestPlay>) -> String {
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
    if let Some(b) = best {
        let mut arrows = Group::new().set("class", "best-play");
        for s in &b.play.steps {
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
        Some(b) => best_line(pos, b),
        None => pos.to_string(),
    };
    doc = doc.add(text(30.0, y + 66.0, 12.0, "start", footer));
    finish(doc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dalkon_render::page::check::{elements, with_class};

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
        let b = best_play(&Daldos::new(Default::default()), &pos, throw, 2, 100_000).unwrap();
        assert_eq!(b.play.notation(pos.board()), "M3-M1x A3-A4");
        let e = elements(&svg(&pos, Some(throw), Some(&b)));
        let arrows = with_class(&e, "best");
        assert_eq!(arrows.len(), 2);
        assert!(arrows
            .iter()
            .all(|a| a.get("marker-end") == Some("url(#best)")));
    }
}
