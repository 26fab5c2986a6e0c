//! Static evaluation of a Daldøs position: an estimated win probability for
//! the side to move, from material, activated (dalt) pieces, race position
//! and capture risk.
//!
//! It must be cheap (a depth-2 search evaluates ~10^5 leaves), so capture
//! risk is NOT the exact odds of `capture` (ten play generations per
//! position) but an own estimate from bitboards: each piece that can move
//! threatens the enemy pieces 1..=8 holes ahead on its path, up to the first
//! own piece in the way, with the chance that one throw (no rethrow) offers
//! that distance: a die or the sum for a dalt piece (7, 8, 9, 10, 4, 3, 2, 1
//! out of 16 for 1..=8), the dal then the other die for an undalt one.
//! Attackers on one target are combined as if independent. It ignores the
//! obligation to use both dice, `dal=sternmost` and `capture=path`.
//!
//! The terms are combined on a logistic scale with weights fitted by
//! logistic regression to game outcomes: 264 527 positions from 3000 games
//! of engine:1 against greedy (`crates/reproduce/examples/eval_features.rs` with seed 777,
//! then `scripts/daldos_fit_eval.py`). Against greedy the fitted weights
//! gain about 3 points of win rate at depth 2 over the earlier hand-set ones
//! (tuning seeds 1000 and 2000, not seed 1 which the match script reports);
//! without the threat terms the win rate drops by some 13 points.
//!
//! [`EvalWeights::EXACT_FIT`] are the weights fitted instead to exact
//! values: the cross-entropy against the solved tables' `W` (docs/rules.md §1.8)
//! of 51 261 positions from L = 4 games and 100 000 from the Norwegian
//! layers up to 2 v 2 (`crates/reproduce/examples/fit_eval_exact.rs`, seed 777). On those
//! boards they cut the engine's loss per decision by about 40 %
//! (`engine::loss`; engine:2 0.24 % to 0.14 % of win probability on L = 4
//! game decisions, 1.46 % to 0.91 % on Norwegian 2 v 2), but full games
//! do not follow: on the Danish board engine:2 with them wins 46.5 % of
//! 4000 games against engine:2 with the default weights, and 70.9 %
//! against greedy where the default wins 73.9 % (seeds 1000 and 2000,
//! `crates/reproduce/examples/weights_match.rs`); on the Norwegian board 48.4 % and on
//! L = 4 50.3 % head to head. What the endgames of small boards teach does
//! not carry over to the middle game of a large one, so the default stays
//! [`EvalWeights::GAMES_FIT`]; the tables help the engine where they cover
//! positions, at the search's leaves (`Daldos::with_tables`).

use dalkon_rules::daldos::{Position, Side, Variants};

/// Weight (out of 16) of throws offering a dalt piece a move of exactly `d`
/// holes (`d = 1..=8`), with one die or both added.
const DALT_REACH: [f64; 8] = [7.0, 8.0, 9.0, 10.0, 4.0, 3.0, 2.0, 1.0];
/// The same for an undalt piece: the dal alone (1), the dal-dal added (2)
/// and the dal plus another die (3..=5).
const UNDALT_REACH: [f64; 8] = [7.0, 1.0, 2.0, 2.0, 2.0, 0.0, 0.0, 0.0];

/// The weights of the evaluation's terms, on the logistic scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EvalWeights {
    /// Material difference, per square root of the total material.
    pub material: f64,
    /// Share of the opponent's threat that counts against the side to move,
    /// which throws first and can often answer it.
    pub defend: f64,
    /// Share of the side to move's own threat credited to it.
    pub attack: f64,
    /// Per activated piece, up to `dalt_cap`.
    pub dalt: f64,
    /// Activated pieces beyond this many add nothing.
    pub dalt_cap: u32,
    /// Race: difference of mean progress along the path.
    pub race: f64,
}

impl EvalWeights {
    /// The weights fitted to the outcomes of games of engine:1 against
    /// greedy on the Danish board (the module documentation).
    pub const GAMES_FIT: EvalWeights = EvalWeights {
        material: 1.43,
        defend: 0.48,
        attack: 1.54,
        dalt: 0.306,
        dalt_cap: 8,
        race: 0.98,
    };

