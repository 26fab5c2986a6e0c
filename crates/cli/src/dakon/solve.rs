//! `dalkon dakon solve`: the exact value of a board's initial position, by
//! retrograde databases or by search; and the Dakon part of `reproduce`
//! (`data/dakon/initial_values.csv`, `openings.csv` and their summaries).

use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::ValueEnum;
use dalkon_rules::dakon::{Mikul, Nembak, Origin, Position, Rules};
use dalkon_solver::search::{self, Limits};
use serde_json::json;

use super::play::draw;
use super::progress::{with_search_spinner, BuildBar};
use super::RuleArgs;
use crate::common::{Format, Global};

/// How to solve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Method {
    /// Retrograde when the whole databases are small, search otherwise.
    Auto,
    /// Build (or load) every database level up to the seeds on the board.
    Retrograde,
    /// Exact alpha-beta (MTD(f)) from the initial position.
    Search,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Holes per row (n).
    #[arg(long)]
    pub holes: usize,
    /// Seeds per hole at the start (m).
    #[arg(long)]
    pub seeds: u32,
    /// Solving method.
    #[arg(long, value_enum, default_value_t = Method::Auto)]
    pub method: Method,
    /// Folder of the retrograde databases (default: $DALKON_DB_DIR, else
    /// `dalkon-db` in the working directory).
    #[arg(long)]
    pub db_dir: Option<PathBuf>,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// Search resources, shared by `solve` and `best`.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct SearchArgs {
    /// Transposition-table memory in MiB (default: half the available
    /// memory, at most 4096).
    #[arg(long, value_name = "MIB")]
    pub tt_mb: Option<usize>,
    /// Search only: answer positions with at most K seeds on the board from
    /// retrograde databases (built in memory, or loaded from / written to
    /// the database folder). Default: from 6 holes up, the largest K whose
    /// databases have at most 20 million entries; 0 turns probing off.
    #[arg(long, value_name = "K")]
    pub probe_seeds: Option<u32>,
}

/// Largest probe level whose databases stay within [`AUTO_RETRO_ENTRIES`]
/// (never more than the seeds of the board); 0 below 6 holes, where the
/// search alone takes seconds at most and building would cost more.
pub fn auto_probe_seeds(holes: usize, board_seeds: u32) -> u32 {
    if holes < 6 {
        return 0;
    }
    let mut k = 0;
    while k < board_seeds && retro_entries(holes, k + 1) <= AUTO_RETRO_ENTRIES {
        k += 1;
    }
    k
}

impl SearchArgs {
    /// Validated search limits: refuse a table that does not fit in memory.
    pub fn limits(&self, holes: usize) -> anyhow::Result<Limits> {
        let available = dalkon_solver::memory::available_memory();
        let bytes = match self.tt_mb {
            Some(mb) => {
                let bytes = mb.saturating_mul(1 << 20);
                if let Some(avail) = available {
                    if bytes as u64 > avail.saturating_sub(256 << 20) {
                        anyhow::bail!(
                            "--tt-mb {mb} does not fit: only {} MiB of memory are available",
                            avail >> 20
                        );
                    }
                }
                bytes
            }
            None => {
                let half = available.map_or(1 << 30, |a| (a / 2) as usize);
                half.min(4 << 30)
            }
        };
        let min = search::min_tt_bytes(holes);
        if bytes < min {
            anyhow::bail!(
                "the transposition table needs at least {} MiB, but only {} MiB fit or were given",
                min.div_ceil(1 << 20),
                bytes >> 20
            );
        }
        Ok(Limits {
            tt_bytes: bytes,
            max_nodes: None,
        })
    }
}

/// Boards whose whole databases have at most this many entries are solved
/// by retrograde analysis under `--method auto` (a few seconds to build).
pub const AUTO_RETRO_ENTRIES: u128 = 20_000_000;

/// Entries of the databases of levels `0..=k` for `holes` holes per row.
pub fn retro_entries(holes: usize, k: u32) -> u128 {
    let parts = 2 * holes as u64;
    dalkon_solver::rank::binomial(u64::from(k) + parts, parts).unwrap_or(u128::MAX)
}

