//! Throws of the two four-sided long dice (docs/rules.md §1.1): ordered pairs of
//! faces 1..=4, each of the 16 with weight 1/16. Face 1 is the dal.

use std::fmt;
use std::str::FromStr;

/// One throw: the two dice in the order thrown. The order never changes
/// which plays are legal (the player picks the order of use); it only
/// matters for counting weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Throw {
    /// The first die, 1..=4.
    pub first: u8,
    /// The second die, 1..=4.
    pub second: u8,
}

/// Why a throw text was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ThrowError {
    /// Not two comma-separated numbers.
    #[error("dice {0:?}: expected two faces separated by a comma, e.g. 3,1")]
    Format(String),
    /// A face outside 1..=4.
    #[error("dice {text:?}: face {face} is not on a four-sided long die (1..=4)")]
    Face {
        /// The text given.
        text: String,
        /// The face at fault.
        face: String,
    },
}

const fn all_throws() -> [Throw; 16] {
    let mut out = [Throw {
        first: 1,
        second: 1,
    }; 16];
    let mut i = 0;
    while i < 16 {
        out[i] = Throw {
            first: (i / 4) as u8 + 1,
            second: (i % 4) as u8 + 1,
        };
        i += 1;
    }
    out
}

const fn distinct_throws() -> [(Throw, u32); 10] {
    let mut out = [(
        Throw {
            first: 1,
            second: 1,
        },
        1,
    ); 10];
    let mut k = 0;
    let mut a = 1;
    while a <= 4 {
        let mut b = a;
        while b <= 4 {
            out[k] = (
                Throw {
                    first: b,
                    second: a,
                },
                if a == b { 1 } else { 2 },
            );
            k += 1;
            b += 1;
        }
        a += 1;
    }
    out
}

impl Throw {
    /// Denominator of every throw weight.
    pub const TOTAL_WEIGHT: u32 = 16;

    /// All 16 ordered throws, `(1,1), (1,2), …, (4,4)`, weight 1 each.
    pub const ALL: [Throw; 16] = all_throws();

    /// The 10 unordered throws (larger die first), with their weights out
    /// of 16: 1 for a double, 2 otherwise. The weights sum to 16.
    pub const DISTINCT: [(Throw, u32); 10] = distinct_throws();

    /// A throw from two faces, each 1..=4.
    pub fn new(first: u8, second: u8) -> Result<Throw, ThrowError> {
        for f in [first, second] {
            if !(1..=4).contains(&f) {
                return Err(ThrowError::Face {
                    text: format!("{first},{second}"),
                    face: f.to_string(),
                });
            }
        }
        Ok(Throw { first, second })
    }

    /// Both dice show the dal.
    #[inline]
    pub const fn is_daldal(self) -> bool {
        self.first == 1 && self.second == 1
    }

    /// Whether either die shows the dal.
    #[inline]
    pub const fn has_dal(self) -> bool {
        self.first == 1 || self.second == 1
    }

    /// Sum of the dice.
    #[inline]
    pub const fn sum(self) -> u8 {
        self.first + self.second
    }

    /// The same throw with the larger die first (the `DISTINCT` form).
    pub const fn sorted(self) -> Throw {
        if self.first >= self.second {
            self
        } else {
            Throw {
                first: self.second,
                second: self.first,
            }
        }
    }
}

impl fmt::Display for Throw {
    /// `3,1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.first, self.second)
    }
}

impl FromStr for Throw {
    type Err = ThrowError;
    /// `3,1` (spaces around the faces allowed).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut parts = s.split(',');
        let (Some(x), Some(y), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(ThrowError::Format(crate::excerpt(s)));
        };
        let face = |t: &str| -> Result<u8, ThrowError> {
            let t = t.trim();
            match t.parse::<u8>() {
                Ok(v @ 1..=4) => Ok(v),
                Ok(_) => Err(ThrowError::Face {
                    text: crate::excerpt(s),
                    face: crate::excerpt(t),
                }),
                Err(_) if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) => {
                    Err(ThrowError::Format(crate::excerpt(s)))
                }
                Err(_) => Err(ThrowError::Face {
                    text: crate::excerpt(s),
                    face: crate::excerpt(t),
                }),
            }
        };
        Ok(Throw {
            first: face(x)?,
            second: face(y)?,
        })
    }
}
