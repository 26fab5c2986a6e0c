//! The Daldøs part of `dalkon reproduce`: `data/daldos/capture_tables.*`
//! (`summary.rs` writes the Markdown, `plot.rs` the SVG), `matches.json`
//! (`matches.rs`) and the exact values of small boards, `solved.*`
//! (`solved/`).

mod matches;
mod perfect;
mod plot;
mod sets;
mod solved;
mod summary;

use std::path::Path;
use std::time::Instant;

use anyhow::Context;
use dalkon_rules::daldos::Board;

use self::matches::reproduce_matches;
use self::perfect::reproduce_perfect;
use self::plot::svg;
use self::sets::{reproduce_variants, REPRODUCE_MAX};
use self::solved::reproduce_solved;
use self::summary::{markdown_all, variant_label};
use super::log::RunLog;
use super::write_file as write;
use crate::progress::Steps;
use dalkon_daldos::request::table::{
    build, csv_lines, table_json, TableReport as TableJson, CSV_HEADER,
};

/// The steps of [`reproduce`], each announced on [`Steps`].
pub const STEPS: usize = 4;

/// Write the Daldøs part of `data/` under `out` (`out/daldos/...`).
pub fn reproduce(
    out: &Path,
    full: bool,
    log: &mut RunLog,
    steps: &mut Steps,
    say: &mut dyn std::io::Write,
) -> anyhow::Result<()> {
    steps.start("daldos capture tables");
    reproduce_tables(out, log, say)?;
    steps.start("daldos matches");
    reproduce_matches(out, full, log, steps.progress(), say)?;
    steps.start("daldos exact values (solved tables)");
    reproduce_solved(out, full, log, steps.progress(), say)?;
    steps.start("daldos engine against perfect play");
    reproduce_perfect(out, full, log, say)
}

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
