//! The progress lines of `dalkon daldos train` (docs/daldos-eval.md), one
//! a step: the scopes of tables, each layer's samples, each self-play
//! round and each epoch.

use dalkon_daldos::engine::learn::{EpochReport, RoundReport};
use dalkon_daldos::solved::LayerKey;
use dalkon_rules::daldos::Board;

/// A layer being solved because it was not in the table folder.
pub fn solving(key: LayerKey, positions: u64) -> String {
    format!(
        "  solving layer {} v {} ({positions} positions)",
        key.a, key.b
    )
}

/// The tables of a board up to `pieces`.
pub fn scope(board: Board, pieces: (u8, u8)) -> String {
    format!(
        "tables: board {} up to {} v {}",
        board.name(),
        pieces.0,
        pieces.1
    )
}

/// The samples drawn from a layer.
pub fn sampled(key: LayerKey, samples: usize, held_out: bool) -> String {
    let role = if held_out { " (held out)" } else { "" };
    format!(
        "samples: board {} layer {} v {}: {samples}{role}",
        key.board.name(),
        key.a,
        key.b
    )
}

/// A self-play round done.
pub fn round(r: &RoundReport) -> String {
    format!(
        "self-play round {}: {} positions, mean |W - target| {:.5} before, training error {:.5} after",
        r.round,
        r.positions,
        r.td_error,
        r.last_epoch.map_or(f64::NAN, |e| e.mae)
    )
}

/// An epoch done.
pub fn epoch(e: &EpochReport) -> String {
    format!(
        "epoch {}/{}: cross-entropy {:.5}, mean absolute error {:.5}",
        e.epoch, e.epochs, e.loss, e.mae
    )
}
