//! `dalkon daldos table` (CLI.md): the published capture tables (RULES.md
//! §1.7), the closed form beside real board positions; and the Daldøs part
//! of `dalkon reproduce` (`data/daldos/capture_tables.*`).

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context;
use dalkon_odds::ratio::{fraction_string, to_f64};
use dalkon_odds::tables::{
    capture_table, max_distance, published, published_daldal_use, target_hole, CaptureTable,
    TableKind, TableRow,
};
use dalkon_rules::daldos::{Board, CaptureRule, DalRule, EndRule, Variants};
use serde::Serialize;

use super::RuleArgs;
use crate::common::{Format, Global};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Largest distance in both tables (the published ones stop at 9 and 4).
    #[arg(long, default_value_t = 12, value_name = "D")]
    pub max_distance: u32,
}

pub fn run(global: &Global, args: Args) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json, Format::Csv, Format::Md])?;
    let board = args.rules.board()?.unwrap_or(Board::DANISH);
    let variants = args.rules.variants();
    let table = build(board, &variants, args.max_distance)?;
    match format {
        Format::Json => println!("{}", serde_json::to_string(&table_json(&table))?),
        Format::Csv => {
            println!("{CSV_HEADER}");
            for line in csv_lines(&table) {
                println!("{line}");
            }
        }
        Format::Md => print!("{}", markdown_one(&table)),
        Format::Text => print!("{}", text(&table)),
    }
    Ok(())
}

