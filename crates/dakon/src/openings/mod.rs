//! Openings that win outright: chains of moves of the first player's first
//! turn (a bonus move keeps the turn) that end the game (docs/rules.md §2.3)
//! before the opponent ever moves, with the first player ahead.
//!
//! A chain ends when a move hands the turn over (not a winning chain: the
//! opponent moves) or when the game ends (the mover or the opponent has no
//! seeds left; the sweep applied). Per position we want the number of
//! winning continuations, the shortest one and the one with the largest
//! final margin; ties go to the lexicographically smallest chain (holes
//! ascending), so the answer is deterministic.
//!
//! **Layers.** Every move of a chain but the last is a bonus move, whose
//! last seed lands in the mover's store: the store grows by at least one
//! with each move. So the positions of the turn fall into layers by the
//! mover's store, and every move leads to a higher layer. Within a turn the
//! opponent's store is fixed (only the final sweep feeds it, and that ends
//! the chain), so inside a layer the rows alone identify a position and are
//! ranked as a composition of the seeds on the board
//! ([`crate::rank::Compositions`], in 128 bits).
//!
//! **Two passes.** The forward pass expands the layers in ascending order,
//! collecting each higher layer's positions as a set of ranks (a sorted
//! vector, or a bitmap once that is smaller: [`layer_set`]); a finished
//! layer is kept compactly, in memory or in a checked file ([`layer_store`]).
//! The backward pass takes the layers in descending order and evaluates
//! every position from its moves; only positions with at least one winning
//! continuation are remembered (on 7×6, fewer than 1 in 100), in a hash
//! table per layer. Each position is expanded exactly twice, whatever the
//! thread count, and the counts are exact (checked 64-bit arithmetic).
//!
//! The 7×7 first turn holds billions of positions; the memory used is
//! charged to a budget before it is allocated, so a count that does not fit
//! stops with [`OpeningsError::TooMuchMemory`] instead of being killed.
//!
//! Files: `board.rs` maps positions to (layer, rank); `count.rs` runs
//! the two passes; `layer_set.rs` and `layer_store/` hold
//! their data; `first.rs` finds one winning chain without counting. This
//! file holds the public types only; none of them uses its children.

mod board;
mod count;
pub use dalkon_cluster as exchange;
mod first;
mod layer_set;
mod layer_store;
pub mod plan;
mod shard;

pub use plan::{
    board_first_chain, board_openings, plan_count, CountLimits, CountPlan, CountRequest,
};

use std::path::PathBuf;

pub use count::{openings, openings_with_progress};
pub use first::{first_winning_chain, FirstChain};
pub use shard::openings_partitioned;

/// The winning first-turn chains of a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Openings {
    /// Number of distinct winning chains (move sequences).
    pub winning_chains: u64,
    /// A shortest winning chain (empty when none).
    pub shortest: Vec<usize>,
    /// A winning chain with the largest final margin (empty when none).
    pub best: Vec<usize>,
    /// Final store difference (first player minus opponent) of `best`.
    pub best_margin: Option<i32>,
    /// Distinct positions of the turn (the side to move's, before each
    /// move of a chain).
    pub positions: u64,
    /// Positions from which the turn can still be won.
    pub winning_positions: u64,
    /// Most bytes of memory the count held at once (as charged to the
    /// budget).
    pub peak_bytes: u64,
    /// Bytes of layers written to the working folder.
    pub disk_bytes: u64,
}

/// Why the openings could not be counted.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    /// More distinct positions than the limit allows.
    #[error(
        "the first turn holds more than {limit} distinct positions; the count was abandoned \
         at the layer where the mover's store holds {layer} seeds, which alone has \
         {layer_positions} positions"
    )]
    TooManyPositions {
        /// The limit.
        limit: u64,
        /// The layer (mover's store) being added when the limit was passed.
        layer: u32,
        /// Positions of that layer.
        layer_positions: u64,
    },
    /// The count would need more memory than its budget.
    #[error(
        "the count needs more than {} MiB of memory, over its budget of {} MiB; it was abandoned",
        .needed.div_ceil(1 << 20),
        .budget >> 20
    )]
    TooMuchMemory {
        /// Bytes the count would have held.
        needed: u64,
        /// The budget in bytes.
        budget: u64,
    },
    /// The count does not fit in 64 bits.
    #[error("more than 2^64 winning chains; the count was abandoned")]
    CountOverflow,
    /// A layer of the board has more than 2^128 row distributions.
    #[error("the board is too big to index ({0} seeds on the board)")]
    BoardTooBig(u32),
    /// Reading or writing a file of the working folder failed. The system's
    /// message is the source, not repeated here: the CLI prints the chain.
    #[error("{}", dalkon_store::error::io_failed(path))]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The working folder named is a file (or something else that is not
    /// a folder).
    #[error("{}", dalkon_store::error::not_a_folder(path, WORK_DIR_FOR))]
    NotAFolder {
        /// The path given.
        path: PathBuf,
    },
    /// The working folder exists but is not a checkpoint of a count, so it
    /// is not ours to fill or to remove.
    #[error(
        "{} exists but holds no checkpoint of an openings count; name a new folder or remove this one",
        dir.display()
    )]
    NotACheckpoint {
        /// The working folder.
        dir: PathBuf,
    },
    /// A checkpoint or layer file cannot be used (damaged, stale, or of
    /// another count): running the count again would stop the same way, so
    /// the error says to delete the folder.
    #[error(
        "{}: {why}; the count cannot resume from {}: delete that folder to start the count over",
        path.display(),
        dir.display()
    )]
    CorruptLayer {
        /// The working folder.
        dir: PathBuf,
        /// The file at fault.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// Encoded positions or winners that passed their checks but do not
    /// decode: a bug, or a file written by a different build.
    #[error("layer {layer}: {what}")]
    Undecodable {
        /// The layer (mover's store).
        layer: u32,
        /// What does not decode.
        what: &'static str,
    },
    /// Another rank of the job failed (its own error is its own); every
    /// rank stopped at the same exchange.
    #[error(
        "rank {rank} of the job failed (its error is reported by that rank); every rank stopped"
    )]
    RankFailed {
        /// The (lowest) rank that failed.
        rank: usize,
    },
    /// The working folder holds the checkpoint of a count run by one
    /// process, which a job of several ranks cannot take up.
    #[error(
        "{} holds the checkpoint of a count run by one process: resume it with one rank \
         (without mpirun, or mpirun -np 1), or delete that folder to start over",
        dir.display()
    )]
    SingleProcessCheckpoint {
        /// The working folder.
        dir: PathBuf,
    },
    /// Stopped on request after a checkpoint (see
    /// [`OpeningLimits::stop_after_checkpoints`]).
    #[error("stopped after checkpoint {0}, as asked")]
    Stopped(u32),
}

