//! `dalkon daldos value --position POS [--db-dir DIR]` (docs/cli.md,
//! docs/solved.md): the exact value `W` of a position from the tables
//! `daldos solve` wrote, and every play of each throw ranked by its exact
//! value.
//!
//! Values are for the side to throw at the position: a play's value is
//! that side's chance to win after it (whoever throws next). Each value is
//! the midpoint of its bounds, quoted with them; a value is exact when its
//! bounds are within [`EPS`].
//!
//! `--position -` reads one position per line on stdin and answers each
//! with one JSON line (crate::batch); the tables of each board are mapped
//! once, at its first line.

use std::collections::BTreeMap;
use std::path::PathBuf;

use dalkon_daldos::solved::{value_report, Bounds, Tables, ValueReport, EPS};
use dalkon_rules::daldos::{Position, Variants};
use serde::Serialize;

use super::draw::draw;
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

#[derive(Debug, Serialize)]
struct PlayJson {
    play: String,
    value: f64,
    lower: f64,
    upper: f64,
    /// The position after the play (its side is the one that throws next).
    result: String,
}

#[derive(Debug, Serialize)]
struct ThrowJson {
    dice: [u8; 2],
    weight: u32,
    best: String,
    plays: Vec<PlayJson>,
}

#[derive(Debug, Serialize)]
struct ValueJson {
    value: f64,
    lower: f64,
    upper: f64,
    exact: bool,
    throws: Vec<ThrowJson>,
}

/// Whether bounds count as exact.
fn exact(b: Bounds) -> bool {
    b.gap() <= EPS
}

fn value_json(pos: &Position, r: &ValueReport, over: bool) -> ValueJson {
    let board = pos.board();
    ValueJson {
        value: r.bounds.value(),
        lower: r.bounds.lo,
        upper: r.bounds.hi,
        exact: exact(r.bounds),
        // A finished game has no throws left.
        throws: if over {
            Vec::new()
        } else {
            r.throws
                .iter()
                .map(|t| ThrowJson {
                    dice: [t.throw.first, t.throw.second],
                    weight: t.weight,
                    best: t.plays[0].play.notation(board),
                    plays: t
                        .plays
                        .iter()
                        .map(|p| PlayJson {
                            play: p.play.notation(board),
                            value: p.bounds.value(),
                            lower: p.bounds.lo,
                            upper: p.bounds.hi,
                            result: p.result.to_string(),
                        })
                        .collect(),
                })
                .collect()
        },
    }
}

/// The tables of each board met so far (mapped once per board).
struct Cache {
    dir: PathBuf,
    variants: Variants,
    tables: BTreeMap<u8, Tables>,
}

impl Cache {
    /// The report of `pos` from the tables of its board.
    fn answer(&mut self, pos: &Position) -> anyhow::Result<ValueJson> {
        let board = pos.board();
        let tables = match self.tables.entry(board.len()) {
            std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::btree_map::Entry::Vacant(e) => {
                let mut t = Tables::new(board, self.variants, Some(&self.dir));
                t.load_all().map_err(table_error)?;
                e.insert(t)
            }
        };
        let over = pos.is_over(&self.variants);
        let r = if over {
            // Worth 1 to the winner, 0 to the loser; no plays.
            let b = tables.bounds(pos).expect("a finished game has a value");
            ValueReport {
                bounds: b,
                throws: Vec::new(),
            }
        } else {
            value_report(tables, pos).map_err(table_error)?
        };
        Ok(value_json(pos, &r, over))
    }
}

pub fn run(
    global: &Global,
    args: Args,
    out: &mut dyn std::io::Write,
    stdin: &mut dyn std::io::BufRead,
) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    let variants = args.rules.variants();
    let mut cache = Cache {
        dir: dalkon_store::data_dir(args.db_dir.clone())?,
        variants,
        tables: BTreeMap::new(),
    };
    if args.position == "-" {
        crate::batch::run(stdin, out, |text| {
            let pos = args.rules.position(text)?;
            Ok(serde_json::to_value(cache.answer(&pos)?)?)
        })?;
        return Ok(());
    }
    let pos = args.rules.position(&args.position)?;
    let j = cache.answer(&pos)?;
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
        cache.dir.display()
    )?;
    if let Some(w) = pos.winner(&variants) {
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
    let mut loose = false;
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
            let mark = if p.upper - p.lower > EPS {
                loose = true;
                " *"
            } else {
                ""
            };
            writeln!(
                out,
                "{dice:<5}  {weight:>6}  {:>3}  {:<width$}  {:.12}{mark}",
                i + 1,
                p.play,
                p.value
            )?;
        }
    }
    if loose {
        writeln!(
            out,
            "* not exact: its bounds are more than {EPS:e} apart (--format json gives them)"
        )?;
    }
    Ok(())
}
