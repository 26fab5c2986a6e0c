//! Dakon rule flags (RULES.md §2.4), shared by every `dakon` command.

use clap::ValueEnum;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Origin {
    Sow,
    Skip,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OnOff {
    On,
    Off,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Nembak {
    Keep,
    Take,
}

/// `--origin`, `--mikul`, `--nembak`.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct RuleArgs {
    /// Whether a lap sows into the hole its seeds were lifted from.
    #[arg(long, value_enum, default_value_t = Origin::Sow)]
    pub origin: Origin,
    /// Capture on the opponent's side (mikul).
    #[arg(long, value_enum, default_value_t = OnOff::On)]
    pub mikul: OnOff,
    /// Whether the landing seed of a nembak capture is kept or taken.
    #[arg(long, value_enum, default_value_t = Nembak::Keep)]
    pub nembak: Nembak,
}
