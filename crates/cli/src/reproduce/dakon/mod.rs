//! The Dakon part of `dalkon reproduce`: `data/dakon/initial_values.csv`,
//! `openings.csv`, `openings_first.csv` and their Markdown summaries.
//!
//! The CSV files are the record: the default run reads them back, keeps
//! the rows of the boards only `--full` solves (merged by key), and writes
//! every file, Markdown included, from the merged records. Nothing that
//! varies from run to run goes into them (see [`super::log`]).

//!
//! Files: `boards.rs` lists the boards, `records.rs` reads and merges the
//! rows, `render.rs` writes the files from them.

mod boards;
mod plot;
mod records;
mod render;

use std::path::Path;

use anyhow::Context;
use dalkon_rules::dakon::Rules;
use dalkon_solver::openings::{board_first_chain, plan_count, CountLimits, CountRequest};
use dalkon_solver::solve::{plan, Method, MethodChoice, SolveRequest};

use self::boards::{opening_boards, value_jobs, OPENINGS_BUDGET, OPENINGS_MEMORY_MB};
use self::records::{FirstOutcome, FirstRecord, OpeningRecord, Records, ValueRecord};
use super::log::RunLog;
use super::write_file;
use crate::dakon::openings;
use crate::dakon::progress::CountBar;
use crate::dakon::solve::run_with_progress;

