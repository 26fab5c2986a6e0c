//! `dalkon daldos odds --position POS` (CLI.md): for every enemy piece, the
//! probability that the side to move captures it this turn (extra throws
//! after dal-dal included), and of capturing at least one.

use dalkon_odds::capture::{capture_odds_with, OddsLimits, EXACT_DALDALS};
use dalkon_odds::ratio::{fraction_string, to_f64};
use serde::Serialize;

use super::draw::draw;
use super::RuleArgs;
use crate::common::{Format, Global};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position (RULES.md §1.6); the side to move is the capturer.
    #[arg(long, value_name = "POS")]
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
}

#[derive(Debug, Serialize)]
struct OddsJson {
    side: String,
    targets: Vec<TargetJson>,
    any: f64,
    any_fraction: String,
    /// No rethrow was cut: the fractions are the exact probabilities.
    exact: bool,
    /// Each true probability is at most this much above the one given.
    bound: f64,
    /// Dal-dal rethrows followed.
    daldals: u32,
    /// Positions evaluated.
    nodes: usize,
}

pub fn run(global: &Global, args: Args) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    let pos = args.rules.position(&args.position)?;
    let variants = args.rules.variants();
    let limits = OddsLimits {
        max_daldals: EXACT_DALDALS,
        max_nodes: args.max_nodes,
    };
    let odds = capture_odds_with(&pos, &variants, limits);
    let board = pos.board();
    let json = OddsJson {
        side: odds.side.letter().to_string(),
        targets: odds
            .targets
            .iter()
            .map(|t| TargetJson {
                hole: board.hole_name(t.hole),
                probability: to_f64(&t.probability),
                fraction: fraction_string(&t.probability),
            })
            .collect(),
        any: to_f64(&odds.any),
        any_fraction: fraction_string(&odds.any),
        exact: odds.exact,
        bound: to_f64(&odds.bound),
        daldals: odds.daldals,
        nodes: odds.nodes,
    };
    if format == Format::Json {
        println!("{}", serde_json::to_string(&json)?);
        return Ok(());
    }
    print!("{}", draw(&pos));
    println!();
    if let Some(w) = pos.winner(&variants) {
        println!(
            "the game is over ({} has won under end={}): nothing to capture",
            w.letter(),
            variants.end
        );
        return Ok(());
    }
    println!(
        "{} to move, {variants}: chance to capture each piece of {} this turn",
        odds.side.letter(),
        odds.side.other().letter()
    );
    if odds.exact {
        println!("(exact: every dal-dal rethrow resolved)");
    } else {
        println!(
            "({} dal-dal rethrows followed: each value is at most {:.1e} below the truth)",
            odds.daldals,
            to_f64(&odds.bound)
        );
    }
    println!("{:<5} {:>16}  {:>8}  fraction", "piece", "probability", "%");
    let short = |f: String| if f.len() <= 24 { f } else { String::new() };
    for t in &json.targets {
        println!(
            "{:<5} {:>16.12}  {:>8.3}  {}",
            t.hole,
            t.probability,
            100.0 * t.probability,
            short(t.fraction.clone())
        );
    }
    println!(
        "{:<5} {:>16.12}  {:>8.3}  {}",
        "any",
        json.any,
        100.0 * json.any,
        short(json.any_fraction.clone())
    );
    Ok(())
}
