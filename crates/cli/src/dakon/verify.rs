//! `dalkon dakon verify FILE`: check a strategy file (docs/formats.md §3)
//! against the rules it names, with no solving. Exit 0 when it holds, 1
//! when it does not (stdout still carries the answer, stderr says where it
//! breaks), 2 when the file cannot be read or is malformed.
//!
//! JSON fields beyond docs/cli.md: `rules`, `root`, `seconds`,
//! `positions_per_second` and `failure` (`null`, or the kind, the path of
//! moves from the root, the position and hole where that applies, and the
//! message).

use std::path::PathBuf;
use std::time::Instant;

use dalkon_strategy::{verify, Failure, FailureKind, ReadError, Strategy, Verdict};
use serde_json::{json, Value};

use super::draw::side_name;
use crate::common::{Format, Global};
use crate::errors::Exit;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The strategy file: `dalkon-strategy 1` text, or the same compressed
    /// with gzip (recognised by its first bytes, whatever its name).
    pub file: PathBuf,
}

pub fn run(global: &Global, args: Args, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    let name = args.file.display();
    // Exit 1 is kept for "the strategy does not hold": a file that cannot
    // be read is a request that cannot be answered, like a malformed one.
    let strategy = dalkon_strategy::read_file(&args.file).map_err(|e| Exit {
        code: 2,
        message: read_error(&name.to_string(), &e),
    })?;
    let started = Instant::now();
    let verdict = verify(&strategy);
    let seconds = started.elapsed().as_secs_f64();
    let rate = (seconds > 0.0).then(|| verdict.positions_checked as f64 / seconds);

    if format == Format::Json {
        let j = json!({
            "valid": verdict.valid,
            "player": strategy.player.index(),
            "guarantees": strategy.guarantees,
            "proved": verdict.proved,
            "positions_checked": verdict.positions_checked,
            "lines": strategy.lines(),
            "unused_lines": verdict.unused_lines,
            "rules": strategy.rules.to_string(),
            "root": strategy.root.to_string(),
            "seconds": seconds,
            "positions_per_second": rate.map(|r| r.round() as u64),
            "failure": verdict.failure.as_ref().map(failure_json),
        });
        writeln!(out, "{j}")?;
    } else {
        summary(out, &args, &strategy, &verdict, seconds, rate)?;
    }
    match &verdict.failure {
        None => Ok(()),
        Some(failure) => {
            // The answer goes out before the error line.
            out.flush()?;
            Err(Exit {
                code: 1,
                message: format!("the strategy does not hold: {failure}"),
            }
            .into())
        }
    }
}

/// The one line for a file that cannot be read (`cannot read NAME: …`)
/// or is malformed (`NAME: line …`).
fn read_error(name: &str, e: &ReadError) -> String {
    match e {
        ReadError::Format(e) => format!("{name}: {e}"),
        _ => format!("cannot read {name}: {e}"),
    }
}

fn failure_json(f: &Failure) -> Value {
    let (kind, position, hole) = match &f.kind {
        FailureKind::MissingLine { position } => ("missing_line", Some(position), None),
        FailureKind::IllegalMove { position, hole } => {
            ("illegal_move", Some(position), Some(*hole))
        }
        FailureKind::BelowGuarantee { .. } => ("below_guarantee", None, None),
    };
    let mut j = json!({
        "kind": kind,
        "path": f.path,
        "message": f.to_string(),
    });
    if let Some(p) = position {
        j["position"] = json!(p.to_string());
    }
    if let Some(h) = hole {
        j["hole"] = json!(h);
    }
    j
}

fn summary(
    out: &mut dyn std::io::Write,
    args: &Args,
    s: &Strategy,
    v: &Verdict,
    seconds: f64,
    rate: Option<f64>,
) -> std::io::Result<()> {
    let player = side_name(s.player);
    let speed = rate.map_or_else(String::new, |r| {
        format!(" ({:.2} million a second)", r / 1e6)
    });
    writeln!(out, "file         {}", args.file.display())?;
    writeln!(out, "rules        {}", s.rules)?;
    writeln!(out, "root         {}", s.root)?;
    writeln!(out, "player       {player}")?;
    writeln!(out, "guarantees   {:+}", s.guarantees)?;
    writeln!(out, "proved       {:+}", v.proved)?;
    writeln!(
        out,
        "positions    {} checked in {seconds:.2} s{speed}",
        v.positions_checked
    )?;
    writeln!(
        out,
        "lines        {}, {} never reached",
        s.lines(),
        v.unused_lines
    )?;
    if v.valid {
        let how = if v.positions_checked == 0 && s.guarantees <= s.trivial_bound() {
            " (no game ends lower: nothing to check)"
        } else {
            ""
        };
        writeln!(
            out,
            "valid: {player} secures at least {:+}{how}",
            s.guarantees
        )
    } else {
        writeln!(
            out,
            "not valid: the strategy does not hold (see the error line)"
        )
    }
}