    /// The weights fitted to the solved tables' exact values (see the
    /// module documentation).
    pub const EXACT_FIT: EvalWeights = EvalWeights {
        material: 2.80,
        defend: 0.34,
        attack: 1.17,
        dalt: 0.634,
        dalt_cap: 8,
        race: 0.21,
    };
}

impl Default for EvalWeights {
    fn default() -> Self {
        EvalWeights::GAMES_FIT
    }
}

/// What one side threatens with the next throw, estimated.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Threat {
    /// Probability of capturing at least one piece.
    pub any: f64,
    /// Expected number of pieces under attack, weighted by hit chance.
    pub expected: f64,
}

/// The holes 1..=8 steps ahead of each hole along each side's path, for
/// each board length: `[side][hole][d - 1]`, built once a length.
type Ahead = [[[u8; 8]; 128]; 2];

/// [`Ahead`] of `board` (computed the first time its length is asked).
fn ahead(board: dalkon_rules::daldos::Board) -> &'static Ahead {
    use std::sync::OnceLock;
    const LENGTHS: usize = dalkon_rules::daldos::MAX_LEN as usize + 1;
    static TABLES: [OnceLock<Box<Ahead>>; LENGTHS] = [const { OnceLock::new() }; LENGTHS];
    TABLES[usize::from(board.len())].get_or_init(|| {
        let mut t = Box::new([[[0u8; 8]; 128]; 2]);
        for (k, side) in [Side::A, Side::B].into_iter().enumerate() {
            for h in board.holes() {
                let p = board.path_index(side, h);
                for (d, to) in t[k][h.index()].iter_mut().enumerate() {
                    *to = board.hole_at(side, board.advance(p, d as u32 + 1)).0;
                }
            }
        }
        t
    })
}

/// The threat `attacker` poses to the other side's pieces with one throw
/// (see the module documentation for the estimate).
pub fn threat(pos: &Position, attacker: Side) -> Threat {
    let ahead = &ahead(pos.board())[attacker.index()];
    let own = pos.mask(attacker);
    let enemy = pos.mask(attacker.other());
    let undalt = pos.undalt_mask();
    let mut miss = [1.0f64; 128];
    let mut touched: u128 = 0;
    let mut bits = own;
    while bits != 0 {
        let h = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        // An undalt piece reaches 5 holes at most (the dal and a die).
        let reach: &[f64] = if undalt >> h & 1 == 1 {
            &UNDALT_REACH[..5]
        } else {
            &DALT_REACH
        };
        for (&w, &t) in reach.iter().zip(&ahead[h]) {
            let tb = 1u128 << t;
            if own & tb != 0 {
                break;
            }
            if enemy & tb != 0 {
                miss[t as usize] *= 1.0 - w / 16.0;
                touched |= tb;
            }
        }
    }
    let mut none = 1.0;
    let mut expected = 0.0;
    while touched != 0 {
        let t = touched.trailing_zeros() as usize;
        touched &= touched - 1;
        none *= miss[t];
        expected += 1.0 - miss[t];
    }
    Threat {
        any: 1.0 - none,
        expected,
    }
}

/// Number of `side`'s dalt pieces.
fn dalt_count(pos: &Position, side: Side) -> u32 {
    (pos.mask(side) & !pos.undalt_mask()).count_ones()
}

/// Mean progress of `side`'s pieces along its path, in `[0, 1]`: 0 on the
/// first hole of the start row, 1 once on the loop (where pieces attack).
fn progress(pos: &Position, side: Side) -> f64 {
    let board = pos.board();
    let l = u32::from(board.len());
    let n = pos.count(side);
    if n == 0 {
        return 0.0;
    }
    let sum: u32 = pos
        .pieces(side)
        .map(|h| u32::from(board.path_index(side, h)).min(l))
        .sum();
    sum as f64 / (n as f64 * l as f64)
}

/// Estimated win probability, in `(0, 1)`, of the side to move of `pos` (a
/// position whose game is not over), with the default weights.
pub fn evaluate(pos: &Position, variants: &Variants) -> f64 {
    evaluate_with(pos, variants, &EvalWeights::default())
}

/// [`evaluate`] with explicit weights.
pub fn evaluate_with(pos: &Position, variants: &Variants, w: &EvalWeights) -> f64 {
    w.value(&features(pos, variants))
}

