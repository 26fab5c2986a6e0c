//! The text of the answers from the solved tables (`daldos value`,
//! `daldos solve`): `W` with its bounds, the ranked plays, and the layers
//! built, loaded and checked.

use std::fmt::Write;
use std::path::Path;

use dalkon_daldos::request::solve::{LayerRow, SolveReport};
use dalkon_daldos::request::ValueReport;
use dalkon_daldos::solved::{EPS, ROUNDING};
use dalkon_rules::daldos::{Board, Position, Variants};

use super::report::lines;
use super::text::draw;

/// `daldos value`: the drawing, `W` with its bounds, then every play of
/// each throw ranked, from the tables in `dir`.
pub fn value(pos: &Position, variants: &Variants, dir: &Path, j: &ValueReport) -> String {
    lines(|out| {
        write!(out, "{}", draw(pos))?;
        writeln!(out)?;
        // The player's name, A or B (the notation's letters are lower case).
        let me = format!("{:?}", pos.side_to_move());
        writeln!(
            out,
            "{me} to throw, {variants}; tables in {}",
            dir.display()
        )?;
        if let Some(w) = j.winner {
            writeln!(
                out,
                "the game is over ({w:?} has won under end={}): W = {}",
                variants.end, j.value
            )?;
            return Ok(());
        }
        let bounds = if j.exact {
            format!("exact to {EPS:e}")
        } else {
            format!(
                "NOT exact: the bounds are {:.1e} apart, more than {EPS:e} (the tables were built \
                 to a looser eps, or the game may never end from here)",
                j.upper - j.lower
            )
        };
        writeln!(
            out,
            "W = {:.12}: {me}'s chance to win under perfect play ({bounds}: lower {:.15}, upper {:.15})",
            j.value, j.lower, j.upper
        )?;
        writeln!(out)?;
        writeln!(
            out,
            "every play of each throw, best first; value: {me}'s chance to win after the play"
        )?;
        let width = j
            .throws
            .iter()
            .flat_map(|t| &t.plays)
            .map(|p| p.play.chars().count())
            .max()
            .unwrap_or(0)
            .max(4);
        writeln!(out, "throw  weight    #  {:<width$}  value", "play")?;
        for t in &j.throws {
            for (i, p) in t.plays.iter().enumerate() {
                let (dice, weight) = if i == 0 {
                    (
                        format!("{},{}", t.dice[0], t.dice[1]),
                        format!("{}/16", t.weight),
                    )
                } else {
                    (String::new(), String::new())
                };
                let mark = if p.exact { "" } else { " *" };
                writeln!(
                    out,
                    "{dice:<5}  {weight:>6}  {:>3}  {:<width$}  {:.12}{mark}",
                    i + 1,
                    p.play,
                    p.value
                )?;
            }
        }
        if j.any_loose() {
            writeln!(
                out,
                "* not exact: its bounds are more than {EPS:e} apart (--format json gives them)"
            )?;
        }
        Ok(())
    })
}

/// `daldos solve`: what was built or loaded in `dir`, layer by layer, the
/// value at the start when the scope is the whole game, and with `check`
/// each layer's check.
pub fn solve(
    s: &SolveReport,
    board: Board,
    variants: &Variants,
    dir: &Path,
    check: bool,
) -> String {
    let pieces = (s.pieces[0], s.pieces[1]);
    lines(|out| {
        writeln!(
            out,
            "Daldøs solved: board {} (L={}), {variants}, up to {} v {} pieces",
            board.name(),
            board.len(),
            pieces.0,
            pieces.1
        )?;
        writeln!(
            out,
            "tables in {} ({} positions, at most {:.1} MiB of memory)",
            dir.display(),
            s.positions,
            s.bytes as f64 / f64::from(1u32 << 20)
        )?;
        writeln!(
            out,
            "layer a v b: a pieces of the side to throw, b of the other (a position with B to throw \
             is stored as its mirror)"
        )?;
        writeln!(out)?;
        write!(out, "{}", layer_table(&s.layers))?;
        writeln!(out)?;
        let gap = s.gap();
        writeln!(
            out,
            "mean W: the side to throw's mean chance to win over the layer; gap: the largest \
             upper - lower bound in it"
        )?;
        if gap <= EPS {
            writeln!(
                out,
                "every value is exact to eps = {EPS:e} (the largest gap is {gap:.3e})"
            )?;
        } else {
            writeln!(
                out,
                "NOT every value is exact to eps = {EPS:e}: the largest gap is {gap:.3e}"
            )?;
        }
        if s.layers.iter().any(|l| l.stalled) {
            writeln!(
                out,
                "stalled: the bounds of some positions stopped closing before eps; the gap left is \
                 the chance that the game never ends from them"
            )?;
        }
        if s.layers.iter().any(|l| l.loaded) {
            writeln!(
                out,
                "loaded: read from the files of an earlier build (seconds: reading and checking)"
            )?;
        }
        if let Some(st) = s.start {
            let exact = if st.upper - st.lower <= EPS {
                format!("exact to {EPS:e}")
            } else {
                format!(
                    "NOT exact: the bounds are {:.1e} apart",
                    st.upper - st.lower
                )
            };
            writeln!(
                out,
                "W at the start (A to throw): {:.12} ({exact}: lower {:.15}, upper {:.15})",
                st.value, st.lower, st.upper
            )?;
        }
        if check {
            writeln!(out)?;
            write!(out, "{}", check_table(&s.layers))?;
            writeln!(
                out,
                "check: one sweep recomputed from the rules' plays and the stored bounds; a layer \
                 passes when no bound fails by more than {ROUNDING:e} (rounding) and every midpoint \
                 is within {EPS:e} of its recomputed value"
            )?;
        }
        Ok(())
    })
}

