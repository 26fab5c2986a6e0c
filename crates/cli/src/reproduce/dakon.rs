//! The Dakon part of `dalkon reproduce`: `data/dakon/initial_values.csv`,
//! `openings.csv` and their Markdown summaries.

use std::path::Path;

use anyhow::Context;
use dalkon_rules::dakon::{Mikul, Nembak, Origin, Rules};

use dalkon_solver::openings::{board_first_chain, plan_count, CountLimits, CountRequest};
use dalkon_solver::solve::{plan, Method, MethodChoice, Outcome, SolveRequest, Solved};

use crate::dakon::draw::chain;
use crate::dakon::openings;
use crate::dakon::progress::CountBar;
use crate::dakon::solve::run_with_progress;

/// One board to solve in `reproduce`.
#[derive(Debug, Clone, Copy)]
struct Job {
    holes: usize,
    seeds: u32,
    rules: Rules,
}

fn variant(origin: Origin, mikul: Mikul, nembak: Nembak) -> Rules {
    Rules {
        origin,
        mikul,
        nembak,
    }
}

/// The boards of `initial_values.csv` (CLI.md, "Data files"): default rules
/// on n = 1..4 × m = 1..10, 5 × m <= 6, 6 × m <= 4, 7 × m <= 3, then (with
/// `full`) further toward 7×7; one-option variants on n <= 4, m <= 6.
fn value_jobs(full: bool) -> Vec<Job> {
    let d = Rules::default();
    let mut jobs = Vec::new();
    let mut push = |holes: usize, seeds: u32, rules: Rules| {
        jobs.push(Job {
            holes,
            seeds,
            rules,
        })
    };
    for n in 1..=4 {
        for m in 1..=10 {
            push(n, m, d);
        }
    }
    for (n, max_m) in [(5, 6), (6, 4), (7, 3)] {
        for m in 1..=max_m {
            push(n, m, d);
        }
    }
    if full {
        for (n, m) in FULL_EXTRA {
            push(n, m, d);
        }
    }
    let variants = [
        variant(Origin::Skip, Mikul::On, Nembak::Keep),
        variant(Origin::Sow, Mikul::Off, Nembak::Keep),
        variant(Origin::Sow, Mikul::On, Nembak::Take),
    ];
    for rules in variants {
        for n in 1..=4 {
            for m in 1..=6 {
                push(n, m, rules);
            }
        }
    }
    jobs
}

/// Boards beyond the default list solved by `reproduce --full` (default
/// rules, by search).
const FULL_EXTRA: [(usize, u32); 13] = [
    (5, 7),
    (5, 8),
    (5, 9),
    (5, 10),
    (6, 5),
    (6, 6),
    (7, 4),
    (7, 5),
    (8, 2),
    (8, 3),
    (9, 2),
    (7, 6),
    (7, 7),
];

/// Distinct positions the openings count of 8×8 and 9×9 may hold. Their
/// first turns grow far beyond what this machine can count (7×7 alone holds
/// billions of positions, and each extra seed a hole multiplies the late
/// layers), so `--full` stops them here and lists them as not finished in
/// `openings.md`, with the layer reached.
const OPENINGS_BUDGET: u64 = 2_000_000_000;

/// Boards of `openings.csv`: every board up to 6×6, n <= 4 with m up to
/// 10, 5 × m <= 10, 6 × 7, 7 × m <= 6 and 8..10 × m <= 4 (7×6, 6×7, 9×4
/// and 10×4 take half a minute each, the others seconds at most); with
/// `full` also the m = n boards 7×7 (about an hour), 8×8 and 9×9 (the last
/// two under [`OPENINGS_BUDGET`]).
fn opening_boards(full: bool) -> Vec<(usize, u32)> {
    let max_m = |n: usize| match n {
        1..=5 => 10,
        6 => 7,
        7 => 6,
        _ => 4,
    };
    let mut v: Vec<(usize, u32)> = (1..=10)
        .flat_map(|n| (1..=max_m(n)).map(move |m| (n, m)))
        .collect();
    v.extend(FULL_OPENINGS.iter().filter(|_| full));
    v
}

/// Openings boards only `--full` counts.
const FULL_OPENINGS: [(usize, u32); 3] = [(7, 7), (8, 8), (9, 9)];

