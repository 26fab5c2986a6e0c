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
//! The answer comes within a node budget (`--max-nodes`, 0 for none): the
//! search deepens one unit at a time, 1, 2, … up to `--depth`, and when a
//! depth runs out of nodes the answer is that of the deepest depth that
//! finished, with `"complete": false`. Depth 1 always finishes (every root
//! play is granted its first node), so there is always an answer. Each depth
//! gets what the earlier ones left of the budget, so the whole answer costs
//! at most `--max-nodes` nodes (or one per root play, if that is more).
//!
//! JSON fields beyond docs/cli.md: `depth_asked` and `complete` (whether
//! `depth` is the depth asked), `nodes_total` (the nodes of every depth
//! searched, the one that ran out included; `nodes` and `stats` are those of
//! the search at `depth`), `exact` per play (false only with `--fast`,
//! where a play that cannot beat the best gets an upper bound), `stats`
//! (node counts by kind), `prune`; without `--dice`, `best` is null, `plays`
//! is empty and `throws` holds one entry per ordered throw.
//!
//! `--position -` reads one position per line on stdin and answers each
//! with one JSON line (crate::batch), without a progress bar.

use anyhow::Context;
use std::time::Instant;

use dalkon_odds::engine::Daldos;
use dalkon_odds::engine::{
    analyse_position_with_progress, analyse_throw_with_progress, RootMode, SearchError,
    SearchOptions, Stats, ThrowAnalysis, MAX_DEPTH,
};
use dalkon_rules::daldos::{plays, Board, Position, Throw};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use super::draw::draw;
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
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub depth: u32,
    /// Nodes the whole answer may visit, all depths together (0: no limit).
    /// The search deepens 1, 2, … up to --depth and answers with the
    /// deepest depth that finished within the limit. The default lets depth
    /// 3 finish in a middle game and stops deeper searches within about a
    /// minute.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_NODES)]
    pub max_nodes: u64,
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

/// The default `--max-nodes`. Measured on 2 cores: depth 3 of the
/// benchmark's 16-against-16 middle game without `--dice` visits 8.6
/// million nodes, but as the budget is shared equally between the root
/// plays it needs a budget between 15 and 20 million to finish (two other
/// middle games finished depth 3 within 30 million with 5.7 and 5.3
/// million nodes). The search visits 0.6 to 2 million nodes a second,
/// depending on the load, so `--depth 8` stops after 30 million nodes in
/// 15 to 50 s.
pub const DEFAULT_MAX_NODES: u64 = 30_000_000;

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
    depth_asked: u32,
    complete: bool,
    nodes: u64,
    nodes_total: u64,
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

/// What one answer needs besides the position.
struct Query<'a> {
    game: &'a Daldos,
    throw: Option<Throw>,
    depth: u32,
    max_nodes: Option<u64>,
    prune: bool,
    mode: RootMode,
}

pub fn run(
    global: &Global,
    args: Args,
    w: &mut dyn std::io::Write,
    stdin: &mut dyn std::io::BufRead,
) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    if args.depth == 0 || args.depth > MAX_DEPTH {
        anyhow::bail!("--depth {} is out of range 1..={MAX_DEPTH}", args.depth);
    }
    let throw: Option<Throw> = args
        .dice
        .as_deref()
        .map(|d| d.parse::<Throw>().context("--dice"))
        .transpose()?;
    let game = Daldos::new(args.rules.variants());
    let query = Query {
        game: &game,
        throw,
        depth: args.depth,
        max_nodes: (args.max_nodes > 0).then_some(args.max_nodes),
        prune: !args.no_prune,
        mode: if args.fast {
            RootMode::BestOnly
        } else {
            RootMode::AllExact
        },
    };
    if args.position == "-" {
        crate::batch::run(stdin, w, |text| {
            let pos = args.rules.position(text)?;
            Ok(serde_json::to_value(answer(&query, &pos, None)?)?)
        })?;
        return Ok(());
    }
    let pos = args.rules.position(&args.position)?;
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("depth {msg} {bar:40} {pos}/{len} root plays, eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let started = Instant::now();
    let out = answer(&query, &pos, Some(&bar));
    bar.finish_and_clear();
    let out = out?;
    let seconds = started.elapsed().as_secs_f64();
    match format {
        Format::Json => writeln!(w, "{}", serde_json::to_string(&out)?)?,
        _ => print_text(w, &pos, throw, &out, seconds)?,
    }
    Ok(())
}

