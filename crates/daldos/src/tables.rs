//! The published capture tables (docs/rules.md §1.7), computed two ways:
//! the board-free closed form (`closed_form`) and real board positions
//! evaluated through the full rules (`capture_odds`).
//!
//! The board position for a row (B to move): A's dalt `a1` on `AL`, the
//! last hole of B's path before the loop turns back into the middle row;
//! B's dalt `b1` (and `b2`) `d1` (`d2`) holes behind it along B's path,
//! nothing between; and B's free dalt piece on `B2`, at the very start of
//! B's path. The free piece has every hole from `B3` up to the hole behind
//! the last `b` as an open road (`3L - d - 2` holes), no A piece on it, and
//! it can never reach `a1` (it would have to pass its own `b1`). Under
//! `end=one` A gets a second piece on `B1`, which no B piece can ever reach
//! (B never returns to its start row), so A has not already lost.
//!
//! The closed form assumes the free piece never runs out of road. On a real
//! board it does, but only after more dal-dals than the board evaluation
//! follows: the evaluation cut after `k` rethrows equals the closed form cut
//! after `k` rethrows exactly when the road holds `2k + 4` holes (two per
//! rethrow, then one die of at most 4). `table_position` refuses a distance
//! that leaves less road than that for `EXACT_DALDALS`.

use std::fmt;

use dalkon_rules::daldos::{Board, Cell, EndRule, Hole, Position, PositionError, Side, Variants};

use crate::capture::{capture_odds, EXACT_DALDALS};
use crate::closed_form::{line_odds, line_odds_truncated, LineError};
use crate::ratio::Ratio;

/// Which published table a row belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TableKind {
    /// Table 1: `b1` alone.
    Single,
    /// Table 2: `b1` and `b2` behind it.
    Pair,
}

impl fmt::Display for TableKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TableKind::Single => "single",
            TableKind::Pair => "pair",
        })
    }
}

/// Why a table (or a table position) could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The distances are not `1 <= d1 < d2`.
    #[error("distances must satisfy 1 <= d1 < d2 (got d1={d1}, d2={d2})")]
    Order {
        /// Distance of `b1`.
        d1: u32,
        /// Distance of `b2`.
        d2: u32,
    },
    /// The board leaves the free piece too little road for this distance.
    #[error(
        "distance {distance} does not fit the {board} board: the free piece needs {need} holes \
         of open road, and at most distance {max} leaves that much"
    )]
    TooFar {
        /// The distance asked for.
        distance: u32,
        /// The board's name.
        board: String,
        /// Road the free piece needs.
        need: u32,
        /// Largest distance that fits.
        max: u32,
    },
    /// A table asked for with no distance at all.
    #[error("the tables need a largest distance of at least 1")]
    NoDistance,
    /// A board too short to host any table position.
    #[error(
        "the board with L={len} is too short for the capture tables: their free piece \
         needs {need} holes of open road, which boards from L={min_len} up leave"
    )]
    BoardTooShort {
        /// Its row length.
        len: u8,
        /// Road the free piece needs.
        need: u32,
        /// The shortest board that hosts distance 1.
        min_len: u32,
    },
    /// The closed form refused the line.
    #[error(transparent)]
    Line(#[from] LineError),
    /// Building the position failed (a bug: every hole is checked first).
    #[error("cannot build the table position: {0}")]
    Position(#[from] PositionError),
}

/// The published percentage of a row, `None` where nothing was published.
/// The tables give one number per row, with no rule variant named: they
/// are matched here to the default rules only.
pub fn published(kind: TableKind, d1: u32, d2: Option<u32>) -> Option<&'static str> {
    const SINGLE: [&str; 9] = ["44", "50", "60", "67", "29", "23", "14", "8", "<1"];
    match (kind, d2) {
        (TableKind::Single, None) => SINGLE.get(d1.checked_sub(1)? as usize).copied(),
        (TableKind::Pair, Some(d2)) if d1 < d2 && d2 <= 4 => match d1 {
            1 => Some("75"),
            2 => Some("69"),
            3 => Some("67"),
            _ => None,
        },
        _ => None,
    }
}

/// The published best use of a dal-dal (steps for `b1`), where published.
pub fn published_daldal_use(kind: TableKind, d1: u32, d2: Option<u32>) -> Option<u32> {
    const SINGLE: [u32; 9] = [1, 2, 0, 0, 1, 2, 2, 2, 2];
    published(kind, d1, d2)?;
    match kind {
        TableKind::Single => SINGLE.get(d1 as usize - 1).copied(),
        TableKind::Pair => [1, 2, 2].get(d1 as usize - 1).copied(),
    }
}

