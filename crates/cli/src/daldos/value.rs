//! `dalkon daldos value --position POS [--db-dir DIR]` (docs/cli.md,
//! docs/solved.md): the exact value `W` of a position from the tables
//! `daldos solve` wrote, and every play of each throw ranked by its exact
//! value.
//!
//! Values are for the side to throw at the position: a play's value is
//! that side's chance to win after it (whoever throws next). Each value is
//! the midpoint of its bounds, quoted with them; a value is exact when its
//! bounds are within `EPS`.
//!
//! Flags to [`ValueRequest`], its report to text or JSON. `--position -`
//! reads one position per line on stdin and answers each with one JSON
//! line (crate::batch); the tables of each board are mapped once, at its
//! first line.

use std::path::PathBuf;

use dalkon_daldos::request::best::Analysts;
use dalkon_daldos::request::{tables_dir, ValueReport, ValueRequest};
use dalkon_render::daldos::solved as report;
use dalkon_rules::daldos::Position;

use super::solve::table_error;
use super::RuleArgs;
use crate::common::{Format, Global};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position (docs/rules.md §1.6). `-` reads one position per line
    /// on stdin (JSON lines out).
    #[arg(long, value_name = "POS", allow_hyphen_values = true)]
    pub position: String,
    /// Folder of the tables (default: $DALKON_DB_DIR, else
    /// ./dalkon-db if it exists, else $XDG_DATA_HOME/dalkon, else ~/.local/share/dalkon), as built by `dalkon daldos solve`.
    #[arg(long, value_name = "DIR")]
    pub db_dir: Option<PathBuf>,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// The report of `pos` from the tables of its board (mapped once per
/// board).
fn answer(
    shelf: &mut Analysts,
    args: &Args,
    text: &str,
) -> anyhow::Result<(Position, ValueReport)> {
    let pos = args.rules.position(text)?;
    let tables = shelf.get(pos.board()).map_err(table_error)?.tables();
    let request = ValueRequest {
        pos,
        variants: args.rules.variants(),
    };
    Ok((pos, request.run(tables).map_err(table_error)?))
}

pub fn run(
    global: &Global,
    args: Args,
    out: &mut dyn std::io::Write,
    stdin: &mut dyn std::io::BufRead,
) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    let variants = args.rules.variants();
    let mut shelf = Analysts::new(tables_dir(args.db_dir.clone())?, variants);
    if args.position == "-" {
        crate::batch::run(stdin, out, |text| {
            Ok(serde_json::to_value(answer(&mut shelf, &args, text)?.1)?)
        })?;
        return Ok(());
    }
    let (pos, j) = answer(&mut shelf, &args, &args.position)?;
    if format == Format::Json {
        writeln!(out, "{}", serde_json::to_string(&j)?)?;
        return Ok(());
    }
    let text = report::value(&pos, &variants, shelf.dir(), &j);
    Ok(write!(out, "{text}")?)
}