/// Both tables, with the distance checked against the board first.
fn build(board: Board, variants: &Variants, max: u32) -> anyhow::Result<CaptureTable> {
    if max == 0 {
        anyhow::bail!("--max-distance must be at least 1");
    }
    let fits = max_distance(board);
    if max > fits {
        anyhow::bail!(
            "--max-distance {max} does not fit the {board} board (L={}): its free piece needs an \
             open road, which leaves room for distances up to {fits}",
            board.len()
        );
    }
    Ok(capture_table(board, variants, max)?)
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

/// One row; the field names of CLI.md first, then extras.
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
struct TableJson {
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

fn table_json(t: &CaptureTable) -> TableJson {
    TableJson {
        rules: rules_json(t),
        single: t.single.iter().map(row_json).collect(),
        pair: t.pair.iter().map(row_json).collect(),
    }
}

/// CLI.md's columns, then the board bound and depth.
const CSV_HEADER: &str = "board,dal,capture,end,table,d1,d2,fraction,probability,\
board_probability,daldal_use,published,board_bound,board_daldals";

fn csv_lines(t: &CaptureTable) -> Vec<String> {
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
        "Capture tables (RULES.md §1.7), {} board (L={}), {}.\n\
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

/// The rule sets of `reproduce`: the default, then the two variants that
/// touch moving and capturing, alone and together (`end` stays `last`).
fn reproduce_variants() -> Vec<Variants> {
    let mut out = Vec::new();
    for dal in [DalRule::Any, DalRule::Sternmost] {
        for capture in [CaptureRule::Final, CaptureRule::Path] {
            out.push(Variants {
                dal,
                capture,
                end: EndRule::Last,
            });
        }
    }
    out
}

/// Largest distance written by `reproduce`.
const REPRODUCE_MAX: u32 = 12;

/// Write `out/daldos/capture_tables.{csv,json,md,svg}`: both tables to
/// d = 12 on the Danish and Norwegian boards, under the default rules and
/// the `dal`/`capture` variants.
pub fn reproduce(out: &Path, _full: bool) -> anyhow::Result<()> {
    let dir = out.join("daldos");
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut tables = Vec::new();
    for board in [Board::DANISH, Board::NORWEGIAN] {
        for v in reproduce_variants() {
            tables.push(build(board, &v, REPRODUCE_MAX)?);
        }
    }
    let mut csv = format!("{CSV_HEADER}\n");
    for t in &tables {
        for line in csv_lines(t) {
            csv.push_str(&line);
            csv.push('\n');
        }
    }
    write(&dir.join("capture_tables.csv"), &csv)?;
    let json: Vec<TableJson> = tables.iter().map(table_json).collect();
    write(
        &dir.join("capture_tables.json"),
        &(serde_json::to_string_pretty(&json)? + "\n"),
    )?;
    write(&dir.join("capture_tables.md"), &markdown_all(&tables))?;
    write(&dir.join("capture_tables.svg"), &svg(&tables)?)?;
    let disagreements = tables
        .iter()
        .flat_map(|t| t.single.iter().chain(&t.pair))
        .filter(|r| !r.agrees())
        .count();
    if disagreements > 0 {
        anyhow::bail!("{disagreements} table rows: the board disagrees with the closed form");
    }
    eprintln!(
        "daldos: capture tables for {} rule sets written to {}",
        tables.len(),
        dir.display()
    );
    Ok(())
}

fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

fn find<'a>(tables: &'a [CaptureTable], board: Board, v: &Variants) -> &'a CaptureTable {
    tables
        .iter()
        .find(|t| t.board == board && t.variants == *v)
        .expect("reproduce builds every table it looks up")
}

/// One short label per variant column.
fn variant_label(v: &Variants) -> String {
    let mut parts = Vec::new();
    if v.dal != DalRule::Any {
        parts.push(format!("dal={}", v.dal));
    }
    if v.capture != CaptureRule::Final {
        parts.push(format!("capture={}", v.capture));
    }
    if parts.is_empty() {
        "default".to_owned()
    } else {
        parts.join(" ")
    }
}

/// The Markdown summary: both tables side by side with the published
/// percentages (the Danish default table in full, the others as checks).
fn markdown_all(tables: &[CaptureTable]) -> String {
    let default = Variants::default();
    let boards = [Board::DANISH, Board::NORWEGIAN];
    let others: Vec<Variants> = reproduce_variants().into_iter().skip(1).collect();
    let dk = find(tables, Board::DANISH, &default);
    let depth = tables
        .iter()
        .flat_map(|t| t.single.iter().chain(&t.pair))
        .map(|r| r.board_daldals)
        .max()
        .unwrap_or(0);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Daldøs capture tables (RULES.md §1.7)\n\n\
         Generated by `dalkon reproduce`. B to move; the probability that B captures A's `a1` \
         this turn, extra throws after dal-dal included, B playing to maximise it.\n\n\
         - **closed form**: the board-free model (dice, distances, dal-dal rethrows; any \
         unwanted die spent elsewhere), exact, the dal-dal fixed point solved.\n\
         - **board**: a real position (a1 on the last hole of row A, b1/b2 behind it, a free B \
         piece on B2) through the full rules engine: exact where a dal-dal captures at once \
         (d1 = 1, 2), else {depth} dal-dal rethrows followed, a lower bound at most 16^-{} ≈ \
         9.1e-13 below the true board value. Every board value equals the closed form cut \
         after the same number of rethrows *exactly* (as fractions), on both boards and under \
         every variant.\n\
         - **published**: the traditional tables (rounded percentages; below 1% written <1). \
         Rows past d = 9 (table 1) and d2 = 4 (table 2), and all variants, were never \
         published.\n",
        depth + 1
    );
    let same = tables.iter().all(|t| {
        let d = find(tables, t.board, &default);
        t.single
            .iter()
            .chain(&t.pair)
            .zip(d.single.iter().chain(&d.pair))
            .all(|(a, b)| {
                a.probability == b.probability
                    && a.board_probability == b.board_probability
                    && a.daldal_use == b.daldal_use
            })
    });
    if same {
        let _ = writeln!(
            s,
            "- The variants `capture=path` and `dal=sternmost` give exactly the same numbers \
             (closed form, board and dal-dal use) as the default rules: every piece in these \
             positions is dalt, so the dal rule never applies, and an added move that would \
             capture on its first die can always be replaced by that die alone, with the other \
             die spent elsewhere."
        );
    } else {
        let _ = writeln!(
            s,
            "- Under the variants some numbers differ from the default rules: see the variant \
             columns."
        );
    }
    // Table 1.
    let _ = write!(
        s,
        "\n## Table 1: b1 alone, d behind a1\n\n\
         | d | published | closed form | % | best dal-dal use (published) |"
    );
    for b in boards {
        let _ = write!(s, " board: {} |", b.name());
    }
    for v in &others {
        let _ = write!(s, " {} |", variant_label(v));
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "|{}", "---|".repeat(5 + boards.len() + others.len()));
    for (i, r) in dk.single.iter().enumerate() {
        let _ = write!(
            s,
            "| {} | {} | {} | {:.2} | {} |",
            r.d1,
            published(TableKind::Single, r.d1, None).map_or("-".to_owned(), |p| format!("{p}%")),
            fraction_string(&r.probability),
            100.0 * to_f64(&r.probability),
            use_cell(r)
        );
        for b in boards {
            let row = &find(tables, b, &default).single[i];
            let _ = write!(s, " {:.12} |", to_f64(&row.board_probability));
        }
        for v in &others {
            let _ = write!(s, " {} |", variant_cell(tables, v, |t| &t.single[i]));
        }
        let _ = writeln!(s);
    }
    // Table 2.
    let _ = write!(
        s,
        "\n## Table 2: b1 d1 behind a1, b2 d2 behind a1 (b2 may not pass b1)\n\n\
         | d1 | d2 | published | closed form | % | best dal-dal use (published) |"
    );
    for b in boards {
        let _ = write!(s, " board: {} |", b.name());
    }
    for v in &others {
        let _ = write!(s, " {} |", variant_label(v));
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "|{}", "---|".repeat(6 + boards.len() + others.len()));
    for (i, r) in dk.pair.iter().enumerate() {
        let _ = write!(
            s,
            "| {} | {} | {} | {} | {:.2} | {} |",
            r.d1,
            r.d2.unwrap_or(0),
            published(TableKind::Pair, r.d1, r.d2).map_or("-".to_owned(), |p| format!("{p}%")),
            fraction_string(&r.probability),
            100.0 * to_f64(&r.probability),
            use_cell(r)
        );
        for b in boards {
            let row = &find(tables, b, &default).pair[i];
            let _ = write!(s, " {:.12} |", to_f64(&row.board_probability));
        }
        for v in &others {
            let _ = write!(s, " {} |", variant_cell(tables, v, |t| &t.pair[i]));
        }
        let _ = writeln!(s);
    }
    s
}

