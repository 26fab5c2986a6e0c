//! `dalkon daldos table` (docs/cli.md): the published capture tables (docs/rules.md
//! §1.7), the closed form beside real board positions: flags to
//! [`TableRequest`], its report to text, JSON, CSV or Markdown.

use anyhow::Context;
use dalkon_daldos::request::table::{
    csv_lines, TableRequest, CSV_HEADER, DEFAULT_BOARD, DEFAULT_MAX_DISTANCE,
};
use dalkon_render::daldos::report;

use super::RuleArgs;
use crate::common::{offered, Format, Global};

#[derive(Debug, clap::Args)]
#[command(mut_arg("board", |a| a.help(
    "Board of the board positions: `danish` (L=16, the default), `norwegian` (L=12) \
     or a row length L from 4 to 32 (the table needs L >= 9)"
)))]
pub struct Args {
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Largest distance in both tables (the published ones stop at 9 and 4).
    #[arg(long, default_value_t = DEFAULT_MAX_DISTANCE, value_name = "D")]
    pub max_distance: u32,
}

pub fn run(global: &Global, args: Args, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let format = global.require_format(offered("daldos table"))?;
    let request = TableRequest {
        board: args.rules.board()?.unwrap_or(DEFAULT_BOARD),
        variants: args.rules.variants(),
        max_distance: args.max_distance,
    };
    let report = request.run().context("--max-distance")?;
    let table = &report.table;
    match format {
        Format::Json => writeln!(out, "{}", serde_json::to_string(&report)?)?,
        Format::Csv => {
            writeln!(out, "{CSV_HEADER}")?;
            for line in csv_lines(table) {
                writeln!(out, "{line}")?;
            }
        }
        Format::Md => write!(out, "{}", report::table_markdown(table))?,
        // Text (nothing else is offered: `require_format` refused it).
        _ => write!(out, "{}", report::table(table))?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use dalkon_rules::daldos::{Board, Variants};

    #[test]
    fn too_long_a_distance_is_refused_naming_the_flag() {
        let request = TableRequest {
            board: Board::NORWEGIAN,
            variants: Variants::default(),
            max_distance: 13,
        };
        let err = request.run().context("--max-distance").unwrap_err();
        assert_eq!(
            crate::errors::one_line(&err),
            "--max-distance: distance 13 does not fit the norwegian board: the free piece needs 22 holes of open road, and at most distance 12 leaves that much"
        );
    }
}
