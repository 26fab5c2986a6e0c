//! Dakon rule flags (docs/rules.md §2.4), shared by every `dakon` command.

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

impl RuleArgs {
    /// The rule set these flags select.
    pub fn rules(&self) -> dalkon_rules::dakon::Rules {
        use dalkon_rules::dakon as d;
        d::Rules {
            origin: match self.origin {
                Origin::Sow => d::Origin::Sow,
                Origin::Skip => d::Origin::Skip,
            },
            mikul: match self.mikul {
                OnOff::On => d::Mikul::On,
                OnOff::Off => d::Mikul::Off,
            },
            nembak: match self.nembak {
                Nembak::Keep => d::Nembak::Keep,
                Nembak::Take => d::Nembak::Take,
            },
        }
    }
}
