//! The Dakon part of `dalkon reproduce`: `data/dakon/initial_values.csv`,
//! `openings.csv`, `openings_first.csv`, the proofs with
//! `proofs/manifest.csv`, and their Markdown summaries.
//!
//! The CSV files are the record: the default run reads them back, keeps
//! the rows only `--full` computes (merged by key), and writes every file,
//! Markdown included, from the merged records. Nothing that varies from
//! run to run goes into them (see [`super::log`]).
//!
//! Files: `boards.rs` lists the boards, `records.rs` reads and merges the
//! rows, `proofs.rs` makes the proof files, `render.rs` writes the files
//! from the records.

mod boards;
mod proofs;
mod records;
mod render;

use std::path::Path;

use anyhow::Context;
use dalkon_rules::dakon::Rules;
use dalkon_solver::openings::{board_first_chain, plan_count, CountLimits, CountRequest};
use dalkon_solver::solve::{plan, Method, MethodChoice, SolveRequest};

use self::boards::{
    full_proof, opening_boards, unproved, value_jobs, OPENINGS_BUDGET, OPENINGS_MEMORY_MB,
};
use self::proofs::{prove_board, write_proof, DEFAULT_MAX_LINES};
use self::records::{FirstOutcome, FirstRecord, OpeningRecord, Records, ValueRecord};
use super::log::RunLog;
use super::write_file;
use crate::dakon::openings;
use crate::dakon::progress::CountBar;
use crate::dakon::solve::run_with_progress;

/// Write the Dakon solved boards under `out/dakon/`: `initial_values.csv`
/// (+ `.md`), the proofs (`proofs/`, `proofs-large/`, `proofs.md`),
/// `openings.csv` and `openings_first.csv` (+ `openings.md`). Without
/// `full`, the rows an earlier `--full` run wrote there for what only it
/// computes are kept.
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
        Records::read_kept(&dir)?
    };
    let mut records = Records::default();
    let jobs = value_jobs();
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
            // `Solved::best_moves` is every best first move, by either method.
            best_moves_complete: true,
        });
        bar.inc();
    }
    bar.finish();

    // The proofs: the files are written at the end, with the manifest.
    let mut proof_files = Vec::new();
    let bar = CountBar::new(jobs.len() as u64, "Dakon proofs");
    for (job, value) in jobs.iter().zip(&records.values) {
        if unproved(job.holes, job.seeds, job.rules)
            || !full && full_proof(job.holes, job.seeds, job.rules)
        {
            bar.inc();
            continue;
        }
        bar.message(format!("{}x{} {}", job.holes, job.seeds, job.rules));
        let max_lines = (!full).then_some(DEFAULT_MAX_LINES);
        let p = prove_board(job, max_lines).with_context(|| {
            let limit = if full {
                String::new()
            } else {
                format!(" (the default run allows {DEFAULT_MAX_LINES} lines a strategy)")
            };
            format!(
                "cannot prove {}x{} {}{limit}",
                job.holes, job.seeds, job.rules
            )
        })?;
        if p.proved.value != value.value || p.proved.best_moves != value.best_moves {
            anyhow::bail!(
                "the proof of {}x{} {} gives the value {} (best moves {:?}), the solve {} ({:?})",
                job.holes,
                job.seeds,
                job.rules,
                p.proved.value,
                p.proved.best_moves,
                value.value,
                value.best_moves
            );
        }
        let mut line = format!(
            "dakon proof {}x{} {}: search_seconds={:.3} extract_seconds={:.3}",
            job.holes, job.seeds, job.rules, p.proved.seconds[0], p.proved.seconds[1]
        );
        for (r, _) in &p.files {
            line.push_str(&format!(
                " player{}: lines={} bytes={}",
                r.player, r.lines, r.bytes
            ));
        }
        log.note(line);
        for (r, bytes) in p.files {
            records.proofs.push(r.clone());
            proof_files.push((r, bytes));
        }
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
    records.check_proofs()?;
    for (r, bytes) in &proof_files {
        write_proof(&dir, r, bytes)?;
    }
    let committed_dir = dir.join(proofs::COMMITTED_DIR);
    std::fs::create_dir_all(&committed_dir)
        .with_context(|| format!("cannot create {}", committed_dir.display()))?;
    for (name, text) in records.render() {
        write_file(&dir.join(name), &text)?;
    }

    let wins = records.values.iter().filter(|s| s.value > 0).count();
    let secs = started.elapsed().as_secs_f64();
    log.note(format!("dakon: seconds={secs:.1}"));
    let committed = records.proofs.iter().filter(|p| p.committed).count();
    writeln!(
        say,
        "dakon: {} boards solved ({wins} first-player wins), {} proof files ({committed} \
         committed, {} in {}/), {} openings counted, {} not finished ({carried} rows kept from \
         an earlier --full run), {secs:.1} s, under {}",
        records.values.len(),
        records.proofs.len(),
        records.proofs.len() - committed,
        proofs::LARGE_DIR,
        records.openings.len(),
        records.firsts.len(),
        dir.display()
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::boards::{FULL_OPENINGS, FULL_PROOFS};
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

    /// The default run keeps exactly the rows only `--full` writes: the
    /// 7×7, 8×8 and 9×9 openings and the proofs of the `FULL_PROOFS`
    /// boards (two rows each).
    #[test]
    fn only_full_only_rows_are_carried() {
        let earlier = Records::read_kept(&committed()).unwrap();
        assert!(earlier.values.is_empty(), "the values are all recomputed");
        let mut now = Records::default();
        let carried = now.carry(earlier);
        let boards: Vec<(usize, u32)> = now
            .openings
            .iter()
            .map(|o| (o.holes, o.seeds))
            .chain(now.firsts.iter().map(|f| (f.holes, f.seeds)))
            .collect();
        assert_eq!(boards, FULL_OPENINGS);
        let proved: Vec<(usize, u32)> = now
            .proofs
            .iter()
            .filter(|p| p.player == 0)
            .map(|p| (p.holes, p.seeds))
            .collect();
        assert!(now.proofs.iter().all(|p| p.rules == Rules::default()));
        assert_eq!(proved, FULL_PROOFS);
        assert_eq!(carried, FULL_OPENINGS.len() + 2 * FULL_PROOFS.len());
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