/// Write the Dakon solved boards under `out/dakon/`: `initial_values.csv`
/// (+ `.md`) and `openings.csv` (+ `.md`).
pub fn reproduce(out: &Path, full: bool) -> anyhow::Result<()> {
    let dir = out.join("dakon");
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let jobs = value_jobs(full);
    let jobs_full = value_jobs(true);
    let bar = CountBar::new(jobs.len() as u64, "Dakon boards");
    let mut solved = Vec::new();
    for job in &jobs {
        bar.message(format!("{}x{} {}", job.holes, job.seeds, job.rules));
        let s = run_with_progress(&plan(&SolveRequest {
            holes: job.holes,
            seeds: job.seeds,
            rules: job.rules,
            method: MethodChoice::Auto,
            db_dir: None,
            tt_mb: None,
            // The two largest boards need endgame probes to finish in
            // minutes (7x7: about 3.5 minutes with probes up to 12 seeds).
            probe_seeds: (job.holes < 7 || job.seeds < 6).then_some(0),
        })?)?;
        solved.push(s);
        bar.inc();
    }
    bar.finish();
    if !full {
        // Keep what an earlier `--full` run found on its own boards.
        solved.extend(carried_values(&dir.join("initial_values.csv"))?);
        solved.sort_by_key(|s| value_order(s, &jobs_full));
    }
    write_values(&dir, &solved)?;

    let boards = opening_boards(full);
    let bar = CountBar::new(boards.len() as u64, "Dakon openings");
    let mut openings = Vec::new();
    for &(n, m) in &boards {
        bar.message(format!("{n}x{m}"));
        let budget = if n >= 8 && m >= 8 {
            OPENINGS_BUDGET
        } else {
            u64::MAX
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
                checkpoint_minutes: ((n, m) == (7, 7)).then_some(10),
                ..Default::default()
            },
        };
        let r = plan_count(&request)
            .and_then(|p| openings::count(&p))
            .map_err(anyhow::Error::from);
        // Where the count is out of reach, still find out whether a
        // winning chain exists (a depth-first search in move order).
        let first = if r.is_err() {
            let request = CountRequest {
                limits: CountLimits {
                    max_positions: OPENINGS_BUDGET,
                    ..Default::default()
                },
                ..request
            };
            Some(board_first_chain(&request).map_err(anyhow::Error::from))
        } else {
            None
        };
        openings.push((n, m, r, first));
        bar.inc();
    }
    bar.finish();
    let mut carried = Vec::new();
    if !full {
        carried = carried_openings(&dir)?;
    }
    write_openings(&dir, &openings, &carried)?;

    let wins = solved.iter().filter(|s| s.value > 0).count();
    println!(
        "dakon: {} boards solved ({} first-player wins), {} opening searches, under {}",
        solved.len(),
        wins,
        openings.len(),
        dir.display()
    );
    Ok(())
}

/// Where a solved board goes in `initial_values.csv`: the order of the
/// `--full` job list.
fn value_order(s: &Solved, jobs: &[Job]) -> usize {
    jobs.iter()
        .position(|j| j.holes == s.holes && j.seeds == s.seeds && j.rules == s.rules)
        .unwrap_or(usize::MAX)
}

/// The rows of `--full`-only boards (default rules, [`FULL_EXTRA`]) in an
/// existing `initial_values.csv`, so that the default run keeps them.
fn carried_values(path: &Path) -> anyhow::Result<Vec<Solved>> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let bad = || anyhow::anyhow!("{}: cannot read the row '{line}'", path.display());
        if f.len() < 11 {
            return Err(bad());
        }
        let holes: usize = f[0].parse().map_err(|_| bad())?;
        let seeds: u32 = f[1].parse().map_err(|_| bad())?;
        if f[2..5] != ["sow", "on", "keep"] || !FULL_EXTRA.contains(&(holes, seeds)) {
            continue;
        }
        let best_moves = f[7]
            .split_whitespace()
            .map(|h| h.parse().map_err(|_| bad()))
            .collect::<anyhow::Result<Vec<usize>>>()?;
        out.push(Solved {
            holes,
            seeds,
            rules: Rules::default(),
            value: f[5].parse().map_err(|_| bad())?,
            best_moves,
            method: match f[8] {
                "retrograde" => Method::Retrograde,
                "search" => Method::Search,
                _ => return Err(bad()),
            },
            positions: f[9].parse().map_err(|_| bad())?,
            seconds: f[10].parse().map_err(|_| bad())?,
            nodes: None,
            passes: None,
            tt_hits: None,
        });
    }
    Ok(out)
}

