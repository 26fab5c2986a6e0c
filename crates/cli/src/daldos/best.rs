//! `dalkon daldos best --position POS [--dice D1,D2] [--depth N]` (docs/cli.md):
//! the best play for a throw by expectiminimax, or without `--dice` the
//! expected value before the throw and the best play for each of the 16
//! throws.
//!
//! Depth counts throws: depth 1 chooses among the plays of the throw by the
//! static value of their results; each further unit averages over one more
//! throw (the opponent's, or the same side's after a dal-dal) and lets the
//! thrower choose. Values are the mover's win probability. A value is
//! labelled exact (`"exact": true`, text `exact`) only when it is the
//! game's value: every line the search needed for it ended in a finished
//! game (`dalkon_daldos::engine::search`, "Exact values"); any other value is
//! an estimate.
//!
//! Solved tables (docs/cli.md, "Daldøs solved") are read from `--db-dir`
//! (default `$DALKON_DB_DIR`, else `$XDG_DATA_HOME/dalkon`, else
//! `~/.local/share/dalkon`, as for Dakon's databases):
//! every layer of the position's board and rules found there. Wherever
//! the search reaches a position they cover, it takes the tables' value
//! instead of searching or evaluating it, and that value is exact (to
//! 1e-12, the tables' precision; with table values in a sum the search's
//! arithmetic rounds, see `engine::search`, "Known values"). A position
//! the tables cover is thus answered exactly at any depth. Without tables
//! (none found) the answer is what it was before there were tables.
//!
//! The answer comes within a node budget (`--max-nodes`, 0 for none): the
//! search deepens one unit at a time, 1, 2, … up to `--depth`, and when a
//! depth runs out of nodes the answer is that of the deepest depth that
//! finished, with `"complete": false`. Depth 1 always finishes (every root
//! play is granted its first node), so there is always an answer. Each depth
//! gets what the earlier ones left of the budget, so the whole answer costs
//! at most `--max-nodes` nodes (or one per root play, if that is more).
//!
//! JSON fields beyond docs/cli.md: `exact` (for the answer's value, for
//! each throw and each play), `upper_bound` per play (only with `--fast`,
//! where a play that cannot beat the best gets an upper bound instead of its
//! value), `plays_total` (the plays before `--top` cut the list),
//! `depth_asked` and `complete` (whether `depth` is the depth asked),
//! `nodes_total` (the nodes of every depth searched, the one that ran out
//! included; `nodes` and `stats` are those of the search at `depth`),
//! `stats` (node counts by kind, `table_hits` the positions valued by the
//! tables), `prune`, `tables` (layers of the tables found for the board and
//! rules, 0 for none); without `--dice`, `best` is null, `plays` is empty
//! and `throws` holds one entry per ordered throw.
//!
//! `--top K` lists at most K plays per throw. Without it JSON lists every
//! play, and text the first [`TEXT_TOP`] plays of the throw asked, or only
//! the best play of each throw without `--dice`.
//!
//! `--position -` reads one position per line on stdin and answers each
//! with one JSON line (crate::batch), without a progress bar.

use anyhow::Context;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use dalkon_daldos::engine::Daldos;
use dalkon_daldos::engine::{
    deepen, Analysis, DeepenOptions, DeepenProgress, Deepened, RootMode, Stats, ThrowAnalysis,
    MAX_DEPTH,
};
use dalkon_daldos::solved::{missing_layer, Tables};
use dalkon_rules::daldos::{Board, Position, Throw, Variants};
use dalkon_store::memory::available_memory;
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
    /// $DALKON_DB_DIR, else $XDG_DATA_HOME/dalkon, else
    /// ~/.local/share/dalkon): the search takes their exact
    /// value wherever they cover a position.
    #[arg(long, value_name = "DIR")]
    pub db_dir: Option<PathBuf>,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// The tables folder ([`dalkon_store::data_dir`]): `--db-dir`, else
/// `$DALKON_DB_DIR`, else `$XDG_DATA_HOME/dalkon`, else
/// `~/.local/share/dalkon`.
pub(super) fn db_dir(arg: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    Ok(dalkon_store::data_dir(arg)?)
}

/// Every layer of `board` under `variants` whose table is in `dir` (none
/// when the folder is missing or holds none: the tables are then empty,
/// and know their folder for the messages that name it).
pub(super) fn load_tables(
    dir: &Path,
    board: Board,
    variants: Variants,
) -> anyhow::Result<Arc<Tables>> {
    let mut t = Tables::new(board, variants, Some(dir));
    t.load_all()
        .with_context(|| format!("reading the tables in {}", dir.display()))?;
    Ok(Arc::new(t))
}

/// Whether tables hold no layer.
pub(super) fn is_empty(t: &Tables) -> bool {
    t.stats().is_empty()
}

