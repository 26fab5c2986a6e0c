//! Daldøs rule flags (docs/rules.md §1.5), shared by every `daldos` command.

use anyhow::Context;
use clap::ValueEnum;
use dalkon_rules::daldos::{Board, CaptureRule, DalRule, EndRule, Position, Variants};

use crate::common::quote;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Dal {
    Any,
    Sternmost,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Capture {
    Final,
    Path,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum End {
    Last,
    One,
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
    #[arg(long, value_enum, default_value_t = Dal::Any)]
    pub dal: Dal,
    /// Where an added move captures.
    #[arg(long, value_enum, default_value_t = Capture::Final)]
    pub capture: Capture,
    /// When the game ends.
    #[arg(long, value_enum, default_value_t = End::Last)]
    pub end: End,
}

impl RuleArgs {
    /// The rule variants chosen by `--dal`, `--capture`, `--end`.
    pub fn variants(&self) -> Variants {
        Variants {
            dal: match self.dal {
                Dal::Any => DalRule::Any,
                Dal::Sternmost => DalRule::Sternmost,
            },
            capture: match self.capture {
                Capture::Final => CaptureRule::Final,
                Capture::Path => CaptureRule::Path,
            },
            end: match self.end {
                End::Last => EndRule::Last,
                End::One => EndRule::One,
            },
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
