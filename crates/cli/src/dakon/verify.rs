//! `dalkon dakon verify FILE`: check a strategy file (docs/formats.md §3)
//! against the rules it names, with no solving
//! (`dalkon_dakon::request::verify`). Exit 0 when it holds, 1 when it does
//! not (stdout still carries the answer, stderr says where it breaks), 2
//! when the file cannot be read or is malformed.
//!
//! JSON fields beyond docs/cli.md: `rules`, `root`, `seconds`,
//! `positions_per_second` and `failure` (`null`, or the kind, the path of
//! moves from the root, the position and hole where that applies, and the
//! message).

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use dalkon_dakon::request::{verify_file, VerifyReport};
use dalkon_render::dakon::side_name;

use super::print_json;
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
    // Exit 1 is kept for "the strategy does not hold": a file that cannot
    // be read is a request that cannot be answered, like a malformed one.
    let report = verify_file(&args.file, &AtomicBool::new(false))
        .map_err(|e| Exit {
            code: 2,
            message: e.to_string(),
        })?
        .expect("a check nobody stops ends");
    if format == Format::Json {
        print_json(out, &report)?;
    } else {
        summary(out, &args, &report)?;
    }
    match &report.verdict.failure {
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

fn summary(out: &mut dyn std::io::Write, args: &Args, r: &VerifyReport) -> std::io::Result<()> {
    let player = side_name(r.strategy.player);
    let speed = r.positions_per_second.map_or_else(String::new, |r| {
        format!(" ({:.2} million a second)", r as f64 / 1e6)
    });
    writeln!(out, "file         {}", args.file.display())?;
    writeln!(out, "rules        {}", r.rules)?;
    writeln!(out, "root         {}", r.root)?;
    writeln!(out, "player       {player}")?;
    writeln!(out, "guarantees   {:+}", r.guarantees)?;
    writeln!(out, "proved       {:+}", r.proved)?;
    writeln!(
        out,
        "positions    {} checked in {:.2} s{speed}",
        r.positions_checked, r.seconds
    )?;
    writeln!(
        out,
        "lines        {}, {} never reached",
        r.lines, r.unused_lines
    )?;
    if r.valid {
        let how = match r.nothing_to_check() {
            true => " (no game ends lower: nothing to check)",
            false => "",
        };
        writeln!(
            out,
            "valid: {player} secures at least {:+}{how}",
            r.guarantees
        )
    } else {
        writeln!(
            out,
            "not valid: the strategy does not hold (see the error line)"
        )
    }
}