/// What an earlier `--full` run wrote for its own openings boards
/// ([`FULL_OPENINGS`]): their `openings.csv` rows and the `openings.md`
/// lines of those it did not finish.
#[derive(Debug, Default)]
struct CarriedOpenings {
    csv_rows: Vec<String>,
    md_rows: Vec<String>,
    unfinished: Vec<String>,
}

fn carried_openings(dir: &Path) -> anyhow::Result<Vec<CarriedOpenings>> {
    let csv = std::fs::read_to_string(dir.join("openings.csv")).unwrap_or_default();
    let md = std::fs::read_to_string(dir.join("openings.md")).unwrap_or_default();
    let mut out = Vec::new();
    for &(n, m) in &FULL_OPENINGS {
        let mut c = CarriedOpenings::default();
        let prefix = format!("{n},{m},");
        c.csv_rows.extend(
            csv.lines()
                .filter(|l| l.starts_with(&prefix))
                .map(String::from),
        );
        let md_prefix = format!("| {n} | {m} |");
        c.md_rows.extend(
            md.lines()
                .filter(|l| l.starts_with(&md_prefix))
                .map(String::from),
        );
        let unfinished = format!("- {n}×{m}: not finished");
        c.unfinished.extend(
            md.lines()
                .filter(|l| l.starts_with(&unfinished))
                .map(String::from),
        );
        out.push(c);
    }
    Ok(out)
}

fn moves_text(h: &[usize]) -> String {
    chain(h, " ")
}

