//! The tables built by a job partitioned across ranks ([`Exchange`]: an
//! MPI job, or ranks simulated in one process), with the files of one
//! process, byte for byte.
//!
//! Every component of every layer has an owner, a rank chosen by a hash of
//! the layer and the component's row patterns (the same for a component
//! and its mirror, which are solved together). A rank solves the
//! components it owns and keeps only their bounds, so that each rank holds
//! about 1/K of every layer. A component's plays that leave it lead to
//! components solved before (lower layers, or earlier groups of the pair):
//! for each group of components, every rank first lists the bounds its
//! components will read (generating their plays once), asks their owners
//! for them in one exchange, and gets them back in a second; then it
//! solves its components exactly as one process would, with the same
//! numbers in the same order, so the bounds are the same to the bit. Rank
//! 0 writes each layer's file, gathering the bounds a piece at a time in
//! rank order (its memory too stays about 1/K), and the job's statistics
//! are reduced the way one process sums them.
//!
//! Every rank makes the same collective calls in the same order; a rank
//! that fails says so in the next collective, and every rank stops there
//! ([`TableError::OtherRank`]), never leaving the others waiting.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use dalkon_cluster::Exchange;
use dalkon_rules::daldos::{Position, Side, Variants};
use dalkon_store::memory;
use rayon::prelude::*;

use super::build::{BuildProgress, LayerReport, Plan};
use super::component::{self, Lookup};
use super::error::{TableError, FOLDER_FOR};
use super::file::{self, FileStats, Mapped};
use super::index::{Component, LayerIndex, LayerKey};
use super::mapped_stats;
use super::pair::{self, LayerStats};

/// Positions gathered to rank 0 per exchange when a layer is written.
const GATHER_POSITIONS: u64 = 1 << 18;

/// One layer of a partitioned build, as the job's log shows it: two runs
/// agree when their logs do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PartLayerLog {
    /// The layer.
    pub key: LayerKey,
    /// Its positions.
    pub positions: u64,
    /// The checksum of its file (header and every entry).
    pub checksum: u64,
    /// Bytes this rank sent to the ranks (itself included) while its pair
    /// was solved and written.
    pub exchanged: u64,
    /// Read from its file rather than built.
    pub loaded: bool,
}

/// The rank that owns component `c` of layer `key` among `ranks`: a hash
/// of the layer and the patterns, the same for the mirror component
/// (`key` swapped, patterns swapped) that is solved with it.
fn owner(key: LayerKey, c: &Component, ranks: usize) -> usize {
    let here = [
        u32::from(key.a),
        u32::from(key.b),
        c.a.occupied,
        c.a.undalt,
        c.b.occupied,
        c.b.undalt,
    ];
    let mirror = [here[1], here[0], here[4], here[5], here[2], here[3]];
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for x in here.min(mirror) {
        for byte in x.to_le_bytes() {
            h = (h ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    // FNV's low bits depend only on its input's low bits: mix them all in
    // (splitmix64's finaliser) before taking the rank.
    h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^= h >> 31;
    (h % ranks as u64) as usize
}

/// This rank's part of one layer.
struct PartLayer {
    index: LayerIndex,
    /// Bounds of the components this rank owns (interleaved `lo, hi`), by
    /// component start: a layer built by this job.
    owned: HashMap<u64, Vec<f64>>,
    /// The layer's file, when it was there already (a resumed job): only
    /// the owned components are ever read from it.
    mapped: Option<Mapped>,
}

impl PartLayer {
    /// Bounds of rank `r`, which this rank owns; `(0, 1)` while its
    /// component is not solved.
    fn get(&self, r: u64) -> (f64, f64) {
        if let Some(m) = &self.mapped {
            return m.get(r as usize);
        }
        let (c, _) = self.index.component_of(r);
        match self.owned.get(&c.start) {
            Some(v) => {
                let i = (r - c.start) as usize;
                (v[2 * i], v[2 * i + 1])
            }
            None => (0.0, 1.0),
        }
    }
}

/// This rank's parts of every layer so far.
struct Part {
    layers: HashMap<(u8, u8), PartLayer>,
}

/// A request for the bounds of one position: its layer and rank.
type Ask = (u8, u8, u64);

impl Part {
    /// Add layer `index`, read from its file (`mapped`) or to be solved.
    fn add(&mut self, index: LayerIndex, mapped: Option<Mapped>) {
        let key = index.key();
        let layer = PartLayer {
            index,
            owned: HashMap::new(),
            mapped,
        };
        self.layers.insert((key.a, key.b), layer);
    }

    /// The request for `pos` (A to throw) in a lower layer.
    fn ask_lower(&self, pos: &Position) -> Ask {
        let key = (pos.count(Side::A) as u8, pos.count(Side::B) as u8);
        let layer = self
            .layers
            .get(&key)
            .expect("a pair's lower layers are built before it");
        (key.0, key.1, layer.index.rank(pos))
    }

    fn owner_of(&self, ask: Ask, ranks: usize) -> usize {
        let layer = &self.layers[&(ask.0, ask.1)];
        owner(layer.index.key(), &layer.index.component_of(ask.2).0, ranks)
    }
}

/// The outside of a component while its requests are listed: every
/// lookup is recorded (the values returned are never used).
struct Recorder<'a> {
    keys: &'a [LayerKey],
    part: &'a Part,
    asked: Mutex<Vec<Ask>>,
}

impl Lookup for Recorder<'_> {
    fn own(&self, slot: usize, r: u64) -> (f64, f64) {
        let k = self.keys[slot];
        self.asked.lock().expect("no panic").push((k.a, k.b, r));
        (0.0, 1.0)
    }
    fn lower(&self, pos: &Position) -> (f64, f64) {
        let ask = self.part.ask_lower(pos);
        self.asked.lock().expect("no panic").push(ask);
        (0.0, 1.0)
    }
}

/// The outside of a component as its owners answered it.
struct Answered<'a> {
    keys: &'a [LayerKey],
    part: &'a Part,
    answers: HashMap<Ask, (f64, f64)>,
}

