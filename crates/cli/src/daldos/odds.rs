//! `dalkon daldos odds --position POS [--target HOLE]` (docs/cli.md): for
//! every enemy piece (or the one on `--target`), the probability that the
//! side to move captures it this turn (extra throws after dal-dal
//! included), and of capturing at least one.
//!
//! The library gives every probability as an exact fraction, which is the
//! probability itself only where nothing was cut (`exact`); elsewhere it is
//! a lower bound within `bound`. So the text shows a fraction only where it
//! is exact, and decimals with their bound elsewhere; JSON gives both.

use anyhow::Context;
use dalkon_daldos::capture::{capture_odds_with, CaptureOdds, OddsLimits, EXACT_DALDALS};
use dalkon_daldos::ratio::{fraction_string, to_f64};
use dalkon_rules::daldos::{Hole, Position};
use serde::Serialize;

use super::draw::draw;
use super::RuleArgs;
use crate::common::{Format, Global};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position (docs/rules.md §1.6); the side to move is the capturer.
    /// `-` reads one position per line on stdin (JSON lines out).
    #[arg(long, value_name = "POS", allow_hyphen_values = true)]
    pub position: String,
    /// Only the enemy piece on this hole, e.g. M5 (there must be one).
    #[arg(long, value_name = "HOLE")]
    pub target: Option<String>,
    /// Positions the search may evaluate before it settles for fewer
    /// dal-dal rethrows (and says so, with the bound that leaves).
    #[arg(long, default_value_t = OddsLimits::default().max_nodes, value_name = "N")]
    pub max_nodes: usize,
    #[command(flatten)]
    pub rules: RuleArgs,
}

#[derive(Debug, Serialize)]
struct TargetJson {
    hole: String,
    probability: f64,
    /// Exact (lower bound within `bound`).
    fraction: String,
    /// The true probability is at most this much above `probability`.
    bound: f64,
    /// Nothing was cut: `fraction` is the exact probability.
    exact: bool,
    /// Settled by the relaxed-model certificate (value cut after
    /// `daldals_max` rethrows, exactly).
    certified: bool,
}

#[derive(Debug, Serialize)]
struct OddsJson {
    side: String,
    targets: Vec<TargetJson>,
    any: f64,
    any_fraction: String,
    any_bound: f64,
    /// No rethrow was cut: the fractions are the exact probabilities.
    exact: bool,
    /// Each true probability is at most this much above the one given.
    bound: f64,
    /// Dal-dal rethrows the certificates follow.
    daldals_max: u32,
    /// Dal-dal rethrows the full search reached.
    daldals: u32,
    /// Targets the certificates settled.
    certified: usize,
    /// Positions evaluated.
    nodes: usize,
}

/// The JSON of docs/cli.md (`side`, `targets[].hole`, `targets[].probability`,
/// `any`), with the exact fractions and bounds beside; `targets` only the
/// piece on `target` when one is asked.
fn odds_json(pos: &Position, odds: &CaptureOdds, target: Option<Hole>) -> OddsJson {
    let board = pos.board();
    OddsJson {
        side: odds.side.letter().to_string(),
        targets: odds
            .targets
            .iter()
            .filter(|t| target.iter().all(|&h| h == t.hole))
            .map(|t| TargetJson {
                hole: board.hole_name(t.hole),
                probability: to_f64(&t.probability),
                fraction: fraction_string(&t.probability),
                bound: to_f64(&t.bound),
                exact: t.exact,
                certified: t.certified,
            })
            .collect(),
        any: to_f64(&odds.any),
        any_fraction: fraction_string(&odds.any),
        any_bound: to_f64(&odds.any_bound),
        exact: odds.exact,
        bound: to_f64(&odds.bound),
        daldals_max: EXACT_DALDALS,
        daldals: odds.daldals,
        certified: odds.certified,
        nodes: odds.nodes,
    }
}