/// Road the free piece needs for the board evaluation to follow
/// `EXACT_DALDALS` rethrows undisturbed.
pub const fn road_needed() -> u32 {
    2 * EXACT_DALDALS + 4
}

/// Largest distance (of the farther `b`) a board can host.
pub fn max_distance(board: Board) -> u32 {
    (3 * u32::from(board.len())).saturating_sub(2 + road_needed())
}

/// Whether tables up to `max` fit `board` (distance 1 to [`max_distance`]).
pub fn check_distance(board: Board, max: u32) -> Result<(), TableError> {
    let fits = max_distance(board);
    if max == 0 {
        Err(TableError::NoDistance)
    } else if fits == 0 {
        Err(TableError::BoardTooShort {
            len: board.len(),
            need: road_needed(),
            // 3L - 2 - road >= 1.
            min_len: (road_needed() + 3).div_ceil(3),
        })
    } else if max > fits {
        Err(TableError::TooFar {
            distance: max,
            board: board.name(),
            need: road_needed(),
            max: fits,
        })
    } else {
        Ok(())
    }
}

/// The board position for a table row (module doc), B to move.
pub fn table_position(
    board: Board,
    variants: &Variants,
    d1: u32,
    d2: Option<u32>,
) -> Result<Position, TableError> {
    let far = d2.unwrap_or(d1);
    if d1 == 0 || d2.is_some_and(|d2| d2 <= d1) {
        return Err(TableError::Order {
            d1,
            d2: d2.unwrap_or(0),
        });
    }
    let max = max_distance(board);
    if far > max {
        return Err(TableError::TooFar {
            distance: far,
            board: board.name(),
            need: road_needed(),
            max,
        });
    }
    let l = board.len();
    let a1_index = 3 * l; // AL on B's path
    let mut pos = Position::empty(board, Side::B)
        .with_cell(board.hole_at(Side::B, a1_index), Cell::Dalt(Side::A))?
        .with_cell(board.hole_at(Side::B, 1), Cell::Dalt(Side::B))?;
    for d in std::iter::once(d1).chain(d2) {
        pos = pos.with_cell(
            board.hole_at(Side::B, a1_index - d as u8),
            Cell::Dalt(Side::B),
        )?;
    }
    if variants.end == EndRule::One {
        pos = pos.with_cell(board.hole_at(Side::B, 0), Cell::Dalt(Side::A))?;
    }
    Ok(pos)
}

/// The hole of `a1` in every table position of `board`.
pub fn target_hole(board: Board) -> Hole {
    board.hole_at(Side::B, 3 * board.len())
}

/// One row of a table, both ways.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableRow {
    /// Table 1 or 2.
    pub kind: TableKind,
    /// Distance of `b1` behind `a1`.
    pub d1: u32,
    /// Distance of `b2` (pair table only).
    pub d2: Option<u32>,
    /// Closed form, exact.
    pub probability: Ratio,
    /// Closed form: best steps for `b1` out of a first dal-dal (0 = elsewhere).
    pub daldal_use: u32,
    /// Closed form cut after `board_daldals` rethrows (equals
    /// `board_probability` exactly when the two methods agree).
    pub probability_cut: Ratio,
    /// Board evaluation: a lower bound within `board_bound`.
    pub board_probability: Ratio,
    /// Board evaluation: the true board value is at most this much higher.
    pub board_bound: Ratio,
    /// Board evaluation: rethrows followed.
    pub board_daldals: u32,
    /// The board position evaluated.
    pub position: Position,
    /// Published percentage (default rules only).
    pub published: Option<&'static str>,
}

impl TableRow {
    /// Whether the two derivations agree, the claim the tables rest on:
    /// the board value equals the closed form cut after the same number of
    /// rethrows exactly, and the exact (uncut) closed form lies within the
    /// board evaluation's bound.
    pub fn agrees(&self) -> bool {
        self.board_probability == self.probability_cut
            && self.board_probability <= self.probability
            && self.probability <= &self.board_probability + &self.board_bound
    }
}

/// Both tables for one board and rule set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaptureTable {
    /// The board of the positions.
    pub board: Board,
    /// The rules.
    pub variants: Variants,
    /// Table 1, `d = 1..=max_distance`.
    pub single: Vec<TableRow>,
    /// Table 2, every `1 <= d1 < d2 <= max_distance`.
    pub pair: Vec<TableRow>,
}

