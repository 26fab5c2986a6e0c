//! The board-free model behind the published tables (docs/rules.md §1.7).
//!
//! B's dalt pieces stand on one line behind A's target at distances
//! `d1 < d2 < …`, nothing else between; any die B does not want may always
//! be spent elsewhere (the "free piece with an open road"). Only the dice,
//! the distances and the dal-dal rethrows matter: no board, no loop. Pieces
//! still obey the movement rules that can matter on a line (docs/rules.md §1.3):
//! no landing on or passing over an own piece, both dice on one piece is an
//! added move that captures only on its final hole (or also after its first
//! die under `capture=path`), and a capture with the first die ends the
//! play for the target.
//!
//! The dal-dal recursion is solved exactly. Every dal-dal play except
//! "spend both dice elsewhere" moves a piece forward, so the only cycle is
//! that self-loop: `P = x + max(P, Q)/16` with `x` the chance of a capture on
//! a throw that is not a dal-dal and `Q` the best other dal-dal play, whose
//! solution is `P = max(16x/15, x + Q/16)`.

use std::fmt;

use dalkon_rules::daldos::{CaptureRule, Throw};
use hashbrown::HashMap;
use num_traits::{One, Zero};

use crate::ratio::{ratio, Ratio};

/// Pieces that passed the target by more than this can never again stop
/// a piece that lands on it (a throw moves a piece at most 8), so the
/// model forgets them.
const PASSED_LIMIT: i32 = -8;

/// Largest distance the model accepts: the largest any board's tables
/// can ask for, `3L - 24` on the largest board (`L = 32`,
/// `tables::max_distance`), so that the model never refuses what a board
/// allows.
pub const MAX_LINE_DISTANCE: u32 = 3 * dalkon_rules::daldos::MAX_LEN as u32 - 24;

/// Why a line was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// No piece at all.
    #[error("a line needs at least one piece behind the target")]
    Empty,
    /// A distance of 0 (that piece would stand on the target).
    #[error("distance 0: a piece cannot stand on the target")]
    Zero,
    /// Two pieces at the same distance.
    #[error("two pieces at distance {0}: a hole holds one piece")]
    Duplicate(u32),
    /// A distance beyond `MAX_LINE_DISTANCE`.
    #[error("distance {0} is beyond the model's limit of {MAX_LINE_DISTANCE}")]
    TooFar(u32),
}

/// The closed-form answer for one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineOdds {
    /// Probability that B captures the target this turn, extra throws
    /// after dal-dal included, playing to maximise it. Exact.
    pub probability: Ratio,
    /// Best number of steps for the nearest piece (`b1`) out of the first
    /// dal-dal throw; 0 = spend it elsewhere. Among equally good plays the
    /// smallest number is given.
    pub daldal_use: u32,
}

impl fmt::Display for LineOdds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (dal-dal: {} steps for b1)",
            self.probability, self.daldal_use
        )
    }
}

/// Pieces' distances behind the target, sorted ascending; negative = the
/// piece has passed the target.
type Line = Vec<i32>;

/// What one play leads to.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Outcome {
    /// The target was captured.
    Captured,
    /// The pieces after the play, in the order of the line before it (so
    /// the steps of each piece can be read off), passed-too-far pieces
    /// marked `None`.
    Moved(Vec<Option<i32>>),
}

/// The line of a `Moved` outcome: sorted, forgotten pieces dropped.
fn normalise(moved: &[Option<i32>]) -> Line {
    let mut l: Line = moved.iter().flatten().copied().collect();
    l.sort_unstable();
    l
}

/// One die (or one leg of an added move) of `s` steps for piece `i`.
/// `None` when it would land on or pass over an own piece.
fn walk(line: &[Option<i32>], i: usize, s: i32) -> Option<i32> {
    let from = line[i]?;
    let to = from - s;
    let blocked = line
        .iter()
        .enumerate()
        .any(|(j, p)| j != i && matches!(p, Some(e) if *e >= to && *e < from));
    (!blocked).then_some(to)
}

/// Piece `i` moved to `to`; `Captured` if that is the target.
fn place(line: &[Option<i32>], i: usize, to: i32) -> Outcome {
    if to == 0 {
        return Outcome::Captured;
    }
    let mut next = line.to_vec();
    next[i] = (to >= PASSED_LIMIT).then_some(to);
    Outcome::Moved(next)
}

