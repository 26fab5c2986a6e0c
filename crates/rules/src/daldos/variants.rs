//! Rule variants of Daldøs (docs/rules.md §1.5); the default of each is the
//! first alternative listed there.

use std::fmt;
use std::str::FromStr;

/// Which undalt pieces a dal may activate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DalRule {
    /// Any undalt piece whose next hole holds no own piece.
    #[default]
    Any,
    /// Only the undalt piece with the highest column; if its next hole holds
    /// an own piece no piece can be dalled (no fall-back).
    Sternmost,
}

/// Where an added move (both dice on one piece) captures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CaptureRule {
    /// Only on its final hole.
    #[default]
    Final,
    /// Also on the hole reached after its first die.
    Path,
}

/// When the game ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum EndRule {
    /// A player with no pieces left loses.
    #[default]
    Last,
    /// The first player reduced to one piece loses.
    One,
}

impl EndRule {
    /// A side with this many pieces or fewer has lost.
    #[inline]
    pub const fn losing_count(self) -> usize {
        match self {
            EndRule::Last => 0,
            EndRule::One => 1,
        }
    }
}

/// The full set of rule options (besides the board, which a position carries).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Variants {
    /// `dal=any|sternmost`.
    pub dal: DalRule,
    /// `capture=final|path`.
    pub capture: CaptureRule,
    /// `end=last|one`.
    pub end: EndRule,
}

/// A rule option's value that the option does not have, or rules not
/// written as [`Variants`]' `Display` writes them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    /// An option value the option does not have (`--dal first`).
    #[error("invalid value {text:?} for {option}: expected {expected}")]
    Value {
        /// `dal`, `capture` or `end`.
        option: &'static str,
        /// The text found (at most 80 characters of it).
        text: String,
        /// The values the option has, `any or sternmost`.
        expected: &'static str,
    },
    /// Not `dal=… capture=… end=…`.
    #[error("expected `dal=… capture=… end=…` (all three, in this order), got {0:?}")]
    Shape(String),
}

/// The CLI names of one option's values: `name`, `ALL`, `Display` and
/// `FromStr` from one table, so that every front end spells them alike.
macro_rules! rule_option {
    ($ty:ident, $option:literal, $expected:literal, $($name:literal => $value:ident),+) => {
        impl $ty {
            /// Every value of the option, the default first.
            pub const ALL: [$ty; 2] = [$($ty::$value),+];

            /// The value as the CLI and the rules notation spell it.
            pub const fn name(self) -> &'static str {
                match self {
                    $($ty::$value => $name,)+
                }
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl FromStr for $ty {
            type Err = VariantError;

            /// The value `name` gives (exactly so spelt).
            fn from_str(s: &str) -> Result<$ty, VariantError> {
                match s {
                    $($name => Ok($ty::$value),)+
                    _ => Err(VariantError::Value {
                        option: $option,
                        text: crate::excerpt(s),
                        expected: $expected,
                    }),
                }
            }
        }
    };
}

rule_option!(DalRule, "dal", "any or sternmost", "any" => Any, "sternmost" => Sternmost);
rule_option!(CaptureRule, "capture", "final or path", "final" => Final, "path" => Path);
rule_option!(EndRule, "end", "last or one", "last" => Last, "one" => One);

impl fmt::Display for Variants {
    /// `dal=any capture=final end=last`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "dal={} capture={} end={}",
            self.dal, self.capture, self.end
        )
    }
}

impl FromStr for Variants {
    type Err = VariantError;

    /// The form `Display` writes: `dal=… capture=… end=…`, all three in
    /// this order, separated by single spaces.
    fn from_str(s: &str) -> Result<Variants, VariantError> {
        let parts: Vec<&str> = s.split(' ').collect();
        let [d, c, e] = parts[..] else {
            return Err(VariantError::Shape(crate::excerpt(s)));
        };
        let value = |part: &'_ str, option: &str| -> Result<String, VariantError> {
            part.strip_prefix(option)
                .and_then(|rest| rest.strip_prefix('='))
                .map(str::to_owned)
                .ok_or_else(|| VariantError::Shape(crate::excerpt(s)))
        };
        Ok(Variants {
            dal: value(d, "dal")?.parse()?,
            capture: value(c, "capture")?.parse()?,
            end: value(e, "end")?.parse()?,
        })
    }
}

impl Variants {
    /// All 8 combinations of the three options, the default first.
    pub const ALL: [Variants; 8] = {
        let dals = [DalRule::Any, DalRule::Sternmost];
        let caps = [CaptureRule::Final, CaptureRule::Path];
        let ends = [EndRule::Last, EndRule::One];
        let mut out = [Variants {
            dal: DalRule::Any,
            capture: CaptureRule::Final,
            end: EndRule::Last,
        }; 8];
        let mut i = 0;
        while i < 8 {
            out[i] = Variants {
                dal: dals[(i >> 2) & 1],
                capture: caps[(i >> 1) & 1],
                end: ends[i & 1],
            };
            i += 1;
        }
        out
    };
}
