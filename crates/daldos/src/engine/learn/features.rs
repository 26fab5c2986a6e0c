//! What the learned evaluation reads of a position: [`INPUTS`] numbers,
//! each scaled to about `[-1, 1]`, chosen to mean the same on every board
//! length and every amount of material, so that a net trained on small
//! layers (few pieces, short boards) says something about large ones
//! rather than looking the training layers up.
//!
//! For each side (the side to throw first, then the other), with `n` its
//! pieces above the losing count and `L` the board's length:
//!
//! - `1 / n` (one piece left is a different game from ten);
//! - the share of its pieces still undalt, and its dalt pieces (up to 4,
//!   over 4);
//! - the share of its pieces in each of five stretches of its path: the
//!   three thirds of its start row, the middle row, the enemy's row (the
//!   path of `dalkon_rules::daldos::Board::path_index`, in fractions of
//!   `L`, so the same on every board);
//! - the race: the mean distance its pieces still have to go to reach the
//!   loop, over `L`;
//! - its threat for the next throw ([`threat`]: the chance that one throw
//!   captures, and the expected pieces hit over the enemy's pieces);
//! - the share of the enemy's pieces whose nearest hunter (a dalt piece of
//!   this side behind it on this side's path) is 1–4, 5–8, 9–12 or 13–16
//!   holes away (one throw reaches 8, two 16);
//!
//! and for both: the material difference `(n_x - n_y) / sqrt(n_x + n_y)`,
//! the mover's share of the material, `4 / L`, and the hand-fitted
//! evaluation's logit ([`EvalWeights::GAMES_FIT`]) over 4, a prior the net
//! corrects.
//!
//! The capture risk here is the evaluation's bitboard estimate
//! ([`threat`]), not the exact one-throw odds of `crate::capture`: those
//! cost ten play generations a position, some fifty times the whole
//! evaluation, and a depth-3 search evaluates millions of leaves.

use dalkon_rules::daldos::{Position, Side, Variants};

use crate::engine::eval::{threat, EvalWeights, Features};

/// The number of inputs.
pub const INPUTS: usize = 2 * PER_SIDE + 4;

/// Inputs per side.
const PER_SIDE: usize = 15;

/// The inputs of `pos` (a position whose game is not over), for its side
/// to throw.
pub fn inputs(pos: &Position, variants: &Variants) -> [f32; INPUTS] {
    let mut out = [0.0f32; INPUTS];
    let x = pos.side_to_move();
    let spare = variants.end.losing_count() as f64;
    let board = pos.board();
    let l = u32::from(board.len());
    let undalt = pos.undalt_mask();
    let n = [pos.count(x) as f64, pos.count(x.other()) as f64];
    let above = [(n[0] - spare).max(1.0), (n[1] - spare).max(1.0)];
    // Path indices of each side's pieces on its own path, dalt or not.
    let mut idx = [[(0u32, false); 32]; 2];
    let mut len = [0usize; 2];
    let mut threats = [(0.0f64, 0.0f64); 2];
    let mut dalt = [0u32; 2];
    let mut progress = [0.0f64; 2];
    for (k, side) in [x, x.other()].into_iter().enumerate() {
        for h in pos.pieces(side) {
            if len[k] < 32 {
                let p = u32::from(board.path_index(side, h));
                idx[k][len[k]] = (p, undalt >> h.0 & 1 == 0);
                len[k] += 1;
            }
        }
        let t = threat(pos, side);
        threats[k] = (t.any, t.expected);
    }
    for (k, side) in [x, x.other()].into_iter().enumerate() {
        let o = &mut out[k * PER_SIDE..(k + 1) * PER_SIDE];
        let count = n[k].max(1.0);
        let mine = &idx[k][..len[k]];
        let undalt_n = mine.iter().filter(|&&(_, d)| !d).count() as u32;
        let dalt_n = len[k] as u32 - undalt_n;
        dalt[k] = dalt_n;
        let mut stretch = [0u32; 5];
        let mut to_go = 0u32;
        let mut prog = 0u32;
        for &(p, _) in mine {
            prog += p.min(l);
            let s = if p < l {
                to_go += l - p;
                (3 * p / l) as usize
            } else if p <= 2 * l {
                3
            } else {
                4
            };
            stretch[s] += 1;
        }
        progress[k] = f64::from(prog) / (count * f64::from(l));
        o[0] = (1.0 / above[k]) as f32;
        o[1] = (f64::from(undalt_n) / count) as f32;
        o[2] = (f64::from(dalt_n.min(4)) / 4.0) as f32;
        for (i, &c) in stretch.iter().enumerate() {
            o[3 + i] = (f64::from(c) / count) as f32;
        }
        o[8] = (f64::from(to_go) / (count * f64::from(l))) as f32;
        o[9] = threats[k].0 as f32;
        o[10] = (threats[k].1 / n[1 - k].max(1.0)) as f32;
        // The enemy's pieces by the distance to their nearest hunter, along
        // this side's path (`Board::path_distance`, from path indices): the
        // nearest dalt piece behind it (the highest path index at most its
        // own), or, for a piece on the loop, the last one ahead of it on
        // the loop, reaching it round the loop (2L + 1 holes).
        let near = nearest_hunters(pos, side, mine);
        for (i, &c) in near.iter().enumerate() {
            o[11 + i] = (f64::from(c) / n[1 - k].max(1.0)) as f32;
        }
    }
    let s = 2 * PER_SIDE;
    out[s] = ((above[0] - above[1]) / (above[0] + above[1]).sqrt()) as f32;
    out[s + 1] = (above[0] / (above[0] + above[1])) as f32;
    out[s + 2] = (4.0 / f64::from(l)) as f32;
    let hand = EvalWeights::GAMES_FIT.logit(&Features {
        pieces: [n[0] - spare, n[1] - spare],
        threat: [threats[0].0, threats[1].0],
        dalt,
        progress,
    });
    out[s + 3] = (hand / 4.0) as f32;
    out
}

