//! The learned evaluation's model: a net of one hidden layer of ReLU units
//! over the [`INPUTS`] inputs of `features.rs`, one output, the logit of
//! `W`; all in `f32`. Small on purpose: its forward pass costs about as
//! much as computing its inputs, so the search loses little speed.
//!
//! # File
//! A weights file (docs/formats.md, "Learned evaluation") is a 64-byte
//! header, then the parameters as little-endian `f32`: the hidden layer's
//! weights input by input (`inputs × hidden`: the `hidden` weights out of
//! input 0, then those of input 1, …), its biases (`hidden`), the
//! output weights (`hidden`) and the output bias (1). The header, every
//! integer little-endian:
//!
//! | offset | field |
//! |---|---|
//! | 0 | magic `DALKONEV` |
//! | 8 | format version, `u32` ([`VERSION`]) |
//! | 12 | inputs, `u32` (must be [`INPUTS`]) |
//! | 16 | hidden units, `u32` |
//! | 20 | parameters that follow, `u32` |
//! | 24 | checksum, `u64`: FNV-1a 64 of the parameters' bytes, then of the header without this field (`dalkon_store::checksum::seal`) |
//! | 32 | the training seed, `u64` |
//! | 40 | training samples, `u64` |
//! | 48 | epochs, `u32` |
//! | 52 | zero to 64 |

use dalkon_store::checksum::{seal, Fnv1a64};
use dalkon_store::header::{u32_at, u64_at, Header};

use super::features::INPUTS;

/// The magic of a weights file.
pub const MAGIC: [u8; 8] = *b"DALKONEV";
/// The format version written and read.
pub const VERSION: u32 = 1;
/// Header bytes.
pub const HEADER_LEN: usize = 64;
const CHECKSUM_AT: std::ops::Range<usize> = 24..32;

/// Why bytes are not a weights file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// Shorter than its header says.
    #[error("the weights file is truncated: {len} bytes")]
    Short {
        /// The length found.
        len: usize,
    },
    /// Not a weights file.
    #[error("not a dalkon weights file (magic {0:?})")]
    Magic([u8; 8]),
    /// Another format version.
    #[error("weights file format version {found}, this build reads version {VERSION}")]
    Version {
        /// The version in the file.
        found: u32,
    },
    /// Another shape than this build's inputs, or a parameter count that
    /// does not match the shape.
    #[error("weights for {inputs} inputs and {hidden} hidden units with {params} parameters do not fit this build ({INPUTS} inputs)")]
    Shape {
        /// Inputs in the file.
        inputs: u32,
        /// Hidden units in the file.
        hidden: u32,
        /// Parameters in the file.
        params: u32,
    },
    /// Damaged.
    #[error("the weights file's checksum does not match: it is damaged")]
    Checksum,
}

/// How a net was trained (kept in its file's header).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Provenance {
    /// The training seed.
    pub seed: u64,
    /// Training samples.
    pub samples: u64,
    /// Epochs.
    pub epochs: u32,
}

/// The net: `logit = b2 + Σ_j w2[j] · relu(b1[j] + Σ_i w1[j][i] · x[i])`.
#[derive(Debug, Clone, PartialEq)]
pub struct Net {
    /// Hidden units.
    pub hidden: usize,
    /// `INPUTS × hidden`: `w1[i * hidden + j]` weighs input `i` into unit
    /// `j` (input-major, so that the forward pass runs over the units in
    /// independent lanes, which the compiler vectorises).
    pub w1: Vec<f32>,
    /// Hidden biases.
    pub b1: Vec<f32>,
    /// Output weights.
    pub w2: Vec<f32>,
    /// Output bias.
    pub b2: f32,
    /// How it was trained.
    pub provenance: Provenance,
}

impl Net {
    /// A net of zeros (its value is 1/2 everywhere).
    pub fn zeros(hidden: usize) -> Net {
        Net {
            hidden,
            w1: vec![0.0; hidden * INPUTS],
            b1: vec![0.0; hidden],
            w2: vec![0.0; hidden],
            b2: 0.0,
            provenance: Provenance::default(),
        }
    }

    /// Number of parameters.
    pub fn params(&self) -> usize {
        self.hidden * (INPUTS + 2) + 1
    }

    /// The logit of `W` for inputs `x`; the hidden activations go to
    /// `h` (length `hidden`), for training.
    pub fn forward(&self, x: &[f32; INPUTS], h: &mut [f32]) -> f32 {
        // The committed net's width, as a constant: the loops unroll into
        // whole vector lanes (the same sums in the same order, so the same
        // bits), about twice as fast as the loop of any width.
        if self.hidden == 64 {
            let h: &mut [f32; 64] = (&mut h[..64]).try_into().expect("64 units");
            return self.forward_fixed(x, h);
        }
        let n = self.hidden;
        let h = &mut h[..n];
        h.copy_from_slice(&self.b1);
        for (i, &xi) in x.iter().enumerate() {
            if xi != 0.0 {
                let col = &self.w1[i * n..(i + 1) * n];
                for (a, w) in h.iter_mut().zip(col) {
                    *a += w * xi;
                }
            }
        }
        let mut out = self.b2;
        for (a, w) in h.iter_mut().zip(&self.w2) {
            *a = a.max(0.0);
            out += w * *a;
        }
        out
    }