/// Every play of throw `(x, y)` on the line, any unwanted die spent
/// elsewhere (so "both dice elsewhere", the unchanged line, comes first).
fn line_plays(line: &[i32], x: u8, y: u8, capture: CaptureRule) -> Vec<Outcome> {
    let start: Vec<Option<i32>> = line.iter().map(|&d| Some(d)).collect();
    let n = start.len();
    let mut out = vec![Outcome::Moved(start.clone())];
    let orders: Vec<(i32, i32)> = if x == y {
        vec![(i32::from(x), i32::from(y))]
    } else {
        vec![(i32::from(x), i32::from(y)), (i32::from(y), i32::from(x))]
    };
    for &(a, b) in &orders {
        for p in 0..n {
            let Some(to) = walk(&start, p, a) else {
                continue;
            };
            let first = place(&start, p, to);
            let Outcome::Moved(after) = &first else {
                out.push(Outcome::Captured);
                continue;
            };
            // The other die spent elsewhere.
            out.push(first.clone());
            for q in (0..n).filter(|&q| q != p) {
                if let Some(to2) = walk(after, q, b) {
                    out.push(place(after, q, to2));
                }
            }
        }
    }
    // Added moves: both dice on one piece.
    for &(a, b) in &orders {
        for p in 0..n {
            let Some(mid) = walk(&start, p, a) else {
                continue;
            };
            let mut moved = start.clone();
            moved[p] = Some(mid);
            let Some(to) = walk(&moved, p, b) else {
                continue;
            };
            if mid == 0 && capture == CaptureRule::Path {
                out.push(Outcome::Captured);
            } else {
                out.push(place(&start, p, to));
            }
        }
    }
    out
}

/// Weight out of 16 of the throws that are not a dal-dal on which some
/// play captures the target.
fn capture_weight(line: &[i32], capture: CaptureRule) -> u64 {
    Throw::DISTINCT
        .iter()
        .filter(|(t, _)| !t.is_daldal())
        .filter(|(t, _)| line_plays(line, t.first, t.second, capture).contains(&Outcome::Captured))
        .map(|&(_, w)| u64::from(w))
        .sum()
}

/// Exact solver with memo on lines.
struct Solver {
    capture: CaptureRule,
    memo: HashMap<Line, Ratio>,
}

impl Solver {
    fn value(&mut self, line: &[i32]) -> Ratio {
        if line.iter().all(|&d| d < 0) {
            return Ratio::zero();
        }
        if let Some(v) = self.memo.get(line) {
            return v.clone();
        }
        let x = ratio(capture_weight(line, self.capture), 16);
        // Best dal-dal play other than the self-loop.
        let mut q = Ratio::zero();
        for o in line_plays(line, 1, 1, self.capture) {
            let v = match o {
                Outcome::Captured => Ratio::one(),
                Outcome::Moved(m) => {
                    let next = normalise(&m);
                    if next == line {
                        continue;
                    }
                    self.value(&next)
                }
            };
            if v > q {
                q = v;
            }
        }
        let stay = &x * ratio(16, 15);
        let go = &x + &q * ratio(1, 16);
        let v = if go >= stay { go } else { stay };
        self.memo.insert(line.to_vec(), v.clone());
        v
    }

    /// Value of a dal-dal outcome, with "stay" worth `p` itself.
    fn outcome_value(&mut self, line: &[i32], o: &Outcome, p: &Ratio) -> Ratio {
        match o {
            Outcome::Captured => Ratio::one(),
            Outcome::Moved(m) => {
                let next = normalise(m);
                if next == line {
                    p.clone()
                } else {
                    self.value(&next)
                }
            }
        }
    }
}

fn checked_line(distances: &[u32]) -> Result<Line, LineError> {
    if distances.is_empty() {
        return Err(LineError::Empty);
    }
    let mut line = Vec::with_capacity(distances.len());
    for &d in distances {
        if d == 0 {
            return Err(LineError::Zero);
        }
        if d > MAX_LINE_DISTANCE {
            return Err(LineError::TooFar(d));
        }
        line.push(d as i32);
    }
    line.sort_unstable();
    if let Some(w) = line.windows(2).find(|w| w[0] == w[1]) {
        return Err(LineError::Duplicate(w[0] as u32));
    }
    Ok(line)
}

/// The exact probability that B captures the target with dalt pieces at
/// `distances` behind it (in any order), and the best use of a first
/// dal-dal for the nearest piece.
pub fn line_odds(distances: &[u32], capture: CaptureRule) -> Result<LineOdds, LineError> {
    let line = checked_line(distances)?;
    let mut s = Solver {
        capture,
        memo: HashMap::new(),
    };
    let p = s.value(&line);
    let mut best: Option<(Ratio, u32)> = None;
    for o in line_plays(&line, 1, 1, capture) {
        let v = s.outcome_value(&line, &o, &p);
        let steps = match &o {
            // Only b1 (index 0, the nearest) can reach the target with
            // the dal-dal: b2 may not pass over b1.
            Outcome::Captured => line[0] as u32,
            Outcome::Moved(m) => m[0].map_or(3, |d| (line[0] - d) as u32),
        };
        let better = match &best {
            None => true,
            Some((bv, bs)) => v > *bv || (v == *bv && steps < *bs),
        };
        if better {
            best = Some((v, steps));
        }
    }
    let daldal_use = best.map_or(0, |b| b.1);
    Ok(LineOdds {
        probability: p,
        daldal_use,
    })
}

