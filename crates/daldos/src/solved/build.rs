//! Building the tables of a scope (a board, rules and the most pieces of
//! each side): the layers in order of pieces left, each pair loaded from
//! its files when they are there (an interrupted build resumes from the
//! finished layers), else solved and written. The memory needed is worked
//! out first and a build that does not fit is refused with the size.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use dalkon_rules::daldos::{Board, Variants};
use dalkon_store::memory;

use super::error::{TableError, FOLDER_FOR};
use super::file::{self, FileStats};
use super::index::{approx_size, LayerIndex, LayerKey};
use super::pair::{self, LayerStats};
use super::{layers_for, Tables};

/// Bytes per position of a component while it is solved: its plays (ten
/// throws: the bound over plays leaving, the range of plays staying) and
/// about sixty plays staying, its order and bounds. Measured on the
/// Norwegian 3 v 3 layer's largest component.
const COMPONENT_BYTES: u64 = 10 * (16 + 4) + 60 * 4 + 8 + 16;

/// What a scope needs.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Board, rules, pieces asked for.
    pub board: Board,
    /// The rules.
    pub variants: Variants,
    /// The most pieces of A and of B.
    pub pieces: (u8, u8),
    /// The layer pairs, in build order (one key each; its swap goes with it).
    pub pairs: Vec<LayerKey>,
    /// Positions of every layer (both members of each pair).
    pub positions: u64,
    /// Bytes the build needs at most.
    pub bytes: u64,
    /// The largest layer and its positions (`u64::MAX` beyond 64 bits).
    pub largest: (LayerKey, u64),
    /// [`Plan::bytes`] and the largest layer's positions in floating
    /// point (`index::approx_size`): what they are where the exact counts
    /// saturate.
    pub approx: (f64, f64),
}

/// Bytes from which a scope is not counted exactly: far beyond any
/// machine, and building the index of layers this large is itself slow
/// (seconds per layer on `L = 32` with many pieces).
const UNCOUNTED: f64 = u64::MAX as f64;

/// The plan for a scope, refused when it asks for more pieces than the
/// board has, or none.
pub fn plan(board: Board, v: &Variants, pieces: (u8, u8)) -> Result<Plan, TableError> {
    let l = board.len();
    for p in [pieces.0, pieces.1] {
        if p > l {
            return Err(TableError::TooManyPieces {
                pieces: p,
                board: l,
            });
        }
        let min = v.end.losing_count() as u8 + 1;
        if p < min {
            return Err(TableError::TooFewPieces {
                min,
                end: v.end.to_string(),
            });
        }
    }
    let pairs = layers_for(board, v, pieces);
    // The sizes in floating point first: they name the largest layer
    // whatever its size, and spare building the indices of a scope that
    // no machine could hold.
    let mut largest_key = pairs[0];
    let (mut largest_approx, mut total_approx) = (0.0f64, 0.0f64);
    for &k in &pairs {
        for key in members(k) {
            let n = approx_size(key);
            total_approx += n;
            if n > largest_approx {
                (largest_key, largest_approx) = (key, n);
            }
        }
    }
    let bytes_approx = total_approx * 16.0;
    if bytes_approx >= UNCOUNTED {
        return Ok(Plan {
            board,
            variants: *v,
            pieces,
            pairs,
            positions: u64::MAX,
            bytes: u64::MAX,
            largest: (largest_key, u64::MAX),
            approx: (bytes_approx, largest_approx),
        });
    }
    let mut positions = 0u64;
    let mut largest = (pairs[0], 0u64);
    let mut component = 0u64;
    for &k in &pairs {
        for key in members(k) {
            let index = LayerIndex::new(key);
            positions = positions.saturating_add(index.size());
            if index.size() > largest.1 {
                largest = (key, index.size());
            }
            component = component.max(index.largest_component());
        }
    }
    // The largest component is solved alone in its group (it is the one
    // with no piece on either row pattern); others beside it are smaller,
    // so twice its working set bounds what is live at once.
    let bytes = positions
        .saturating_mul(16)
        .saturating_add(component.saturating_mul(COMPONENT_BYTES * 2));
    Ok(Plan {
        board,
        variants: *v,
        pieces,
        pairs,
        positions,
        bytes,
        largest,
        approx: (bytes_approx, largest_approx),
    })
}

