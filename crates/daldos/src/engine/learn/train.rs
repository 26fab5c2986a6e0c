//! Training the net on exact values: samples drawn from solved layers
//! (each position's inputs and its `W` from the tables), and a plain
//! minibatch Adam on the cross-entropy between the net's `W` and the
//! tables' (a soft target: the gradient at the logit is `W_net - W`).
//!
//! Everything is seeded: the ranks drawn from a layer come from
//! `Rng::for_index(layer seed, k)`, inputs are computed in parallel but
//! collected in order, and the training itself runs on one thread in a
//! fixed order (`f32` sums in that order), so the same seed gives the same
//! weights, bit for bit, on any number of threads.

use rayon::prelude::*;

use super::features::{inputs, INPUTS};
use super::net::{sigmoid, Net, Provenance};
use crate::engine::rng::{splitmix64, Rng};
use crate::solved::{LayerIndex, LayerKey, Tables};

/// One training example: the inputs of a position and its exact `W`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// [`inputs`] of the position.
    pub x: [f32; INPUTS],
    /// Its `W` from the tables.
    pub w: f32,
}

/// Up to `n` positions of layer `key` of `tables` (A to throw; all of them
/// if the layer has at most `n`, else `n` ranks drawn with replacement),
/// as samples. `None` when the tables lack the layer.
pub fn layer_samples(tables: &Tables, key: LayerKey, n: usize, seed: u64) -> Option<Vec<Sample>> {
    if !tables.has_layer(key.a, key.b) {
        return None;
    }
    let index = LayerIndex::new(key);
    let size = index.size();
    let v = tables.variants();
    let mut s =
        seed ^ (u64::from(key.board.len()) << 16 | u64::from(key.a) << 8 | u64::from(key.b));
    let layer_seed = splitmix64(&mut s);
    let ranks: Vec<u64> = if size <= n as u64 {
        (0..size).collect()
    } else {
        (0..n as u64)
            .map(|k| Rng::for_index(layer_seed, k).below(size))
            .collect()
    };
    Some(
        ranks
            .par_iter()
            .map(|&r| {
                let pos = index.unrank(r);
                let w = tables.bounds(&pos).expect("the layer is there").value();
                Sample {
                    x: inputs(&pos, &v),
                    w: w as f32,
                }
            })
            .collect(),
    )
}

/// How to train.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrainConfig {
    /// Hidden units (1 to 256).
    pub hidden: usize,
    /// Passes over the samples.
    pub epochs: u32,
    /// Samples per Adam step.
    pub batch: usize,
    /// Adam's step size at the start (it falls to a twentieth by a cosine
    /// over the epochs).
    pub lr: f32,
    /// The seed of the initial weights and of the order of samples.
    pub seed: u64,
}

impl Default for TrainConfig {
    /// 64 hidden units, 30 epochs of batches of 64, step 0.003, seed 1.
    fn default() -> Self {
        TrainConfig {
            hidden: 64,
            epochs: 30,
            batch: 64,
            lr: 0.003,
            seed: 1,
        }
    }
}

/// A uniform `f32` in `[-a, a)`.
fn uniform(rng: &mut Rng, a: f32) -> f32 {
    let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
    (2.0 * u - 1.0) * a
}