/// The game for positions of `board`: with its tables when `dir` has any;
/// and the tables (empty or not), which name the layers a position lacks.
fn game_for(dir: &Path, board: Board, variants: Variants) -> anyhow::Result<(Daldos, Arc<Tables>)> {
    let t = load_tables(dir, board, variants)?;
    let game = if is_empty(&t) {
        Daldos::new(variants)
    } else {
        Daldos::with_tables(Arc::clone(&t))
    };
    Ok((game, t))
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

/// Plays the text lists for `--dice` without `--top`.
pub const TEXT_TOP: usize = 10;

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

#[derive(Debug, Serialize)]
struct PlayJson {
    play: String,
    value: f64,
    /// `value` is the play's value in the game (every line ended).
    exact: bool,
    /// `value` is only an upper bound (`--fast`).
    upper_bound: bool,
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
    table_hits: u64,
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
            table_hits: s.table_hits,
        }
    }
}

#[derive(Debug, Serialize)]
struct ThrowJson {
    dice: String,
    value: f64,
    exact: bool,
    best: String,
    plays: Vec<PlayJson>,
    plays_total: usize,
}

#[derive(Debug, Serialize)]
struct BestJson {
    value: f64,
    exact: bool,
    best: Option<String>,
    plays: Vec<PlayJson>,
    plays_total: usize,
    depth: u32,
    depth_asked: u32,
    complete: bool,
    nodes: u64,
    nodes_total: u64,
    prune: bool,
    stats: StatsJson,
    /// Layers of solved tables the search used (0: none).
    tables: usize,
    /// The folder the tables were looked for in.
    db_dir: String,
    /// The position's layer when its table is not in `db_dir` (and could
    /// be built here), with the command that builds it.
    missing_tables: Vec<MissingJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    throws: Option<Vec<ThrowJson>>,
}

#[derive(Debug, Serialize)]
struct MissingJson {
    /// `2v1`: pieces of the side to throw v the other.
    layer: String,
    command: String,
    /// The layer's pieces, for the text.
    #[serde(skip)]
    pieces: (u8, u8),
}

/// The first `top` plays of a throw, best first.
fn play_rows(a: &ThrowAnalysis<Daldos>, board: Board, top: usize) -> Vec<PlayJson> {
    a.plays
        .iter()
        .take(top)
        .map(|p| PlayJson {
            play: p.play.notation(board),
            value: p.value,
            exact: p.exact,
            upper_bound: p.bound,
        })
        .collect()
}

/// What one answer needs besides the position and its game.
struct Query {
    throw: Option<Throw>,
    depth: u32,
    max_nodes: Option<u64>,
    prune: bool,
    mode: RootMode,
    /// Plays listed per throw.
    top: usize,
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
    let variants = args.rules.variants();
    let dir = db_dir(args.db_dir.clone())?;
    let query = Query {
        throw,
        depth: args.depth,
        max_nodes: (args.max_nodes > 0).then_some(args.max_nodes),
        prune: !args.no_prune,
        mode: if args.fast {
            RootMode::BestOnly
        } else {
            RootMode::AllExact
        },
        top: args.top.unwrap_or(usize::MAX),
    };
    if args.position == "-" {
        // One game (and its tables) per board met.
        let mut games: HashMap<Board, (Daldos, Arc<Tables>)> = HashMap::new();
        crate::batch::run(stdin, w, |text| {
            let pos = args.rules.position(text)?;
            let (game, tables) = match games.entry(pos.board()) {
                std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(game_for(&dir, pos.board(), variants)?)
                }
            };
            Ok(serde_json::to_value(answer(
                &query, game, tables, &pos, None,
            )?)?)
        })?;
        return Ok(());
    }
    let pos = args.rules.position(&args.position)?;
    let (game, tables) = game_for(&dir, pos.board(), variants)?;
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("depth {msg} {bar:40} {pos}/{len} root plays, eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let started = Instant::now();
    let out = answer(&query, &game, &tables, &pos, Some(&bar));
    bar.finish_and_clear();
    let out = out?;
    let seconds = started.elapsed().as_secs_f64();
    match format {
        Format::Json => writeln!(w, "{}", serde_json::to_string(&out)?)?,
        _ => {
            let top = args
                .top
                .unwrap_or(if throw.is_some() { TEXT_TOP } else { 1 });
            print_text(w, &pos, throw, &out, top, seconds)?
        }
    }
    Ok(())
}

/// The progress bar of one answer: each depth restarts it, one tick per
/// root play searched.
struct Bar<'a>(Option<&'a ProgressBar>);

impl DeepenProgress for Bar<'_> {
    fn depth_started(&self, depth: u32, depth_asked: u32, root_plays: usize) {
        if let Some(bar) = self.0 {
            bar.set_length(root_plays as u64);
            bar.set_position(0);
            bar.set_message(format!("{depth} of {depth_asked}"));
        }
    }

    fn root_play_done(&self) {
        if let Some(bar) = self.0 {
            bar.inc(1)
        }
    }
}

/// The answer for `pos`: iterative deepening within the node budget
/// (`engine::deepen`, see the module documentation), ticking `bar` once
/// per root play searched.
fn answer(
    q: &Query,
    game: &Daldos,
    tables: &Tables,
    pos: &Position,
    bar: Option<&ProgressBar>,
) -> anyhow::Result<BestJson> {
    let opts = DeepenOptions {
        depth: q.depth,
        max_nodes: q.max_nodes,
        prune: q.prune,
        mode: q.mode,
    };
    let d = deepen(game, pos, q.throw, opts, &Bar(bar), None)?;
    Ok(best_json(q, game, tables, pos, &d))
}

