//! `daldos solve` (docs/solved.md): build (or load) the tables of exact
//! values `W` of every position with at most `A` and `B` pieces, layer by
//! layer, optionally check every layer independently (`--check`), and
//! report each layer; on a board where `A,B` is the full piece count, `W`
//! at the start too. Layers are stored with A to throw: layer `a v b`
//! holds the positions where the side to throw has `a` pieces and the
//! other side `b`.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use dalkon_rules::daldos::{Board, Position, Variants};
use serde::Serialize;

use crate::solved::{
    build_partitioned, check_layer, plan, BuildProgress, LayerKey, LayerReport, PartLayerLog, Plan,
    TableError, Tables, EPS,
};

/// The board solved when none is given.
pub const DEFAULT_BOARD: Board = Board::DANISH;

/// Why a solve has no report.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// Planning, building, reading or writing the tables failed.
    #[error(transparent)]
    Table(#[from] TableError),
    /// `--check` met a play that leads outside the tables.
    #[error("cannot check layer {a} v {b}: a play leads outside the tables")]
    Unchecked {
        /// Pieces of the side to throw.
        a: u8,
        /// Pieces of the other side.
        b: u8,
    },
}

/// What a solve tells as it goes: the build's progress, then each check.
pub trait SolveProgress: BuildProgress {
    /// The check of one layer starts.
    fn checking(&mut self, _key: LayerKey, _positions: u64) {}
    /// The build (or the checks) ended.
    fn finished(&mut self) {}
}

impl SolveProgress for crate::solved::NoProgress {}

/// Build (or load) the tables of `board` under `variants` up to `pieces`
/// in `dir`; with `check`, check every layer after the build.
#[derive(Debug, Clone)]
pub struct SolveRequest {
    pub board: Board,
    pub variants: Variants,
    pub pieces: (u8, u8),
    pub dir: PathBuf,
    pub check: bool,
}

/// A layer's row of the summary (JSON, and the record `reproduce` keeps).
#[derive(Debug, Clone, Serialize)]
pub struct LayerRow {
    pub a: u8,
    pub b: u8,
    pub positions: u64,
    pub sweeps: u32,
    /// Position updates of the iteration (each component's positions
    /// times its sweeps, summed): the work, for speed figures.
    pub updates: u64,
    pub gap: f64,
    pub mean_w: f64,
    pub stalled: bool,
    pub loaded: bool,
    /// Seconds of the layer's pair (a layer and its swap are built
    /// together; both rows carry the pair's time).
    pub seconds: f64,
    /// With `check`: the independent check of the layer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<CheckRow>,
}

/// The independent check of one layer.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct CheckRow {
    /// Largest amount by which a stored bound fails the recomputed sweep
    /// (≤ 0 when all hold; at most the rounding allowance to pass).
    pub violation: f64,
    /// Largest distance of the stored midpoint from its recomputed value.
    pub residual: f64,
    pub passed: bool,
    pub seconds: f64,
}

impl From<&LayerReport> for LayerRow {
    fn from(r: &LayerReport) -> LayerRow {
        let s = &r.stats;
        LayerRow {
            a: s.key.a,
            b: s.key.b,
            positions: s.positions,
            sweeps: s.sweeps,
            updates: s.updates,
            gap: s.gap,
            mean_w: s.mean_w,
            stalled: s.stalled,
            loaded: r.loaded,
            seconds: r.seconds,
            check: None,
        }
    }
}

/// `W` at the start, A to throw.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct StartRow {
    pub value: f64,
    pub lower: f64,
    pub upper: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct RulesRow {
    pub dal: String,
    pub capture: String,
    pub end: String,
}

/// The JSON of `daldos solve`.
#[derive(Debug, Clone, Serialize)]
pub struct SolveReport {
    pub board: u8,
    pub rules: RulesRow,
    pub pieces: [u8; 2],
    pub eps: f64,
    pub layers: Vec<LayerRow>,
    /// `W` at the start when the scope is the whole game.
    pub start: Option<StartRow>,
    /// Bytes the plan allowed for.
    #[serde(skip)]
    pub bytes: u64,
    /// Positions of the plan.
    #[serde(skip)]
    pub positions: u64,
}

impl SolveReport {
    /// The layers that failed their check, as `a v b`.
    pub fn failed(&self) -> Vec<String> {
        self.layers
            .iter()
            .filter(|l| l.check.is_some_and(|c| !c.passed))
            .map(|l| format!("{} v {}", l.a, l.b))
            .collect()
    }

