//! Rule variants (docs/rules.md §2.4). The defaults are the contract's defaults.

use std::fmt;
use std::str::FromStr;

use super::error::RulesError;

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
    /// Every rule set, in [`Rules::code`] order (the default first).
    pub const ALL: [Rules; 8] = {
        let mut all = [Rules {
            origin: Origin::Sow,
            mikul: Mikul::On,
            nembak: Nembak::Keep,
        }; 8];
        let mut code = 0;
        while code < 8 {
            all[code] = match Rules::from_code(code as u8) {
                Some(r) => r,
                None => unreachable!(),
            };
            code += 1;
        }
        all
    };

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

/// Parse one option value by its CLI name (`sow`, `skip`, `on`, …).
macro_rules! option_from_str {
    ($ty:ident, $option:literal, $expected:literal, $($name:literal => $value:expr),+) => {
        impl FromStr for $ty {
            type Err = RulesError;

            fn from_str(s: &str) -> Result<$ty, RulesError> {
                match s {
                    $($name => Ok($value),)+
                    _ => Err(RulesError::Value {
                        option: $option,
                        text: crate::excerpt(s),
                        expected: $expected,
                    }),
                }
            }
        }
    };
}

option_from_str!(Origin, "origin", "sow or skip", "sow" => Origin::Sow, "skip" => Origin::Skip);
option_from_str!(Mikul, "mikul", "on or off", "on" => Mikul::On, "off" => Mikul::Off);
option_from_str!(Nembak, "nembak", "keep or take", "keep" => Nembak::Keep, "take" => Nembak::Take);

impl FromStr for Rules {
    type Err = RulesError;

    /// The form [`Rules`]' `Display` writes: all three options, in the
    /// order `origin=… mikul=… nembak=…`, separated by single spaces.
    fn from_str(s: &str) -> Result<Rules, RulesError> {
        let parts: Vec<&str> = s.split(' ').collect();
        let [o, m, n] = parts[..] else {
            return Err(RulesError::Shape(crate::excerpt(s)));
        };
        let value = |part: &str, option: &str| -> Result<String, RulesError> {
            part.strip_prefix(option)
                .and_then(|rest| rest.strip_prefix('='))
                .map(str::to_owned)
                .ok_or_else(|| RulesError::Shape(crate::excerpt(s)))
        };
        Ok(Rules {
            origin: value(o, "origin")?.parse()?,
            mikul: value(m, "mikul")?.parse()?,
            nembak: value(n, "nembak")?.parse()?,
        })
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (o, m, n) = self.names();
        write!(f, "origin={o} mikul={m} nembak={n}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_rule_sets_are_listed_once_in_code_order() {
        assert_eq!(Rules::ALL[0], Rules::default());
        for (code, r) in Rules::ALL.iter().enumerate() {
            assert_eq!(r.code() as usize, code);
        }
    }

    #[test]
    fn names_round_trip_and_misspellings_are_refused() {
        for r in Rules::ALL {
            assert_eq!(r.to_string().parse::<Rules>(), Ok(r));
        }
        assert_eq!(
            "origin=sow mikul=of nembak=keep"
                .parse::<Rules>()
                .unwrap_err()
                .to_string(),
            "mikul: \"of\" is not a value of this option (expected on or off)"
        );
        assert_eq!(
            "origin=sow nembak=keep mikul=on".parse::<Rules>().unwrap_err().to_string(),
            "expected `origin=… mikul=… nembak=…` (all three, in this order), got \"origin=sow nembak=keep mikul=on\""
        );
        assert!("skip".parse::<Origin>().is_ok());
        assert!("Skip".parse::<Origin>().is_err());
    }
}
