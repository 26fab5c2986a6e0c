//! `dakon analyse`: the text table of a game's decisions with each side's
//! summary ([`analyse`]), and the chart of the value over the game
//! ([`analyse_svg`], drawn by [`crate::graph`]). Moves are named as the
//! board names holes (`S3`, `N5`); values are final store differences for
//! the mover, as `dakon best` prints them: a bare number is exact, a value
//! that is not is followed by the bounds proved for it, as in
//! `+12 (-4 .. +30)`.

use std::fmt::Write;

use dalkon_dakon::request::{
    AnalyseReport, Decision, SideSummary, BLUNDER_SEEDS, INACCURACY_SEEDS, MISTAKE_SEEDS,
};
use dalkon_rules::dakon::Side;

use super::report::lines;
use super::text::{game_over, row_letter, side_name};
use crate::graph::{value_graph, GraphPoint};

fn side_of(index: usize) -> Side {
    if index == 0 {
        Side::South
    } else {
        Side::North
    }
}

/// `S3`: hole `hole` of `side`'s row.
fn hole_name(side: Side, hole: usize) -> String {
    format!("{}{hole}", row_letter(side))
}

/// A value as the table prints it: `+12` when exact, else the estimate
/// and the proved bounds, `+12 (-4 .. +30)`.
fn value(v: i32, bounds: Option<(i32, i32)>) -> String {
    match bounds {
        Some((lo, hi)) if lo < hi => format!("{v:+} ({lo:+} .. {hi:+})"),
        _ => format!("{v:+}"),
    }
}

fn bounds(lower: Option<i32>, upper: Option<i32>) -> Option<(i32, i32)> {
    lower.zip(upper)
}

/// The loss: `8` when exact, else `8 (0 .. 54)`.
fn loss(d: &Decision) -> String {
    match bounds(d.loss_lower, d.loss_upper) {
        Some((lo, hi)) if lo < hi => format!("{} ({lo} .. {hi})", d.loss),
        _ => d.loss.to_string(),
    }
}