/// `side`'s hunters for each enemy piece: how many of the enemy's pieces
/// have their nearest dalt piece of `side` (`mine`: path indices on
/// `side`'s path, and whether dalt) 1–4, 5–8, 9–12 or 13–16 holes behind
/// them along `side`'s path — the nearest behind (the highest path index
/// at most theirs) or, for a piece on the loop, the last hunter ahead of
/// it on the loop, which reaches it round the loop (2L + 1 holes). Path
/// indices as bits of a mask, so that each enemy piece costs two
/// leading-zero counts instead of a scan of every hunter.
fn nearest_hunters(pos: &Position, side: Side, mine: &[(u32, bool)]) -> [u32; 4] {
    let board = pos.board();
    let l = u32::from(board.len());
    let mut hunters = 0u128;
    for &(p, is_dalt) in mine {
        if is_dalt {
            hunters |= 1u128 << p;
        }
    }
    let on_loop = ((2u128 << (3 * l)) - 1) & !((1u128 << l) - 1);
    let mut near = [0u32; 4];
    for e in pos.pieces(side.other()) {
        let pe = u32::from(board.path_index(side, e));
        let upto = (2u128 << pe) - 1;
        let mut best = u32::MAX;
        let behind = hunters & upto;
        if behind != 0 {
            best = pe - (127 - behind.leading_zeros());
        }
        if pe >= l {
            let ahead = hunters & on_loop & !upto;
            if ahead != 0 {
                best = best.min(pe + 2 * l + 1 - (127 - ahead.leading_zeros()));
            }
        }
        if (1..=16).contains(&best) {
            near[((best - 1) / 4) as usize] += 1;
        }
    }
    near
}

/// The inputs are the same for a position and its mirror image (the
/// evaluation is for the side to throw, whichever it is).
#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Daldos, Game, Rng};
    use dalkon_rules::daldos::{Board, Throw};

    /// [`nearest_hunters`] by the scan of every hunter for every enemy
    /// piece that it replaced.
    fn nearest_by_scan(pos: &Position, side: Side, mine: &[(u32, bool)]) -> [u32; 4] {
        let board = pos.board();
        let l = u32::from(board.len());
        let mut near = [0u32; 4];
        for e in pos.pieces(side.other()) {
            let pe = u32::from(board.path_index(side, e));
            let mut best = u32::MAX;
            for &(p, is_dalt) in mine {
                if !is_dalt {
                    continue;
                }
                let d = if pe < l {
                    if p <= pe {
                        pe - p
                    } else {
                        continue;
                    }
                } else if p <= pe {
                    pe - p
                } else if p >= l {
                    pe + 2 * l + 1 - p
                } else {
                    continue;
                };
                best = best.min(d);
            }
            if (1..=16).contains(&best) {
                near[((best - 1) / 4) as usize] += 1;
            }
        }
        near
    }

    /// The masks give the scan's counts on every position of random games
    /// on four boards (both sides).
    #[test]
    fn nearest_hunters_is_the_scan() {
        let game = Daldos::default();
        let mut rng = Rng::new(3);
        let mut checked = 0;
        for board in [
            Board::new(4).unwrap(),
            Board::new(32).unwrap(),
            Board::NORWEGIAN,
            Board::DANISH,
        ] {
            for _ in 0..20 {
                let mut pos = Position::start(board);
                while game.winner(&pos).is_none() {
                    for side in [Side::A, Side::B] {
                        let mine: Vec<(u32, bool)> = pos
                            .pieces(side)
                            .map(|h| {
                                let dalt = pos.undalt_mask() >> h.0 & 1 == 0;
                                (u32::from(board.path_index(side, h)), dalt)
                            })
                            .collect();
                        assert_eq!(
                            nearest_hunters(&pos, side, &mine),
                            nearest_by_scan(&pos, side, &mine),
                            "{pos}"
                        );
                        checked += 1;
                    }
                    let throw = Throw::ALL[rng.below(16) as usize];
                    let mut plays = game.plays(&pos, throw);
                    let i = rng.below(plays.len() as u64) as usize;
                    pos = plays.swap_remove(i).1;
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn mirror_and_ranges() {
        let v = Variants::default();
        let pos: Position = "AAAAAAA.a.a...ba/ba..b..a.ab..a.bb/BBBBBBB.b.b.aab. a"
            .parse()
            .unwrap();
        let f = inputs(&pos, &v);
        assert_eq!(f, inputs(&pos.mirror(), &v));
        assert!(f.iter().all(|x| x.abs() <= 2.0));
        // The start: equal material, every piece undalt.
        let s = inputs(&Position::start(Board::DANISH), &v);
        assert_eq!(s[1], 1.0);
        assert_eq!(s[PER_SIDE + 1], 1.0);
        assert_eq!(s[2 * PER_SIDE], 0.0);
        assert_eq!(s[2 * PER_SIDE + 1], 0.5);
        assert_eq!(pos.side_to_move(), Side::A);
        // The hand-fitted logit input is the evaluation's own.
        let hand = EvalWeights::GAMES_FIT.logit(&crate::engine::eval::features(&pos, &v));
        assert!((f64::from(f[INPUTS - 1]) - hand / 4.0).abs() < 1e-6);
    }
}
