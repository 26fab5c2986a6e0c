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

use dalkon_daldos::request::solve::{SolveError, SolveRequest, DEFAULT_BOARD};
use dalkon_daldos::request::tables_dir;
use dalkon_daldos::solved::TableError;
use dalkon_render::daldos::solved as report;

pub(crate) use super::progress::SolveBar as Bar;
use super::RuleArgs;
use crate::common::{Format, Global};
use crate::errors::{one_line, Exit};
use dalkon_render::error_line::quote;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The most pieces of each side, `A,B` (each from the losing count + 1
    /// to L). Layers with the two counts swapped are built too: a position
    /// with B to throw is stored as its mirror.
    #[arg(long, value_name = "A,B")]
    pub pieces: String,
    /// Folder of the tables (default: $DALKON_DB_DIR, else
    /// ./dalkon-db if it exists, else $XDG_DATA_HOME/dalkon, else ~/.local/share/dalkon). Created if missing; an interrupted build
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

/// A table error with its exit code: 2 for bad input, 1 for the machine
/// ([`TableError::is_bad_input`], docs/cli.md, "Exit codes").
pub(crate) fn table_error(e: TableError) -> anyhow::Error {
    let code = if e.is_bad_input() { 2 } else { 1 };
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
    #[cfg(not(feature = "mpi"))]
    let s = request
        .run(&mut Bar::new(board), None)
        .map_err(solve_error)?;
    #[cfg(feature = "mpi")]
    let s = {
        // Under mpirun: every rank builds its part, rank 0 alone shows
        // progress, logs the layers on stderr and prints the report.
        let job = crate::cluster::Cluster::join()?;
        let root = job.is_root();
        let mut log = |l: &dalkon_daldos::solved::PartLayerLog| {
            if root {
                eprintln!(
                    "layer {} v {}: {} positions, checksum {:016x}, {}, {} bytes exchanged",
                    l.key.a,
                    l.key.b,
                    l.positions,
                    l.checksum,
                    if l.loaded { "loaded" } else { "built" },
                    l.exchanged
                );
            }
        };
        let s = if root {
            request.run_partitioned(&job, &mut Bar::new(board), &mut log, None)
        } else {
            request.run_partitioned(&job, &mut dalkon_daldos::solved::NoProgress, &mut log, None)
        }
        .map_err(solve_error)?;
        if job.rank() != 0 {
            return Ok(());
        }
        s
    };
    let dir = request.dir();
    let failed = s.failed();
    if format == Format::Json {
        writeln!(out, "{}", serde_json::to_string(&s)?)?;
        return check_verdict(&failed);
    }
    write!(
        out,
        "{}",
        report::solve(&s, board, &variants, dir, args.check)
    )?;
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
}