/// What the evaluation reads of a position, for the side to move `x` and
/// the other side `y` (index 0 and 1): all that the weights combine, so
/// that weights can be fitted without evaluating positions again.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Features {
    /// Pieces above the losing count.
    pub pieces: [f64; 2],
    /// [`Threat::any`] of each side's next throw.
    pub threat: [f64; 2],
    /// Dalt pieces.
    pub dalt: [u32; 2],
    /// Mean progress along the path, in `[0, 1]`.
    pub progress: [f64; 2],
}

/// The [`Features`] of `pos` (a position whose game is not over).
pub fn features(pos: &Position, variants: &Variants) -> Features {
    let x = pos.side_to_move();
    let y = x.other();
    let spare = variants.end.losing_count() as f64;
    Features {
        pieces: [pos.count(x) as f64 - spare, pos.count(y) as f64 - spare],
        threat: [threat(pos, x).any, threat(pos, y).any],
        dalt: [dalt_count(pos, x), dalt_count(pos, y)],
        progress: [progress(pos, x), progress(pos, y)],
    }
}

impl EvalWeights {
    /// The logit of the evaluation of features `f` (its value is
    /// `1 / (1 + e^-logit)`).
    pub fn logit(&self, f: &Features) -> f64 {
        // Pieces above the losing count, after this throw's expected captures.
        let mx = (f.pieces[0] - self.defend * f.threat[1]).max(0.1);
        let my = (f.pieces[1] - self.attack * f.threat[0]).max(0.1);
        let material = self.material * (mx - my) / (mx + my).sqrt();
        let dalt = self.dalt
            * (f64::from(f.dalt[0].min(self.dalt_cap)) - f64::from(f.dalt[1].min(self.dalt_cap)));
        let race = self.race * (f.progress[0] - f.progress[1]);
        material + dalt + race
    }

    /// The evaluation of features `f`: an estimated win probability of the
    /// side to move.
    pub fn value(&self, f: &Features) -> f64 {
        1.0 / (1.0 + (-self.logit(f)).exp())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dalkon_rules::daldos::Board;

    fn pos(s: &str) -> Position {
        s.parse().unwrap()
    }

    #[test]
    fn single_attacker_reach() {
        // L = 6. B's path runs down the middle row toward the bow (M6 to M0),
        // then into row A. a on M4 is behind b on M2: out of reach.
        let p = pos("....../..b.a../...... b");
        assert_eq!(p.board(), Board::new(6).unwrap());
        assert_eq!(threat(&p, Side::B).any, 0.0);
        // a on M3, one hole ahead of b on M4: 7/16.
        let p = pos("....../...ab../...... b");
        assert_eq!(threat(&p, Side::B).any, 7.0 / 16.0);
        // Four holes ahead: 10/16; a threatens nothing backwards (9 away).
        let p = pos("....../.a...b./...... b");
        assert_eq!(threat(&p, Side::B).any, 10.0 / 16.0);
        assert_eq!(threat(&p, Side::A).any, 0.0);
    }

    #[test]
    fn own_piece_blocks_and_targets_combine() {
        // b on M5 is blocked by its own b on M4; only M4 reaches a on M3.
        let p = pos("....../...abb./...... b");
        assert_eq!(threat(&p, Side::B).any, 7.0 / 16.0);
        // b on M4 reaches a on M3 (7/16) and a on M1 (9/16).
        let p = pos("....../.a.ab../...... b");
        let t = threat(&p, Side::B);
        assert_eq!(t.any, 1.0 - (9.0 / 16.0) * (7.0 / 16.0));
        assert_eq!(t.expected, 1.0);
    }

    #[test]
    fn evaluation_is_symmetric_and_prefers_material() {
        let v = Variants::default();
        let even = pos("aa..../......./bb.... a");
        let e = evaluate(&even, &v);
        let mirrored = even.with_side_to_move(Side::B);
        assert!((e - evaluate(&mirrored, &v)).abs() < 1e-12);
        let up = pos("aa..../......./b..... a");
        assert!(evaluate(&up, &v) > 0.65);
        assert!(evaluate(&up.with_side_to_move(Side::B), &v) < 0.35);
        let start = Position::start(Board::DANISH);
        assert!((evaluate(&start, &v) - 0.5).abs() < 1e-12);
    }
}
