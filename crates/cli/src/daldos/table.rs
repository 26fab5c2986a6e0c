//! `dalkon daldos table` (docs/cli.md): the published capture tables (docs/rules.md
//! §1.7), the closed form beside real board positions: flags to
//! [`TableRequest`], its report to text, JSON, CSV or Markdown.

use std::fmt::Write as _;

use anyhow::Context;
use dalkon_daldos::ratio::{fraction_string, to_f64};
use dalkon_daldos::request::table::{
    csv_lines, TableRequest, CSV_HEADER, DEFAULT_BOARD, DEFAULT_MAX_DISTANCE,
};
use dalkon_daldos::tables::{published_daldal_use, target_hole, CaptureTable, TableRow};

use super::RuleArgs;
use crate::common::{offered, Format, Global};

#[derive(Debug, clap::Args)]
#[command(mut_arg("board", |a| a.help(
    "Board of the board positions: `danish` (L=16, the default), `norwegian` (L=12) \
     or a row length L from 4 to 32 (the table needs L >= 9)"
)))]
pub struct Args {
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Largest distance in both tables (the published ones stop at 9 and 4).
    #[arg(long, default_value_t = DEFAULT_MAX_DISTANCE, value_name = "D")]
    pub max_distance: u32,
}

pub fn run(global: &Global, args: Args, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let format = global.require_format(offered("daldos table"))?;
    let request = TableRequest {
        board: args.rules.board()?.unwrap_or(DEFAULT_BOARD),
        variants: args.rules.variants(),
        max_distance: args.max_distance,
    };
    let report = request.run().context("--max-distance")?;
    let table = &report.table;
    match format {
        Format::Json => writeln!(out, "{}", serde_json::to_string(&report)?)?,
        Format::Csv => {
            writeln!(out, "{CSV_HEADER}")?;
            for line in csv_lines(table) {
                writeln!(out, "{line}")?;
            }
        }
        Format::Md => write!(out, "{}", markdown_one(table))?,
        // Text (nothing else is offered: `require_format` refused it).
        _ => write!(out, "{}", text(table))?,
    }
    Ok(())
}

fn header_lines(t: &CaptureTable) -> String {
    let a1 = t.board.hole_name(target_hole(t.board));
    let depth = t
        .single
        .iter()
        .chain(&t.pair)
        .map(|r| r.board_daldals)
        .max()
        .unwrap_or(0);
    format!(
        "Capture tables (docs/rules.md §1.7), {} board (L={}), {}.\n\
         B to move; A's a1 on {a1}; B's b1 (and b2) d1 (d2) holes behind it, a free B piece on B2.\n\
         closed form: exact; board: the full rules on that position, exact where the dal-dal \
         captures at once, else {depth} dal-dal rethrows followed (a lower bound at most 16^-{} \
         below the truth).\n",
        t.board.name(),
        t.board.len(),
        t.variants,
        depth + 1
    )
}

fn text(t: &CaptureTable) -> String {
    let mut s = header_lines(t);
    let _ = writeln!(s, "\nTable 1: b1 alone, d behind a1");
    let _ = writeln!(
        s,
        "{:>3}  {:<20} {:>7}  {:<16} {:<6} {:>11}  {:>9}",
        "d", "closed form", "%", "board", "agrees", "dal-dal use", "published"
    );
    for r in &t.single {
        let _ = writeln!(
            s,
            "{:>3}  {:<20} {:>7.3}  {:<16.12} {:<6} {:>11}  {:>9}",
            r.d1,
            fraction_string(&r.probability),
            100.0 * to_f64(&r.probability),
            to_f64(&r.board_probability),
            if r.agrees() { "yes" } else { "NO" },
            r.daldal_use,
            published_cell(r),
        );
    }
    let _ = writeln!(s, "\nTable 2: b1 d1 behind a1, b2 d2 behind a1");
    let _ = writeln!(
        s,
        "{:>3} {:>3}  {:<20} {:>7}  {:<16} {:<6} {:>11}  {:>9}",
        "d1", "d2", "closed form", "%", "board", "agrees", "dal-dal use", "published"
    );
    for r in &t.pair {
        let _ = writeln!(
            s,
            "{:>3} {:>3}  {:<20} {:>7.3}  {:<16.12} {:<6} {:>11}  {:>9}",
            r.d1,
            r.d2.unwrap_or(0),
            fraction_string(&r.probability),
            100.0 * to_f64(&r.probability),
            to_f64(&r.board_probability),
            if r.agrees() { "yes" } else { "NO" },
            r.daldal_use,
            published_cell(r),
        );
    }
    s
}

/// `44% (1)`: published percentage and dal-dal use, or `-`.
fn published_cell(r: &TableRow) -> String {
    match r.published {
        Some(p) => match published_daldal_use(r.kind, r.d1, r.d2) {
            Some(u) => format!("{p}% ({u})"),
            None => format!("{p}%"),
        },
        None => "-".to_owned(),
    }
}

fn markdown_one(t: &CaptureTable) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Capture tables, {} board (L={}), {}; closed form beside the board evaluation.\n",
        t.board.name(),
        t.board.len(),
        t.variants
    );
    let _ = writeln!(
        s,
        "| d | closed form | % | board | dal-dal use | published |\n|---|---|---|---|---|---|"
    );
    for r in &t.single {
        let _ = writeln!(
            s,
            "| {} | {} | {:.2} | {:.12} | {} | {} |",
            r.d1,
            fraction_string(&r.probability),
            100.0 * to_f64(&r.probability),
            to_f64(&r.board_probability),
            r.daldal_use,
            published_cell(r)
        );
    }
    let _ = writeln!(
        s,
        "\n| d1 | d2 | closed form | % | board | dal-dal use | published |\n|---|---|---|---|---|---|---|"
    );
    for r in &t.pair {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {:.2} | {:.12} | {} | {} |",
            r.d1,
            r.d2.unwrap_or(0),
            fraction_string(&r.probability),
            100.0 * to_f64(&r.probability),
            to_f64(&r.board_probability),
            r.daldal_use,
            published_cell(r)
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use dalkon_rules::daldos::{Board, Variants};

    #[test]
    fn too_long_a_distance_is_refused_naming_the_flag() {
        let request = TableRequest {
            board: Board::NORWEGIAN,
            variants: Variants::default(),
            max_distance: 13,
        };
        let err = request.run().context("--max-distance").unwrap_err();
        assert_eq!(
            crate::errors::one_line(&err),
            "--max-distance: distance 13 does not fit the norwegian board: the free piece needs 22 holes of open road, and at most distance 12 leaves that much"
        );
    }
}