/// What the folder of [`OpeningsError::NotAFolder`] is for.
pub(crate) const WORK_DIR_FOR: &str = "the count's checkpoints";

impl From<dalkon_store::FileError> for OpeningsError {
    fn from(e: dalkon_store::FileError) -> OpeningsError {
        match e {
            dalkon_store::FileError::NotAFolder { path, .. } => OpeningsError::NotAFolder { path },
            dalkon_store::FileError::Io { path, source } => OpeningsError::Io { path, source },
        }
    }
}

impl OpeningsError {
    /// Whether running the same count again (with the same working folder)
    /// can get further: after a requested stop, an I/O failure (a full
    /// disk, say) or a memory refusal, the checkpoint kept is good; after
    /// the other errors the same run stops the same way.
    pub fn resumable(&self) -> bool {
        matches!(
            self,
            OpeningsError::Stopped(_)
                | OpeningsError::RankFailed { .. }
                | OpeningsError::Io { .. }
                | OpeningsError::TooMuchMemory { .. }
        )
    }
}

/// Limits of an openings count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpeningLimits {
    /// Memory the count may hold, in bytes (pending and finished layers,
    /// the tables of winning positions).
    pub memory_bytes: u64,
    /// Give up beyond this many distinct positions.
    pub max_positions: u64,
    /// The count's working folder: finished layers that do not fit in
    /// `layers_in_memory` go there, and so do checkpoints. If it exists, it
    /// must hold a checkpoint of this same count, which is resumed. It is
    /// removed when the count is complete, and kept when the count stops
    /// after a checkpoint. `None`: every layer stays in memory.
    pub work_dir: Option<PathBuf>,
    /// Bytes of finished layers kept in memory before they go to files.
    pub layers_in_memory: u64,
    /// Write a checkpoint to `work_dir` at the end of a layer when this
    /// much time has passed since the last one (`None`: never). A
    /// checkpoint writes the pending layers too, so it is not free: on
    /// 7×7 a few gigabytes.
    pub checkpoint_every: Option<std::time::Duration>,
    /// For tests: stop with [`OpeningsError::Stopped`] right after this
    /// many checkpoints, as an interruption would.
    pub stop_after_checkpoints: Option<u32>,
}

impl Default for OpeningLimits {
    fn default() -> Self {
        OpeningLimits {
            memory_bytes: 2 << 30,
            max_positions: u64::MAX,
            work_dir: None,
            layers_in_memory: 1 << 30,
            checkpoint_every: None,
            stop_after_checkpoints: None,
        }
    }
}

/// Which pass of the count is running.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pass {
    /// Finding the positions, layer by layer upwards.
    Forward,
    /// Evaluating them, layer by layer downwards.
    Backward,
}

/// Receives progress of a long count (called from the counting thread).
pub trait OpeningsProgress: Sync {
    /// Layer `layer` (the mover's store) of `positions` positions is being
    /// worked on; `layers` is the number of layers in all.
    fn layer(&self, pass: Pass, layer: u32, layers: u32, positions: u64) {
        let _ = (pass, layer, layers, positions);
    }

    /// A layer is done (the partitioned count, [`openings_partitioned`],
    /// says so on every rank; the single-process count too).
    fn layer_done(&self, done: &LayerDone) {
        let _ = done;
    }
}

/// A layer done: what two runs of the same count agree on, in one process
/// or partitioned across any number of ranks (but the bytes exchanged).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LayerDone {
    /// The pass.
    pub pass: Pass,
    /// The layer (the mover's store).
    pub layer: u32,
    /// Forward: the layer's positions; backward: its winning positions.
    pub positions: u64,
    /// The sum (wrapping) of a 64-bit hash of each of those positions
    /// (backward: with its summary), so independent of the partition.
    pub hash: u64,
    /// Bytes the ranks sent each other for this layer.
    pub exchanged_bytes: u64,
}

/// An [`OpeningsProgress`] that ignores everything.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoOpeningsProgress;

impl OpeningsProgress for NoOpeningsProgress {}
