//! Cheap `f64` capture risks for the engine's heuristics.

use dalkon_rules::daldos::{play_results, Hole, Position, Throw, Variants};

/// Cheap `f64` capture risks for a heuristic: for each enemy piece of the
/// side to move in `pos` (in hole order), the probability that the side to
/// move captures it with this throw, counting a dal-dal only for a capture
/// made with the dal-dal itself (no rethrow followed). A lower bound of
/// `capture_odds`, at most `1/16` below it; ten calls of the play
/// generator. To ask "how exposed are my pieces", pass the position with
/// the opponent to move (`pos.with_side_to_move(me.other())`).
pub fn capture_risk_f64(pos: &Position, variants: &Variants) -> Vec<(Hole, f64)> {
    let enemy = pos.side_to_move().other();
    let present = pos.mask(enemy);
    let holes: Vec<Hole> = pos.pieces(enemy).collect();
    let mut weight = vec![0u32; holes.len()];
    if pos.is_over(variants) {
        return holes.into_iter().map(|h| (h, 0.0)).collect();
    }
    let mut buf = Vec::new();
    for &(t, w) in &Throw::DISTINCT {
        play_results(pos, variants, t, &mut buf);
        let hit = buf
            .iter()
            .fold(0u128, |acc, res| acc | (present & !res.mask(enemy)));
        for (i, h) in holes.iter().enumerate() {
            if hit & (1u128 << h.0) != 0 {
                weight[i] += w;
            }
        }
    }
    holes
        .into_iter()
        .zip(weight)
        .map(|(h, w)| (h, f64::from(w) / 16.0))
        .collect()
}