/// The answer for `pos`: iterative deepening within the node budget (see
/// the module documentation), ticking `bar` once per root play searched.
fn answer(q: &Query, pos: &Position, bar: Option<&ProgressBar>) -> anyhow::Result<BestJson> {
    if let Some(w) = pos.winner(&q.game.variants) {
        anyhow::bail!(
            "the game is already over in this position ({} has won under end={})",
            w.letter(),
            q.game.variants.end
        );
    }
    // One tick per root play searched.
    let root_plays: usize = match q.throw {
        Some(t) => plays(pos, &q.game.variants, t).len(),
        None => Throw::DISTINCT
            .iter()
            .map(|&(t, _)| plays(pos, &q.game.variants, t).len())
            .sum(),
    };
    // Without a budget every depth finishes: go straight to the one asked.
    let first = if q.max_nodes.is_some() { 1 } else { q.depth };
    let mut used = 0u64;
    let mut done: Option<BestJson> = None;
    for depth in first..=q.depth {
        if let Some(bar) = bar {
            bar.set_length(root_plays as u64);
            bar.set_position(0);
            bar.set_message(format!("{depth} of {}", q.depth));
        }
        let opts = SearchOptions {
            depth,
            prune: q.prune,
            max_nodes: q.max_nodes.map(|m| m.saturating_sub(used)),
            ..SearchOptions::default()
        };
        match search(q, pos, opts, &|| {
            if let Some(bar) = bar {
                bar.inc(1)
            }
        }) {
            Ok(mut out) => {
                used += out.nodes;
                out.nodes_total = used;
                out.complete = depth == q.depth;
                done = Some(out);
            }
            Err(SearchError::NodeLimit { nodes }) => {
                used += nodes;
                break;
            }
            Err(e) => return Err(e.into()),
        }
    }
    let mut out = done.context("the search found no answer within the node limit")?;
    out.nodes_total = used;
    Ok(out)
}

/// One search of `pos` to `opts.depth`.
fn search(
    q: &Query,
    pos: &Position,
    opts: SearchOptions,
    tick: &(dyn Fn() + Sync),
) -> Result<BestJson, SearchError> {
    let board = pos.board();
    let (game, mode) = (q.game, q.mode);
    Ok(match q.throw {
        Some(t) => {
            let a = analyse_throw_with_progress(game, pos, t, opts, mode, tick)?;
            BestJson {
                value: a.value,
                best: Some(a.plays[0].play.notation(board)),
                plays: play_rows(&a, board),
                depth: opts.depth,
                depth_asked: q.depth,
                complete: opts.depth == q.depth,
                nodes: a.stats.nodes(),
                nodes_total: a.stats.nodes(),
                prune: opts.prune,
                stats: a.stats.into(),
                throws: None,
            }
        }
        None => {
            let a = analyse_position_with_progress(game, pos, opts, mode, tick)?;
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
                depth: opts.depth,
                depth_asked: q.depth,
                complete: opts.depth == q.depth,
                nodes: a.stats.nodes(),
                nodes_total: a.stats.nodes(),
                prune: opts.prune,
                stats: a.stats.into(),
                throws: Some(throws),
            }
        }
    })
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
    let limit = if out.complete {
        " (".to_string()
    } else {
        format!(" of the {} asked (node limit reached; ", out.depth_asked)
    };
    writeln!(
        w,
        "depth {}{}one unit = one throw and its play), pruning {}",
        out.depth,
        limit,
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
        out.nodes_total,
        seconds,
        out.nodes_total as f64 / seconds.max(1e-9)
    )
}
