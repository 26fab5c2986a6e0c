//! Rule variants of Daldøs (docs/rules.md §1.5); the default of each is the
//! first alternative listed there.

use std::fmt;

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

impl fmt::Display for DalRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DalRule::Any => "any",
            DalRule::Sternmost => "sternmost",
        })
    }
}

impl fmt::Display for CaptureRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CaptureRule::Final => "final",
            CaptureRule::Path => "path",
        })
    }
}

impl fmt::Display for EndRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndRule::Last => "last",
            EndRule::One => "one",
        })
    }
}

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
