//! `daldos table`: the published capture tables (docs/rules.md §1.7), the
//! closed form beside real board positions; also the rows `reproduce`
//! writes to `data/daldos/capture_tables.*`.

use dalkon_rules::daldos::{Board, Variants};
use serde::Serialize;

use crate::ratio::{fraction_string, to_f64};
use crate::tables::{capture_table, published_daldal_use, CaptureTable, TableKind, TableRow};
use crate::TableError;

/// The board of the table when none is given.
pub const DEFAULT_BOARD: Board = Board::DANISH;

/// The largest distance in both tables when none is given (the published
/// ones stop at 9 and 4).
pub const DEFAULT_MAX_DISTANCE: u32 = 12;

/// Both tables of one board and rules.
#[derive(Debug, Clone, Copy)]
pub struct TableRequest {
    pub board: Board,
    pub variants: Variants,
    pub max_distance: u32,
}

impl TableRequest {
    /// Both tables (the distance is checked against the board first).
    pub fn run(&self) -> Result<TableReport, TableError> {
        Ok(table_json(&build(
            self.board,
            &self.variants,
            self.max_distance,
        )?))
    }
}

/// Both tables of `board` under `variants` up to distance `max`.
pub fn build(board: Board, variants: &Variants, max: u32) -> Result<CaptureTable, TableError> {
    capture_table(board, variants, max)
}

#[derive(Debug, Clone, Serialize)]
pub struct RulesJson {
    pub board: String,
    #[serde(rename = "L")]
    pub len: u8,
    pub dal: String,
    pub capture: String,
    pub end: String,
}

/// One row; the field names of docs/cli.md first, then extras.
#[derive(Debug, Clone, Serialize)]
pub struct RowJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub d1: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub d2: Option<u32>,
    pub probability: f64,
    pub fraction: String,
    pub daldal_use: u32,
    pub board_probability: f64,
    /// Exact lower bound from the board.
    pub board_fraction: String,
    /// The true board value is at most this much above `board_probability`.
    pub board_bound: f64,
    /// Dal-dal rethrows the board evaluation followed.
    pub board_daldals: u32,
    /// The closed form cut after `board_daldals` rethrows equals the board
    /// value exactly, and the closed form lies within the board's bound.
    pub agrees: bool,
    pub published: Option<String>,
    pub published_daldal_use: Option<u32>,
    pub position: String,
}

/// docs/cli.md: `{"rules":{...}, "single":[...], "pair":[...]}`.
#[derive(Debug, Clone, Serialize)]
pub struct TableReport {
    pub rules: RulesJson,
    pub single: Vec<RowJson>,
    pub pair: Vec<RowJson>,
    /// The tables themselves.
    #[serde(skip)]
    pub table: CaptureTable,
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

/// The report of built tables.
pub fn table_json(t: &CaptureTable) -> TableReport {
    TableReport {
        rules: RulesJson {
            board: t.board.name(),
            len: t.board.len(),
            dal: t.variants.dal.to_string(),
            capture: t.variants.capture.to_string(),
            end: t.variants.end.to_string(),
        },
        single: t.single.iter().map(row_json).collect(),
        pair: t.pair.iter().map(row_json).collect(),
        table: t.clone(),
    }
}

/// docs/cli.md's columns, then the board bound and depth.
pub const CSV_HEADER: &str = "board,dal,capture,end,table,d1,d2,fraction,probability,\
board_probability,daldal_use,published,board_bound,board_daldals";

/// One CSV line per row, single then pair, under [`CSV_HEADER`].
pub fn csv_lines(t: &CaptureTable) -> Vec<String> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ratio::percent_string;

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
}
