//! Rule variants (RULES.md §2.4). The defaults are the contract's defaults.

use std::fmt;

/// Whether a lap sows into the hole its seeds were lifted from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Origin {
    /// The origin hole receives seeds like any other (default).
    #[default]
    Sow,
    /// Every lap skips the hole its own seeds were lifted from.
    Skip,
}

/// Whether the mikul capture on the opponent's side is played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mikul {
    /// Mikul captures (default).
    #[default]
    On,
    /// No capture on the opponent's side.
    Off,
}

/// What happens to the landing seed of a nembak capture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Nembak {
    /// The landing seed stays in its hole (default).
    #[default]
    Keep,
    /// When the opposite hole holds seeds, the landing seed is captured too.
    Take,
}

/// A complete Dakon rule set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Origin-hole rule.
    pub origin: Origin,
    /// Mikul rule.
    pub mikul: Mikul,
    /// Nembak rule.
    pub nembak: Nembak,
}

impl Rules {
    /// A stable 3-bit code of the variant set, for database headers:
    /// bit 0 `origin=skip`, bit 1 `mikul=off`, bit 2 `nembak=take`.
    pub const fn code(self) -> u8 {
        (matches!(self.origin, Origin::Skip) as u8)
            | ((matches!(self.mikul, Mikul::Off) as u8) << 1)
            | ((matches!(self.nembak, Nembak::Take) as u8) << 2)
    }

    /// The rule set with [`Rules::code`] `code`, if it is one.
    pub const fn from_code(code: u8) -> Option<Rules> {
        if code > 7 {
            return None;
        }
        Some(Rules {
            origin: if code & 1 != 0 {
                Origin::Skip
            } else {
                Origin::Sow
            },
            mikul: if code & 2 != 0 { Mikul::Off } else { Mikul::On },
            nembak: if code & 4 != 0 {
                Nembak::Take
            } else {
                Nembak::Keep
            },
        })
    }

    /// The option names as the CLI spells them: `(origin, mikul, nembak)`.
    pub const fn names(self) -> (&'static str, &'static str, &'static str) {
        (
            match self.origin {
                Origin::Sow => "sow",
                Origin::Skip => "skip",
            },
            match self.mikul {
                Mikul::On => "on",
                Mikul::Off => "off",
            },
            match self.nembak {
                Nembak::Keep => "keep",
                Nembak::Take => "take",
            },
        )
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (o, m, n) = self.names();
        write!(f, "origin={o} mikul={m} nembak={n}")
    }
}