pub fn run(
    global: &Global,
    args: Args,
    out: &mut dyn std::io::Write,
    stdin: &mut dyn std::io::BufRead,
) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    let variants = args.rules.variants();
    let limits = OddsLimits {
        max_daldals: EXACT_DALDALS,
        max_nodes: args.max_nodes,
        certify: true,
    };
    let target = args.target.as_deref();
    if args.position == "-" {
        crate::batch::run(stdin, out, |text| {
            let pos = args.rules.position(text)?;
            let hole = target.map(|t| target_hole(&pos, t)).transpose()?;
            let odds = capture_odds_with(&pos, &variants, limits);
            Ok(serde_json::to_value(odds_json(&pos, &odds, hole))?)
        })?;
        return Ok(());
    }
    let pos = args.rules.position(&args.position)?;
    let hole = target.map(|t| target_hole(&pos, t)).transpose()?;
    let odds = capture_odds_with(&pos, &variants, limits);
    let json = odds_json(&pos, &odds, hole);
    if format == Format::Json {
        writeln!(out, "{}", serde_json::to_string(&json)?)?;
        return Ok(());
    }
    write!(out, "{}", draw(&pos))?;
    writeln!(out)?;
    if let Some(w) = pos.winner(&variants) {
        writeln!(
            out,
            "the game is over ({} has won under end={}): nothing to capture",
            w.letter(),
            variants.end
        )?;
        return Ok(());
    }
    let (me, them) = (odds.side.letter(), odds.side.other().letter());
    writeln!(out, "{me} to move, {variants}")?;
    match &args.target {
        Some(_) => writeln!(
            out,
            "chance that {me} captures the {them} piece on {} this turn",
            json.targets.first().map_or("", |t| t.hole.as_str())
        )?,
        None => writeln!(out, "chance that {me} captures each {them} piece this turn")?,
    }
    writeln!(
        out,
        "(extra throws after a dal-dal included; {me} plays for each capture on its own)"
    )?;
    writeln!(
        out,
        "{:<5} {:>16}  {:>8}  {:>9}  fraction",
        "piece", "probability", "%", "accuracy"
    )?;
    let row = |name: &str, p: f64, bound: f64, exact: bool, fraction: &str| {
        let (accuracy, fraction) = if exact {
            ("exact".to_owned(), fraction)
        } else {
            (format!("+{bound:.1e}"), "")
        };
        format!(
            "{name:<5} {p:>16.12}  {:>8.3}  {accuracy:>9}  {fraction}",
            100.0 * p
        )
    };
    for t in &json.targets {
        let line = row(&t.hole, t.probability, t.bound, t.exact, &t.fraction);
        writeln!(out, "{}", line.trim_end())?;
    }
    let any_exact = json.any_bound == 0.0;
    if args.target.is_none() {
        let line = row(
            "any",
            json.any,
            json.any_bound,
            any_exact,
            &json.any_fraction,
        );
        writeln!(out, "{}", line.trim_end())?;
    }
    let shown_exact = json.targets.iter().all(|t| t.exact) && (args.target.is_some() || any_exact);
    if !shown_exact {
        writeln!(
            out,
            "(accuracy +B: the true probability is at most B above the one shown, where a \
             chain of dal-dals was cut; only exact values are given as fractions)"
        )?;
    }
    if args.target.is_none() {
        writeln!(
            out,
            "(any: at least one {them} piece; {} of {} pieces settled by the relaxed-model \
             certificate, {} positions)",
            odds.certified,
            odds.targets.len(),
            odds.nodes
        )?;
    }
    Ok(())
}

/// The hole `--target` names, which must hold a piece of the side not to
/// move.
fn target_hole(pos: &Position, text: &str) -> anyhow::Result<Hole> {
    let board = pos.board();
    let hole = board
        .parse_hole(text)
        .with_context(|| format!("--target {}", crate::common::quote(text)))?;
    let enemy = pos.side_to_move().other();
    if pos.pieces(enemy).any(|h| h == hole) {
        return Ok(hole);
    }
    let holes: Vec<String> = pos.pieces(enemy).map(|h| board.hole_name(h)).collect();
    let on = if holes.is_empty() {
        "it has none".to_owned()
    } else {
        format!("its pieces are on {}", holes.join(" "))
    };
    anyhow::bail!(
        "--target {}: no piece of {} (the side not to move) there; {on}",
        board.hole_name(hole),
        enemy.letter()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use dalkon_daldos::capture::capture_odds;
    use dalkon_rules::daldos::Variants;

    /// docs/cli.md's field names, `probability` a number, `fraction` exact.
    #[test]
    fn json_has_the_contract_fields() {
        let pos: Position = "................/........aab....../BBBBBBBB........ b"
            .parse()
            .unwrap();
        let odds = capture_odds(&pos, &Variants::default());
        let v = serde_json::to_value(odds_json(&pos, &odds, None)).unwrap();
        assert_eq!(v["side"], "b");
        assert_eq!(v["targets"][0]["hole"], "M8");
        assert_eq!(v["targets"][0]["probability"], 0.1875);
        assert_eq!(v["targets"][0]["fraction"], "3/16");
        assert_eq!(v["targets"][1]["hole"], "M9");
        assert_eq!(v["targets"][1]["fraction"], "1/16");
        assert_eq!(v["any"], 0.1875);
        assert_eq!(v["exact"], true);
    }
}