fn write_file(path: &Path, text: &str) -> anyhow::Result<()> {
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

fn write_values(dir: &Path, solved: &[Solved]) -> anyhow::Result<()> {
    let mut csv = String::from(
        "holes,seeds,origin,mikul,nembak,value,result,best_moves,method,positions,seconds\n",
    );
    let mut md = String::from(
        "# Dakon: solved initial positions\n\n\
         Generated by `dalkon reproduce`. `value` is the first player's final store \
         difference under perfect play by both sides (RULES.md §2.3); `result` is the \
         first player's. `positions` counts database entries built (retrograde) or \
         distinct positions searched (search); `seconds` is wall-clock time on the \
         machine that ran it.\n\n\
         | holes | seeds | origin | mikul | nembak | value | result | best moves | method | positions | seconds |\n\
         |---:|---:|---|---|---|---:|---|---|---|---:|---:|\n",
    );
    for s in solved {
        let (o, m, n) = s.rules.names();
        // The same cells in both files; Markdown signs the value.
        let cells = |value: String| {
            [
                s.holes.to_string(),
                s.seeds.to_string(),
                o.into(),
                m.into(),
                n.into(),
                value,
                Outcome::of(s.value).as_str().into(),
                moves_text(&s.best_moves),
                s.method.as_str().into(),
                s.positions.to_string(),
                format!("{:.3}", s.seconds),
            ]
        };
        csv.push_str(&cells(s.value.to_string()).join(","));
        csv.push('\n');
        md.push_str(&format!(
            "| {} |\n",
            cells(format!("{:+}", s.value)).join(" | ")
        ));
    }
    md.push_str(
        "\nValue for the first player, default rules (rows: holes, columns: seeds per hole):\n\n",
    );
    let d = Rules::default();
    let max_m = solved
        .iter()
        .filter(|s| s.rules == d)
        .map(|s| s.seeds)
        .max()
        .unwrap_or(0);
    let max_n = solved
        .iter()
        .filter(|s| s.rules == d)
        .map(|s| s.holes)
        .max()
        .unwrap_or(0);
    md.push_str("| n \\ m |");
    for m in 1..=max_m {
        md.push_str(&format!(" {m} |"));
    }
    md.push_str("\n|---|");
    md.push_str(&"---:|".repeat(max_m as usize));
    md.push('\n');
    for n in 1..=max_n {
        md.push_str(&format!("| {n} |"));
        for m in 1..=max_m {
            let cell = solved
                .iter()
                .find(|s| s.rules == d && s.holes == n && s.seeds == m)
                .map(|s| format!("{:+}", s.value))
                .unwrap_or_default();
            md.push_str(&format!(" {cell} |"));
        }
        md.push('\n');
    }
    md.push_str("\nFirst player, default rules:\n\n");
    for word in ["win", "draw", "loss"] {
        let boards: Vec<String> = solved
            .iter()
            .filter(|s| s.rules == Rules::default() && Outcome::of(s.value).as_str() == word)
            .map(|s| format!("{}×{}", s.holes, s.seeds))
            .collect();
        md.push_str(&format!(
            "- {word}: {}\n",
            if boards.is_empty() {
                "none".to_owned()
            } else {
                boards.join(", ")
            }
        ));
    }
    write_file(&dir.join("initial_values.csv"), &csv)?;
    write_file(&dir.join("initial_values.md"), &md)
}

type OpeningRow = (
    usize,
    u32,
    anyhow::Result<(dalkon_solver::openings::Openings, f64)>,
    Option<anyhow::Result<(dalkon_solver::openings::FirstChain, f64)>>,
);

fn write_openings(
    dir: &Path,
    rows: &[OpeningRow],
    carried: &[CarriedOpenings],
) -> anyhow::Result<()> {
    let mut csv = String::from(
        "holes,seeds,winning_chains,shortest,best,best_margin,seconds,positions,winning_positions\n",
    );
    let mut md = String::from(
        "# Dakon: openings that win outright\n\n\
         Generated by `dalkon reproduce` (default rules); the 7×7, 8×8 and 9×9 rows by \
         `dalkon reproduce --full`, and the default run keeps them. A winning chain is a \
         sequence of moves of the first player's first turn (bonus moves keep the turn) that \
         ends the game with the first player ahead before the opponent ever moves. \
         `shortest` is a shortest such chain, `best` one with the largest final margin \
         (ties: the lexicographically smallest chain). `positions` counts the distinct \
         positions of the first turn, every one of which was evaluated; `winning positions` \
         those from which the turn can still be won. `seconds` is wall-clock time on the \
         2-core machine that ran it.\n\n\
         | holes | seeds | winning chains | shortest | best | best margin | seconds | positions | winning positions |\n\
         |---:|---:|---:|---|---|---:|---:|---:|---:|\n",
    );
    let mut failed = Vec::new();
    for (n, m, r, first) in rows {
        match r {
            Ok((o, secs)) => {
                let margin = o.best_margin.map(|v| v.to_string()).unwrap_or_default();
                csv.push_str(&format!(
                    "{n},{m},{},{},{},{margin},{secs:.3},{},{}\n",
                    o.winning_chains,
                    moves_text(&o.shortest),
                    moves_text(&o.best),
                    o.positions,
                    o.winning_positions
                ));
                let (shortest, best) = if o.winning_chains == 0 {
                    ("none".to_owned(), "none".to_owned())
                } else {
                    (moves_text(&o.shortest), moves_text(&o.best))
                };
                md.push_str(&format!(
                    "| {n} | {m} | {} | {shortest} | {best} | {margin} | {secs:.3} | {} | {} |\n",
                    o.winning_chains, o.positions, o.winning_positions
                ));
            }
            Err(e) => {
                let found = match first {
                    Some(Ok((f, secs))) => match (&f.chain, f.margin) {
                        (Some(c), Some(v)) => format!(
                            " A winning chain exists: the lexicographically first is {} \
                             ({} moves, final margin +{v}; found after {} positions in \
                             {secs:.3} s by `dalkon dakon openings --holes {n} --seeds {m} --first`).",
                            moves_text(c),
                            c.len(),
                            f.positions
                        ),
                        _ => format!(
                            " No chain wins (a complete depth-first search of {} positions).",
                            f.positions
                        ),
                    },
                    Some(Err(e2)) => format!(" The search for a first winning chain stopped too: {e2:#}."),
                    None => String::new(),
                };
                failed.push(format!("- {n}×{m}: not finished: {e:#}.{found}\n"));
            }
        }
    }
    for c in carried {
        for r in &c.csv_rows {
            csv.push_str(r);
            csv.push('\n');
        }
        for r in &c.md_rows {
            md.push_str(r);
            md.push('\n');
        }
        for r in &c.unfinished {
            failed.push(format!("{r}\n"));
        }
    }
    if !failed.is_empty() {
        md.push_str("\nNot in the table:\n\n");
        for f in failed {
            md.push_str(&f);
        }
    }
    write_file(&dir.join("openings.csv"), &csv)?;
    write_file(&dir.join("openings.md"), &md)
}