/// The same model cut after `max_daldals` dal-dal rethrows: a dal-dal
/// thrown when `max_daldals` have already been thrown counts only for a
/// capture made with it. A lower bound within `16^-(max_daldals+1)` of
/// `line_odds`; the board evaluation (`capture_odds`) cut at the same
/// depth must give exactly this number.
pub fn line_odds_truncated(
    distances: &[u32],
    capture: CaptureRule,
    max_daldals: u32,
) -> Result<Ratio, LineError> {
    let line = checked_line(distances)?;
    let mut memo = HashMap::new();
    Ok(truncated(&line, capture, max_daldals, &mut memo))
}

fn truncated(
    line: &[i32],
    capture: CaptureRule,
    rest: u32,
    memo: &mut HashMap<(Line, u32), Ratio>,
) -> Ratio {
    if line.iter().all(|&d| d < 0) {
        return Ratio::zero();
    }
    let key = (line.to_vec(), rest);
    if let Some(v) = memo.get(&key) {
        return v.clone();
    }
    let x = ratio(capture_weight(line, capture), 16);
    let mut q = Ratio::zero();
    for o in line_plays(line, 1, 1, capture) {
        let v = match o {
            Outcome::Captured => Ratio::one(),
            Outcome::Moved(_) if rest == 0 => Ratio::zero(),
            Outcome::Moved(m) => truncated(&normalise(&m), capture, rest - 1, memo),
        };
        if v > q {
            q = v;
        }
    }
    let v = x + q * ratio(1, 16);
    memo.insert(key, v.clone());
    v
}

/// Table 1 of docs/rules.md §1.7: `b1` alone, `d` behind `a1`.
pub fn single(d: u32, capture: CaptureRule) -> Result<LineOdds, LineError> {
    line_odds(&[d], capture)
}

/// Table 2 of docs/rules.md §1.7: `b1` `d1` behind `a1`, `b2` `d2` behind it.
pub fn pair(d1: u32, d2: u32, capture: CaptureRule) -> Result<LineOdds, LineError> {
    line_odds(&[d1, d2], capture)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_capture_and_block_on_a_line() {
        // b1 one behind: the dal captures.
        let plays = line_plays(&[1], 3, 1, CaptureRule::Final);
        assert!(plays.contains(&Outcome::Captured));
        // b2 three behind could take with the 3, but may not pass b1 (two
        // behind), and b1 cannot get out of the way with the 1 or the 3.
        let plays = line_plays(&[2, 3], 3, 1, CaptureRule::Final);
        assert!(!plays.contains(&Outcome::Captured));
        // With a 4 b1 jumps over the target and b2 takes with the 3.
        let plays = line_plays(&[2, 3], 3, 4, CaptureRule::Final);
        assert!(plays.contains(&Outcome::Captured));
    }

    #[test]
    fn added_moves_and_the_capture_rule() {
        // Five behind: only the sums 1+4 and 2+3 reach, 4 throws of 16.
        assert_eq!(capture_weight(&[5], CaptureRule::Final), 4);
        // Under capture=path the first die of an added move could capture
        // too, but that die alone (the other spent elsewhere) does the
        // same: no change on a line.
        assert_eq!(capture_weight(&[5], CaptureRule::Path), 4);
        assert_eq!(capture_weight(&[3], CaptureRule::Path), 9);
    }

    #[test]
    fn bad_lines_are_refused() {
        assert_eq!(line_odds(&[], CaptureRule::Final), Err(LineError::Empty));
        assert_eq!(line_odds(&[0], CaptureRule::Final), Err(LineError::Zero));
        assert_eq!(
            line_odds(&[2, 2], CaptureRule::Final),
            Err(LineError::Duplicate(2))
        );
        assert_eq!(
            line_odds(&[73], CaptureRule::Final),
            Err(LineError::TooFar(73))
        );
        assert!(line_odds(&[71, 72], CaptureRule::Final).is_ok());
    }

    #[test]
    fn the_cut_model_approaches_the_fixed_point() {
        let exact = line_odds(&[3], CaptureRule::Final).unwrap().probability;
        assert_eq!(exact, ratio(3, 5));
        // Spending every dal-dal elsewhere: 9/16 (1 + 1/16 + ... + 1/16^k).
        for k in 0..6 {
            let cut = line_odds_truncated(&[3], CaptureRule::Final, k).unwrap();
            assert!(cut < exact);
            assert!(&exact - &cut <= crate::ratio::sixteenth_pow(k + 1));
        }
    }
}