impl Lookup for Answered<'_> {
    fn own(&self, slot: usize, r: u64) -> (f64, f64) {
        let k = self.keys[slot];
        self.answers[&(k.a, k.b, r)]
    }
    fn lower(&self, pos: &Position) -> (f64, f64) {
        self.answers[&self.part.ask_lower(pos)]
    }
}

fn encode_asks(asks: &[Ask]) -> Vec<u8> {
    let mut out = Vec::with_capacity(asks.len() * 10);
    for &(a, b, r) in asks {
        out.push(a);
        out.push(b);
        out.extend_from_slice(&r.to_le_bytes());
    }
    out
}

fn decode_asks(bytes: &[u8]) -> Vec<Ask> {
    bytes
        .chunks_exact(10)
        .map(|c| {
            (
                c[0],
                c[1],
                u64::from_le_bytes(c[2..].try_into().expect("8 bytes")),
            )
        })
        .collect()
}

fn f64s(bytes: &[u8]) -> impl Iterator<Item = f64> + '_ {
    bytes
        .chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes")))
}

/// Every rank learns whether some rank failed: `Err` on every rank then
/// (its own error on the failed one).
fn agree<T>(ex: &dyn Exchange, r: Result<T, TableError>) -> Result<T, TableError> {
    let mine = if r.is_err() { ex.rank() as u64 + 1 } else { 0 };
    // The lowest failed rank: the maximum of (ranks - rank) over failures.
    let flag = if mine == 0 {
        0
    } else {
        ex.size() as u64 + 1 - mine
    };
    let worst = ex.max(&[flag])[0];
    match r {
        Err(e) => Err(e),
        Ok(_) if worst != 0 => Err(TableError::OtherRank {
            rank: (ex.size() as u64 + 1 - worst) as usize,
        }),
        Ok(v) => Ok(v),
    }
}