/// Write the Dakon solved boards under `out/dakon/`: `initial_values.csv`
/// (+ `.md`), `openings.csv` and `openings_first.csv` (+ `openings.md`).
/// Without `full`, the rows an earlier `--full` run wrote there for its own
/// boards are kept.
pub fn reproduce(
    out: &Path,
    full: bool,
    log: &mut RunLog,
    say: &mut dyn std::io::Write,
) -> anyhow::Result<()> {
    let started = std::time::Instant::now();
    let dir = out.join("dakon");
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    // Read the earlier files before any work: a malformed row stops the
    // run at once, and nothing is written.
    let earlier = if full {
        Records::default()
    } else {
        Records::read(&dir)?
    };
    let mut records = Records::default();
    let jobs = value_jobs(full);
    let bar = CountBar::new(jobs.len() as u64, "Dakon boards");
    for job in &jobs {
        bar.message(format!("{}x{} {}", job.holes, job.seeds, job.rules));
        let s = run_with_progress(&plan(&SolveRequest {
            holes: job.holes,
            seeds: job.seeds,
            rules: job.rules,
            method: MethodChoice::Auto,
            db_dir: None,
            tt_mb: None,
            probe_seeds: None,
        })?)?;
        let mut line = format!(
            "dakon value {}x{} {}: {} positions={} seconds={:.3}",
            s.holes, s.seeds, s.rules, s.method, s.positions, s.seconds
        );
        if let (Some(nodes), Some(passes), Some((hits, probes))) = (s.nodes, s.passes, s.tt_hits) {
            line.push_str(&format!(
                " nodes={nodes} mtd_passes={passes} tt_hits={hits}/{probes}"
            ));
        }
        log.note(line);
        let method = s.method;
        records.values.push(ValueRecord {
            holes: s.holes,
            seeds: s.seeds,
            rules: s.rules,
            value: s.value,
            best_moves: s.best_moves,
            method,
            positions: (method == Method::Retrograde).then_some(s.positions),
        });
        bar.inc();
    }
    bar.finish();

    let boards = opening_boards(full);
    let bar = CountBar::new(boards.len() as u64, "Dakon openings");
    for &(n, m) in &boards {
        bar.message(format!("{n}x{m}"));
        let (budget, memory_mb) = if n >= 8 && m >= 8 {
            (OPENINGS_BUDGET, Some(OPENINGS_MEMORY_MB))
        } else {
            (u64::MAX, None)
        };
        // 7x7 takes about an hour: checkpoint it, so that an interrupted
        // `reproduce --full` resumes it (from dalkon-db/). The boards under
        // a budget stop anyway and keep nothing.
        let request = CountRequest {
            holes: n,
            seeds: m,
            rules: Rules::default(),
            limits: CountLimits {
                max_positions: budget,
                memory_mb,
                checkpoint_minutes: ((n, m) == (7, 7)).then_some(10),
                ..Default::default()
            },
        };
        match plan_count(&request).and_then(|p| openings::count(&p)) {
            Ok((o, secs)) => {
                log.note(format!(
                    "dakon openings {n}x{m}: positions={} seconds={secs:.3} peak_bytes={} disk_bytes={}",
                    o.positions, o.peak_bytes, o.disk_bytes
                ));
                records.openings.push(OpeningRecord::new(n, m, &o));
            }
            Err(e) => {
                // The count is out of reach: still find out whether a
                // winning chain exists (a depth-first search in move order).
                let request = CountRequest {
                    limits: CountLimits {
                        max_positions: OPENINGS_BUDGET,
                        ..Default::default()
                    },
                    ..request
                };
                let first = match board_first_chain(&request) {
                    Ok((f, secs)) => {
                        log.note(format!(
                            "dakon openings {n}x{m}: not finished; first chain after {} positions, seconds={secs:.3}",
                            f.positions
                        ));
                        match (f.chain, f.margin) {
                            (Some(chain), Some(margin)) => FirstOutcome::Found {
                                chain,
                                margin,
                                positions: f.positions,
                            },
                            _ => FirstOutcome::NoneWins {
                                positions: f.positions,
                            },
                        }
                    }
                    Err(e2) => FirstOutcome::Stopped {
                        error: format!("{e2:#}"),
                    },
                };
                records.firsts.push(FirstRecord {
                    holes: n,
                    seeds: m,
                    count_error: format!("{e:#}"),
                    first,
                });
            }
        }
        bar.inc();
    }
    bar.finish();

    let carried = records.carry(earlier);
    for (name, text) in records.render() {
        write_file(&dir.join(name), &text)?;
    }
    write_file(&dir.join("initial_values.svg"), &plot::svg(&records.values))?;

    let wins = records.values.iter().filter(|s| s.value > 0).count();
    let secs = started.elapsed().as_secs_f64();
    log.note(format!("dakon: seconds={secs:.1}"));
    writeln!(
        say,
        "dakon: {} boards solved ({wins} first-player wins), {} openings counted, {} not \
         finished ({carried} rows kept from an earlier --full run), {secs:.1} s, under {}",
        records.values.len(),
        records.openings.len(),
        records.firsts.len(),
        dir.display()
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::boards::{FULL_EXTRA, FULL_OPENINGS};
    use super::*;

    fn committed() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/dakon")
    }

    /// The committed CSV files read as records and written again are the
    /// same bytes, Markdown included: the Markdown is derived from them.
    #[test]
    fn the_committed_files_are_derived_from_their_records() {
        let dir = committed();
        let mut r = Records::read(&dir).unwrap();
        r.sort();
        for (name, text) in r.render() {
            let want = std::fs::read_to_string(dir.join(name)).unwrap();
            assert!(text == want, "{name} is not what its records give");
        }
    }

    /// The default run keeps exactly the rows of the `--full`-only boards.
    #[test]
    fn only_full_only_rows_are_carried() {
        let earlier = Records::read(&committed()).unwrap();
        let mut now = Records::default();
        let carried = now.carry(earlier);
        let d = Rules::default();
        assert!(now
            .values
            .iter()
            .all(|v| v.rules == d && FULL_EXTRA.contains(&(v.holes, v.seeds))));
        assert_eq!(now.values.len(), FULL_EXTRA.len());
        let boards: Vec<(usize, u32)> = now
            .openings
            .iter()
            .map(|o| (o.holes, o.seeds))
            .chain(now.firsts.iter().map(|f| (f.holes, f.seeds)))
            .collect();
        assert_eq!(boards, FULL_OPENINGS);
        assert_eq!(carried, FULL_EXTRA.len() + FULL_OPENINGS.len());
    }

    #[test]
    fn a_malformed_row_names_file_line_and_column() {
        let dir = std::env::temp_dir().join(format!("dalkon-reproduce-csv-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("openings.csv"),
            "holes,seeds,winning_chains,shortest,best,best_margin,positions,winning_positions\n\
             1,1,0,,,,1,0\n1,2,0,,,,x,0\n",
        )
        .unwrap();
        let e = Records::read(&dir).unwrap_err().to_string();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(
            e.ends_with("openings.csv: line 3, column 7 (positions): cannot read \"x\""),
            "{e}"
        );
    }
}
