//! `dalkon daldos best --position POS [--dice D1,D2] [--depth N]` (docs/cli.md):
//! the best play for a throw by expectiminimax, or without `--dice` the
//! expected value before the throw and the best play for each of the 16
//! throws.
//!
//! Depth counts throws: depth 1 chooses among the plays of the throw by the
//! static value of their results; each further unit averages over one more
//! throw (the opponent's, or the same side's after a dal-dal) and lets the
//! thrower choose. Values are the mover's win probability, exact 1/0 where
//! the game ends inside the search.
//!
//! JSON fields beyond docs/cli.md: `exact` per play (false only with `--fast`,
//! where a play that cannot beat the best gets an upper bound), `stats`
//! (node counts by kind), `prune`; without `--dice`, `best` is null, `plays`
//! is empty and `throws` holds one entry per ordered throw.

use anyhow::Context;
use std::time::Instant;

use dalkon_odds::engine::Daldos;
use dalkon_odds::engine::{
    analyse_position_with_progress, analyse_throw_with_progress, RootMode, SearchOptions, Stats,
    ThrowAnalysis, MAX_DEPTH,
};
use dalkon_rules::daldos::{plays, Board, Position, Throw};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use super::draw::draw;
use super::RuleArgs;
use crate::common::{Format, Global};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position (docs/rules.md §1.6).
    #[arg(long, value_name = "POS")]
    pub position: String,
    /// The throw, two faces 1..=4, e.g. 3,1. Without it: every throw.
    #[arg(long, value_name = "D1,D2")]
    pub dice: Option<String>,
    /// Search depth in throws (one throw and its play per unit).
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub depth: u32,
    /// Only the best play's value is exact; the others get upper bounds
    /// (faster: the best play's value becomes a pruning bound for the rest).
    #[arg(long)]
    pub fast: bool,
    /// Switch off Star1 / alpha-beta pruning (same values, more nodes).
    #[arg(long)]
    pub no_prune: bool,
    #[command(flatten)]
    pub rules: RuleArgs,
}

#[derive(Debug, Serialize)]
struct PlayJson {
    play: String,
    value: f64,
    exact: bool,
}

#[derive(Debug, Serialize)]
struct StatsJson {
    chance_nodes: u64,
    throw_nodes: u64,
    leaves: u64,
    terminals: u64,
    ordering_evals: u64,
    tt_hits: u64,
    cutoffs: u64,
}

impl From<Stats> for StatsJson {
    fn from(s: Stats) -> Self {
        StatsJson {
            chance_nodes: s.chance_nodes,
            throw_nodes: s.throw_nodes,
            leaves: s.leaves,
            terminals: s.terminals,
            ordering_evals: s.ordering_evals,
            tt_hits: s.tt_hits,
            cutoffs: s.cutoffs,
        }
    }
}

#[derive(Debug, Serialize)]
struct ThrowJson {
    dice: String,
    value: f64,
    best: String,
    plays: Vec<PlayJson>,
}

#[derive(Debug, Serialize)]
struct BestJson {
    value: f64,
    best: Option<String>,
    plays: Vec<PlayJson>,
    depth: u32,
    nodes: u64,
    prune: bool,
    stats: StatsJson,
    #[serde(skip_serializing_if = "Option::is_none")]
    throws: Option<Vec<ThrowJson>>,
}

fn play_rows(a: &ThrowAnalysis<Daldos>, board: Board) -> Vec<PlayJson> {
    a.plays
        .iter()
        .map(|p| PlayJson {
            play: p.play.notation(board),
            value: p.value,
            exact: p.exact,
        })
        .collect()
}

