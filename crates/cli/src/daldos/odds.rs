//! `dalkon daldos odds --position POS [--target HOLE]` (docs/cli.md): flags
//! to [`OddsRequest`], its report to text or JSON. The text shows a
//! fraction only where it is exact, and decimals with their bound
//! elsewhere; JSON gives both.

use dalkon_daldos::request::odds::{OddsError, OddsRequest, DEFAULT_MAX_NODES};
use dalkon_render::daldos::report;

use super::RuleArgs;
use crate::common::{Format, Global};
use dalkon_render::error_line::quote;

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
    #[arg(long, default_value_t = DEFAULT_MAX_NODES, value_name = "N")]
    pub max_nodes: usize,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// The request of one position, `--target` named in its error.
fn request(args: &Args, text: &str) -> anyhow::Result<OddsRequest> {
    let pos = args.rules.position(text)?;
    let target = args.target.as_deref();
    OddsRequest::new(pos, args.rules.variants(), target, args.max_nodes).map_err(|e| {
        let what = match &e {
            OddsError::NoEnemy { hole, .. } => hole.clone(),
            OddsError::Hole(_) => quote(target.unwrap_or_default()),
        };
        anyhow::anyhow!("--target {what}: {e}")
    })
}

pub fn run(
    global: &Global,
    args: Args,
    out: &mut dyn std::io::Write,
    stdin: &mut dyn std::io::BufRead,
) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    if args.position == "-" {
        crate::batch::run(stdin, out, |text| {
            Ok(serde_json::to_value(request(&args, text)?.run())?)
        })?;
        return Ok(());
    }
    let req = request(&args, &args.position)?;
    let report = req.run();
    if format == Format::Json {
        writeln!(out, "{}", serde_json::to_string(&report)?)?;
        return Ok(());
    }
    let text = report::odds(
        req.position(),
        &args.rules.variants(),
        &report,
        req.has_target(),
    );
    out.write_all(text.as_bytes())?;
    Ok(())
}