/// A solved initial position.
#[derive(Debug, Clone)]
pub struct Solved {
    pub holes: usize,
    pub seeds: u32,
    pub rules: Rules,
    pub value: i32,
    pub best_moves: Vec<usize>,
    pub method: &'static str,
    pub positions: u64,
    pub seconds: f64,
    /// Search only: nodes, MTD(f) passes and table hits.
    pub nodes: Option<u64>,
    pub passes: Option<u64>,
    pub tt_hits: Option<(u64, u64)>,
}

/// "win", "draw" or "loss" for the first player.
pub fn result_word(value: i32) -> &'static str {
    match value.cmp(&0) {
        std::cmp::Ordering::Greater => "win",
        std::cmp::Ordering::Equal => "draw",
        std::cmp::Ordering::Less => "loss",
    }
}

fn start(holes: usize, seeds: u32) -> anyhow::Result<Position> {
    let m = u8::try_from(seeds)
        .ok()
        .filter(|&m| m >= 1)
        .with_context(|| format!("--seeds {seeds} must be between 1 and 255"))?;
    Position::start(holes, m)
        .with_context(|| format!("cannot set up {holes} holes × {seeds} seeds"))
}

/// Resolve `auto` for a board.
pub fn choose(method: Method, holes: usize, seeds: u32) -> Method {
    match method {
        Method::Auto => {
            if retro_entries(holes, 2 * holes as u32 * seeds) <= AUTO_RETRO_ENTRIES {
                Method::Retrograde
            } else {
                Method::Search
            }
        }
        m => m,
    }
}

/// Solve a board's initial position. `db_dir` None builds databases in
/// memory only.
pub fn solve_board(
    holes: usize,
    seeds: u32,
    rules: Rules,
    method: Method,
    db_dir: Option<&Path>,
    limits: &Limits,
    probe_seeds: u32,
) -> anyhow::Result<Solved> {
    let pos = start(holes, seeds)?;
    match choose(method, holes, seeds) {
        Method::Retrograde => {
            let t0 = std::time::Instant::now();
            let bar = BuildBar::new();
            let r = dalkon_solver::solve_retrograde(&pos, rules, db_dir, &bar);
            bar.finish();
            let r = r.context("retrograde solve failed")?;
            Ok(Solved {
                holes,
                seeds,
                rules,
                value: r.value,
                best_moves: r.best_moves,
                method: "retrograde",
                positions: r.positions,
                seconds: t0.elapsed().as_secs_f64(),
                nodes: None,
                passes: None,
                tt_hits: None,
            })
        }
        _ => {
            let db = if probe_seeds > 0 {
                let bar = BuildBar::new();
                let db = match db_dir {
                    Some(d) => {
                        dalkon_solver::Databases::open_or_build(d, holes, rules, probe_seeds, &bar)
                    }
                    None => dalkon_solver::Databases::build(holes, rules, probe_seeds, &bar),
                };
                bar.finish();
                Some(db.context("cannot prepare the probe databases")?)
            } else {
                None
            };
            let probe = db.as_ref().map(|d| d as &dyn search::Probe);
            let label = format!("solving {holes}x{seeds}");
            let r = with_search_spinner(&label, |p| {
                search::solve(&pos, &rules, limits, probe, Some(p))
            })?;
            Ok(Solved {
                holes,
                seeds,
                rules,
                value: r.value,
                best_moves: r.best_moves,
                method: "search",
                positions: r.positions,
                seconds: r.seconds,
                nodes: Some(r.nodes),
                passes: Some(r.passes),
                tt_hits: Some((r.tt_hits, r.tt_probes)),
            })
        }
    }
}

/// The database folder: `--db-dir`, else `$DALKON_DB_DIR`, else `dalkon-db`.
pub fn db_dir(arg: Option<PathBuf>) -> PathBuf {
    arg.or_else(|| std::env::var_os("DALKON_DB_DIR").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("dalkon-db"))
}