/// The aligned table of the layers' checks.
pub fn check_table(layers: &[LayerRow]) -> String {
    let mut text = String::new();
    let width = layers
        .iter()
        .map(|l| format!("{} v {}", l.a, l.b).len())
        .max()
        .unwrap_or(5)
        .max(5);
    text.push_str(&format!(
        "{:<width$}  {:>10}  {:>10}  {:>6}  {:>9}\n",
        "check", "violation", "residual", "result", "seconds"
    ));
    for l in layers {
        if let Some(c) = l.check {
            text.push_str(&format!(
                "{:<width$}  {:>10.1e}  {:>10.1e}  {:>6}  {:>9.3}\n",
                format!("{} v {}", l.a, l.b),
                c.violation,
                c.residual,
                if c.passed { "passed" } else { "FAILED" },
                c.seconds
            ));
        }
    }
    text
}

/// The aligned table of layers (seconds on the first layer of a pair only:
/// a layer and its swap are built together).
pub fn layer_table(layers: &[LayerRow]) -> String {
    let header = [
        "layer",
        "positions",
        "sweeps",
        "gap",
        "mean W",
        "source",
        "seconds",
    ];
    let mut rows: Vec<[String; 7]> = Vec::new();
    let mut previous: Option<(u8, u8)> = None;
    for l in layers {
        let swap_of_previous = previous == Some((l.b, l.a)) && l.a != l.b;
        let mut source = if l.loaded { "loaded" } else { "built" }.to_owned();
        if l.stalled {
            source.push_str(", stalled");
        }
        rows.push([
            format!("{} v {}", l.a, l.b),
            l.positions.to_string(),
            l.sweeps.to_string(),
            format!("{:.3e}", l.gap),
            format!("{:.12}", l.mean_w),
            source,
            if swap_of_previous {
                format!("(with {} v {})", l.b, l.a)
            } else {
                format!("{:.3}", l.seconds)
            },
        ]);
        previous = Some((l.a, l.b));
    }
    let mut width = header.map(str::len);
    for r in &rows {
        for (w, cell) in width.iter_mut().zip(r) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: [&str; 7]| {
        let mut s = String::new();
        for (i, (cell, w)) in cells.iter().zip(width).enumerate() {
            if i > 0 {
                s.push_str("  ");
            }
            // Text columns (layer, source) to the left, numbers right.
            let pad = w - cell.chars().count();
            if i == 0 || i == 5 {
                s.push_str(cell);
                s.push_str(&" ".repeat(pad));
            } else {
                s.push_str(&" ".repeat(pad));
                s.push_str(cell);
            }
        }
        s.trim_end().to_owned() + "\n"
    };
    let mut text = line(header);
    for r in &rows {
        text.push_str(&line(r.each_ref().map(String::as_str)));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_aligned() {
        let row = |a, b, positions, seconds| LayerRow {
            a,
            b,
            positions,
            sweeps: 3,
            updates: 0,
            gap: 0.0,
            mean_w: 0.5,
            stalled: false,
            loaded: false,
            seconds,
            check: None,
        };
        let t = layer_table(&[
            row(1, 1, 237, 0.01),
            row(2, 1, 5000, 0.5),
            row(1, 2, 5000, 0.5),
        ]);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 4);
        assert!(lines[3].ends_with("(with 2 v 1)"), "{t}");
        let end = |l: &str, w: &str| l.find(w).unwrap() + w.len();
        assert_eq!(end(lines[0], "positions"), end(lines[1], "237"), "{t}");
    }
}
