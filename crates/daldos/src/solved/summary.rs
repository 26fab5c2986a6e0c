//! Summaries of a solved layer for people: the mean value by how many
//! pieces of each side are still undalt (what activating a piece is worth).

use super::index::{LayerIndex, LayerKey};
use super::Tables;

/// Positions of a layer with the same numbers of undalt pieces.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ActivationRow {
    /// Undalt pieces of the side to throw and of the other side.
    pub undalt: (u8, u8),
    /// Positions.
    pub positions: u64,
    /// Mean of the midpoints of their bounds.
    pub mean_w: f64,
}

/// The layer's positions grouped by undalt pieces of each side (groups in
/// order of `undalt`), or `None` if the layer is not present.
pub fn activation_summary(tables: &Tables, key: LayerKey) -> Option<Vec<ActivationRow>> {
    let layer = tables.layer(key)?;
    let index = LayerIndex::new(key);
    let w = usize::from(key.b) + 1;
    let mut sums = vec![(0u64, 0.0f64); (usize::from(key.a) + 1) * w];
    for c in index.components() {
        let g = c.a.undalt.count_ones() as usize * w + c.b.undalt.count_ones() as usize;
        let mut sum = 0.0;
        for r in c.start..c.start + c.len {
            let (lo, hi) = layer.get(r);
            sum += (lo + hi) / 2.0;
        }
        sums[g].0 += c.len;
        sums[g].1 += sum;
    }
    Some(
        sums.iter()
            .enumerate()
            .filter(|(_, s)| s.0 > 0)
            .map(|(g, &(n, sum))| ActivationRow {
                undalt: ((g / w) as u8, (g % w) as u8),
                positions: n,
                mean_w: sum / n as f64,
            })
            .collect(),
    )
}
