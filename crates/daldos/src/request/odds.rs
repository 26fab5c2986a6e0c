//! `daldos odds`: for every enemy piece (or the one on a target hole), the
//! probability that the side to move captures it this turn (extra throws
//! after dal-dal included), and of capturing at least one.
//!
//! The search gives every probability as an exact fraction, which is the
//! probability itself only where nothing was cut (`exact`); elsewhere it is
//! a lower bound within `bound`. The report carries both the floats of the
//! CLI's JSON and the exact fractions (for Python's `Fraction`s).

use dalkon_rules::daldos::{Hole, HoleError, Position, Side, Variants};
use serde::Serialize;

use crate::capture::{capture_odds_with, OddsLimits, EXACT_DALDALS};
use crate::ratio::{fraction_string, to_f64};

/// Positions the full search may evaluate before it settles for fewer
/// dal-dal rethrows (and says so, with the bound that leaves).
pub const DEFAULT_MAX_NODES: usize = 50_000;

/// Why an odds request is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OddsError {
    /// The target is not a hole of the board.
    #[error("{0}")]
    Hole(#[from] HoleError),
    /// The target hole holds no piece of the side not to move.
    #[error("no piece of {} (the side not to move) there; {}", side.letter(), on_text(on))]
    NoEnemy {
        /// The hole's name, e.g. `M5`.
        hole: String,
        /// The side not to move.
        side: Side,
        /// The names of its pieces' holes.
        on: Vec<String>,
    },
}

fn on_text(on: &[String]) -> String {
    if on.is_empty() {
        "it has none".to_owned()
    } else {
        format!("its pieces are on {}", on.join(" "))
    }
}

/// The odds of one position.
#[derive(Debug, Clone)]
pub struct OddsRequest {
    pos: Position,
    variants: Variants,
    target: Option<Hole>,
    max_nodes: usize,
}

impl OddsRequest {
    /// The odds of `pos` under `variants`; `target` (a hole name such as
    /// `M5`) keeps only the enemy piece there, which must exist.
    pub fn new(
        pos: Position,
        variants: Variants,
        target: Option<&str>,
        max_nodes: usize,
    ) -> Result<OddsRequest, OddsError> {
        let target = target.map(|t| target_hole(&pos, t)).transpose()?;
        Ok(OddsRequest {
            pos,
            variants,
            target,
            max_nodes,
        })
    }

    /// The position asked about.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Whether one target was asked.
    pub fn has_target(&self) -> bool {
        self.target.is_some()
    }

    /// The odds, every value within 1e-12 where nothing was cut.
    pub fn run(&self) -> OddsReport {
        let limits = OddsLimits {
            max_daldals: EXACT_DALDALS,
            max_nodes: self.max_nodes,
            certify: true,
        };
        let odds = capture_odds_with(&self.pos, &self.variants, limits);
        let board = self.pos.board();
        OddsReport {
            side: odds.side.letter().to_string(),
            targets: odds
                .targets
                .iter()
                .filter(|t| self.target.iter().all(|&h| h == t.hole))
                .map(|t| OddsTarget {
                    hole: board.hole_name(t.hole),
                    probability: to_f64(&t.probability),
                    fraction: fraction_string(&t.probability),
                    bound: to_f64(&t.bound),
                    exact: t.exact,
                    certified: t.certified,
                    bound_fraction: fraction_string(&t.bound),
                })
                .collect(),
            any: to_f64(&odds.any),
            any_fraction: fraction_string(&odds.any),
            any_bound: to_f64(&odds.any_bound),
            exact: odds.exact,
            bound: to_f64(&odds.bound),
            daldals_max: EXACT_DALDALS,
            daldals: odds.daldals,
            certified: odds.certified,
            nodes: odds.nodes,
            mover: odds.side,
            pieces: odds.targets.len(),
            any_bound_fraction: fraction_string(&odds.any_bound),
            bound_fraction: fraction_string(&odds.bound),
        }
    }
}