/// Build every layer of `plan` into `dir` as a job of `ex.size()` ranks
/// (each rank calls it, with the same arguments): the files and the
/// reports are those of [`super::Tables::build_until`] in one process.
/// Layers whose files are there already are taken as built (a job resumes
/// from its finished layers, with any number of ranks). `log` is told of
/// every layer; `progress` counts the positions of the whole job.
pub fn build_partitioned(
    plan: &Plan,
    dir: &Path,
    eps: f64,
    ex: &dyn Exchange,
    progress: &mut dyn BuildProgress,
    log: &mut dyn FnMut(&PartLayerLog),
    stop: &AtomicBool,
) -> Result<Vec<LayerReport>, TableError> {
    let ranks = ex.size();
    let v = plan.variants;
    let fits = (|| {
        // The refusal of one process, for this rank's share.
        let mut share = plan.clone();
        share.bytes = plan.bytes.div_ceil(ranks as u64);
        super::Tables::new(plan.board, v, None).check_memory(&share, memory::available_memory())?;
        dalkon_store::error::create_folder(dir, FOLDER_FOR)?;
        Ok(())
    })();
    agree(ex, fits)?;
    if ex.rank() == 0 {
        let _ = dalkon_store::atomic::remove_stale(dir, |name| name.starts_with("daldos-"));
    }
    let mut part = Part {
        layers: HashMap::new(),
    };
    let mut out = Vec::new();
    for &k in &plan.pairs {
        let t0 = Instant::now();
        let keys = pair::pair_keys(k);
        let indices: Vec<LayerIndex> = keys.iter().map(|&key| LayerIndex::new(key)).collect();
        let positions: u64 = indices.iter().map(LayerIndex::size).sum();
        // Loaded when every rank finds every file of the pair sound.
        let opened = agree(
            ex,
            indices
                .iter()
                .map(|index| file::open(dir, index.key(), &v, index.size()))
                .collect::<Result<Vec<Option<Mapped>>, TableError>>(),
        )?;
        let here = u64::from(opened.iter().all(Option::is_some));
        let loaded = ex.sum(&[here])[0] == ranks as u64;
        progress.pair_started(k, positions, loaded);
        let mut exchanged = 0u64;
        let mut built: Vec<(LayerStats, u64)> = Vec::new();
        if loaded {
            for (index, m) in indices.into_iter().zip(opened) {
                let m = m.expect("every file opened");
                let checksum = m.checksum();
                let fs = m.stats();
                let stats = if ex.rank() == 0 {
                    mapped_stats(&index, &m, fs)
                } else {
                    LayerStats {
                        key: index.key(),
                        positions: index.size(),
                        sweeps: fs.sweeps,
                        updates: fs.updates,
                        gap: 0.0,
                        mean_w: 0.0,
                        stalled: fs.stalled,
                    }
                };
                built.push((stats, checksum));
                part.add(index, Some(m));
            }
        } else {
            drop(opened);
            for index in indices {
                part.add(index, None);
            }
            let PairTotals {
                sweeps,
                updates,
                stalled,
            } = solve_pair(
                &keys,
                &v,
                eps,
                ex,
                &mut part,
                stop,
                progress,
                &mut exchanged,
            )?;
            for (slot, &key) in keys.iter().enumerate() {
                let fs = FileStats {
                    sweeps: sweeps[slot],
                    stalled: stalled[slot],
                    eps,
                    updates: updates[slot],
                };
                let (stats, checksum, bytes) = write_layer(dir, key, &v, fs, ex, &part)?;
                exchanged += bytes;
                built.push((stats, checksum));
            }
        }
        let seconds = t0.elapsed().as_secs_f64();
        for (stats, checksum) in built {
            let stats = share_stats(ex, stats);
            log(&PartLayerLog {
                key: stats.key,
                positions: stats.positions,
                checksum,
                exchanged,
                loaded,
            });
            let report = LayerReport {
                stats,
                loaded,
                seconds,
            };
            progress.layer_done(&report);
            out.push(report);
        }
    }
    Ok(out)
}

/// Rank 0's gap and mean, on every rank.
fn share_stats(ex: &dyn Exchange, mut s: LayerStats) -> LayerStats {
    let mut bytes = s.gap.to_le_bytes().to_vec();
    bytes.extend_from_slice(&s.mean_w.to_le_bytes());
    let got = ex.broadcast(0, bytes);
    let mut it = f64s(&got);
    s.gap = it.next().expect("the gap");
    s.mean_w = it.next().expect("the mean");
    s
}

/// A pair's statistics over the job, per slot: the most sweeps, the
/// updates, whether a component stalled.
struct PairTotals {
    sweeps: Vec<u32>,
    updates: Vec<u64>,
    stalled: Vec<bool>,
}

