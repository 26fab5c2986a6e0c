//! `dalkon daldos odds --position POS [--target HOLE]` (docs/cli.md): flags
//! to [`OddsRequest`], its report to text or JSON. The text shows a
//! fraction only where it is exact, and decimals with their bound
//! elsewhere; JSON gives both.

use dalkon_daldos::request::odds::{OddsError, OddsReport, OddsRequest, DEFAULT_MAX_NODES};
use dalkon_render::daldos::draw;
use dalkon_rules::daldos::{Position, Variants};

use super::RuleArgs;
use crate::common::{quote, Format, Global};

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
    let text = render_text(
        req.position(),
        &args.rules.variants(),
        &report,
        req.has_target(),
    );
    out.write_all(text.as_bytes())?;
    Ok(())
}

/// The drawing, then one row per piece (and `any` without a target).
fn render_text(pos: &Position, variants: &Variants, r: &OddsReport, one: bool) -> String {
    use std::fmt::Write as _;
    let mut s = draw(pos);
    s.push('\n');
    if let Some(w) = pos.winner(variants) {
        let _ = writeln!(
            s,
            "the game is over ({} has won under end={}): nothing to capture",
            w.letter(),
            variants.end
        );
        return s;
    }
    let (me, them) = (r.mover.letter(), r.mover.other().letter());
    let _ = writeln!(s, "{me} to move, {variants}");
    if one {
        let hole = r.targets.first().map_or("", |t| t.hole.as_str());
        let _ = writeln!(
            s,
            "chance that {me} captures the {them} piece on {hole} this turn"
        );
    } else {
        let _ = writeln!(s, "chance that {me} captures each {them} piece this turn");
    }
    let _ = writeln!(
        s,
        "(extra throws after a dal-dal included; {me} plays for each capture on its own)"
    );
    let _ = writeln!(
        s,
        "{:<5} {:>16}  {:>8}  {:>9}  fraction",
        "piece", "probability", "%", "accuracy"
    );
    let row = |name: &str, p: f64, bound: f64, exact: bool, fraction: &str| {
        let (accuracy, fraction) = if exact {
            ("exact".to_owned(), fraction)
        } else {
            (format!("+{bound:.1e}"), "")
        };
        let line = format!(
            "{name:<5} {p:>16.12}  {:>8.3}  {accuracy:>9}  {fraction}",
            100.0 * p
        );
        line.trim_end().to_owned()
    };
    for t in &r.targets {
        let _ = writeln!(
            s,
            "{}",
            row(&t.hole, t.probability, t.bound, t.exact, &t.fraction)
        );
    }
    if !one {
        let any = row("any", r.any, r.any_bound, r.any_exact(), &r.any_fraction);
        let _ = writeln!(s, "{any}");
    }
    if !(r.targets.iter().all(|t| t.exact) && (one || r.any_exact())) {
        let _ = writeln!(
            s,
            "(accuracy +B: the true probability is at most B above the one shown, where a \
             chain of dal-dals was cut; only exact values are given as fractions)"
        );
    }
    if !one {
        let _ = writeln!(
            s,
            "(any: at least one {them} piece; {} of {} pieces settled by the relaxed-model \
             certificate, {} positions)",
            r.certified, r.pieces, r.nodes
        );
    }
    s
}
