//! `daldos analyse`: the text table of a game's throws with each side's
//! summary ([`analyse`]), and the chart of A's `W` over the game
//! ([`analyse_svg`], drawn by [`crate::graph`]). Values are `W`, the win
//! probability of the side that threw, to four places, labelled `exact`
//! or `estimate` as `daldos best` labels them.

use std::fmt::Write;

use dalkon_daldos::request::analyse::{
    AnalyseReport, Decision, SideSummary, BLUNDER_W, INACCURACY_W, MISTAKE_W,
};
use dalkon_rules::daldos::Side;

use super::report::lines;
use super::text::side_name;
use crate::graph::{value_graph, GraphPoint};

/// `0.4321`, or with the proved bounds where they are known and apart.
fn value(v: f64, lower: Option<f64>, upper: Option<f64>) -> String {
    match lower.zip(upper) {
        Some((lo, hi)) if hi - lo > 1e-12 => format!("{v:.4} ({lo:.4} .. {hi:.4})"),
        _ => format!("{v:.4}"),
    }
}

/// Where a decision's values come from: `exact`, or `estimate (depth d)`.
fn label(d: &Decision) -> String {
    match (d.exact, d.depth) {
        (true, _) => "exact".to_owned(),
        (false, Some(depth)) => format!("estimate (depth {depth})"),
        (false, None) => "estimate".to_owned(),
    }
}

