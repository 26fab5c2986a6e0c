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
use dalkon_daldos::solved::EPS;
use dalkon_render::daldos::draw;
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
    /// $XDG_DATA_HOME/dalkon, else ~/.local/share/dalkon), as built by `dalkon daldos solve`.
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
    write!(out, "{}", draw(&pos))?;
    writeln!(out)?;
    // The player's name, A or B (the notation's letters are lower case).
    let me = format!("{:?}", pos.side_to_move());
    writeln!(
        out,
        "{me} to throw, {variants}; tables in {}",
        shelf.dir().display()
    )?;
    if let Some(w) = j.winner {
        writeln!(
            out,
            "the game is over ({w:?} has won under end={}): W = {}",
            variants.end, j.value
        )?;
        return Ok(());
    }
    let bounds = if j.exact {
        format!("exact to {EPS:e}")
    } else {
        format!(
            "NOT exact: the bounds are {:.1e} apart, more than {EPS:e} (the tables were built \
             to a looser eps, or the game may never end from here)",
            j.upper - j.lower
        )
    };
    writeln!(
        out,
        "W = {:.12}: {me}'s chance to win under perfect play ({bounds}: lower {:.15}, upper {:.15})",
        j.value, j.lower, j.upper
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "every play of each throw, best first; value: {me}'s chance to win after the play"
    )?;
    let width = j
        .throws
        .iter()
        .flat_map(|t| &t.plays)
        .map(|p| p.play.chars().count())
        .max()
        .unwrap_or(0)
        .max(4);
    writeln!(out, "throw  weight    #  {:<width$}  value", "play")?;
    for t in &j.throws {
        for (i, p) in t.plays.iter().enumerate() {
            let (dice, weight) = if i == 0 {
                (
                    format!("{},{}", t.dice[0], t.dice[1]),
                    format!("{}/16", t.weight),
                )
            } else {
                (String::new(), String::new())
            };
            let mark = if p.exact { "" } else { " *" };
            writeln!(
                out,
                "{dice:<5}  {weight:>6}  {:>3}  {:<width$}  {:.12}{mark}",
                i + 1,
                p.play,
                p.value
            )?;
        }
    }
    if j.any_loose() {
        writeln!(
            out,
            "* not exact: its bounds are more than {EPS:e} apart (--format json gives them)"
        )?;
    }
    Ok(())
}