pub fn run(global: &Global, args: Args, w: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    let pos = args.rules.position(&args.position)?;
    if args.depth == 0 || args.depth > MAX_DEPTH {
        anyhow::bail!("--depth {} is out of range 1..={MAX_DEPTH}", args.depth);
    }
    let throw: Option<Throw> = args
        .dice
        .as_deref()
        .map(|d| d.parse::<Throw>().context("--dice"))
        .transpose()?;
    let game = Daldos::new(args.rules.variants());
    if let Some(w) = pos.winner(&game.variants) {
        anyhow::bail!(
            "the game is already over in this position ({} has won under end={})",
            w.letter(),
            game.variants.end
        );
    }
    let opts = SearchOptions {
        depth: args.depth,
        prune: !args.no_prune,
        ..SearchOptions::default()
    };
    let mode = if args.fast {
        RootMode::BestOnly
    } else {
        RootMode::AllExact
    };
    let board = pos.board();
    // One tick per root play searched.
    let root_plays: usize = match throw {
        Some(t) => plays(&pos, &game.variants, t).len(),
        None => Throw::DISTINCT
            .iter()
            .map(|&(t, _)| plays(&pos, &game.variants, t).len())
            .sum(),
    };
    let bar = ProgressBar::with_draw_target(Some(root_plays as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("depth {msg} {bar:40} {pos}/{len} root plays, eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message(args.depth.to_string());
    let tick = || bar.inc(1);
    let started = Instant::now();
    let out = match throw {
        Some(t) => {
            let a = analyse_throw_with_progress(&game, &pos, t, opts, mode, &tick)?;
            BestJson {
                value: a.value,
                best: Some(a.plays[0].play.notation(board)),
                plays: play_rows(&a, board),
                depth: args.depth,
                nodes: a.stats.nodes(),
                prune: opts.prune,
                stats: a.stats.into(),
                throws: None,
            }
        }
        None => {
            let a = analyse_position_with_progress(&game, &pos, opts, mode, &tick)?;
            let throws = Throw::ALL
                .iter()
                .map(|t| {
                    let (ta, _) = a
                        .throws
                        .iter()
                        .find(|(ta, _)| ta.throw == t.sorted())
                        .expect("every throw sorts to a distinct throw");
                    ThrowJson {
                        dice: t.to_string(),
                        value: ta.value,
                        best: ta.plays[0].play.notation(board),
                        plays: play_rows(ta, board),
                    }
                })
                .collect();
            BestJson {
                value: a.value,
                best: None,
                plays: Vec::new(),
                depth: args.depth,
                nodes: a.stats.nodes(),
                prune: opts.prune,
                stats: a.stats.into(),
                throws: Some(throws),
            }
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    bar.finish_and_clear();
    match format {
        Format::Json => writeln!(w, "{}", serde_json::to_string(&out)?)?,
        _ => print_text(w, &pos, throw, &out, seconds)?,
    }
    Ok(())
}

fn print_text(
    w: &mut dyn std::io::Write,
    pos: &Position,
    throw: Option<Throw>,
    out: &BestJson,
    seconds: f64,
) -> std::io::Result<()> {
    write!(w, "{}", draw(pos))?;
    writeln!(w)?;
    let side = pos.side_to_move().letter();
    writeln!(
        w,
        "depth {} (one unit = one throw and its play), pruning {}",
        out.depth,
        if out.prune { "on" } else { "off" }
    )?;
    let bound = |p: &PlayJson| if p.exact { "" } else { " (upper bound)" };
    match (throw, &out.throws) {
        (Some(t), _) => {
            writeln!(
                w,
                "throw {t}: best {} with value {:.4} ({side}'s win probability)",
                out.best.as_deref().unwrap_or("-"),
                out.value
            )?;
            let width = out.plays.iter().map(|p| p.play.len()).max().unwrap_or(0);
            for (i, p) in out.plays.iter().enumerate() {
                writeln!(
                    w,
                    "  {:>3}. {:<width$}  {:.4}{}",
                    i + 1,
                    p.play,
                    p.value,
                    bound(p)
                )?;
            }
        }
        (None, Some(throws)) => {
            writeln!(
                w,
                "expected value before the throw: {:.4} ({side}'s win probability)",
                out.value
            )?;
            let width = throws.iter().map(|t| t.best.len()).max().unwrap_or(0);
            for t in throws {
                writeln!(w, "  {}  {:<width$}  {:.4}", t.dice, t.best, t.value)?;
            }
        }
        (None, None) => {}
    }
    writeln!(
        w,
        "{} nodes in {:.3} s ({:.0} nodes/s)",
        out.nodes,
        seconds,
        out.nodes as f64 / seconds.max(1e-9)
    )
}
