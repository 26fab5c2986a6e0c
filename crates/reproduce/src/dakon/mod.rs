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
mod plot;
mod proofs;
mod records;
mod render;

use std::path::Path;

use anyhow::Context;
use dalkon_dakon::openings::{
    board_first_chain, plan_count, CountLimits, CountPlan, CountRequest, Openings,
};
use dalkon_dakon::solve::{plan, Method, MethodChoice, Plan, SolveRequest, Solved};
use dalkon_dakon::SolveError;
use dalkon_rules::dakon::Rules;

use self::boards::{
    full_proof, opening_boards, unproved, value_jobs, OPENINGS_BUDGET, OPENINGS_MEMORY_MB,
};
use self::proofs::{prove_board, write_proof, DEFAULT_MAX_LINES};
use self::records::{FirstOutcome, FirstRecord, OpeningRecord, Records, ValueRecord};
use super::log::RunLog;
use super::write_file;
use crate::progress::{Progress, Steps};

/// The steps of [`reproduce`], each announced on [`Steps`].
pub const STEPS: usize = 4;

/// Write the Dakon solved boards under `out/dakon/`: `initial_values.csv`
/// (+ `.md`), the proofs (`proofs/`, `proofs-large/`, `proofs.md`),
/// `openings.csv` and `openings_first.csv` (+ `openings.md`). Without
/// `full`, the rows an earlier `--full` run wrote there for what only it
/// computes are kept.
pub fn reproduce(
    out: &Path,
    full: bool,
    log: &mut RunLog,
    steps: &mut Steps,
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
    let progress = steps.progress();
    steps.start("dakon boards solved");
    let bar = progress.items(jobs.len() as u64, "Dakon boards");
    for job in &jobs {
        bar.message(format!("{}x{} {}", job.holes, job.seeds, job.rules));
        let s = solve(
            progress,
            &plan(&SolveRequest {
                holes: job.holes,
                seeds: job.seeds,
                rules: job.rules,
                method: MethodChoice::Auto,
                db_dir: None,
                tt_mb: None,
                probe_seeds: None,
            })?,
        )?;
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
    drop(bar);

    // The proofs: the files are written at the end, with the manifest.
    let mut proof_files = Vec::new();
    steps.start("dakon proofs");
    let bar = progress.items(jobs.len() as u64, "Dakon proofs");
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
    drop(bar);

    let boards = opening_boards(full);
    steps.start("dakon openings");
    let bar = progress.items(boards.len() as u64, "Dakon openings");
    for &(n, m) in &boards {
        bar.message(format!("{n}x{m}"));
        let (budget, memory_mb) = if n >= 8 && m >= 8 {
            (OPENINGS_BUDGET, Some(OPENINGS_MEMORY_MB))
        } else {
            (u64::MAX, None)
        };
        // 7x7 takes about an hour: checkpoint it, so that an interrupted
        // `reproduce --full` resumes it (from the database folder). The boards under
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
        match plan_count(&request).and_then(|p| count(progress, &p)) {
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
    drop(bar);

    steps.start("dakon files");
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
    write_file(&dir.join("initial_values.svg"), &plot::svg(&records.values))?;

    let wins = records.values.iter().filter(|s| s.value > 0).count();
    let secs = started.elapsed().as_secs_f64();
    log.note(format!("dakon: seconds={secs:.1}"));
    let committed = records.proofs.iter().filter(|p| p.committed).count();
    // Only a run that wrote large proofs names their folder (a default run
    // never writes there; the rows it keeps from an earlier --full run are
    // counted above).
    let large = match proof_files.iter().filter(|(r, _)| !r.committed).count() {
        0 => String::new(),
        n => format!(", {n} written into {}/", proofs::LARGE_DIR),
    };
    writeln!(
        say,
        "dakon: {} boards solved ({wins} first-player wins), {} proof files ({committed} \
         committed{large}), {} openings counted, {} not finished ({carried} rows kept from \
         an earlier --full run), {secs:.1} s, under {}",
        records.values.len(),
        records.proofs.len(),
        records.openings.len(),
        records.firsts.len(),
        dir.display()
    )?;
    Ok(())
}

/// Solve one board, its database build and search shown on `progress`.
fn solve(progress: &dyn Progress, plan: &Plan) -> Result<Solved, SolveError> {
    let last = match plan.method {
        Method::Retrograde => plan.start.seeds_on_board(),
        Method::Search => plan.probe_seeds,
    };
    let build = progress.dakon_build(last);
    match plan.method {
        Method::Retrograde => plan.run(&*build, None),
        Method::Search => {
            let mut solved = None;
            let label = format!("solving {}x{}", plan.holes, plan.seeds);
            progress.dakon_search(&label, &mut |p| solved = Some(plan.run(&*build, Some(p))));
            solved.expect("the search ran")
        }
    }
}

/// Count one board's openings, its layers shown on `progress`.
fn count(progress: &dyn Progress, plan: &CountPlan) -> Result<(Openings, f64), SolveError> {
    let label = format!("openings {}x{}", plan.holes, plan.seeds);
    let bar = progress.openings(&label, plan.resuming.then_some(plan.work_dir.as_path()));
    plan.count(&*bar)
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
    /// openings of `FULL_OPENINGS` (6×7, 7×6, 9×4, 10×4, 7×7, 8×8, 9×9) and the proofs of the `FULL_PROOFS`
    /// boards (two rows each, for those a `--full` run has proved).
    #[test]
    fn only_full_only_rows_are_carried() {
        let earlier = Records::read_kept(&committed()).unwrap();
        assert!(earlier.values.is_empty(), "the values are all recomputed");
        let mut now = Records::default();
        let carried = now.carry(earlier);
        let mut boards: Vec<(usize, u32)> = now
            .openings
            .iter()
            .map(|o| (o.holes, o.seeds))
            .chain(now.firsts.iter().map(|f| (f.holes, f.seeds)))
            .collect();
        boards.sort_unstable();
        let mut full = FULL_OPENINGS.to_vec();
        full.sort_unstable();
        assert_eq!(boards, full);
        let proved: Vec<(usize, u32)> = now
            .proofs
            .iter()
            .filter(|p| p.player == 0)
            .map(|p| (p.holes, p.seeds))
            .collect();
        assert!(now.proofs.iter().all(|p| p.rules == Rules::default()));
        assert!(proved.iter().all(|b| FULL_PROOFS.contains(b)), "{proved:?}");
        assert_eq!(carried, FULL_OPENINGS.len() + now.proofs.len());
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

    #[test]
    fn a_file_that_is_not_utf8_names_line_and_byte() {
        let dir =
            std::env::temp_dir().join(format!("dalkon-reproduce-utf8-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("openings.csv"),
            b"holes,seeds,winning_chains,shortest,best,best_margin,positions,winning_positions\n\
              1,1,0,,,,1,0\n1,2,\xff,,,,1,0\n",
        )
        .unwrap();
        let e = Records::read(&dir).unwrap_err().to_string();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(
            e.ends_with(
                "openings.csv: line 3: byte 5 of the line (0xff) is not UTF-8: the file must be \
                 UTF-8 text"
            ),
            "{e}"
        );
    }
}
#[cfg(test)]
mod proof_tests {
    use std::collections::BTreeSet;

    use dalkon_strategy::{verify, Strategy};

    use std::path::Path;

    use dalkon_dakon::solve::start_position;
    use dalkon_rules::dakon::Rules;

    use super::boards::{full_proof, unproved};
    use super::proofs::{sha256_hex, ProofRecord, COMMITTED_DIR, COMMIT_LIMIT};
    use super::records::Records;

    fn committed() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/dakon")
    }

    /// Every committed proof file is what the manifest says (bytes, sha256,
    /// lines, player, guarantees), of the start and rules it names, and
    /// holds: the rules-only checker finds that it secures exactly its
    /// guarantee (or that the guarantee is the trivial bound, minus every
    /// seed). A board's two guarantees meet at its value in
    /// `initial_values.csv`, so together they prove it.
    #[test]
    fn every_committed_proof_verifies_and_meets_the_value() {
        let dir = committed();
        let r = Records::read(&dir).unwrap();
        let mut checked = 0;
        for p in r.proofs.iter().filter(|p| p.committed) {
            let file = p.path();
            let bytes = std::fs::read(dir.join(&file)).unwrap();
            assert_eq!(bytes.len() as u64, p.bytes, "{file}: bytes");
            assert_eq!(sha256_hex(&bytes), p.sha256, "{file}: sha256");
            let s = Strategy::parse(&bytes).unwrap();
            assert_eq!(s.moves.len() as u64, p.lines, "{file}: lines");
            assert_eq!(
                (s.player.index(), s.guarantees, s.rules),
                (usize::from(p.player), p.guarantees, p.rules),
                "{file}: header"
            );
            assert_eq!(
                s.root,
                start_position(p.holes, p.seeds).unwrap(),
                "{file}: root"
            );
            let v = verify(&s);
            assert!(v.valid, "{file}: {:?}", v.failure);
            let trivial = -(2 * p.holes as i32 * p.seeds as i32);
            if p.guarantees > trivial {
                assert_eq!(v.proved, p.guarantees, "{file}: proved");
            }
            checked += 1;
        }
        assert!(checked >= 200, "only {checked} committed proofs");
        // Both files of every board the default run proves, and of every
        // other one a `--full` run has proved, meeting at its value.
        let proved: Vec<_> = r
            .values
            .iter()
            .filter(|v| !unproved(v.holes, v.seeds, v.rules))
            .filter(|v| {
                !full_proof(v.holes, v.seeds, v.rules)
                    || r.proofs
                        .iter()
                        .any(|p| (p.holes, p.seeds, p.rules) == v.key())
            })
            .collect();
        for v in &proved {
            let of = |player: u8| {
                r.proofs
                    .iter()
                    .find(|p| p.key() == (v.holes, v.seeds, v.rules, player))
                    .unwrap_or_else(|| {
                        panic!(
                            "no proof of {}x{} {} for player {player}",
                            v.holes, v.seeds, v.rules
                        )
                    })
            };
            assert_eq!(
                of(0).guarantees,
                v.value,
                "{}x{} {}",
                v.holes,
                v.seeds,
                v.rules
            );
            assert_eq!(
                of(1).guarantees,
                -v.value,
                "{}x{} {}",
                v.holes,
                v.seeds,
                v.rules
            );
            assert_eq!(of(0).committed, of(1).committed);
            assert_eq!(
                of(0).committed,
                of(0).bytes + of(1).bytes < COMMIT_LIMIT,
                "{}x{} {}: committed exactly when under the limit",
                v.holes,
                v.seeds,
                v.rules
            );
        }
        assert_eq!(r.proofs.len(), 2 * proved.len());
        r.check_proofs().unwrap();
    }

    /// The folder of committed proofs holds the manifest and the files it
    /// lists as committed, nothing else; and only `--full` writes a proof
    /// too large to commit (the default run never spends minutes on one).
    #[test]
    fn the_proofs_folder_holds_what_the_manifest_lists() {
        let dir = committed();
        let r = Records::read(&dir).unwrap();
        let mut listed: BTreeSet<String> = r
            .proofs
            .iter()
            .filter(|p| p.committed)
            .map(ProofRecord::path)
            .collect();
        listed.insert(format!("{COMMITTED_DIR}/manifest.csv"));
        let mut found = BTreeSet::new();
        for board in std::fs::read_dir(dir.join(COMMITTED_DIR)).unwrap() {
            let board = board.unwrap();
            let name = board.file_name().to_string_lossy().into_owned();
            if board.file_type().unwrap().is_dir() {
                for f in std::fs::read_dir(board.path()).unwrap() {
                    let f = f.unwrap().file_name().to_string_lossy().into_owned();
                    found.insert(format!("{COMMITTED_DIR}/{name}/{f}"));
                }
            } else {
                found.insert(format!("{COMMITTED_DIR}/{name}"));
            }
        }
        assert_eq!(found, listed);
        for p in r.proofs.iter().filter(|p| !p.committed) {
            assert!(
                full_proof(p.holes, p.seeds, p.rules),
                "{}: too large to commit, so only --full may prove it",
                p.path()
            );
        }
    }

    /// A kept proof row that disagrees with the solved values is a damaged
    /// data file ([`crate::DamagedData`]: the CLI's exit code 1, docs/cli.md,
    /// reproduce), with the row named.
    #[test]
    fn a_kept_proof_row_that_disagrees_is_damaged_data() {
        let damaged = |err: anyhow::Error| {
            err.downcast::<crate::DamagedData>()
                .expect("a DamagedData error")
                .0
        };
        let read = || Records::read(&committed()).unwrap();
        let mut r = read();
        // The 2×2 board is worth +8: South's proof guarantees 8.
        let p = r
            .proofs
            .iter_mut()
            .find(|p| (p.holes, p.seeds, p.player) == (2, 2, 0))
            .unwrap();
        assert_eq!(p.guarantees, 8);
        p.guarantees = 9;
        assert_eq!(
            damaged(r.check_proofs().unwrap_err()),
            "the proof of 2x2 origin=sow mikul=on nembak=keep for player 0 in proofs/manifest.csv \
             guarantees 9, but the value is 8: run `dalkon reproduce --full`"
        );
        let mut r = read();
        r.proofs
            .retain(|p| (p.holes, p.seeds, p.player) != (2, 2, 1));
        assert_eq!(
            damaged(r.check_proofs().unwrap_err()),
            "proofs/manifest.csv has a proof of 2x2 origin=sow mikul=on nembak=keep for player 0 only"
        );
        let mut r = read();
        r.values.retain(|v| (v.holes, v.seeds) != (2, 2));
        assert_eq!(
            damaged(r.check_proofs().unwrap_err()),
            "proofs/manifest.csv has a proof of 2x2 origin=sow mikul=on nembak=keep, a board not \
             solved"
        );
    }

    #[test]
    fn a_proof_row_names_its_path() {
        let r = ProofRecord {
            holes: 7,
            seeds: 7,
            rules: Rules::default(),
            player: 1,
            guarantees: -98,
            lines: 0,
            bytes: 1,
            sha256: sha256_hex(b""),
            committed: true,
        };
        assert_eq!(r.path(), "proofs/7x7-sow-on-keep/opponent.strategy.gz");
        assert_eq!(
            r.sha256,
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(r.regenerated_by(), "reproduce");
    }
}