/// Adam's moments for one block of parameters.
#[derive(Debug, Clone)]
struct Moments {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Moments {
    fn new(n: usize) -> Moments {
        Moments {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    /// One Adam step of `p` along gradient `g`, step `t` (from 1).
    fn step(&mut self, p: &mut [f32], g: &[f32], lr: f32, t: i32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        let c1 = 1.0 - B1.powi(t);
        let c2 = 1.0 - B2.powi(t);
        for i in 0..p.len() {
            self.m[i] = B1 * self.m[i] + (1.0 - B1) * g[i];
            self.v[i] = B2 * self.v[i] + (1.0 - B2) * g[i] * g[i];
            p[i] -= lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
        }
    }
}

/// What an epoch ended with.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EpochReport {
    /// The epoch, from 1.
    pub epoch: u32,
    /// Of this many.
    pub epochs: u32,
    /// Mean cross-entropy over the epoch's samples (as they were seen).
    pub loss: f64,
    /// Mean absolute error of `W` over them.
    pub mae: f64,
}

/// Train a net on `data` (module documentation); `progress` hears of
/// every epoch.
pub fn train(data: &[Sample], cfg: &TrainConfig, progress: &mut dyn FnMut(&EpochReport)) -> Net {
    let h = cfg.hidden.clamp(1, 256);
    let mut rng = Rng::new(cfg.seed);
    let mut net = Net::zeros(h);
    let a1 = (6.0 / INPUTS as f32).sqrt();
    for w in &mut net.w1 {
        *w = uniform(&mut rng, a1);
    }
    for b in &mut net.b1 {
        *b = 0.01;
    }
    let a2 = (6.0 / (h + 1) as f32).sqrt();
    for w in &mut net.w2 {
        *w = uniform(&mut rng, a2);
    }
    let mut net = train_from(net, data, cfg, &mut rng, progress);
    net.provenance = Provenance {
        seed: cfg.seed,
        samples: data.len() as u64,
        epochs: cfg.epochs,
    };
    net
}

/// Train `net` further on `data` (fresh Adam moments, `cfg.epochs`
/// epochs, `cfg.hidden` ignored), the order of samples from `rng`. The
/// provenance is left as it was.
pub fn train_from(
    mut net: Net,
    data: &[Sample],
    cfg: &TrainConfig,
    rng: &mut Rng,
    progress: &mut dyn FnMut(&EpochReport),
) -> Net {
    let h = net.hidden;
    let (mut m1, mut mb1, mut m2, mut mb2) = (
        Moments::new(h * INPUTS),
        Moments::new(h),
        Moments::new(h),
        Moments::new(1),
    );
    let (mut g1, mut gb1, mut g2, mut gb2) = (
        vec![0.0f32; h * INPUTS],
        vec![0.0f32; h],
        vec![0.0f32; h],
        [0.0f32],
    );
    let mut order: Vec<u32> = (0..data.len() as u32).collect();
    let mut hidden = vec![0.0f32; h];
    let mut t = 0i32;
    let batch = cfg.batch.max(1);
    for epoch in 1..=cfg.epochs {
        // Fisher-Yates with the run's generator.
        for i in (1..order.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            order.swap(i, j);
        }
        let phase = (epoch - 1) as f32 / cfg.epochs.max(1) as f32;
        let lr = cfg.lr * (0.05 + 0.95 * 0.5 * (1.0 + (std::f32::consts::PI * phase).cos()));
        let (mut loss, mut mae) = (0.0f64, 0.0f64);
        for chunk in order.chunks(batch) {
            g1.iter_mut().for_each(|g| *g = 0.0);
            gb1.iter_mut().for_each(|g| *g = 0.0);
            g2.iter_mut().for_each(|g| *g = 0.0);
            gb2[0] = 0.0;
            for &i in chunk {
                let s = &data[i as usize];
                let z = net.forward(&s.x, &mut hidden);
                let p = sigmoid(f64::from(z));
                let target = f64::from(s.w);
                let pc = p.clamp(1e-7, 1.0 - 1e-7);
                loss -= target * pc.ln() + (1.0 - target) * (1.0 - pc).ln();
                mae += (p - target).abs();
                let d = (p - target) as f32 / chunk.len() as f32;
                gb2[0] += d;
                let mut dh = [0.0f32; 256];
                for j in 0..h {
                    g2[j] += d * hidden[j];
                    if hidden[j] > 0.0 {
                        dh[j] = d * net.w2[j];
                        gb1[j] += dh[j];
                    }
                }
                for (i, &xi) in s.x.iter().enumerate() {
                    if xi != 0.0 {
                        let col = &mut g1[i * h..(i + 1) * h];
                        for (g, dj) in col.iter_mut().zip(&dh[..h]) {
                            *g += dj * xi;
                        }
                    }
                }
            }
            t += 1;
            m1.step(&mut net.w1, &g1, lr, t);
            mb1.step(&mut net.b1, &gb1, lr, t);
            m2.step(&mut net.w2, &g2, lr, t);
            let mut b2 = [net.b2];
            mb2.step(&mut b2, &gb2, lr, t);
            net.b2 = b2[0];
        }
        let n = data.len().max(1) as f64;
        progress(&EpochReport {
            epoch,
            epochs: cfg.epochs,
            loss: loss / n,
            mae: mae / n,
        });
    }
    net
}

/// Mean absolute error of `f`'s `W` over `data`.
pub fn mean_abs_error(data: &[Sample], f: impl Fn(&Sample) -> f64 + Sync) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let sum: f64 = data
        .par_iter()
        .map(|s| (f(s) - f64::from(s.w)).abs())
        .collect::<Vec<f64>>()
        .iter()
        .sum();
    sum / data.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A net learns a target that is a function of its inputs, and the
    /// same seed gives the same weights.
    #[test]
    fn learns_and_is_deterministic() {
        let mut rng = Rng::new(5);
        let data: Vec<Sample> = (0..2000)
            .map(|_| {
                let mut x = [0.0f32; INPUTS];
                for v in x.iter_mut() {
                    *v = uniform(&mut rng, 1.0);
                }
                let w = sigmoid(f64::from(2.0 * x[0] - x[3] + x[5].abs())) as f32;
                Sample { x, w }
            })
            .collect();
        let cfg = TrainConfig {
            hidden: 16,
            epochs: 100,
            ..TrainConfig::default()
        };
        let mut last = 1.0;
        let net = train(&data, &cfg, &mut |e| last = e.mae);
        assert!(last < 0.02, "training error {last}");
        assert_eq!(net, train(&data, &cfg, &mut |_| {}));
        let err = mean_abs_error(&data, |s| net.value(&s.x));
        assert!(err < 0.02, "error {err}");
    }
}
