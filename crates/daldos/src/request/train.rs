//! `daldos train` (docs/daldos-eval.md): build (or load) the solved tables
//! of the training scopes, draw samples from every layer, train the
//! learned evaluation's net on the layers not held out, measure its mean
//! absolute error of `W` on every layer (trained and held out, beside the
//! hand-fitted evaluation's), and write the weights file.
//!
//! The committed weights (`crates/daldos/weights/eval.net`, loaded by
//! [`crate::engine::learn::builtin`]) were made with the defaults and 40
//! rounds of self-play (`daldos train --seed 1 --self-play 40`); the same
//! request gives the same bytes on any thread count.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use dalkon_rules::daldos::{Board, Variants};
use serde::Serialize;

use crate::engine::learn::{layer_samples, mean_abs_error, refine, sigmoid, train, EpochReport};
use crate::engine::learn::{RoundReport, SelfPlayConfig};
use crate::engine::learn::{Sample, TrainConfig, INPUTS};
use crate::solved::{layers_for, plan, BuildProgress, LayerKey, TableError, Tables, EPS};

/// Samples drawn from each layer (all of a smaller layer's positions).
pub const DEFAULT_PER_LAYER: usize = 40_000;
/// The seed of the committed weights.
pub const DEFAULT_TRAIN_SEED: u64 = 1;

/// The scopes trained on (board and `--pieces` of `daldos solve`): every
/// layer of the 4-hole game, board 5 up to 3 v 3, the Norwegian board up
/// to 2 v 2 and 3 v 1, the Danish up to 2 v 2 and 3 v 1; about 90 s of
/// building on two cores.
pub fn default_scopes() -> Vec<(Board, (u8, u8))> {
    let b = |l| Board::new(l).expect("a board length");
    vec![
        (b(4), (4, 4)),
        (b(5), (3, 3)),
        (Board::NORWEGIAN, (2, 2)),
        (Board::NORWEGIAN, (3, 1)),
        (Board::DANISH, (2, 2)),
        (Board::DANISH, (3, 1)),
    ]
}

/// The layer never trained on: Norwegian 2 v 2 (3 v 3 takes an hour to
/// build here).
pub fn default_held_out() -> Vec<LayerKey> {
    vec![LayerKey {
        board: Board::NORWEGIAN,
        a: 2,
        b: 2,
    }]
}

/// Why training has no weights.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// Building or reading the tables failed.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The weights file could not be written.
    #[error("cannot write the weights to {}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
}

/// What a training run tells as it goes.
pub trait TrainProgress: BuildProgress {
    /// The tables of a scope are being built or loaded.
    fn scope(&mut self, _board: Board, _pieces: (u8, u8)) {}
    /// Samples of a layer were drawn.
    fn sampled(&mut self, _key: LayerKey, _samples: usize, _held_out: bool) {}
    /// An epoch ended.
    fn epoch(&mut self, _report: &EpochReport) {}
    /// A round of self-play ended.
    fn round(&mut self, _report: &RoundReport) {}
}

impl TrainProgress for crate::solved::NoProgress {}

/// Train the learned evaluation.
#[derive(Debug, Clone)]
pub struct TrainRequest {
    /// The tables' folder.
    pub dir: PathBuf,
    /// The weights file written.
    pub out: PathBuf,
    /// Samples per layer.
    pub per_layer: usize,
    /// The net and its training (its seed also draws the samples).
    pub config: TrainConfig,
    /// The scopes whose layers are used.
    pub scopes: Vec<(Board, (u8, u8))>,
    /// Layers measured but never trained on.
    pub held_out: Vec<LayerKey>,
    /// Refinement by self-play after the training on the tables
    /// (`crate::engine::learn::selfplay`), if any.
    pub self_play: Option<SelfPlayConfig>,
}

impl TrainRequest {
    /// The defaults, with the tables in `dir`, writing `out`, seed `seed`.
    pub fn new(dir: PathBuf, out: PathBuf, seed: u64) -> TrainRequest {
        TrainRequest {
            dir,
            out,
            per_layer: DEFAULT_PER_LAYER,
            config: TrainConfig {
                seed,
                ..TrainConfig::default()
            },
            scopes: default_scopes(),
            held_out: default_held_out(),
            self_play: None,
        }
    }
}

/// One layer's row of the report.
#[derive(Debug, Clone, Serialize)]
pub struct LayerFit {
    /// The board's name.
    pub board: String,
    /// Pieces of the side to throw.
    pub a: u8,
    /// Pieces of the other side.
    pub b: u8,
    /// Never trained on.
    pub held_out: bool,
    /// Samples drawn.
    pub samples: usize,
    /// Mean absolute error of the learned `W`.
    pub mae_learned: f64,
    /// Mean absolute error of the hand-fitted evaluation's `W`
    /// (`EvalWeights::GAMES_FIT`, the default before).
    pub mae_hand: f64,
}

/// What a training run did.
#[derive(Debug, Clone, Serialize)]
pub struct TrainReport {
    /// One row per layer, in the order drawn.
    pub layers: Vec<LayerFit>,
    /// Training samples.
    pub samples: usize,
    /// The last epoch.
    pub last_epoch: Option<EpochReportRow>,
    /// The weights file.
    pub out: PathBuf,
    /// Its size.
    pub bytes: usize,
    /// Its checksum (header field).
    pub checksum: String,
    /// Seconds: building the tables, drawing samples, training (with the
    /// self-play).
    pub seconds: [f64; 3],
}