pub fn run(global: &Global, args: Args) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    let pos = start(args.holes, args.seeds)?;
    let rules = args.rules.rules();
    let limits = args.search.limits(args.holes)?;
    let dir = db_dir(args.db_dir);
    let s = solve_board(
        args.holes,
        args.seeds,
        rules,
        args.method,
        Some(&dir),
        &limits,
        args.search
            .probe_seeds
            .unwrap_or_else(|| auto_probe_seeds(args.holes, 2 * args.holes as u32 * args.seeds)),
    )?;
    if format == Format::Json {
        let j = json!({
            "holes": s.holes,
            "seeds": s.seeds,
            "value": s.value,
            "result": result_word(s.value),
            "best_moves": s.best_moves,
            "method": s.method,
            "positions": s.positions,
            "seconds": s.seconds,
        });
        println!("{j}");
        return Ok(());
    }
    println!("Dakon {}×{} ({rules})\n", s.holes, s.seeds);
    println!("{}", draw(&pos));
    let verdict = match result_word(s.value) {
        "win" => format!("South (the first player) wins by {}", s.value),
        "loss" => format!("South (the first player) loses by {}", -s.value),
        _ => "a draw".to_owned(),
    };
    println!("value       {:+}  ({verdict})", s.value);
    let best: Vec<String> = s.best_moves.iter().map(|h| h.to_string()).collect();
    println!("best moves  {}", best.join(" "));
    println!("method      {}", s.method);
    println!("positions   {}", s.positions);
    if let Some(nodes) = s.nodes {
        println!(
            "nodes       {nodes}  ({:.2} M/s)",
            nodes as f64 / s.seconds.max(1e-9) / 1e6
        );
    }
    if let Some(passes) = s.passes {
        println!("mtd passes  {passes}");
    }
    if let Some((hits, probes)) = s.tt_hits {
        println!(
            "table hits  {hits} of {probes} lookups ({:.1} %)",
            100.0 * hits as f64 / probes.max(1) as f64
        );
    }
    println!("seconds     {:.3}", s.seconds);
    Ok(())
}

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
    let limits = SearchArgs {
        tt_mb: None,
        probe_seeds: None,
    }
    .limits(7)?;

    let jobs = value_jobs(full);
    let jobs_full = value_jobs(true);
    let bar = super::progress::CountBar::new(jobs.len() as u64, "Dakon boards");
    let mut solved = Vec::new();
    for job in &jobs {
        bar.message(format!("{}x{} {}", job.holes, job.seeds, job.rules));
        let s = solve_board(
            job.holes,
            job.seeds,
            job.rules,
            Method::Auto,
            None,
            &limits,
            // The two largest boards need endgame probes to finish in
            // minutes (7x7: about 3.5 minutes with probes up to 12 seeds).
            if job.holes >= 7 && job.seeds >= 6 {
                auto_probe_seeds(job.holes, 2 * job.holes as u32 * job.seeds)
            } else {
                0
            },
        )?;
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
    let bar = super::progress::CountBar::new(boards.len() as u64, "Dakon openings");
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
        let limits = super::openings::CountLimits {
            max_positions: budget,
            checkpoint_minutes: ((n, m) == (7, 7)).then_some(10),
            ..Default::default()
        };
        let r = super::openings::board_openings(n, m, &Rules::default(), &limits);
        // Where the count is out of reach, still find out whether a
        // winning chain exists (a depth-first search in move order).
        let first = if r.is_err() {
            let limits = super::openings::CountLimits {
                max_positions: OPENINGS_BUDGET,
                ..Default::default()
            };
            Some(super::openings::board_first_chain(
                n,
                m,
                &Rules::default(),
                &limits,
            ))
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
                "retrograde" => "retrograde",
                "search" => "search",
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
    super::openings::chain(h, " ")
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
                result_word(s.value).into(),
                moves_text(&s.best_moves),
                s.method.into(),
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
            .filter(|s| s.rules == Rules::default() && result_word(s.value) == word)
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
