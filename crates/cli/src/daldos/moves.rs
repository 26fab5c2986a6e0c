//! `dalkon daldos moves --position POS --dice D1,D2` (docs/cli.md): flags
//! to [`MovesRequest`], its report to text or JSON.

use anyhow::Context;
use dalkon_daldos::request::MovesRequest;
use dalkon_render::daldos::report;
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
        _ => report::moves(&req, &report),
    };
    out.write_all(text.as_bytes())?;
    Ok(())
}
