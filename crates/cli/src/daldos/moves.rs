//! `dalkon daldos moves --position POS --dice D1,D2` (docs/cli.md): every
//! distinct legal play for one throw, with the position it leads to.

use std::fmt::Write as _;

use anyhow::Context;
use dalkon_rules::daldos::{plays, Position, Throw, Variants};
use serde::Serialize;

use super::draw::draw;
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

#[derive(Debug, Serialize)]
struct PlayJson {
    play: String,
    result: String,
}

#[derive(Debug, Serialize)]
struct MovesJson {
    plays: Vec<PlayJson>,
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
    if args.position == "-" {
        crate::batch::run(stdin, out, |text| {
            let pos = args.rules.position(text)?;
            let plays = play_rows(&pos, &variants, throw);
            Ok(serde_json::to_value(MovesJson { plays })?)
        })?;
        return Ok(());
    }
    let pos = args.rules.position(&args.position)?;
    let rows = play_rows(&pos, &variants, throw);
    let text = match format {
        Format::Json => serde_json::to_string(&MovesJson { plays: rows })? + "\n",
        _ => render_text(&pos, &variants, throw, &rows),
    };
    out.write_all(text.as_bytes())?;
    Ok(())
}

/// One row per distinct play, in the rules engine's order.
fn play_rows(pos: &Position, variants: &Variants, throw: Throw) -> Vec<PlayJson> {
    plays(pos, variants, throw)
        .iter()
        .map(|o| PlayJson {
            play: o.play.notation(pos.board()),
            result: o.result.to_string(),
        })
        .collect()
}

/// The drawn board, then one line per play with its result.
fn render_text(pos: &Position, variants: &Variants, throw: Throw, rows: &[PlayJson]) -> String {
    let mut s = draw(pos);
    s.push('\n');
    if let Some(w) = pos.winner(variants) {
        let _ = writeln!(
            s,
            "the game is over ({} has won under end={}): no plays",
            w.letter(),
            variants.end
        );
        return s;
    }
    let _ = writeln!(
        s,
        "throw {throw}, {variants}: {} distinct play{}",
        rows.len(),
        if rows.len() == 1 { "" } else { "s" }
    );
    let width = rows.iter().map(|r| r.play.len()).max().unwrap_or(0);
    for r in rows {
        let _ = writeln!(s, "  {:<width$}  -> {}", r.play, r.result);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/cli.md: `{"plays":[{"play":..., "result":POS}]}`; from the Norwegian
    /// start, 3,1 has the one play A12-M12 M12-M9.
    #[test]
    fn json_shape() {
        let pos: Position = "AAAAAAAAAAAA/............./BBBBBBBBBBBB a".parse().unwrap();
        let rows = play_rows(&pos, &Variants::default(), "3,1".parse().unwrap());
        assert_eq!(
            serde_json::to_string(&MovesJson { plays: rows }).unwrap(),
            r#"{"plays":[{"play":"A12-M12 M12-M9","result":"AAAAAAAAAAA./.........a.../BBBBBBBBBBBB b"}]}"#
        );
        let pass = play_rows(&pos, &Variants::default(), "2,2".parse().unwrap());
        assert_eq!(pass.len(), 1);
        assert_eq!(pass[0].play, "pass");
        assert_eq!(pass[0].result, "AAAAAAAAAAAA/............./BBBBBBBBBBBB b");
    }
}