/// The layers of a pair: the key, and its swap when different.
fn members(k: LayerKey) -> Vec<LayerKey> {
    if k.a == k.b {
        vec![k]
    } else {
        vec![k, k.swapped()]
    }
}

/// What became of one layer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LayerReport {
    /// Its statistics.
    pub stats: LayerStats,
    /// Read from its file rather than built.
    pub loaded: bool,
    /// Seconds its pair took (build, or load).
    pub seconds: f64,
}

/// Progress of a build (for a progress bar; called from one thread).
pub trait BuildProgress {
    /// A pair of layers starts: its positions, and whether it is loaded.
    fn pair_started(&mut self, _key: LayerKey, _positions: u64, _loaded: bool) {}
    /// Positions finished so far in the pair.
    fn advanced(&mut self, _positions: u64) {}
    /// A layer is done.
    fn layer_done(&mut self, _report: &LayerReport) {}
}

/// No progress shown.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoProgress;

impl BuildProgress for NoProgress {}

impl Tables {
    /// Build (or load) every layer of `plan`, after checking it fits in
    /// memory. Layers already present are kept. Returns a report per layer
    /// in build order.
    pub fn build(
        &mut self,
        plan: &Plan,
        eps: f64,
        progress: &mut dyn BuildProgress,
    ) -> Result<Vec<LayerReport>, TableError> {
        self.build_until(plan, eps, progress, &AtomicBool::new(false))
    }

    /// [`Tables::build`] that stops, with [`TableError::Interrupted`], soon
    /// after `stop` is raised (between components): the pair being solved
    /// is abandoned, the layers finished before it stay written, and a
    /// later build resumes from them.
    pub fn build_until(
        &mut self,
        plan: &Plan,
        eps: f64,
        progress: &mut dyn BuildProgress,
        stop: &AtomicBool,
    ) -> Result<Vec<LayerReport>, TableError> {
        self.check_memory(plan, memory::available_memory())?;
        if let Some(dir) = &self.dir {
            dalkon_store::error::create_folder(dir, FOLDER_FOR)?;
            let _ = dalkon_store::atomic::remove_stale(dir, |name| name.starts_with("daldos-"));
        }
        let mut out = Vec::new();
        for &k in &plan.pairs {
            let keys = members(k);
            let t0 = Instant::now();
            let mut loaded = true;
            for &key in &keys {
                loaded &= self.load(key)?;
            }
            let positions: u64 = keys.iter().map(|&k| LayerIndex::new(k).size()).sum();
            progress.pair_started(k, positions, loaded);
            if !loaded {
                let mut done = 0;
                let built = pair::solve_pair(k, &self.variants, &*self, eps, stop, |n| {
                    done += n;
                    progress.advanced(done);
                })
                .ok_or(TableError::Interrupted { a: k.a, b: k.b })?;
                for b in built {
                    let stats = pair::stats(&b);
                    if let Some(dir) = &self.dir {
                        file::write(
                            dir,
                            stats.key,
                            &self.variants,
                            &b.values,
                            FileStats {
                                sweeps: stats.sweeps,
                                stalled: stats.stalled,
                                eps,
                                updates: stats.updates,
                            },
                        )?;
                    }
                    self.insert_built(b.index, b.values, stats);
                }
            }
            let seconds = t0.elapsed().as_secs_f64();
            for key in keys {
                let report = LayerReport {
                    stats: self.layers[&(key.a, key.b)].stats(),
                    loaded,
                    seconds,
                };
                progress.layer_done(&report);
                out.push(report);
            }
        }
        Ok(out)
    }

    /// Refuse a plan that needs more memory than may be used.
    pub fn check_memory(&self, plan: &Plan, available: Option<u64>) -> Result<(), TableError> {
        let budget = memory::usable(available);
        if plan.bytes > budget {
            let (k, n) = plan.largest;
            return Err(TableError::OutOfMemory {
                what: format!(
                    "board {} up to {} v {} pieces",
                    plan.board.name(),
                    plan.pieces.0,
                    plan.pieces.1
                ),
                needed: plan.bytes,
                needed_approx: plan.approx.0,
                budget,
                available: available.unwrap_or(memory::ASSUMED_AVAILABLE),
                largest: format!("{} v {}", k.a, k.b),
                largest_positions: n,
                largest_approx: plan.approx.1,
            });
        }
        Ok(())
    }
}