/// The table of every decision, each side's summary, and the end of the
/// game (`dakon analyse --format text`).
pub fn analyse(r: &AnalyseReport) -> String {
    let rows: Vec<[String; 8]> = r
        .decisions
        .iter()
        .map(|d| {
            let side = side_of(d.side);
            let best: Vec<String> = d.best.iter().map(|&h| hole_name(side, h)).collect();
            let mark = match (d.forced, d.mark) {
                (true, _) => "forced".to_owned(),
                (false, Some(m)) => m.name().to_owned(),
                (false, None) => String::new(),
            };
            let estimate = if d.estimate == Some(true) {
                " ESTIMATE"
            } else {
                ""
            };
            [
                d.ply.to_string(),
                side_name(side).to_owned(),
                hole_name(side, d.played),
                best.join(" "),
                value(d.best_value, bounds(d.lower, d.upper)) + estimate,
                value(d.played_value, bounds(d.played_lower, d.played_upper)),
                loss(d),
                mark,
            ]
        })
        .collect();
    let head = [
        "ply",
        "side",
        "played",
        "best",
        "best value",
        "played value",
        "loss",
        "mark",
    ];
    let mut width = head.map(str::len);
    for row in &rows {
        for (w, cell) in width.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: [&str; 8]| {
        let mut s = String::new();
        for (i, (cell, w)) in cells.iter().zip(width).enumerate() {
            // The ply to the right, the rest to the left (a value with
            // its bounds reads from its first digit); no trailing blanks.
            let cell = match i {
                0 => format!("{cell:>w$}"),
                _ => format!("{cell:<w$}"),
            };
            if i > 0 {
                s.push_str("  ");
            }
            s.push_str(&cell);
        }
        s.trim_end().to_owned()
    };
    lines(|out| {
        writeln!(out, "{}", line(head))?;
        for row in &rows {
            writeln!(out, "{}", line(row.each_ref().map(String::as_str)))?;
        }
        writeln!(out)?;
        out.push_str(&best_lines(r));
        out.push_str(&summary(r));
        writeln!(out)?;
        writeln!(
            out,
            "values: final store difference for the side to move (stores included);\n\
             a value followed by (lo .. hi) is NOT exact: an estimate, proved to lie\n\
             between lo and hi (ESTIMATE: a shallow search's, nothing better proved)\n\
             marks: inaccuracy from {INACCURACY_SEEDS}, mistake from {MISTAKE_SEEDS}, \
             blunder from {BLUNDER_SEEDS} seeds of margin lost,\n\
             given only where the proved bounds show the loss reaching them;\n\
             forced moves are not counted"
        )?;
        if r.stopped {
            writeln!(
                out,
                "STOPPED: only the last {} decisions were analysed",
                r.decisions.len()
            )?;
        }
        writeln!(
            out,
            "{} ({} nodes, {:.1} s)",
            game_over(&r.end),
            r.nodes,
            r.seconds
        )
    })
}

/// The best line of play at each marked decision (`ply 8, S4 a blunder:
/// best line S3 S1 | N2 …`), a blank line after them; nothing when no
/// decision is marked.
pub fn best_lines(r: &AnalyseReport) -> String {
    let marked: Vec<&Decision> = r
        .decisions
        .iter()
        .filter(|d| d.mark.is_some() && !d.pv.is_empty())
        .collect();
    if marked.is_empty() {
        return String::new();
    }
    lines(|out| {
        writeln!(out, "best lines at the marked moves:")?;
        for d in marked {
            let side = side_of(d.side);
            let mark = d.mark.map_or("", |m| m.name());
            let exact = if d.exact {
                ""
            } else {
                "  (the table's line, not proved)"
            };
            writeln!(
                out,
                "  ply {:>3}, {} {mark}: {}{exact}",
                d.ply,
                hole_name(side, d.played),
                super::line(&d.position, &r.rules, &d.pv)
            )?;
        }
        writeln!(out)
    })
}

/// Each side's summary: decisions with a choice, how many exact, the mean
/// loss and the marks.
pub fn summary(r: &AnalyseReport) -> String {
    let row = |s: &SideSummary| {
        format!(
            "{:>9}  {:>5}  {:>9.2}  {:>10}  {:>7}  {:>7}",
            s.decisions, s.exact, s.mean_loss, s.marks.inaccuracy, s.marks.mistake, s.marks.blunder
        )
    };
    lines(|out| {
        writeln!(
            out,
            "side       decisions  exact  mean loss  inaccuracy  mistake  blunder"
        )?;
        for (side, s) in [
            (Side::South, &r.summary.south),
            (Side::North, &r.summary.north),
        ] {
            writeln!(out, "{:<9}  {}", side_name(side), row(s))?;
        }
        Ok(())
    })
}

/// The value over the game from South's side, one point a decision (the
/// value before the move) and one for the end, marks coloured
/// (`dakon analyse --format svg`).
pub fn analyse_svg(r: &AnalyseReport) -> String {
    let south = |side: usize, v: i32| {
        if side == 0 {
            f64::from(v)
        } else {
            -f64::from(v)
        }
    };
    let mut points: Vec<GraphPoint> = r
        .decisions
        .iter()
        .map(|d| {
            let side = side_of(d.side);
            let (lower, upper) = match bounds(d.lower, d.upper) {
                Some((lo, hi)) if d.side == 0 => (Some(f64::from(lo)), Some(f64::from(hi))),
                Some((lo, hi)) => (Some(-f64::from(hi)), Some(-f64::from(lo))),
                None => (None, None),
            };
            let best: Vec<String> = d.best.iter().map(|&h| hole_name(side, h)).collect();
            let mut label = format!(
                "{} plays {} (best {}), loses {}",
                side_name(side),
                hole_name(side, d.played),
                best.join(" "),
                loss(d)
            );
            if let Some(m) = d.mark {
                write!(label, ": {}", m.name()).expect("a String");
            }
            GraphPoint {
                x: d.ply as f64,
                value: south(d.side, d.best_value),
                lower,
                upper,
                exact: d.lower.is_none(),
                mark: d.mark.map(|m| m.name()),
                label,
            }
        })
        .collect();
    if let Some(score) = r.end.final_score() {
        points.push(GraphPoint {
            x: (r.decisions.last().map_or(0, |d| d.ply) + 1) as f64,
            value: f64::from(score.difference(Side::South)),
            lower: None,
            upper: None,
            exact: true,
            mark: None,
            label: game_over(&r.end),
        });
    }
    let total = f64::from(r.end.total_seeds());
    let (holes, seeds) = (r.end.holes(), r.end.total_seeds() as usize);
    let title = format!(
        "Dakon analysis ({holes} holes, {seeds} seeds): the value for {} before each move",
        side_name(Side::South)
    );
    value_graph(
        &title,
        "final store difference for South (0)",
        (-total, total),
        &points,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use dalkon_dakon::request::AnalyseRequest;
    use dalkon_rules::dakon::{Position, Rules};

    fn report() -> AnalyseReport {
        // The hand-worked blunder of crates/dakon/tests/analyse.rs: S1
        // loses 12 (S2 captures North's 6), then S3 is forced.
        let start: Position = "1,1,0/6,0,0/0,0 0".parse().unwrap();
        AnalyseRequest::new(Rules::default())
            .time(None)
            .unwrap()
            .run(&start, &[1, 3], None, None)
            .unwrap()
    }

    #[test]
    fn the_table_names_moves_values_and_marks() {
        let mut r = report();
        r.seconds = 0.25;
        r.nodes = 7;
        let text = analyse(&r);
        let want = "\
ply  side       played  best  best value  played value  loss  mark
  1  South (0)  S1      S2    +8          -4            12    blunder
  2  South (0)  S3      S3    -4          -4            0     forced

best lines at the marked moves:
  ply   1, S1 blunder: S2

side       decisions  exact  mean loss  inaccuracy  mistake  blunder
South (0)          1      1      12.00           0        0        1
North (1)          0      0       0.00           0        0        0
";
        assert!(text.starts_with(want), "{text}");
        assert!(text.contains("\nmarks: inaccuracy from 2, mistake from 6, blunder from 12 seeds"));
        assert!(
            text.ends_with("game over: North (1) wins by 4 (7 nodes, 0.2 s)\n"),
            "{text}"
        );
    }

    #[test]
    fn bounds_are_printed_where_a_value_is_not_exact() {
        let mut r = report();
        let d = &mut r.decisions[0];
        d.exact = false;
        (d.lower, d.upper) = (Some(-8), Some(8));
        (d.played_lower, d.played_upper) = (Some(-4), Some(-4));
        (d.loss_lower, d.loss_upper) = (Some(0), Some(12));
        d.estimate = Some(true);
        let text = analyse(&r);
        assert!(
            text.contains("S2    +8 (-8 .. +8) ESTIMATE  -4            12 (0 .. 12)  blunder"),
            "{text}"
        );
    }

    #[test]
    fn the_chart_has_a_point_a_decision_and_the_end() {
        let svg = analyse_svg(&report());
        assert!(svg.starts_with("<svg"), "{svg}");
        assert_eq!(svg.matches("<title>").count(), 3, "{svg}");
        assert!(svg.contains("class=\"blunder\""));
        assert!(svg.contains("South (0) plays S1 (best S2), loses 12: blunder"));
        assert!(svg.contains("game over: North (1) wins by 4"));
    }
}
