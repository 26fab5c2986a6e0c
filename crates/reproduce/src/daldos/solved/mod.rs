//! `data/daldos/solved.{csv,md,svg}`: the exact values of small Daldøs
//! boards (docs/rules.md §1.8, docs/solved.md), one row per layer, built
//! with `dalkon daldos solve`'s code into the table folder (never into
//! `data/`). `--full` adds larger scopes, written to `solved_full.{csv,md}`
//! only, so the default run leaves those files alone.
//!
//! Every number written is a pure function of the code: the tables are the
//! same bytes for any thread count, and a layer loaded from an earlier
//! build reports the same statistics as one just built. Seconds go to
//! `reproduce.log`. Files: `scopes.rs` lists what is solved, `render.rs`
//! writes CSV and Markdown, `plot.rs` the picture.

mod plot;
mod render;
mod scopes;

use std::path::Path;
use std::time::Instant;

use dalkon_rules::daldos::{Board, Variants};

use self::scopes::{default_scopes, full_scopes, Scope};
use crate::log::RunLog;
use crate::progress::Progress;
use crate::write_file as write;
use dalkon_daldos::request::solve::{LayerRow as LayerJson, SolveRequest, StartRow as StartJson};

/// One row of `solved.csv`: a layer of a board under a set of rules.
#[derive(Debug, Clone)]
pub(super) struct Row {
    pub board: Board,
    pub variants: Variants,
    pub layer: LayerJson,
    /// `W` at the start, on the whole-game layer `L v L`.
    pub start: Option<StartJson>,
}

/// Build (or load) every layer of `scope`, its rows in build order.
fn solve_scope(
    scope: &Scope,
    db: &Path,
    log: &mut RunLog,
    progress: &dyn Progress,
) -> anyhow::Result<Vec<Row>> {
    let mut rows: Vec<Row> = Vec::new();
    for &pieces in scope.pieces {
        let t0 = Instant::now();
        let s = SolveRequest {
            board: scope.board,
            variants: scope.variants,
            pieces,
            dir: db.to_path_buf(),
            check: false,
        }
        .run(&mut *progress.daldos_solve(scope.board), None)?;
        let built = s.layers.iter().filter(|l| !l.loaded).count();
        log.note(format!(
            "daldos solved board {} {} pieces {},{}: layers={} built={built} positions={} seconds={:.3}",
            scope.board.name(),
            scope.variants,
            pieces.0,
            pieces.1,
            s.layers.len(),
            s.positions,
            t0.elapsed().as_secs_f64()
        ));
        for l in s.layers {
            if rows.iter().any(|r| (r.layer.a, r.layer.b) == (l.a, l.b)) {
                continue;
            }
            let pair = if l.a == l.b { "" } else { " (with its swap)" };
            log.note(format!(
                "daldos solved board {} {} layer {}v{}: loaded={} seconds={:.3}{pair}",
                scope.board.name(),
                scope.variants,
                l.a,
                l.b,
                l.loaded,
                l.seconds
            ));
            let whole = l.a == scope.board.len() && l.b == scope.board.len();
            rows.push(Row {
                board: scope.board,
                variants: scope.variants,
                start: if whole { s.start } else { None },
                layer: l,
            });
        }
    }
    Ok(rows)
}

/// Solve `scopes` into `db`; all their rows.
fn solve_all(
    scopes: &[Scope],
    db: &Path,
    log: &mut RunLog,
    progress: &dyn Progress,
) -> anyhow::Result<Vec<Row>> {
    let mut rows = Vec::new();
    for scope in scopes {
        rows.extend(solve_scope(scope, db, log, progress)?);
    }
    Ok(rows)
}

/// Write `out/daldos/solved.{csv,md,svg}`, and with `full` also
/// `solved_full.{csv,md}`. Tables go to the table folder
/// (`$DALKON_DB_DIR`, else `./dalkon-db` if it exists, else `$XDG_DATA_HOME/dalkon`, else
/// `~/.local/share/dalkon`).
pub(super) fn reproduce_solved(
    out: &Path,
    full: bool,
    log: &mut RunLog,
    progress: &dyn Progress,
    say: &mut dyn std::io::Write,
) -> anyhow::Result<()> {
    let started = Instant::now();
    let dir = out.join("daldos");
    let db = dalkon_store::data_dir(None)?;
    let rows = solve_all(&default_scopes(), &db, log, progress)?;
    let full_rows = if full {
        Some(solve_all(&full_scopes(), &db, log, progress)?)
    } else {
        None
    };
    std::fs::create_dir_all(&dir)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
    write(&dir.join("solved.csv"), &render::csv(&rows))?;
    write(
        &dir.join("solved.md"),
        &render::markdown(&rows, render::Which::Default),
    )?;
    write(&dir.join("solved_material.svg"), &plot::svg(&rows)?)?;
    if let Some(full_rows) = &full_rows {
        write(&dir.join("solved_full.csv"), &render::csv(full_rows))?;
        write(
            &dir.join("solved_full.md"),
            &render::markdown(full_rows, render::Which::Full),
        )?;
    }
    let secs = started.elapsed().as_secs_f64();
    log.note(format!("daldos solved: seconds={secs:.1}"));
    let starts: Vec<String> = rows
        .iter()
        .chain(full_rows.iter().flatten())
        .filter_map(|r| {
            r.start.map(|s| {
                format!(
                    "{} {}: {:.12}",
                    r.board.name(),
                    render::rules_label(&r.variants),
                    s.value
                )
            })
        })
        .collect();
    let n = rows.len() + full_rows.as_ref().map_or(0, Vec::len);
    writeln!(
        say,
        "daldos: exact values of {n} layers{} (W at the start, {}), {secs:.1} s, under {} (tables in {})",
        if full { ", --full scopes included" } else { "" },
        starts.join("; "),
        dir.display(),
        db.display()
    )?;
    Ok(())
}
