//! `dalkon daldos best --position POS [--dice D1,D2] [--depth N]` (docs/cli.md):
//! the best play for a throw by expectiminimax, or without `--dice` the
//! expected value before the throw and the best play for each of the 16
//! throws.
//!
//! Depth counts throws; values are the mover's win probability, labelled
//! exact only where they are the game's value; the solved tables of
//! `--db-dir` are used wherever they cover a position the search reaches;
//! the search deepens within `--max-nodes` (0: no limit). All of that is
//! the library's (`dalkon_daldos::request::best`).
//!
//! This file is flags → [`BestRequest`] → [`BestReport`] → text or JSON
//! (the report's fields are documented in `dalkon_daldos::request::best`).
//! `--top K` lists at most K plays per throw. Without it JSON lists every
//! play, and text the first [`TEXT_TOP`] plays of the throw asked, or only
//! the best play of each throw without `--dice`. `--position -` reads one
//! position per line on stdin and answers each with one JSON line
//! (crate::batch), without a progress bar.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use dalkon_daldos::engine::MAX_DEPTH;
use dalkon_daldos::request::best::{
    Analysts, BestError, BestRequest, DEFAULT_DEPTH, DEFAULT_MAX_NODES, TEXT_TOP,
};
use dalkon_daldos::request::{tables_dir, RolloutError, RolloutRequest, MAX_ROLLOUTS};
use dalkon_daldos::solved::Tables;
use dalkon_render::daldos::report;
use dalkon_rules::daldos::{Position, Throw};

use super::progress::SearchBar;
use super::RuleArgs;
use crate::common::{Format, Global};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position (docs/rules.md §1.6). `-` reads one position per line
    /// on stdin (JSON lines out).
    #[arg(long, value_name = "POS", allow_hyphen_values = true)]
    pub position: String,
    /// The throw, two faces 1..=4, e.g. 3,1. Without it: every throw.
    #[arg(long, value_name = "D1,D2")]
    pub dice: Option<String>,
    /// Search depth in throws (one throw and its play per unit).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_DEPTH)]
    pub depth: u32,
    /// Nodes the whole answer may visit, all depths together (0: no limit).
    /// The search deepens 1, 2, … up to --depth and answers with the
    /// deepest depth that finished within the limit. The default lets depth
    /// 3 finish in a middle game and stops deeper searches within about a
    /// minute.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_NODES)]
    pub max_nodes: u64,
    /// Only the best play gets its value; the others get upper bounds
    /// (faster: the best play's value becomes a pruning bound for the rest).
    #[arg(long)]
    pub fast: bool,
    /// List at most K plays per throw (`all`: every play). Default: every
    /// play in JSON; in text the first 10 for --dice, else each throw's
    /// best play only.
    #[arg(long, value_name = "K|all", value_parser = parse_top)]
    pub top: Option<usize>,
    /// Switch off Star1 / alpha-beta pruning (same values, more nodes).
    #[arg(long)]
    pub no_prune: bool,
    /// Folder of the solved tables (`dalkon daldos solve`; default:
    /// $DALKON_DB_DIR, else ./dalkon-db if it exists, else $XDG_DATA_HOME/dalkon, else
    /// ~/.local/share/dalkon): the search takes their exact
    /// value wherever they cover a position.
    #[arg(long, value_name = "DIR")]
    pub db_dir: Option<PathBuf>,
    /// Also estimate each listed play's value by N seeded games of the
    /// engine against itself from the position after it (mean ± standard
    /// error), 1..=100000.
    #[arg(long, value_name = "N")]
    pub rollouts: Option<u32>,
    /// The rollouts' seed (default 1); game k of every play has the same dice.
    #[arg(long, value_name = "S", requires = "rollouts")]
    pub rollout_seed: Option<u64>,
    /// The depth of the engine playing the rollouts (default 1).
    #[arg(long, value_name = "N", requires = "rollouts")]
    pub rollout_depth: Option<u32>,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// `--top`: a number from 1, or `all`.
