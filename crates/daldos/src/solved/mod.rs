//! Daldøs solved (RULES §1.8, docs/solved.md): tables of the exact value
//! `W` — the win probability of the side to throw under perfect play — of
//! every position of a layer (pieces left on each side).
//!
//! Positions are stored with A to throw only: a position with B to throw
//! is looked up as its mirror image ([`Position::mirror`]), which has the
//! same value since the rules are symmetric. Each value is a pair of
//! bounds `lo ≤ W ≤ hi`, iterated from `0` and `1` until they are within
//! `eps` of each other.
//!
//! - `index.rs`: the combinatorial ranking of a layer and its components;
//! - `component.rs`: the bound iteration over one component;
//! - `pair.rs`: a layer and its mirror, components in dependency order;
//! - this file: the set of layers of a board and rules ([`Tables`]),
//!   their order of building, and lookups.

mod build;
mod check;
mod component;
mod error;
pub mod file;
mod index;
mod missing;
mod pair;
mod partition;
mod summary;
mod value;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use dalkon_rules::daldos::{Board, Position, Side, Variants};

pub use build::{plan, BuildProgress, LayerReport, NoProgress, Plan};
pub use check::{check_layer, sweep_once, Check, ROUNDING};
pub(crate) use error::solve_flags;
pub use error::TableError;
pub use index::{approx_size, Component, LayerIndex, LayerKey, Pattern, Place};
pub use missing::{missing_layer, MissingLayer};
pub use pair::LayerStats;
pub use partition::{build_partitioned, PartLayerLog};
pub use summary::{activation_summary, ActivationRow};
pub use value::{covered, value_report, PlayValue, ThrowValues, ValueReport};

/// The gap at which a value counts as exact.
pub const EPS: f64 = 1e-12;

/// Bounds on the value `W` of a position for the side to throw.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// `lo ≤ W`.
    pub lo: f64,
    /// `W ≤ hi`.
    pub hi: f64,
}

impl Bounds {
    /// The midpoint, the value quoted.
    pub fn value(self) -> f64 {
        (self.lo + self.hi) / 2.0
    }

    /// `hi - lo`.
    pub fn gap(self) -> f64 {
        self.hi - self.lo
    }

    /// The bounds for the other side: `1 - hi ≤ 1 - W ≤ 1 - lo`.
    pub fn flipped(self) -> Bounds {
        Bounds {
            lo: 1.0 - self.hi,
            hi: 1.0 - self.lo,
        }
    }
}

/// Where a layer's bounds are: just built, or mapped from its file.
#[derive(Debug)]
enum Data {
    Built(Vec<f64>),
    Mapped(file::Mapped),
}

/// One solved layer.
#[derive(Debug)]
struct Layer {
    index: LayerIndex,
    data: Data,
    /// Worked out on first use: for a mapped layer it reads every entry,
    /// which engines that only look values up never need.
    stats: std::sync::OnceLock<LayerStats>,
}

impl Layer {
    #[inline]
    fn get(&self, r: u64) -> (f64, f64) {
        let r = r as usize;
        match &self.data {
            Data::Built(v) => (v[2 * r], v[2 * r + 1]),
            Data::Mapped(m) => m.get(r),
        }
    }

    fn mapped(index: LayerIndex, m: file::Mapped) -> Layer {
        Layer {
            index,
            data: Data::Mapped(m),
            stats: std::sync::OnceLock::new(),
        }
    }

    /// Statistics: as built, or recomputed from the bounds of a mapped
    /// layer with the sweeps and updates its header records.
    fn stats(&self) -> LayerStats {
        *self.stats.get_or_init(|| {
            let Data::Mapped(m) = &self.data else {
                unreachable!("a built layer's statistics are set when it is built")
            };
            mapped_stats(&self.index, m, m.stats())
        })
    }
}

/// A mapped layer's statistics: its widest gap and mean `W` from the
/// bounds, with the sweeps and updates recorded in `fs`.
pub(crate) fn mapped_stats(
    index: &LayerIndex,
    m: &file::Mapped,
    fs: file::FileStats,
) -> LayerStats {
    let mut gap = 0.0f64;
    let mut sum = 0.0f64;
    for r in 0..m.len() {
        let (lo, hi) = m.get(r);
        gap = gap.max(hi - lo);
        sum += (lo + hi) / 2.0;
    }
    let n = index.size();
    LayerStats {
        key: index.key(),
        positions: n,
        sweeps: fs.sweeps,
        updates: fs.updates,
        gap,
        mean_w: if n == 0 { 0.0 } else { sum / n as f64 },
        stalled: fs.stalled,
    }
}

/// The layers a scope needs, lowest first: every `(a, b)` with
/// `a ≤ pieces.0` and `b ≤ pieces.1`, both above the losing count, and
/// the swap `(b, a)` of each (a position with B to throw is stored as its
/// mirror). Listed as pairs, one key each (the one with `a ≥ b`), in order
/// of `a + b`: captures always lead to pairs listed before.
pub fn layers_for(board: Board, v: &Variants, pieces: (u8, u8)) -> Vec<LayerKey> {
    let min = v.end.losing_count() as u8 + 1;
    let mut out = Vec::new();
    let top = pieces.0.max(pieces.1);
    for total in 2 * min..=2 * top {
        for a in (min..=top).rev() {
            let Some(b) = total.checked_sub(a) else {
                continue;
            };
            if b < min || b > a {
                continue;
            }
            let fits = (a <= pieces.0 && b <= pieces.1) || (b <= pieces.0 && a <= pieces.1);
            if fits {
                out.push(LayerKey { board, a, b });
            }
        }
    }
    out
}