    /// The largest gap between the bounds over every layer.
    pub fn gap(&self) -> f64 {
        self.layers.iter().map(|l| l.gap).fold(0.0, f64::max)
    }
}

impl SolveRequest {
    /// The folder of the tables.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Build (or load) the layers, then check them if asked; `stop`
    /// raised ends the build between components (the layers finished
    /// before are kept, and a new run resumes from them).
    pub fn run(
        &self,
        progress: &mut dyn SolveProgress,
        stop: Option<&AtomicBool>,
    ) -> Result<SolveReport, SolveError> {
        let p = plan(self.board, &self.variants, self.pieces)?;
        let mut tables = Tables::new(self.board, self.variants, Some(&self.dir));
        let never = AtomicBool::new(false);
        let reports = tables.build_until(&p, EPS, progress, stop.unwrap_or(&never));
        progress.finished();
        self.report(&p, tables, &reports?, progress)
    }

    /// [`SolveRequest::run`] as one rank of a job partitioned across the
    /// ranks of `ex` (every rank calls it alike): the same files and, on
    /// rank 0, the same report (the check and the start value are rank
    /// 0's, read from the files; the other ranks' reports have neither).
    /// `log` is told of every layer (its file's checksum and the bytes
    /// exchanged), so that two runs can be compared.
    pub fn run_partitioned(
        &self,
        ex: &dyn dalkon_cluster::Exchange,
        progress: &mut dyn SolveProgress,
        log: &mut dyn FnMut(&PartLayerLog),
        stop: Option<&AtomicBool>,
    ) -> Result<SolveReport, SolveError> {
        let p = plan(self.board, &self.variants, self.pieces)?;
        let never = AtomicBool::new(false);
        let reports = build_partitioned(
            &p,
            &self.dir,
            EPS,
            ex,
            progress,
            log,
            stop.unwrap_or(&never),
        );
        progress.finished();
        let reports = reports?;
        let mut tables = Tables::new(self.board, self.variants, Some(&self.dir));
        if ex.rank() != 0 {
            // No tables loaded here: no start value either.
            let quiet = SolveRequest {
                check: false,
                ..self.clone()
            };
            return quiet.report(&p, tables, &reports, progress);
        }
        // The files are read (every entry, for its checksum) only for
        // what needs the whole tables: the check, or the start's value.
        let l = self.board.len();
        if self.check || self.pieces == (l, l) {
            for r in &reports {
                tables.load(r.stats.key)?;
            }
        }
        self.report(&p, tables, &reports, progress)
    }

    /// The report of the built `tables`: the layers, checked if asked, and
    /// the start's value when the scope is the whole game.
    fn report(
        &self,
        p: &Plan,
        tables: Tables,
        reports: &[LayerReport],
        progress: &mut dyn SolveProgress,
    ) -> Result<SolveReport, SolveError> {
        let (board, pieces) = (self.board, self.pieces);
        let mut layers: Vec<LayerRow> = reports.iter().map(LayerRow::from).collect();
        if self.check {
            for layer in &mut layers {
                let key = LayerKey {
                    board,
                    a: layer.a,
                    b: layer.b,
                };
                progress.checking(key, layer.positions);
                let started = Instant::now();
                let c = check_layer(&tables, key).ok_or(SolveError::Unchecked {
                    a: layer.a,
                    b: layer.b,
                })?;
                layer.check = Some(CheckRow {
                    violation: c.violation,
                    residual: c.residual,
                    passed: c.passes(EPS),
                    seconds: started.elapsed().as_secs_f64(),
                });
            }
            progress.finished();
        }
        let l = board.len();
        let start = (pieces == (l, l))
            .then(|| tables.bounds(&Position::start(board)))
            .flatten()
            .map(|b| StartRow {
                value: b.value(),
                lower: b.lo,
                upper: b.hi,
            });
        Ok(SolveReport {
            board: l,
            rules: RulesRow {
                dal: self.variants.dal.to_string(),
                capture: self.variants.capture.to_string(),
                end: self.variants.end.to_string(),
            },
            pieces: [pieces.0, pieces.1],
            eps: EPS,
            layers,
            start,
            bytes: p.bytes,
            positions: p.positions,
        })
    }
}
