//! `dalkon dakon best`: the exact value of a position and of each move
//! (`dalkon_dakon::best`). `--position -` reads one position per line from
//! stdin and writes one JSON line per position.

use std::time::Duration;

use anyhow::Context;
use dalkon_dakon::best::{analyse_with, Analysis, Options};
use dalkon_dakon::search::answer::Session;
use dalkon_dakon::search::{Limits, SearchProgress};
use dalkon_dakon::solve::search_limits;
use dalkon_rules::dakon::{Position, Rules};
use serde_json::json;

use super::args::SearchArgs;
use super::draw::{chain, draw};
use super::progress::with_search_spinner;
use super::RuleArgs;
use crate::common::{quote, Format, Global};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Position in docs/rules.md §2.5 notation (1 to 32 holes a row, at most
    /// 255 seeds in all), or `-` for one position per line
    /// on stdin (JSON lines out).
    #[arg(long, allow_hyphen_values = true)]
    pub position: String,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Answer within about this many seconds: exact when the proof
    /// finishes, otherwise the best move found with proved bounds
    /// (`"exact": false`). Default: no limit (exact).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time: Option<Duration>,
    /// Answer within about this many search nodes, like --time; 0 for no
    /// limit (the default).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub max_nodes: u64,
    /// Also solve every move that is not best exactly (more work), so that
    /// every move has a value rather than an upper bound.
    #[arg(long)]
    pub every_move: bool,
    /// Plies of the estimate that picks the move when the budget ends
    /// before anything is proved.
    #[arg(long, default_value_t = 6)]
    pub estimate_depth: u32,
    #[command(flatten)]
    pub rules: RuleArgs,
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    let s: f64 = text
        .parse()
        .map_err(|_| format!("{} is not a number of seconds", quote(text)))?;
    if !(s > 0.0 && s <= 1e7) {
        return Err("--time must be more than 0 seconds and at most 10000000".to_owned());
    }
    Ok(Duration::from_secs_f64(s))
}

impl Args {
    fn limits(&self, holes: usize) -> anyhow::Result<Limits> {
        let max_nodes = (self.max_nodes > 0).then_some(self.max_nodes);
        Ok(Limits {
            time: self.time,
            ..search_limits(holes, self.search.tt_mb, max_nodes)?
        })
    }

    fn options(&self) -> Options {
        Options {
            every_move: self.every_move,
            estimate_depth: self.estimate_depth,
        }
    }
}

fn to_json(a: &Analysis) -> serde_json::Value {
    let moves: Vec<_> = a
        .move_bounds
        .iter()
        .map(|m| {
            if m.is_exact() && (a.exact || a.moves.iter().any(|e| e.0 == m.hole)) {
                json!({"move": m.hole, "value": m.lower})
            } else {
                json!({"move": m.hole, "lower": m.lower, "upper": m.upper})
            }
        })
        .collect();
    let mut j = json!({
        "value": a.value,
        "best_moves": a.best_moves,
        "moves": moves,
        "exact": a.exact,
        "pv": a.pv,
        "nodes": a.nodes,
        "seconds": a.seconds,
    });
    if !a.exact {
        j["lower"] = json!(a.lower);
        j["upper"] = json!(a.upper);
        if let Some(d) = a.estimate_depth {
            j["estimate_depth"] = json!(d);
        }
    }
    j
}

/// The last line of the text output: the work done, or that the answer is
/// not exact and why.
fn note(a: &Analysis) -> String {
    let work = format!(
        "{} nodes, {} positions in the table, {:.3} s",
        a.nodes, a.positions, a.seconds
    );
    match (a.exact, a.estimate_depth) {
        (true, _) => work,
        (false, None) => format!("budget reached ({work}): NOT exact; the value lies in [{:+}, {:+}]", a.lower, a.upper),
        (false, Some(depth)) => format!(
            "budget reached ({work}) before anything was proved: the move is an estimate {depth} plies deep, NOT exact"
        ),
    }
}

/// One query, with a session kept while the board and rules stay the same.
fn query(
    args: &Args,
    rules: &Rules,
    session: &mut Option<(Session, Limits)>,
    pos: &Position,
    progress: Option<&SearchProgress>,
) -> anyhow::Result<Analysis> {
    let keep = matches!(session, Some((s, _)) if s.serves(pos, rules));
    if !keep {
        let limits = args.limits(pos.holes())?;
        *session = Some((Session::new(pos.holes(), *rules, &limits), limits));
    }
    let (s, limits) = session.as_ref().expect("made above");
    Ok(analyse_with(
        pos,
        rules,
        limits,
        Some(s),
        progress,
        args.options(),
    )?)
}

pub fn run(
    global: &Global,
    args: Args,
    out: &mut dyn std::io::Write,
    stdin: &mut dyn std::io::BufRead,
) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    let rules = args.rules.rules();
    let mut session = None;
    if args.position == "-" {
        // One table for the whole batch while the board stays the same:
        // every bound in it is proved, so later positions reuse the work.
        crate::batch::run(stdin, out, |text| {
            let pos: Position = text
                .parse()
                .with_context(|| format!("bad position {}", quote(text)))?;
            Ok(to_json(&query(&args, &rules, &mut session, &pos, None)?))
        })?;
        return Ok(());
    }
    let pos: Position = args
        .position
        .parse()
        .with_context(|| format!("bad --position {}", quote(&args.position)))?;
    let r = with_search_spinner("solving", |p| {
        query(&args, &rules, &mut session, &pos, Some(p))
    })?;
    if format == Format::Json {
        writeln!(out, "{}", to_json(&r))?;
        return Ok(());
    }
    writeln!(out, "{}", draw(&pos))?;
    let label = r.label();
    writeln!(
        out,
        "value       {:+}  (final store difference for the side to move, {label})",
        r.value
    )?;
    writeln!(
        out,
        "best moves  {}",
        if r.best_moves.is_empty() {
            "none (game over)".to_owned()
        } else {
            chain(&r.best_moves, " ")
        }
    )?;
    if !r.pv.is_empty() {
        writeln!(
            out,
            "pv          {}{}",
            chain(&r.pv, " "),
            if r.exact {
                ""
            } else {
                "  (the table's line, not proved)"
            }
        )?;
    }
    if !r.move_bounds.is_empty() {
        writeln!(out, "\n move  value")?;
        for m in r.ranked() {
            writeln!(out, "{:>5}  {:>5}", m.hole, m.value.to_string())?;
        }
    }
    writeln!(out, "\n{}", note(&r))?;
    Ok(())
}