/// The table of every throw, each side's summary and the result
/// (`daldos analyse --format text`).
pub fn analyse(r: &AnalyseReport) -> String {
    const HEAD: [&str; 12] = [
        "ply",
        "side",
        "dice",
        "played",
        "best",
        "before",
        "best value",
        "played value",
        "loss",
        "luck",
        "mark",
        "values",
    ];
    let rows: Vec<[String; 12]> = r
        .decisions
        .iter()
        .map(|d| {
            let mark = match (d.forced, d.mark) {
                (true, _) => "forced".to_owned(),
                (false, Some(m)) => m.name().to_owned(),
                (false, None) => String::new(),
            };
            [
                d.ply.to_string(),
                side_name(d.side).to_string(),
                d.dice.to_string(),
                d.played.clone(),
                d.best.first().cloned().unwrap_or_default(),
                format!("{:.4}", d.value_before),
                value(d.best_value, d.lower, d.upper),
                value(d.played_value, d.played_lower, d.played_upper),
                format!("{:.4}", d.loss),
                format!("{:+.4}", d.luck),
                mark,
                label(d),
            ]
        })
        .collect();
    let mut width = HEAD.map(str::len);
    for row in &rows {
        for (w, cell) in width.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: [&str; 12]| {
        let mut s = String::new();
        for (i, (cell, w)) in cells.iter().zip(width).enumerate() {
            if i > 0 {
                s.push_str("  ");
            }
            // The ply and the numbers to the right, the words to the left.
            match i {
                0 | 5..=9 => write!(s, "{cell:>w$}"),
                _ => write!(s, "{cell:<w$}"),
            }
            .expect("a String");
        }
        s.trim_end().to_owned()
    };
    lines(|out| {
        writeln!(out, "{}", line(HEAD))?;
        for row in &rows {
            writeln!(out, "{}", line(row.each_ref().map(String::as_str)))?;
        }
        writeln!(out)?;
        out.push_str(&summary(r));
        writeln!(out)?;
        writeln!(
            out,
            "values: W, the win probability of the side that threw; before: before the throw \
             (the mean of the 16 throws' best plays);\n\
             best value: the throw's best play; loss = best value - played value; \
             luck = best value - before;\n\
             exact: from the solved tables or proved by the search; estimate: the search's \
             at the depth it reached (marks on estimates are the engine's judgement)\n\
             marks: inaccuracy from {INACCURACY_W}, mistake from {MISTAKE_W}, blunder from \
             {BLUNDER_W} of W lost; forced throws (one distinct play) count for luck only;\n\
             luck-adjusted: the result minus the side's luck plus the opponent's"
        )?;
        if r.stopped {
            writeln!(
                out,
                "STOPPED: only the first {} throws were analysed",
                r.decisions.len()
            )?;
        }
        let end = match (r.winner, r.result) {
            (Some(w), _) => format!("game over: {} wins", side_name(w)),
            (None, Some(v)) => format!(
                "game not over: A's W at the end {v:.4} ({})",
                if r.result_exact { "exact" } else { "estimate" }
            ),
            (None, None) => "game not over".to_owned(),
        };
        writeln!(out, "{end} ({} nodes, {:.1} s)", r.nodes, r.seconds)
    })
}

/// Each side's summary: throws, decisions with a choice, how many exact,
/// the mean loss, the marks, the luck, the result and the luck-adjusted
/// result.
pub fn summary(r: &AnalyseReport) -> String {
    let opt = |v: Option<f64>| v.map_or("-".to_owned(), |v| format!("{v:.4}"));
    let row = |s: &SideSummary| {
        format!(
            "{:>6}  {:>9}  {:>5}  {:>9.4}  {:>10}  {:>7}  {:>7}  {:>7}  {:>6}  {:>13}",
            s.throws,
            s.decisions,
            s.exact,
            s.mean_loss,
            s.marks.inaccuracy,
            s.marks.mistake,
            s.marks.blunder,
            format!("{:+.4}", s.luck),
            opt(s.result),
            opt(s.luck_adjusted),
        )
    };
    lines(|out| {
        writeln!(
            out,
            "side  throws  decisions  exact  mean loss  inaccuracy  mistake  blunder     luck  \
             result  luck-adjusted"
        )?;
        for side in [Side::A, Side::B] {
            writeln!(out, "{:<4}  {}", side_name(side), row(r.summary.side(side)))?;
        }
        Ok(())
    })
}

/// A's `W` over the game, one point a throw (before it) and one for the
/// result, marks coloured (`daldos analyse --format svg`).
pub fn analyse_svg(r: &AnalyseReport) -> String {
    let mut points: Vec<GraphPoint> = r
        .decisions
        .iter()
        .map(|d| {
            let mut label = format!(
                "{} throws {}, plays {} (best {}), loses {:.4}, luck {:+.4}",
                side_name(d.side),
                d.dice,
                d.played,
                d.best.first().map_or("-", String::as_str),
                d.loss,
                d.luck
            );
            if let Some(m) = d.mark {
                write!(label, ": {}", m.name()).expect("a String");
            }
            GraphPoint {
                x: d.ply as f64,
                value: d.value_a(),
                lower: None,
                upper: None,
                exact: d.before_exact,
                mark: d.mark.map(|m| m.name()),
                label,
            }
        })
        .collect();
    if let Some(v) = r.result {
        points.push(GraphPoint {
            x: (r.decisions.last().map_or(0, |d| d.ply) + 1) as f64,
            value: v,
            lower: None,
            upper: None,
            exact: r.result_exact,
            mark: None,
            label: match r.winner {
                Some(w) => format!("game over: {} wins", side_name(w)),
                None => format!("end: A's W {v:.4}"),
            },
        });
    }
    let title = format!(
        "Daldøs analysis (board {}): A's win probability W before each throw",
        r.end.board().name()
    );
    value_graph(&title, "W for A", (0.0, 1.0), &points)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dalkon_daldos::request::{AnalyseRequest, Analyst};
    use dalkon_rules::daldos::{plays, Board, Play, Position, Throw, Variants};

    /// Two throws from the L = 4 start without tables at depth 1: A
    /// activates with 1,3, B passes with 4,4.
    fn report() -> AnalyseReport {
        let board = Board::new(4).unwrap();
        let v = Variants::default();
        let start = Position::start(board);
        let t1: Throw = "1,3".parse().unwrap();
        let p1 = plays(&start, &v, t1)[0].play.clone();
        let turns = [(t1, p1), ("4,4".parse().unwrap(), Play::pass())];
        let mut r = AnalyseRequest::new()
            .time(None)
            .unwrap()
            .max_depth(1)
            .run(
                &Analyst::without_tables(board, v),
                &start,
                &turns,
                &(),
                None,
            )
            .unwrap();
        r.seconds = 0.25;
        r
    }

    #[test]
    fn the_table_names_throws_plays_and_labels() {
        let r = report();
        let text = analyse(&r);
        let head = text.lines().next().unwrap();
        assert_eq!(
            head,
            "ply  side  dice  played       best         before  best value  played value    \
             loss     luck  mark    values"
        );
        let rows: Vec<&str> = text.lines().skip(1).take(2).collect();
        assert!(
            rows[0].starts_with("  1  A     1,3   A4-M4 M4-M1"),
            "{text}"
        );
        assert!(rows[0].ends_with("estimate (depth 1)"), "{text}");
        assert!(rows[1].contains("  B     4,4   pass"), "{text}");
        assert!(rows[1].contains("forced"), "{text}");
        assert!(
            text.contains("\nside  throws  decisions  exact  mean loss"),
            "{text}"
        );
        assert!(text.contains("marks: inaccuracy from 0.02, mistake from 0.05, blunder from 0.1"));
        assert!(text.ends_with(" s)\n"), "{text}");
        assert!(text.contains("game not over: A's W at the end "), "{text}");
    }

    #[test]
    fn the_chart_has_a_point_a_throw_and_the_end() {
        let svg = analyse_svg(&report());
        assert!(svg.starts_with("<svg"), "{svg}");
        assert_eq!(svg.matches("<title>").count(), 3, "{svg}");
        assert!(svg.contains("A throws 1,3, plays A4-M4 M4-M1"), "{svg}");
        assert!(
            svg.contains("end: A&apos;s W") || svg.contains("end: A's W"),
            "{svg}"
        );
    }
}
