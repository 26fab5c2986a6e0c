//! Daldøs rule flags (RULES.md §1.5), shared by every `daldos` command.

use clap::ValueEnum;

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
    /// Board: `danish` (L=16), `norwegian` (L=12) or a row length L >= 4.
    /// With --position the board is read from the position.
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