/// [`EpochReport`] for the report.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct EpochReportRow {
    /// The epoch.
    pub epoch: u32,
    /// Mean cross-entropy.
    pub loss: f64,
    /// Mean absolute error.
    pub mae: f64,
}

/// The hand-fitted evaluation's `W` of a sample (its logit is the last
/// input, over 4).
fn hand_value(s: &Sample) -> f64 {
    sigmoid(4.0 * f64::from(s.x[INPUTS - 1]))
}

impl TrainRequest {
    /// Build, sample, train, measure, write (module documentation).
    pub fn run(&self, progress: &mut dyn TrainProgress) -> Result<TrainReport, TrainError> {
        let v = Variants::default();
        let t0 = Instant::now();
        let mut tables: Vec<Tables> = Vec::new();
        let mut keys: Vec<(usize, LayerKey)> = Vec::new();
        for &(board, pieces) in &self.scopes {
            progress.scope(board, pieces);
            let i = match tables.iter().position(|t| t.board() == board) {
                Some(i) => i,
                None => {
                    tables.push(Tables::new(board, v, Some(&self.dir)));
                    tables.len() - 1
                }
            };
            tables[i].build(&plan(board, &v, pieces)?, EPS, progress)?;
            for k in layers_for(board, &v, pieces) {
                for k in [k, k.swapped()] {
                    if !keys.iter().any(|&(_, q)| q == k) {
                        keys.push((i, k));
                    }
                }
            }
        }
        let built = t0.elapsed().as_secs_f64();
        let t1 = Instant::now();
        let mut train_set: Vec<Sample> = Vec::new();
        let mut per_layer: Vec<(LayerKey, bool, Vec<Sample>)> = Vec::new();
        for &(i, k) in &keys {
            let Some(s) = layer_samples(&tables[i], k, self.per_layer, self.config.seed) else {
                continue;
            };
            let held = self.held_out.contains(&k);
            progress.sampled(k, s.len(), held);
            if !held {
                train_set.extend_from_slice(&s);
            }
            per_layer.push((k, held, s));
        }
        let sampled = t1.elapsed().as_secs_f64();
        let t2 = Instant::now();
        let mut last = None;
        let net = train(&train_set, &self.config, &mut |e| {
            last = Some(EpochReportRow {
                epoch: e.epoch,
                loss: e.loss,
                mae: e.mae,
            });
            progress.epoch(e);
        });
        let net = match &self.self_play {
            Some(sp) => {
                let tables: Vec<Arc<Tables>> = tables.into_iter().map(Arc::new).collect();
                refine(net, &train_set, &tables, sp, &mut |r| progress.round(r))
            }
            None => net,
        };
        let trained = t2.elapsed().as_secs_f64();
        let layers = per_layer
            .iter()
            .map(|(k, held, s)| LayerFit {
                board: k.board.name(),
                a: k.a,
                b: k.b,
                held_out: *held,
                samples: s.len(),
                mae_learned: mean_abs_error(s, |x| net.value(&x.x)),
                mae_hand: mean_abs_error(s, hand_value),
            })
            .collect();
        let bytes = net.to_bytes();
        if let Some(parent) = self.out.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|source| TrainError::Write {
                path: self.out.clone(),
                source,
            })?;
        }
        dalkon_store::atomic::write(&self.out, &bytes).map_err(|source| TrainError::Write {
            path: self.out.clone(),
            source,
        })?;
        let checksum = dalkon_store::header::u64_at(&bytes, 24);
        Ok(TrainReport {
            layers,
            samples: train_set.len(),
            last_epoch: last,
            out: self.out.clone(),
            bytes: bytes.len(),
            checksum: format!("{checksum:016x}"),
            seconds: [built, sampled, trained],
        })
    }
}

impl TrainReport {
    /// The report as text: a Markdown table of the layers, then the file.
    pub fn text(&self) -> String {
        use std::fmt::Write as _;
        let mut s = String::from(
            "| board | layer | role | samples | MAE learned | MAE hand-fitted |\n|---|---|---|---:|---:|---:|\n",
        );
        for r in &self.layers {
            let _ = writeln!(
                s,
                "| {} | {} v {} | {} | {} | {:.4} | {:.4} |",
                r.board,
                r.a,
                r.b,
                if r.held_out { "held out" } else { "trained" },
                r.samples,
                r.mae_learned,
                r.mae_hand
            );
        }
        let mean = |held: bool| {
            let rows: Vec<&LayerFit> = self.layers.iter().filter(|r| r.held_out == held).collect();
            let n: usize = rows.iter().map(|r| r.samples).sum();
            let l: f64 = rows.iter().map(|r| r.mae_learned * r.samples as f64).sum();
            let h: f64 = rows.iter().map(|r| r.mae_hand * r.samples as f64).sum();
            (n, l / n.max(1) as f64, h / n.max(1) as f64)
        };
        for (held, name) in [(false, "all trained layers"), (true, "all held-out layers")] {
            let (n, l, h) = mean(held);
            let _ = writeln!(s, "| {name} | | | {n} | {l:.4} | {h:.4} |");
        }
        let _ = writeln!(
            s,
            "\n{} training samples; weights written to {} ({} bytes, checksum {}); seconds: tables {:.1}, samples {:.1}, training {:.1}",
            self.samples,
            self.out.display(),
            self.bytes,
            self.checksum,
            self.seconds[0],
            self.seconds[1],
            self.seconds[2]
        );
        s
    }
}
