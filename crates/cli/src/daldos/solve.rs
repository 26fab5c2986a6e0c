//! `dalkon daldos solve --board L --pieces A,B [--db-dir DIR]` (docs/cli.md,
//! docs/solved.md): build (or load) the tables of exact values `W`
//! (docs/rules.md §1.8) of every position with at most `A` and `B` pieces,
//! layer by layer, and print a summary per layer; on a board where `A,B`
//! is the full piece count, `W` at the start too.
//!
//! The library (`dalkon_daldos::request::solve`) plans, checks the memory,
//! builds, writes and checks; this file parses the flags, shows a progress
//! bar on a terminal and formats the report. Layers are stored with A to throw: layer
//! `a v b` holds the positions where the side to throw has `a` pieces and
//! the other side `b`.

use std::path::PathBuf;

use dalkon_daldos::request::solve::{LayerRow, SolveError, SolveRequest, DEFAULT_BOARD};
use dalkon_daldos::request::tables_dir;
use dalkon_daldos::solved::{TableError, EPS, ROUNDING};

pub(crate) use super::progress::SolveBar as Bar;
use super::RuleArgs;
use crate::common::{quote, Format, Global};
use crate::errors::{one_line, Exit};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The most pieces of each side, `A,B` (each from the losing count + 1
    /// to L). Layers with the two counts swapped are built too: a position
    /// with B to throw is stored as its mirror.
    #[arg(long, value_name = "A,B")]
    pub pieces: String,
    /// Folder of the tables (default: $DALKON_DB_DIR, else
    /// $XDG_DATA_HOME/dalkon, else ~/.local/share/dalkon). Created if missing; an interrupted build
    /// resumes from the layers already written there.
    #[arg(long, value_name = "DIR")]
    pub db_dir: Option<PathBuf>,
    /// After the build, check every layer independently: recompute one
    /// sweep of the equations from the rules' own plays and the stored
    /// bounds (docs/solved.md, "Checking the tables"). Exit code 1 if a
    /// layer fails. Costs about one more pass over the plays of the scope.
    #[arg(long)]
    pub check: bool,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// The exit code of a table error: bad input (2) for what was asked (too
/// many or too few pieces, a table folder that is a file, a position the
/// tables do not cover); a failure (1) for the machine: memory, and files
/// that cannot be read, written or trusted — as `dakon solve` does for
/// its databases (docs/cli.md, "Exit codes").
pub(crate) fn table_error(e: TableError) -> anyhow::Error {
    let code = match &e {
        TableError::OutOfMemory { .. } | TableError::Io { .. } | TableError::BadFile { .. } => 1,
        _ => 2,
    };
    let message = one_line(&anyhow::Error::new(e));
    Exit { code, message }.into()
}

/// `--pieces A,B`.
fn parse_pieces(text: &str) -> anyhow::Result<(u8, u8)> {
    let bad = || {
        anyhow::anyhow!(
            "--pieces {}: expected the most pieces of each side as two whole numbers A,B, e.g. 4,4",
            quote(text)
        )
    };
    let (a, b) = text.split_once(',').ok_or_else(bad)?;
    let a: u8 = a.trim().parse().map_err(|_| bad())?;
    let b: u8 = b.trim().parse().map_err(|_| bad())?;
    Ok((a, b))
}

/// The library's error as the CLI's: exit code 1 or 2 for the tables
/// ([`table_error`]).
fn solve_error(e: SolveError) -> anyhow::Error {
    match e {
        SolveError::Table(e) => table_error(e),
        e @ SolveError::Unchecked { .. } => anyhow::Error::new(e),
    }
}

pub fn run(global: &Global, args: Args, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    let pieces = parse_pieces(&args.pieces)?;
    let board = args.rules.board()?.unwrap_or(DEFAULT_BOARD);
    let variants = args.rules.variants();
    let dir = tables_dir(args.db_dir.clone())?;
    let request = SolveRequest {
        board,
        variants,
        pieces,
        dir,
        check: args.check,
    };
    let s = request
        .run(&mut Bar::new(board), None)
        .map_err(solve_error)?;
    let dir = request.dir();
    let failed = s.failed();
    if format == Format::Json {
        writeln!(out, "{}", serde_json::to_string(&s)?)?;
        return check_verdict(&failed);
    }
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
    if args.check {
        writeln!(out)?;
        write!(out, "{}", check_table(&s.layers))?;
        writeln!(
            out,
            "check: one sweep recomputed from the rules' plays and the stored bounds; a layer \
             passes when no bound fails by more than {ROUNDING:e} (rounding) and every midpoint \
             is within {EPS:e} of its recomputed value"
        )?;
    }
    check_verdict(&failed)
}

/// Exit code 1, after the report, if a layer failed its check.
fn check_verdict(failed: &[String]) -> anyhow::Result<()> {
    if failed.is_empty() {
        return Ok(());
    }
    Err(Exit {
        code: 1,
        message: format!(
            "the tables fail their check on layer {}: rebuild them (delete the files) and report \
             it if it happens again",
            failed.join(", ")
        ),
    }
    .into())
}

/// The aligned table of the layers' checks.
fn check_table(layers: &[LayerRow]) -> String {
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
fn layer_table(layers: &[LayerRow]) -> String {
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
    fn pieces_are_two_numbers() {
        assert_eq!(parse_pieces("4,4").unwrap(), (4, 4));
        assert_eq!(parse_pieces(" 2, 1 ").unwrap(), (2, 1));
        for bad in ["4", "4,", "a,b", "4,4,4", "-1,2", "300,1"] {
            let e = parse_pieces(bad).unwrap_err().to_string();
            assert!(e.contains("expected the most pieces"), "{bad}: {e}");
        }
    }

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
