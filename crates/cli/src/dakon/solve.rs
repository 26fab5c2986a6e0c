//! `dalkon dakon solve`: the exact value of a board's initial position, by
//! retrograde databases or by search; and the Dakon part of `reproduce`
//! (`data/dakon/initial_values.csv`, `openings.csv` and their summaries).

use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::ValueEnum;
use dalkon_rules::dakon::{Position, Rules};
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
