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

use dalkon_dakon::request::verify_file;
use dalkon_render::dakon::report;

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
        write!(out, "{}", report::verify(&args.file, &report))?;
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
