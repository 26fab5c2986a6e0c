//! Daldøs rule flags (docs/rules.md §1.5), shared by every `daldos` command.

use std::str::FromStr;

use anyhow::Context;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use dalkon_rules::daldos::{
    Board, CaptureRule, DalRule, EndRule, Position, VariantError, Variants,
};

use dalkon_render::error_line::quote;

/// The parser of one rule option: its values as the rules crate names them
/// (so clap lists them in its error and `--help`), read by its `FromStr`.
fn option<T>(names: [&'static str; 2]) -> impl TypedValueParser<Value = T>
where
    T: FromStr<Err = VariantError> + Clone + Send + Sync + 'static,
{
    PossibleValuesParser::new(names).try_map(|s| s.parse::<T>())
}

/// `--board danish|norwegian|L`, `--dal`, `--capture`, `--end`.
#[derive(Debug, Clone, clap::Args)]
pub struct RuleArgs {
    /// Board: `danish` (L=16), `norwegian` (L=12) or a row length L from 4
    /// to 32 (positions are 128-bit masks of the 3L+1 holes). A command
    /// given a position reads the board from it; --board must then agree.
    #[arg(long)]
    pub board: Option<String>,
    /// Which undalt pieces a dal may activate.
    #[arg(long, default_value_t = DalRule::Any,
          value_parser = option::<DalRule>(DalRule::ALL.map(DalRule::name)))]
    pub dal: DalRule,
    /// Where an added move captures.
    #[arg(long, default_value_t = CaptureRule::Final,
          value_parser = option::<CaptureRule>(CaptureRule::ALL.map(CaptureRule::name)))]
    pub capture: CaptureRule,
    /// When the game ends.
    #[arg(long, default_value_t = EndRule::Last,
          value_parser = option::<EndRule>(EndRule::ALL.map(EndRule::name)))]
    pub end: EndRule,
}

impl RuleArgs {
    /// The rule variants chosen by `--dal`, `--capture`, `--end`.
    pub fn variants(&self) -> Variants {
        Variants {
            dal: self.dal,
            capture: self.capture,
            end: self.end,
        }
    }

    /// The board named by `--board`, if given.
    pub fn board(&self) -> anyhow::Result<Option<Board>> {
        self.board
            .as_deref()
            .map(|name| Board::from_name(name).context("--board"))
            .transpose()
    }

    /// Parse `--position` text; its board must agree with `--board` when
    /// both are given (the board is read from the position).
    pub fn position(&self, text: &str) -> anyhow::Result<Position> {
        let pos: Position = text
            .parse()
            .with_context(|| format!("--position {}", quote(text)))?;
        if let Some(board) = self.board()? {
            if board != pos.board() {
                anyhow::bail!(
                    "--board {} (L={}) disagrees with --position, whose rows give L={}",
                    board,
                    board.len(),
                    pos.board().len()
                );
            }
        }
        Ok(pos)
    }
}