fn parse_top(text: &str) -> Result<usize, String> {
    if text == "all" {
        return Ok(usize::MAX);
    }
    match text.parse::<usize>() {
        Ok(k) if k >= 1 => Ok(k),
        _ => Err("expected a number of plays from 1, or `all`".to_owned()),
    }
}

/// `--dice` and `--depth` as a request, the flags named in the errors.
pub(super) fn parse_request(
    dice: Option<&str>,
    depth: u32,
    max_nodes: u64,
    fast: bool,
    prune: bool,
    top: Option<usize>,
) -> anyhow::Result<BestRequest> {
    let throw: Option<Throw> = dice
        .map(|d| d.parse::<Throw>().context("--dice"))
        .transpose()?;
    BestRequest::new(throw, depth, Some(max_nodes), fast, prune, top).map_err(|e| match e {
        BestError::Depth(d) => anyhow::anyhow!("--depth {d} is out of range 1..={MAX_DEPTH}"),
        e => e.into(),
    })
}

/// The tables of `--db-dir` for each board met.
pub(super) fn analysts(db_dir: Option<PathBuf>, rules: &RuleArgs) -> anyhow::Result<Analysts> {
    Ok(Analysts::new(tables_dir(db_dir)?, rules.variants()))
}

/// The analyst of `pos`'s board, the folder named if its tables cannot be
/// read.
pub(super) fn analyst<'a>(
    all: &'a mut Analysts,
    pos: &Position,
) -> anyhow::Result<&'a dalkon_daldos::request::Analyst> {
    let dir = all.dir().display().to_string();
    all.get(pos.board())
        .with_context(|| format!("reading the tables in {dir}"))
}

/// The tables folder, for `game` and `match` (which load their tables
/// here until they ask the library's requests too).
pub(super) fn db_dir(arg: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    Ok(tables_dir(arg)?)
}

/// Every layer of `board` under `variants` in `dir` (see [`db_dir`]).
pub(super) fn load_tables(
    dir: &std::path::Path,
    board: dalkon_rules::daldos::Board,
    variants: dalkon_rules::daldos::Variants,
) -> anyhow::Result<std::sync::Arc<Tables>> {
    let t = dalkon_daldos::request::load_tables(dir, board, variants)
        .with_context(|| format!("reading the tables in {}", dir.display()))?;
    Ok(std::sync::Arc::new(t))
}

pub fn run(
    global: &Global,
    args: Args,
    w: &mut dyn std::io::Write,
    stdin: &mut dyn std::io::BufRead,
) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    let q = parse_request(
        args.dice.as_deref(),
        args.depth,
        args.max_nodes,
        args.fast,
        !args.no_prune,
        args.top,
    )?;
    let q = q.with_rollouts(
        args.rollouts
            .map(|n| RolloutRequest::new(n, args.rollout_seed, args.rollout_depth))
            .transpose()
            .map_err(|e| match e {
                RolloutError::Games(n) => {
                    anyhow::anyhow!("--rollouts {n} is out of range 1..={MAX_ROLLOUTS}")
                }
                RolloutError::Depth(d) => {
                    anyhow::anyhow!("--rollout-depth {d} is out of range 1..={MAX_DEPTH}")
                }
            })?,
    );
    let mut all = analysts(args.db_dir.clone(), &args.rules)?;
    if args.position == "-" {
        crate::batch::run(stdin, w, |text| {
            let pos = args.rules.position(text)?;
            let report = q.run(analyst(&mut all, &pos)?, &pos, &(), None)?;
            Ok(serde_json::to_value(report)?)
        })?;
        return Ok(());
    }
    let pos = args.rules.position(&args.position)?;
    let a = analyst(&mut all, &pos)?;
    let bar = SearchBar::new();
    let started = Instant::now();
    let out = q.run_with(a, &pos, &bar, &bar, None);
    bar.finish();
    let out = out?;
    let seconds = started.elapsed().as_secs_f64();
    match format {
        Format::Json => writeln!(w, "{}", serde_json::to_string(&out)?)?,
        _ => {
            let top = args
                .top
                .unwrap_or(if q.throw().is_some() { TEXT_TOP } else { 1 });
            write!(w, "{}", report::best(&pos, q.throw(), &out, top, seconds))?
        }
    }
    Ok(())
}
