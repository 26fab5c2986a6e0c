//! The Daldøs part of `dalkon reproduce`: `data/daldos/capture_tables.*`
//! and `matches.json` (the engine benchmark, [`MATCHES`]: the one list of
//! its matches, which `scripts/daldos_matches.sh` runs through
//! `reproduce --only daldos --full`).

use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use anyhow::Context;
use dalkon_odds::engine::{Daldos, MatchConfig, PlayerSpec};
use dalkon_odds::ratio::{fraction_string, to_f64};
use dalkon_odds::tables::{published, published_daldal_use, CaptureTable, TableKind, TableRow};
use dalkon_rules::daldos::{Board, CaptureRule, DalRule, EndRule, Variants};

use super::log::RunLog;
use super::write_file as write;
use crate::daldos::matchplay::play;
use crate::daldos::table::{build, csv_lines, table_json, TableJson, CSV_HEADER};

/// Write the Daldøs part of `data/` under `out` (`out/daldos/...`).
pub fn reproduce(
    out: &Path,
    full: bool,
    log: &mut RunLog,
    say: &mut dyn std::io::Write,
) -> anyhow::Result<()> {
    reproduce_tables(out, log, say)?;
    reproduce_matches(out, full, log, say)
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
fn reproduce_tables(
    out: &Path,
    log: &mut RunLog,
    say: &mut dyn std::io::Write,
) -> anyhow::Result<()> {
    let started = Instant::now();
    let dir = out.join("daldos");
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut tables = Vec::new();
    for board in [Board::DANISH, Board::NORWEGIAN] {
        for v in reproduce_variants() {
            let t0 = Instant::now();
            tables.push(build(board, &v, REPRODUCE_MAX)?);
            log.note(format!(
                "daldos table {} {}: seconds={:.3}",
                board.name(),
                variant_label(&v),
                t0.elapsed().as_secs_f64()
            ));
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
    let secs = started.elapsed().as_secs_f64();
    log.note(format!("daldos tables: seconds={secs:.1}"));
    writeln!(
        say,
        "daldos: capture tables for {} rule sets, {secs:.1} s, under {}",
        tables.len(),
        dir.display()
    )?;
    Ok(())
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
        "# Daldøs capture tables (docs/rules.md §1.7)\n\n\
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

/// One match of the engine benchmark.
#[derive(Debug, Clone, Copy)]
pub struct BenchMatch {
    /// Its key in `matches.json`.
    pub key: &'static str,
    /// Player a (who starts game 0) and player b.
    pub a: &'static str,
    pub b: &'static str,
    /// Played by `reproduce --full` only (minutes); the default run keeps
    /// the result an earlier `--full` run wrote.
    pub full_only: bool,
}

/// The engine benchmark of the README: 1000-game matches, seed 1, Danish
/// board, default rules, `a` and `b` alternating as the starting side.
/// Targets: engine:2 wins at least 95% against random and 70% against
/// greedy; engine:2 against itself measures the value of starting;
/// engine:3 against greedy what one more throw of depth buys.
pub const MATCHES: [BenchMatch; 4] = [
    BenchMatch {
        key: "engine2_vs_random",
        a: "engine:2",
        b: "random",
        full_only: false,
    },
    BenchMatch {
        key: "engine2_vs_greedy",
        a: "engine:2",
        b: "greedy",
        full_only: false,
    },
    BenchMatch {
        key: "engine2_vs_engine2",
        a: "engine:2",
        b: "engine:2",
        full_only: false,
    },
    BenchMatch {
        key: "engine3_vs_greedy",
        a: "engine:3",
        b: "greedy",
        full_only: true,
    },
];

/// The benchmark's match settings.
const MATCH_CONFIG: MatchConfig = MatchConfig {
    games: 1000,
    seed: 1,
    turn_cap: 5000,
};

/// A match result as `matches.json` holds it: the `match` JSON of docs/cli.md
/// without `seconds`, the one field that changes from run to run.
fn without_seconds(mut v: serde_json::Value) -> serde_json::Value {
    if let Some(map) = v.as_object_mut() {
        map.remove("seconds");
    }
    v
}

/// Write `out/daldos/matches.json`: the [`MATCHES`] (those marked
/// `full_only` with `full`; else kept from the file when an earlier
/// `--full` run wrote them).
fn reproduce_matches(
    out: &Path,
    full: bool,
    log: &mut RunLog,
    say: &mut dyn std::io::Write,
) -> anyhow::Result<()> {
    let dir = out.join("daldos");
    let path = dir.join("matches.json");
    let earlier = if full {
        serde_json::Map::new()
    } else {
        match std::fs::read_to_string(&path) {
            Ok(text) => match serde_json::from_str(&text)
                .with_context(|| format!("cannot read {} as JSON", path.display()))?
            {
                serde_json::Value::Object(map) => map,
                _ => anyhow::bail!("{}: not a JSON object", path.display()),
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => serde_json::Map::new(),
            Err(e) => {
                return Err(anyhow::Error::new(e).context(format!("cannot read {}", path.display())))
            }
        }
    };
    let mut json = serde_json::Map::new();
    let mut full_keys = Vec::new();
    for m in MATCHES {
        if m.full_only {
            full_keys.push(m.key);
        }
        if m.full_only && !full {
            match earlier.get(m.key) {
                Some(v) if v.is_object() => {
                    json.insert(m.key.into(), without_seconds(v.clone()));
                }
                Some(_) => anyhow::bail!("{}: {} is not a JSON object", path.display(), m.key),
                None => {}
            }
            continue;
        }
        let (a, b): (PlayerSpec, PlayerSpec) = (m.a.parse()?, m.b.parse()?);
        let result = play(
            &a,
            &b,
            Board::DANISH,
            Daldos::new(Default::default()),
            MATCH_CONFIG,
        );
        writeln!(
            say,
            "daldos match {a} vs {b}: a wins {}/{}, {:.1} s",
            result.a_wins, result.games, result.seconds
        )?;
        log.note(format!(
            "daldos match {} ({a} vs {b}): seconds={:.3}",
            m.key, result.seconds
        ));
        json.insert(
            m.key.into(),
            without_seconds(serde_json::to_value(&result)?),
        );
    }
    // Which command wrote the file depends only on which matches it holds.
    let present: Vec<&str> = full_keys
        .into_iter()
        .filter(|k| json.contains_key(*k))
        .collect();
    let command = if present.is_empty() {
        "dalkon reproduce".to_owned()
    } else {
        format!(
            "dalkon reproduce ({}: dalkon reproduce --full)",
            present.join(", ")
        )
    };
    json.insert("command".into(), command.into());
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    write(&path, &(serde_json::to_string_pretty(&json)? + "\n"))
}
