//! `dalkon daldos moves --position POS --dice D1,D2` (docs/cli.md): flags
//! to [`MovesRequest`], its report to text or JSON.

use std::fmt::Write as _;

use anyhow::Context;
use dalkon_daldos::request::{MovesReport, MovesRequest};
use dalkon_render::daldos::draw;
use dalkon_rules::daldos::Throw;

use super::RuleArgs;
use crate::common::{Format, Global};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position (docs/rules.md §1.6), e.g.
    /// "AAAAAAAAAAAAAAAA/................./BBBBBBBBBBBBBBBB a"; `-` reads one
    /// position per line on stdin (JSON lines out).
    #[arg(long, value_name = "POS", allow_hyphen_values = true)]
    pub position: String,
    /// The throw, two faces 1..=4, e.g. 3,1.
    #[arg(long, value_name = "D1,D2")]
    pub dice: String,
    #[command(flatten)]
    pub rules: RuleArgs,
}

pub fn run(
    global: &Global,
    args: Args,
    out: &mut dyn std::io::Write,
    stdin: &mut dyn std::io::BufRead,
) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    let throw: Throw = args.dice.parse().context("--dice")?;
    let variants = args.rules.variants();
    let ask = |text: &str| -> anyhow::Result<MovesRequest> {
        let pos = args.rules.position(text)?;
        Ok(MovesRequest {
            pos,
            variants,
            throw,
        })
    };
    if args.position == "-" {
        crate::batch::run(stdin, out, |text| {
            Ok(serde_json::to_value(ask(text)?.run())?)
        })?;
        return Ok(());
    }
    let req = ask(&args.position)?;
    let report = req.run();
    let text = match format {
        Format::Json => serde_json::to_string(&report)? + "\n",
        _ => render_text(&req, &report),
    };
    out.write_all(text.as_bytes())?;
    Ok(())
}

/// The drawn board, then one line per play with its result.
fn render_text(req: &MovesRequest, r: &MovesReport) -> String {
    let mut s = draw(&req.pos);
    s.push('\n');
    if let Some(w) = r.winner {
        let _ = writeln!(
            s,
            "the game is over ({} has won under end={}): no plays",
            w.letter(),
            req.variants.end
        );
        return s;
    }
    let n = r.plays.len();
    let _ = writeln!(
        s,
        "throw {}, {}: {n} distinct play{}",
        req.throw,
        req.variants,
        if n == 1 { "" } else { "s" }
    );
    let width = r.plays.iter().map(|r| r.play.len()).max().unwrap_or(0);
    for p in &r.plays {
        let _ = writeln!(s, "  {:<width$}  -> {}", p.play, p.result);
    }
    s
}