/// One row, both ways.
pub fn table_row(
    board: Board,
    variants: &Variants,
    d1: u32,
    d2: Option<u32>,
) -> Result<TableRow, TableError> {
    let kind = if d2.is_some() {
        TableKind::Pair
    } else {
        TableKind::Single
    };
    let position = table_position(board, variants, d1, d2)?;
    let distances: Vec<u32> = std::iter::once(d1).chain(d2).collect();
    let closed = line_odds(&distances, variants.capture)?;
    let odds = capture_odds(&position, variants);
    let a1 = target_hole(board);
    let board_probability = odds
        .targets
        .iter()
        .find(|t| t.hole == a1)
        .map(|t| t.probability.clone())
        .unwrap_or_default();
    let probability_cut = line_odds_truncated(&distances, variants.capture, odds.daldals)?;
    Ok(TableRow {
        kind,
        d1,
        d2,
        probability: closed.probability,
        daldal_use: closed.daldal_use,
        probability_cut,
        board_probability,
        board_bound: odds.bound,
        board_daldals: odds.daldals,
        position,
        published: if *variants == Variants::default() {
            published(kind, d1, d2)
        } else {
            None
        },
    })
}

/// Both tables up to `max_distance` for `board` under `variants`. Rows are
/// computed in parallel (rayon); the result does not depend on the thread
/// count.
pub fn capture_table(
    board: Board,
    variants: &Variants,
    max_distance: u32,
) -> Result<CaptureTable, TableError> {
    use rayon::prelude::*;
    check_distance(board, max_distance)?;
    let mut jobs: Vec<(u32, Option<u32>)> = (1..=max_distance).map(|d| (d, None)).collect();
    for d1 in 1..=max_distance {
        for d2 in d1 + 1..=max_distance {
            jobs.push((d1, Some(d2)));
        }
    }
    let rows: Vec<TableRow> = jobs
        .par_iter()
        .map(|&(d1, d2)| table_row(board, variants, d1, d2))
        .collect::<Result<_, _>>()?;
    let (single, pair) = rows.into_iter().partition(|r| r.kind == TableKind::Single);
    Ok(CaptureTable {
        board,
        variants: *variants,
        single,
        pair,
    })
}

#[cfg(test)]
mod range_tests {
    use super::*;

    #[test]
    fn distances_are_checked_against_the_board() {
        let b = |l| Board::new(l).unwrap();
        assert_eq!(max_distance(Board::NORWEGIAN), 12);
        assert!(check_distance(Board::NORWEGIAN, 12).is_ok());
        assert_eq!(
            check_distance(Board::NORWEGIAN, 13).unwrap_err().to_string(),
            "distance 13 does not fit the norwegian board: the free piece needs 22 holes of open road, and at most distance 12 leaves that much"
        );
        assert_eq!(
            check_distance(b(8), 1).unwrap_err().to_string(),
            "the board with L=8 is too short for the capture tables: their free piece needs 22 holes of open road, which boards from L=9 up leave"
        );
        assert!(check_distance(b(9), 1).is_ok());
        // docs/cli.md: up to 3L - 24, so 72 on the largest board (the
        // line model refused it beyond 64).
        assert_eq!(max_distance(b(32)), 72);
        assert!(check_distance(b(32), 72).is_ok());
        assert!(table_row(b(32), &Variants::default(), 71, Some(72)).is_ok());
        assert_eq!(
            check_distance(b(32), 73).unwrap_err().to_string(),
            "distance 73 does not fit the 32 board: the free piece needs 22 holes of open road, and at most distance 72 leaves that much"
        );
        assert!(matches!(
            check_distance(b(9), 0),
            Err(TableError::NoDistance)
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Table 1, d = 3 on the Danish board under the default rules.
    fn row() -> TableRow {
        table_row(Board::DANISH, &Variants::default(), 3, None).unwrap()
    }

    #[test]
    fn a_real_row_agrees() {
        assert!(row().agrees());
    }

    /// A board value moved by as little as `16^-20` off the closed form
    /// cut no longer agrees: the claim is exact equality.
    #[test]
    fn an_altered_row_disagrees() {
        let mut r = row();
        r.board_probability = &r.board_probability - crate::ratio::sixteenth_pow(20);
        assert!(!r.agrees());
    }
}