/// `2 (2)`: ours, then the published use where there is one.
fn use_cell(r: &TableRow) -> String {
    match published_daldal_use(r.kind, r.d1, r.d2) {
        Some(p) => format!("{} ({p})", r.daldal_use),
        None => r.daldal_use.to_string(),
    }
}

/// The closed form under a variant on both boards: the fraction if both
/// boards give the same, else each.
fn variant_cell(
    tables: &[CaptureTable],
    v: &Variants,
    pick: impl Fn(&CaptureTable) -> &TableRow,
) -> String {
    let rows: Vec<&TableRow> = [Board::DANISH, Board::NORWEGIAN]
        .iter()
        .map(|&b| pick(find(tables, b, v)))
        .collect();
    let first = fraction_string(&rows[0].probability);
    if rows
        .iter()
        .all(|r| fraction_string(&r.probability) == first)
    {
        first
    } else {
        rows.iter()
            .map(|r| fraction_string(&r.probability))
            .collect::<Vec<_>>()
            .join(" / ")
    }
}

/// The plot: probability against distance, one line per board and rule
/// set, the published percentages marked just right of ours.
fn svg(tables: &[CaptureTable]) -> anyhow::Result<String> {
    use plotters::prelude::*;
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (1100, 520)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let (left, right) = root.split_horizontally(560);
        let colors = [
            RGBColor(31, 119, 180),
            RGBColor(255, 127, 14),
            RGBColor(44, 160, 44),
            RGBColor(148, 103, 189),
            RGBColor(140, 86, 75),
            RGBColor(227, 119, 194),
            RGBColor(127, 127, 127),
            RGBColor(23, 190, 207),
        ];
        for (panel, area) in [(TableKind::Single, &left), (TableKind::Pair, &right)] {
            let title = match panel {
                TableKind::Single => "Table 1: b1 alone, d behind a1",
                TableKind::Pair => "Table 2: b1 d1 behind a1, b2 at d1+1",
            };
            let xmax = REPRODUCE_MAX as f64 + 0.5;
            let mut chart = ChartBuilder::on(area)
                .caption(title, ("sans-serif", 18))
                .margin(12)
                .x_label_area_size(36)
                .y_label_area_size(48)
                .build_cartesian_2d(0.5f64..xmax, 0f64..100f64)
                .map_err(plot_err)?;
            chart
                .configure_mesh()
                .x_desc(match panel {
                    TableKind::Single => "d (holes from b1 to a1)",
                    TableKind::Pair => "d1 (holes from b1 to a1)",
                })
                .y_desc("capture probability (%)")
                .draw()
                .map_err(plot_err)?;
            for (k, t) in tables.iter().enumerate() {
                let pts: Vec<(f64, f64)> = rows_for(t, panel)
                    .map(|r| (r.d1 as f64, 100.0 * to_f64(&r.board_probability)))
                    .collect();
                let color = colors[k % colors.len()];
                chart
                    .draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))
                    .map_err(plot_err)?
                    .label(format!("{} {}", t.board.name(), variant_label(&t.variants)))
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2))
                    });
                chart
                    .draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled())))
                    .map_err(plot_err)?;
            }
            let published_pts: Vec<(f64, f64)> = rows_for(&tables[0], panel)
                .filter_map(|r| {
                    let p = published(r.kind, r.d1, r.d2)?;
                    let v = if p == "<1" { 0.5 } else { p.parse().ok()? };
                    Some((r.d1 as f64 + 0.18, v))
                })
                .collect();
            chart
                .draw_series(
                    published_pts
                        .iter()
                        .map(|&p| Cross::new(p, 5, RED.stroke_width(2))),
                )
                .map_err(plot_err)?
                .label("published (%; <1 drawn at 0.5)")
                .legend(|(x, y)| Cross::new((x + 8, y), 5, RED.stroke_width(2)));
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperRight)
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .label_font(("sans-serif", 11))
                .draw()
                .map_err(plot_err)?;
        }
        root.present().map_err(plot_err)?;
    }
    Ok(text)
}

/// Rows drawn on a panel: table 1 whole, table 2 with b2 right behind b1.
fn rows_for(t: &CaptureTable, panel: TableKind) -> Box<dyn Iterator<Item = &TableRow> + '_> {
    match panel {
        TableKind::Single => Box::new(t.single.iter()),
        TableKind::Pair => Box::new(t.pair.iter().filter(|r| r.d2 == Some(r.d1 + 1))),
    }
}

fn plot_err<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow::anyhow!("drawing the plot: {e:?}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use dalkon_odds::ratio::percent_string;

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
    fn too_long_a_distance_is_refused() {
        let err = build(Board::NORWEGIAN, &Variants::default(), 13).unwrap_err();
        assert!(err.to_string().contains("up to 12"), "{err}");
    }
}