/// Solve this rank's components of the pair `keys` (their part layers
/// inserted, empty): returns per slot the most sweeps, the updates and
/// whether a component stalled, reduced over the job.
#[allow(clippy::too_many_arguments)] // one call site, every argument a different thing
fn solve_pair(
    keys: &[LayerKey],
    v: &Variants,
    eps: f64,
    ex: &dyn Exchange,
    part: &mut Part,
    stop: &AtomicBool,
    progress: &mut dyn BuildProgress,
    exchanged: &mut u64,
) -> Result<PairTotals, TableError> {
    let (ranks, me) = (ex.size(), ex.rank());
    let indices: Vec<LayerIndex> = keys
        .iter()
        .map(|k| part.layers[&(k.a, k.b)].index.clone())
        .collect();
    let indices: Vec<&LayerIndex> = indices.iter().collect();
    let jobs = pair::jobs(&indices);
    let mut sweeps = vec![0u32; keys.len()];
    let mut updates = vec![0u64; keys.len()];
    let mut stalled = vec![false; keys.len()];
    let mut done = 0u64;
    let mut at = 0;
    while at < jobs.len() {
        let end = at + jobs[at..].partition_point(|j| j.key == jobs[at].key);
        let mine: Vec<&pair::Job> = jobs[at..end]
            .iter()
            .filter(|j| {
                let (slot, c) = j.members[0];
                owner(keys[slot], &c, ranks) == me
            })
            .collect();
        // What this rank's components read, by owner.
        let mut asks: Vec<Ask> = {
            let recorder = Recorder {
                keys,
                part,
                asked: Mutex::new(Vec::new()),
            };
            mine.par_iter().for_each(|job| {
                let members = pair::members(job, &indices);
                component::visit(&members, v, &indices, &recorder);
            });
            recorder.asked.into_inner().expect("no panic")
        };
        asks.sort_unstable();
        asks.dedup();
        let mut by_owner: Vec<Vec<Ask>> = vec![Vec::new(); ranks];
        for ask in asks {
            by_owner[part.owner_of(ask, ranks)].push(ask);
        }
        let requests: Vec<Vec<u8>> = by_owner.iter().map(|a| encode_asks(a)).collect();
        *exchanged += requests.iter().map(|r| r.len() as u64).sum::<u64>();
        let asked = ex.all_to_all(requests);
        let replies: Vec<Vec<u8>> = asked
            .iter()
            .map(|bytes| {
                let mut out = Vec::new();
                for (a, b, r) in decode_asks(bytes) {
                    let (lo, hi) = part.layers[&(a, b)].get(r);
                    out.extend_from_slice(&lo.to_le_bytes());
                    out.extend_from_slice(&hi.to_le_bytes());
                }
                out
            })
            .collect();
        *exchanged += replies.iter().map(|r| r.len() as u64).sum::<u64>();
        let replies = ex.all_to_all(replies);
        let mut answers = HashMap::new();
        for (asks, reply) in by_owner.into_iter().zip(&replies) {
            let mut it = f64s(reply);
            for ask in asks {
                let lo = it.next().expect("an answer per request");
                let hi = it.next().expect("an answer per request");
                answers.insert(ask, (lo, hi));
            }
        }
        let solved: Vec<component::Solved> = {
            let outside = Answered {
                keys,
                part,
                answers,
            };
            mine.par_iter()
                .map(|job| {
                    let members = pair::members(job, &indices);
                    component::solve(&members, v, &indices, &outside, eps)
                })
                .collect()
        };
        let mut here = 0u64;
        for (job, s) in mine.iter().zip(solved) {
            let mut off = 0usize;
            for &(slot, comp) in &job.members {
                let len = comp.len as usize;
                let layer = part
                    .layers
                    .get_mut(&(keys[slot].a, keys[slot].b))
                    .expect("the pair's layers");
                layer
                    .owned
                    .insert(comp.start, s.values[2 * off..2 * (off + len)].to_vec());
                sweeps[slot] = sweeps[slot].max(s.sweeps);
                updates[slot] += comp.len * u64::from(s.sweeps);
                stalled[slot] |= s.stalled;
                off += len;
                here += comp.len;
            }
        }
        let totals = ex.sum(&[here, u64::from(stop.load(Ordering::Relaxed))]);
        done += totals[0];
        progress.advanced(done);
        if totals[1] > 0 {
            return Err(TableError::Interrupted {
                a: keys[0].a,
                b: keys[0].b,
            });
        }
        at = end;
    }
    let sweeps_all: Vec<u32> = ex
        .max(&sweeps.iter().map(|&s| u64::from(s)).collect::<Vec<_>>())
        .into_iter()
        .map(|s| s as u32)
        .collect();
    let updates_all = ex.sum(&updates);
    let stalled_all: Vec<bool> = ex
        .max(&stalled.iter().map(|&s| u64::from(s)).collect::<Vec<_>>())
        .into_iter()
        .map(|s| s != 0)
        .collect();
    Ok(PairTotals {
        sweeps: sweeps_all,
        updates: updates_all,
        stalled: stalled_all,
    })
}

