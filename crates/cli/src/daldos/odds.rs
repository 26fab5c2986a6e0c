//! `dalkon daldos odds --position POS` (docs/cli.md): for every enemy piece, the
//! probability that the side to move captures it this turn (extra throws
//! after dal-dal included), and of capturing at least one.

use dalkon_odds::capture::{capture_odds_with, CaptureOdds, OddsLimits, EXACT_DALDALS};
use dalkon_odds::ratio::{fraction_string, to_f64};
use dalkon_rules::daldos::Position;
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
/// `any`), with the exact fractions and bounds beside.
fn odds_json(pos: &Position, odds: &CaptureOdds) -> OddsJson {
    let board = pos.board();
    OddsJson {
        side: odds.side.letter().to_string(),
        targets: odds
            .targets
            .iter()
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
    if args.position == "-" {
        crate::batch::run(stdin, out, |text| {
            let pos = args.rules.position(text)?;
            let odds = capture_odds_with(&pos, &variants, limits);
            Ok(serde_json::to_value(odds_json(&pos, &odds))?)
        })?;
        return Ok(());
    }
    let pos = args.rules.position(&args.position)?;
    let odds = capture_odds_with(&pos, &variants, limits);
    let json = odds_json(&pos, &odds);
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
    writeln!(
        out,
        "{} to move, {variants}: chance to capture each piece of {} this turn",
        odds.side.letter(),
        odds.side.other().letter()
    )?;
    if odds.exact {
        writeln!(out, "(exact: every dal-dal rethrow resolved)")?;
    } else {
        writeln!(
            out,
            "(exact where marked; elsewhere each value is at most its bound below the truth; \
             {} of {} pieces settled by the relaxed-model certificate, {} positions)",
            odds.certified,
            odds.targets.len(),
            odds.nodes
        )?;
    }
    writeln!(
        out,
        "{:<5} {:>16}  {:>8}  {:>9}  fraction",
        "piece", "probability", "%", "bound"
    )?;
    let short = |f: &str| {
        if f.len() <= 24 {
            f.to_owned()
        } else {
            String::new()
        }
    };
    let bound = |b: f64, exact: bool| {
        if exact {
            "exact".to_owned()
        } else {
            format!("{b:.1e}")
        }
    };
    for t in &json.targets {
        writeln!(
            out,
            "{:<5} {:>16.12}  {:>8.3}  {:>9}  {}",
            t.hole,
            t.probability,
            100.0 * t.probability,
            bound(t.bound, t.exact),
            short(&t.fraction)
        )?;
    }
    writeln!(
        out,
        "{:<5} {:>16.12}  {:>8.3}  {:>9}  {}",
        "any",
        json.any,
        100.0 * json.any,
        bound(json.any_bound, json.any_bound == 0.0),
        short(&json.any_fraction)
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use dalkon_odds::capture::capture_odds;
    use dalkon_rules::daldos::Variants;

    /// docs/cli.md's field names, `probability` a number, `fraction` exact.
    #[test]
    fn json_has_the_contract_fields() {
        let pos: Position = "................/........aab....../BBBBBBBB........ b"
            .parse()
            .unwrap();
        let odds = capture_odds(&pos, &Variants::default());
        let v = serde_json::to_value(odds_json(&pos, &odds)).unwrap();
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
