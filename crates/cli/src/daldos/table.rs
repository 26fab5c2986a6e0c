//! `dalkon daldos table` (docs/cli.md): the published capture tables (docs/rules.md
//! §1.7), the closed form beside real board positions; and the Daldøs part
//! of `dalkon reproduce` (`data/daldos/capture_tables.*`).

use std::fmt::Write as _;

use anyhow::Context;
use dalkon_daldos::ratio::{fraction_string, to_f64};
use dalkon_daldos::tables::{
    capture_table, published_daldal_use, target_hole, CaptureTable, TableKind, TableRow,
};
use dalkon_rules::daldos::{Board, Variants};
use serde::Serialize;

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
    #[arg(long, default_value_t = 12, value_name = "D")]
    pub max_distance: u32,
}

pub fn run(global: &Global, args: Args, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let format = global.require_format(offered("daldos table"))?;
    let board = args.rules.board()?.unwrap_or(Board::DANISH);
    let variants = args.rules.variants();
    let table = build(board, &variants, args.max_distance)?;
    match format {
        Format::Json => writeln!(out, "{}", serde_json::to_string(&table_json(&table))?)?,
        Format::Csv => {
            writeln!(out, "{CSV_HEADER}")?;
            for line in csv_lines(&table) {
                writeln!(out, "{line}")?;
            }
        }
        Format::Md => write!(out, "{}", markdown_one(&table))?,
        // Text (nothing else is offered: `require_format` refused it).
        _ => write!(out, "{}", text(&table))?,
    }
    Ok(())
}

/// Both tables (the library checks the distance against the board first).
pub(crate) fn build(board: Board, variants: &Variants, max: u32) -> anyhow::Result<CaptureTable> {
    capture_table(board, variants, max).context("--max-distance")
}

#[derive(Debug, Serialize)]
struct RulesJson {
    board: String,
    #[serde(rename = "L")]
    len: u8,
    dal: String,
    capture: String,
    end: String,
}

/// One row; the field names of docs/cli.md first, then extras.
#[derive(Debug, Serialize)]
struct RowJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    distance: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    d1: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    d2: Option<u32>,
    probability: f64,
    fraction: String,
    daldal_use: u32,
    board_probability: f64,
    /// Exact lower bound from the board.
    board_fraction: String,
    /// The true board value is at most this much above `board_probability`.
    board_bound: f64,
    /// Dal-dal rethrows the board evaluation followed.
    board_daldals: u32,
    /// The closed form cut after `board_daldals` rethrows equals the board
    /// value exactly, and the closed form lies within the board's bound.
    agrees: bool,
    published: Option<String>,
    published_daldal_use: Option<u32>,
    position: String,
}

#[derive(Debug, Serialize)]
pub(crate) struct TableJson {
    rules: RulesJson,
    single: Vec<RowJson>,
    pair: Vec<RowJson>,
}

fn row_json(r: &TableRow) -> RowJson {
    let single = r.kind == TableKind::Single;
    RowJson {
        distance: single.then_some(r.d1),
        d1: (!single).then_some(r.d1),
        d2: r.d2,
        probability: to_f64(&r.probability),
        fraction: fraction_string(&r.probability),
        daldal_use: r.daldal_use,
        board_probability: to_f64(&r.board_probability),
        board_fraction: fraction_string(&r.board_probability),
        board_bound: to_f64(&r.board_bound),
        board_daldals: r.board_daldals,
        agrees: r.agrees(),
        published: r.published.map(|p| format!("{p}%")),
        published_daldal_use: r
            .published
            .and_then(|_| published_daldal_use(r.kind, r.d1, r.d2)),
        position: r.position.to_string(),
    }
}

fn rules_json(t: &CaptureTable) -> RulesJson {
    RulesJson {
        board: t.board.name(),
        len: t.board.len(),
        dal: t.variants.dal.to_string(),
        capture: t.variants.capture.to_string(),
        end: t.variants.end.to_string(),
    }
}

pub(crate) fn table_json(t: &CaptureTable) -> TableJson {
    TableJson {
        rules: rules_json(t),
        single: t.single.iter().map(row_json).collect(),
        pair: t.pair.iter().map(row_json).collect(),
    }
}

/// docs/cli.md's columns, then the board bound and depth.
pub(crate) const CSV_HEADER: &str = "board,dal,capture,end,table,d1,d2,fraction,probability,\
board_probability,daldal_use,published,board_bound,board_daldals";

pub(crate) fn csv_lines(t: &CaptureTable) -> Vec<String> {
    t.single
        .iter()
        .chain(&t.pair)
        .map(|r| {
            format!(
                "{},{},{},{},{},{},{},{},{},{},{},{},{:e},{}",
                t.board.name(),
                t.variants.dal,
                t.variants.capture,
                t.variants.end,
                r.kind,
                r.d1,
                r.d2.map(|d| d.to_string()).unwrap_or_default(),
                fraction_string(&r.probability),
                to_f64(&r.probability),
                to_f64(&r.board_probability),
                r.daldal_use,
                r.published.unwrap_or(""),
                to_f64(&r.board_bound),
                r.board_daldals,
            )
        })
        .collect()
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
    use dalkon_daldos::ratio::percent_string;

    #[test]
    fn csv_has_the_contract_columns_first() {
        let t = build(Board::NORWEGIAN, &Variants::default(), 4).unwrap();
        assert!(CSV_HEADER.starts_with(
            "board,dal,capture,end,table,d1,d2,fraction,probability,board_probability,daldal_use,published"
        ));
        let lines = csv_lines(&t);
        assert_eq!(lines.len(), 4 + 6);
        assert!(lines[0].starts_with("norwegian,any,final,last,single,1,,7/16,0.4375,"));
        assert!(lines[0].contains(",1,44,"));
        assert!(lines[4].starts_with("norwegian,any,final,last,pair,1,2,3/4,0.75,"));
        assert_eq!(percent_string(&t.single[2].probability), "60");
    }

    #[test]
    fn too_long_a_distance_is_refused_naming_the_flag() {
        let err = build(Board::NORWEGIAN, &Variants::default(), 13).unwrap_err();
        assert_eq!(
            crate::errors::one_line(&err),
            "--max-distance: distance 13 does not fit the norwegian board: the free piece needs 22 holes of open road, and at most distance 12 leaves that much"
        );
    }
}