/// Rank 0 writes layer `key` from every rank's components, gathered a
/// piece at a time in rank order; returns its statistics (worked out on
/// rank 0), its checksum and the bytes this rank sent.
fn write_layer(
    dir: &Path,
    key: LayerKey,
    v: &Variants,
    fs: FileStats,
    ex: &dyn Exchange,
    part: &Part,
) -> Result<(LayerStats, u64, u64), TableError> {
    let (ranks, me) = (ex.size(), ex.rank());
    let layer = &part.layers[&(key.a, key.b)];
    let comps: Vec<Component> = layer.index.components().collect();
    let owners: Vec<usize> = comps.iter().map(|c| owner(key, c, ranks)).collect();
    let mut pieces: Vec<std::ops::Range<usize>> = Vec::new();
    let mut start = 0;
    let mut len = 0u64;
    for (i, c) in comps.iter().enumerate() {
        if len > 0 && len + c.len > GATHER_POSITIONS {
            pieces.push(start..i);
            (start, len) = (i, 0);
        }
        len += c.len;
    }
    pieces.push(start..comps.len());
    let mut sent = 0u64;
    let mut gap = 0.0f64;
    let mut sum = 0.0f64;
    let mut first_pass = true;
    let mut gather = |sink: &mut dyn FnMut(&[f64])| {
        for range in &pieces {
            let mut mine = Vec::new();
            for i in range.clone() {
                if owners[i] == me {
                    let values = &layer.owned[&comps[i].start];
                    for x in values {
                        mine.extend_from_slice(&x.to_le_bytes());
                    }
                }
            }
            sent += mine.len() as u64;
            let mut parts = vec![Vec::new(); ranks];
            parts[0] = mine;
            let got = ex.all_to_all(parts);
            if me != 0 {
                continue;
            }
            let mut cursor = vec![0usize; ranks];
            let mut values = Vec::new();
            for i in range.clone() {
                let o = owners[i];
                let n = 16 * comps[i].len as usize;
                values.extend(f64s(&got[o][cursor[o]..cursor[o] + n]));
                cursor[o] += n;
            }
            if first_pass {
                for p in values.chunks_exact(2) {
                    gap = gap.max(p[1] - p[0]);
                    sum += (p[0] + p[1]) / 2.0;
                }
            }
            sink(&values);
        }
        first_pass = false;
    };
    let written = if me == 0 {
        file::write_pieces(dir, key, v, layer.index.size(), fs, &mut gather).map(|(_, c)| c)
    } else {
        // The two passes of rank 0's writer, without a file.
        gather(&mut |_| {});
        gather(&mut |_| {});
        Ok(0)
    };
    let checksum = agree(ex, written)?;
    let checksum = u64::from_le_bytes(
        ex.broadcast(0, checksum.to_le_bytes().to_vec())[..8]
            .try_into()
            .expect("8 bytes"),
    );
    let n = layer.index.size();
    let stats = LayerStats {
        key,
        positions: n,
        sweeps: fs.sweeps,
        updates: fs.updates,
        gap,
        mean_w: if n == 0 { 0.0 } else { sum / n as f64 },
        stalled: fs.stalled,
    };
    Ok((stats, checksum, sent))
}