/// Solved layers of one board under one set of rules, and the folder their
/// files live in (if any).
#[derive(Debug)]
pub struct Tables {
    board: Board,
    variants: Variants,
    dir: Option<PathBuf>,
    layers: BTreeMap<(u8, u8), Layer>,
}

impl Tables {
    /// Bounds of `pos` (A to throw, not finished) in a layer below the
    /// pair being solved.
    pub(crate) fn lower_bounds(&self, pos: &Position) -> (f64, f64) {
        let key = (pos.count(Side::A) as u8, pos.count(Side::B) as u8);
        let layer = self
            .layers
            .get(&key)
            .expect("a pair's lower layers are built before it");
        layer.get(layer.index.rank(pos))
    }
}

impl Tables {
    /// No layers yet; files (when `dir` is given) are read from and
    /// written to `dir`.
    pub fn new(board: Board, variants: Variants, dir: Option<&Path>) -> Tables {
        Tables {
            board,
            variants,
            dir: dir.map(Path::to_path_buf),
            layers: BTreeMap::new(),
        }
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The rules.
    pub fn variants(&self) -> Variants {
        self.variants
    }

    /// The folder of the files.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The layer `key`, if present.
    fn layer(&self, key: LayerKey) -> Option<&Layer> {
        if key.board != self.board {
            return None;
        }
        self.layers.get(&(key.a, key.b))
    }

    /// Whether layer `(a, b)` is present.
    pub fn has_layer(&self, a: u8, b: u8) -> bool {
        self.layers.contains_key(&(a, b))
    }

    /// Statistics of every layer present, in key order.
    pub fn stats(&self) -> Vec<LayerStats> {
        self.layers.values().map(Layer::stats).collect()
    }

    /// Map layer `key` from its file if the file exists (and is sound);
    /// `Ok(false)` when there is no file or no folder.
    pub fn load(&mut self, key: LayerKey) -> Result<bool, TableError> {
        if self.layers.contains_key(&(key.a, key.b)) {
            return Ok(true);
        }
        let Some(dir) = &self.dir else {
            return Ok(false);
        };
        // A missing file is the common case (`load_all` asks for every
        // layer of the board): answer it before building the layer's index,
        // which on a big board takes seconds per layer.
        let path = dir.join(file::file_name(key, &self.variants));
        if matches!(std::fs::metadata(&path), Err(e) if e.kind() == std::io::ErrorKind::NotFound) {
            return Ok(false);
        }
        let index = LayerIndex::new(key);
        match file::open(dir, key, &self.variants, index.size())? {
            Some(m) => {
                self.layers.insert((key.a, key.b), Layer::mapped(index, m));
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Map every layer of this board and rules whose file is in the folder
    /// (for engines that use whatever the tables cover). Returns how many.
    pub fn load_all(&mut self) -> Result<usize, TableError> {
        let l = self.board.len();
        let min = self.variants.end.losing_count() as u8 + 1;
        let mut n = 0;
        for a in min..=l {
            for b in min..=l {
                let key = LayerKey {
                    board: self.board,
                    a,
                    b,
                };
                n += usize::from(self.load(key)?);
            }
        }
        Ok(n)
    }

    /// Bounds on `W` of `pos` for its side to throw, if the tables cover
    /// it: a finished game is worth 1 to its winner; a position with B to
    /// throw is read as its mirror.
    pub fn bounds(&self, pos: &Position) -> Option<Bounds> {
        if pos.board() != self.board {
            return None;
        }
        if let Some(w) = pos.winner(&self.variants) {
            let v = if w == pos.side_to_move() { 1.0 } else { 0.0 };
            return Some(Bounds { lo: v, hi: v });
        }
        let q = if pos.side_to_move() == Side::A {
            *pos
        } else {
            pos.mirror()
        };
        let layer = self
            .layers
            .get(&(q.count(Side::A) as u8, q.count(Side::B) as u8))?;
        if !layer.index.contains(&q) {
            return None;
        }
        let (lo, hi) = layer.get(layer.index.rank(&q));
        Some(Bounds { lo, hi })
    }

    /// Bounds on the win probability of `side` at `pos` (whoever throws
    /// there), if covered: a finished game is 1 or 0 for `side`, else the
    /// bounds of the side to throw, flipped when that is the other side.
    pub fn bounds_for(&self, pos: &Position, side: Side) -> Option<Bounds> {
        let b = self.bounds(pos)?;
        Some(if pos.side_to_move() == side {
            b
        } else {
            b.flipped()
        })
    }

    /// Insert a freshly built layer.
    fn insert_built(&mut self, index: LayerIndex, values: Vec<f64>, stats: LayerStats) {
        self.layers.insert(
            (stats.key.a, stats.key.b),
            Layer {
                index,
                data: Data::Built(values),
                stats: std::sync::OnceLock::from(stats),
            },
        );
    }
}