/// The hole `text` names, which must hold a piece of the side not to move.
fn target_hole(pos: &Position, text: &str) -> Result<Hole, OddsError> {
    let board = pos.board();
    let hole = board.parse_hole(text)?;
    let enemy = pos.side_to_move().other();
    if pos.pieces(enemy).any(|h| h == hole) {
        return Ok(hole);
    }
    Err(OddsError::NoEnemy {
        hole: board.hole_name(hole),
        side: enemy,
        on: pos.pieces(enemy).map(|h| board.hole_name(h)).collect(),
    })
}

/// One enemy piece and the chance of capturing it.
#[derive(Debug, Clone, Serialize)]
pub struct OddsTarget {
    pub hole: String,
    pub probability: f64,
    /// Exact (lower bound within `bound`).
    pub fraction: String,
    /// The true probability is at most this much above `probability`.
    pub bound: f64,
    /// Nothing was cut: `fraction` is the exact probability.
    pub exact: bool,
    /// Settled by the relaxed-model certificate (value cut after
    /// `daldals_max` rethrows, exactly).
    pub certified: bool,
    /// `bound` exactly.
    #[serde(skip)]
    pub bound_fraction: String,
}

/// The JSON of docs/cli.md (`side`, `targets[].hole`,
/// `targets[].probability`, `any`), with the exact fractions and bounds
/// beside; `targets` only the piece on the target when one is asked.
#[derive(Debug, Clone, Serialize)]
pub struct OddsReport {
    pub side: String,
    pub targets: Vec<OddsTarget>,
    pub any: f64,
    pub any_fraction: String,
    pub any_bound: f64,
    /// No rethrow was cut: the fractions are the exact probabilities.
    pub exact: bool,
    /// Each true probability is at most this much above the one given.
    pub bound: f64,
    /// Dal-dal rethrows the certificates follow.
    pub daldals_max: u32,
    /// Dal-dal rethrows the full search reached.
    pub daldals: u32,
    /// Targets the certificates settled.
    pub certified: usize,
    /// Positions evaluated.
    pub nodes: usize,
    /// The side to move, which captures.
    #[serde(skip)]
    pub mover: Side,
    /// Enemy pieces (before the target kept one).
    #[serde(skip)]
    pub pieces: usize,
    /// `any_bound` exactly.
    #[serde(skip)]
    pub any_bound_fraction: String,
    /// `bound` exactly.
    #[serde(skip)]
    pub bound_fraction: String,
}

impl OddsReport {
    /// Whether `any` is exact (its bound is 0).
    pub fn any_exact(&self) -> bool {
        self.any_bound == 0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/cli.md's field names, `probability` a number, `fraction` exact.
    #[test]
    fn json_has_the_contract_fields() {
        let pos: Position = "................/........aab....../BBBBBBBB........ b"
            .parse()
            .unwrap();
        let r = OddsRequest::new(pos, Variants::default(), None, DEFAULT_MAX_NODES)
            .unwrap()
            .run();
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["side"], "b");
        assert_eq!(v["targets"][0]["hole"], "M8");
        assert_eq!(v["targets"][0]["probability"], 0.1875);
        assert_eq!(v["targets"][0]["fraction"], "3/16");
        assert_eq!(v["targets"][1]["hole"], "M9");
        assert_eq!(v["targets"][1]["fraction"], "1/16");
        assert_eq!(v["any"], 0.1875);
        assert_eq!(v["exact"], true);
        assert!(v.get("mover").is_none());
    }

    #[test]
    fn a_target_without_an_enemy_piece_is_refused() {
        let pos: Position = "................/........aab....../BBBBBBBB........ b"
            .parse()
            .unwrap();
        let e = OddsRequest::new(pos, Variants::default(), Some("M1"), 10).unwrap_err();
        assert_eq!(
            e.to_string(),
            "no piece of a (the side not to move) there; its pieces are on M8 M9"
        );
    }
}