    /// [`Net::forward`] for a net of exactly `N` hidden units.
    fn forward_fixed<const N: usize>(&self, x: &[f32; INPUTS], h: &mut [f32; N]) -> f32 {
        h.copy_from_slice(&self.b1[..N]);
        for (i, &xi) in x.iter().enumerate() {
            if xi != 0.0 {
                let col: &[f32; N] = self.w1[i * N..(i + 1) * N].try_into().expect("a column");
                for j in 0..N {
                    h[j] += col[j] * xi;
                }
            }
        }
        let w2: &[f32; N] = self.w2[..N].try_into().expect("the output weights");
        let mut out = self.b2;
        for j in 0..N {
            h[j] = h[j].max(0.0);
            out += w2[j] * h[j];
        }
        out
    }

    /// The logit of `W` for inputs `x`.
    pub fn logit(&self, x: &[f32; INPUTS]) -> f32 {
        let mut h = [0.0f32; 128];
        if self.hidden <= h.len() {
            self.forward(x, &mut h[..self.hidden])
        } else {
            self.forward(x, &mut vec![0.0; self.hidden])
        }
    }

    /// `W`, the win chance of the side to throw, for inputs `x`.
    pub fn value(&self, x: &[f32; INPUTS]) -> f64 {
        sigmoid(f64::from(self.logit(x)))
    }

    /// The parameters in file order.
    fn flat(&self) -> impl Iterator<Item = f32> + '_ {
        self.w1
            .iter()
            .chain(&self.b1)
            .chain(&self.w2)
            .copied()
            .chain(std::iter::once(self.b2))
    }

    /// The file's bytes (module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let payload: Vec<u8> = self.flat().flat_map(f32::to_le_bytes).collect();
        let mut h = Header::<HEADER_LEN>::new(MAGIC, VERSION);
        h.u32(12, INPUTS as u32)
            .u32(16, self.hidden as u32)
            .u32(20, self.params() as u32)
            .u64(32, self.provenance.seed)
            .u64(40, self.provenance.samples)
            .u32(48, self.provenance.epochs);
        let sum = seal(Fnv1a64::new().update(&payload), &h.to_bytes(), CHECKSUM_AT);
        h.u64(CHECKSUM_AT.start, sum);
        let mut out = h.to_bytes().to_vec();
        out.extend_from_slice(&payload);
        out
    }

    /// A net from a file's bytes, checked.
    pub fn from_bytes(b: &[u8]) -> Result<Net, NetError> {
        if b.len() < HEADER_LEN {
            return Err(NetError::Short { len: b.len() });
        }
        let magic: [u8; 8] = b[..8].try_into().expect("8 bytes");
        if magic != MAGIC {
            return Err(NetError::Magic(magic));
        }
        let found = u32_at(b, 8);
        if found != VERSION {
            return Err(NetError::Version { found });
        }
        let (inputs, hidden, params) = (u32_at(b, 12), u32_at(b, 16), u32_at(b, 20));
        let h = hidden as usize;
        if inputs as usize != INPUTS || params as usize != h * (INPUTS + 2) + 1 || h == 0 {
            return Err(NetError::Shape {
                inputs,
                hidden,
                params,
            });
        }
        let payload = &b[HEADER_LEN..];
        if payload.len() != 4 * params as usize {
            return Err(NetError::Short { len: b.len() });
        }
        let sum = seal(
            Fnv1a64::new().update(payload),
            &b[..HEADER_LEN],
            CHECKSUM_AT,
        );
        if sum != u64_at(b, CHECKSUM_AT.start) {
            return Err(NetError::Checksum);
        }
        let f: Vec<f32> = payload
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        let n1 = h * INPUTS;
        Ok(Net {
            hidden: h,
            w1: f[..n1].to_vec(),
            b1: f[n1..n1 + h].to_vec(),
            w2: f[n1 + h..n1 + 2 * h].to_vec(),
            b2: f[n1 + 2 * h],
            provenance: Provenance {
                seed: u64_at(b, 32),
                samples: u64_at(b, 40),
                epochs: u32_at(b, 48),
            },
        })
    }
}

/// `1 / (1 + e^-z)`.
pub fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Net {
        let mut n = Net::zeros(3);
        for (i, w) in n.w1.iter_mut().enumerate() {
            *w = (i as f32 - 30.0) / 50.0;
        }
        n.b1 = vec![0.1, -0.2, 0.3];
        n.w2 = vec![0.5, -1.0, 2.0];
        n.b2 = -0.25;
        n.provenance = Provenance {
            seed: 7,
            samples: 9,
            epochs: 2,
        };
        n
    }

    #[test]
    fn bytes_round_trip_and_damage_is_caught() {
        let n = small();
        let b = n.to_bytes();
        assert_eq!(b.len(), HEADER_LEN + 4 * n.params());
        assert_eq!(Net::from_bytes(&b).unwrap(), n);
        for at in [5, 12, 30, 40, HEADER_LEN + 3, b.len() - 1] {
            let mut bad = b.clone();
            bad[at] ^= 1;
            assert!(Net::from_bytes(&bad).is_err(), "flip at {at} caught");
        }
        assert_eq!(
            Net::from_bytes(&b[..b.len() - 4]),
            Err(NetError::Short { len: b.len() - 4 })
        );
    }

    #[test]
    fn forward_by_hand() {
        let n = small();
        let mut x = [0.0f32; INPUTS];
        x[0] = 1.0;
        // Units: relu(b1[j] + w1[0 * 3 + j]), input 0 alone being 1.
        let a: Vec<f32> = (0..3).map(|j| (n.b1[j] + n.w1[j]).max(0.0)).collect();
        let want = -0.25 + 0.5 * a[0] - a[1] + 2.0 * a[2];
        assert!((n.logit(&x) - want).abs() < 1e-6);
        assert_eq!(Net::zeros(4).value(&x), 0.5);
    }
}