/// The JSON of an answer.
fn best_json(q: &Query, game: &Daldos, found: &Tables, pos: &Position, d: &Deepened) -> BestJson {
    let board = pos.board();
    let tables = game.tables.as_ref().map_or(0, |t| t.stats().len());
    let stats = d.analysis.stats();
    let (best, plays, plays_total, throws) = match &d.analysis {
        Analysis::Throw(a) => (
            Some(a.plays[0].play.notation(board)),
            play_rows(a, board, q.top),
            a.plays.len(),
            None,
        ),
        Analysis::Position(a) => {
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
                        exact: ta.exact,
                        best: ta.plays[0].play.notation(board),
                        plays: play_rows(ta, board, q.top),
                        plays_total: ta.plays.len(),
                    }
                })
                .collect();
            (None, Vec::new(), 0, Some(throws))
        }
    };
    BestJson {
        value: d.analysis.value(),
        exact: d.analysis.exact(),
        best,
        plays,
        plays_total,
        depth: d.depth,
        depth_asked: q.depth,
        complete: d.complete,
        nodes: stats.nodes(),
        nodes_total: d.nodes_total,
        prune: q.prune,
        stats: stats.into(),
        tables,
        db_dir: found
            .dir()
            .map(|d| d.display().to_string())
            .unwrap_or_default(),
        missing_tables: missing_layer(found, pos, available_memory())
            .map(|m| MissingJson {
                layer: format!("{}v{}", m.key.a, m.key.b),
                command: m.command,
                pieces: (m.key.a, m.key.b),
            })
            .into_iter()
            .collect(),
        throws,
    }
}

/// How a value is labelled in text: the game's value, an estimate, or
/// (`--fast`) an upper bound.
fn label(exact: bool, upper_bound: bool) -> &'static str {
    match (exact, upper_bound) {
        (_, true) => "upper bound",
        (true, false) => "exact",
        (false, false) => "estimate",
    }
}

/// The text answer: the board, the depth, then the plays of the throw
/// asked (at most `top`) or each throw's first `top` plays.
fn print_text(
    w: &mut dyn std::io::Write,
    pos: &Position,
    throw: Option<Throw>,
    out: &BestJson,
    top: usize,
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
    if out.tables > 0 {
        writeln!(
            w,
            "exact: the value of the game (every line searched ended in a finished game or \
             in the solved tables, {} layers; exact to 1e-12); estimate: a static evaluation \
             at the depth cut entered it",
            out.tables
        )?;
    } else {
        writeln!(
            w,
            "exact: the value of the game (every line searched ended); estimate: \
             a static evaluation at the depth cut entered it"
        )?;
    }
    if out.tables > 0 {
        writeln!(
            w,
            "tables: {} ({} layers of this board and rules)",
            out.db_dir, out.tables
        )?;
    } else {
        writeln!(w, "tables: {} (none of this board and rules)", out.db_dir)?;
    }
    for m in &out.missing_tables {
        let (a, b) = m.pieces;
        writeln!(
            w,
            "{}the {a} v {b} tables, which cover this position, are not in {}: build them with `{}`",
            if out.exact { "" } else { "not exact: " },
            out.db_dir,
            m.command
        )?;
    }
    let row = |p: &PlayJson| format!("{:.4}  {}", p.value, label(p.exact, p.upper_bound));
    match (throw, &out.throws) {
        (Some(t), _) => {
            writeln!(
                w,
                "throw {t}: best {} with value {:.4} ({side}'s win probability, {})",
                out.best.as_deref().unwrap_or("-"),
                out.value,
                label(out.exact, false)
            )?;
            let shown = &out.plays[..out.plays.len().min(top)];
            let width = shown.iter().map(|p| p.play.len()).max().unwrap_or(0);
            for (i, p) in shown.iter().enumerate() {
                writeln!(w, "  {:>3}. {:<width$}  {}", i + 1, p.play, row(p))?;
            }
            let more = out.plays_total - shown.len();
            if more > 0 {
                writeln!(
                    w,
                    "       … {more} more play{} (--top all lists every play)",
                    if more == 1 { "" } else { "s" }
                )?;
            }
        }
        (None, Some(throws)) => {
            writeln!(
                w,
                "expected value before the throw: {:.4} ({side}'s win probability, {})",
                out.value,
                label(out.exact, false)
            )?;
            let width = throws
                .iter()
                .flat_map(|t| t.plays.iter().take(top))
                .map(|p| p.play.len())
                .max()
                .unwrap_or(0);
            for t in throws {
                for (i, p) in t.plays.iter().take(top).enumerate() {
                    let dice = if i == 0 { t.dice.as_str() } else { "" };
                    writeln!(w, "  {dice:<3}  {:<width$}  {}", p.play, row(p))?;
                }
            }
            if throws.iter().any(|t| t.plays_total > top) {
                writeln!(
                    w,
                    "(at most {top} play{} per throw; --top K lists more)",
                    if top == 1 { "" } else { "s" }
                )?;
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
