//! The openings count partitioned across the ranks of a job (an MPI job,
//! or [`crate::openings::exchange::simulate`]): the two passes of
//! `count.rs`, each layer's positions owned by the rank that a hash of the
//! position names ([`codec::owner`]).
//!
//! **Forward.** Each rank expands its part of a layer in rounds of
//! [`CHUNK`] positions (the number of rounds agreed by taking the maximum
//! over the ranks, so every rank takes part in every exchange), buckets the
//! children by owner, deduplicated, and sends each rank its bucket
//! (`all_to_all`); a rank adds what it receives to its pending sets.
//! **Backward.** Each round sends the children of a chunk's positions to
//! their owners, who answer with their summaries (two `all_to_all`s); the
//! positions are then evaluated as in one process. Counts are summed; the
//! chains are followed from the root, each step's summary broadcast by its
//! owner. So every rank holds only its part of each layer.
//!
//! **Failures.** Before every exchange the ranks reduce a status word: a
//! rank that failed (memory, a file) returns its error, the others
//! [`OpeningsError::RankFailed`], all at the same round, none waiting.
//!
//! **Checkpoints** (`store.rs`): at the end of a layer when due, every
//! rank writes its part; `job` records the checkpoint once every rank has.
//! A count resumes from `job` with any number of ranks (`resume.rs`: the
//! files of the old ranks are read and their entries sent to their new
//! owners).

pub(super) mod codec;
mod resume;
mod store;

use std::time::Instant;

use dalkon_rules::dakon::{Position, Rules};
use hashbrown::HashMap;
use rayon::prelude::*;

pub(crate) use self::codec::winner_hash;
use self::codec::{decode_keys, encode_keys, owner, push_summary, read_summary, SUMMARY_BYTES};
pub(crate) use self::store::JOB;
use self::store::{Job, ShardFiles};
use super::board::{Board, Summary};
use super::count::{expand, Ranks, CHUNK, WIN_ENTRY_BYTES};
use super::exchange::Exchange;
use super::layer_set::{LayerSet, Meter};
use super::layer_store::{encode_winners, Checkpoint, FileRecord, Kind, LayerTag};
use super::{LayerDone, OpeningLimits, Openings, OpeningsError, OpeningsProgress, Pass};

/// The winning positions of each layer (this rank's), by rank.
type Winners = Vec<HashMap<u128, Summary>>;

/// Count and find the winning chains of the side to move's turn in `pos`
/// as one rank of the job `ex`: every rank calls it with the same
/// arguments, and every rank returns the same answer (`peak_bytes`: the
/// most any rank held; `disk_bytes`: the sum over the ranks).
pub fn openings_partitioned(
    pos: &Position,
    rules: &Rules,
    limits: &OpeningLimits,
    ex: &dyn Exchange,
    progress: &dyn OpeningsProgress,
) -> Result<Openings, OpeningsError> {
    let board = Board::new(pos, rules);
    let mut shard = Shard::new(pos, &board, limits, ex, progress);
    let job = match &shard.files {
        Some(f) => f.read_job(),
        None => Ok(None),
    };
    let job = shard.agree_with(job)?;
    let mut pending: Vec<Option<LayerSet>> = (0..shard.layers).map(|_| None).collect();
    let mut win: Winners = (0..shard.layers).map(|_| HashMap::new()).collect();
    let (forward_from, backward_from) = match job {
        None => {
            let (l0, r0) = board.key(pos);
            if owner(l0, r0, ex.size()) == ex.rank() {
                let started = shard.layer_set(l0).and_then(|mut set| {
                    set.extend(&[r0], &mut shard.meter)
                        .map_err(over(&shard.meter))?;
                    Ok(set)
                });
                match started {
                    Ok(set) => pending[l0] = Some(set),
                    Err(e) => shard.failed = Some(e),
                }
            }
            (shard.first, shard.layers)
        }
        Some(job) => shard.load(job, &mut pending, &mut win)?,
    };
    shard.forward(&mut pending, forward_from)?;
    shard.backward(&mut win, backward_from)?;
    shard.finish(pos, &win)
}

/// The refusal of a charge to `meter`, as the count's error.
fn over(meter: &Meter) -> impl Fn(u64) -> OpeningsError {
    let budget = meter.budget;
    move |needed| OpeningsError::TooMuchMemory { needed, budget }
}

/// This rank's part of one count.
struct Shard<'a> {
    board: &'a Board,
    limits: &'a OpeningLimits,
    ex: &'a dyn Exchange,
    progress: &'a dyn OpeningsProgress,
    layers: usize,
    first: usize,
    meter: Meter,
    /// This rank's positions of each finished layer.
    counts: Vec<u64>,
    /// Finished layers held in memory.
    mem: Vec<Option<Vec<u8>>>,
    mem_bytes: u64,
    /// Finished layers in this rank's files.
    on_disk: Vec<Option<FileRecord>>,
    /// Winners in this rank's files.
    winners_on_disk: Vec<Option<FileRecord>>,
    files: Option<ShardFiles>,
    /// Positions of the whole job found so far.
    positions: u64,
    winning_positions: u64,
    last_checkpoint: Instant,
    checkpoints: u32,
    /// An error of this rank that the others are still to hear of.
    failed: Option<OpeningsError>,
}

impl<'a> Shard<'a> {
    fn new(
        pos: &Position,
        board: &'a Board,
        limits: &'a OpeningLimits,
        ex: &'a dyn Exchange,
        progress: &'a dyn OpeningsProgress,
    ) -> Shard<'a> {
        let layers = board.seeds as usize + 1;
        let (root_layer, root_rank) = board.key(pos);
        let tag = LayerTag {
            holes: board.holes as u32,
            rules: u32::from(board.rules.code()),
            seeds: board.seeds,
            opp_store: u32::from(board.opp_store),
            root: (root_layer as u32, root_rank),
        };
        Shard {
            board,
            limits,
            ex,
            progress,
            layers,
            first: root_layer,
            meter: Meter {
                used: 0,
                budget: limits.memory_bytes,
                peak: 0,
            },
            counts: vec![0; layers],
            mem: vec![None; layers],
            mem_bytes: 0,
            on_disk: vec![None; layers],
            winners_on_disk: vec![None; layers],
            files: limits.work_dir.clone().map(|root| ShardFiles {
                root,
                tag,
                rank: ex.rank(),
                ranks: ex.size(),
                disk_bytes: 0,
            }),
            positions: 0,
            winning_positions: 0,
            last_checkpoint: Instant::now(),
            checkpoints: 0,
            failed: None,
        }
    }

    /// The status word: `local` (or an earlier failure of this rank) if it
    /// failed, else [`OpeningsError::RankFailed`] if another rank did.
    fn agree_with<T>(&mut self, local: Result<T, OpeningsError>) -> Result<T, OpeningsError> {
        let local = match self.failed.take() {
            Some(e) => Err(e),
            None => local,
        };
        let k = self.ex.size() as u64;
        let me = if local.is_err() {
            k - self.ex.rank() as u64
        } else {
            0
        };
        let worst = self.ex.max(&[me])[0];
        let value = local?;
        if worst > 0 {
            return Err(OpeningsError::RankFailed {
                rank: (k - worst) as usize,
            });
        }
        Ok(value)
    }

    fn agree(&mut self) -> Result<(), OpeningsError> {
        self.agree_with(Ok(()))
    }

    /// Remember a failure, to be told at the next exchange.
    fn note<T>(&mut self, r: Result<T, OpeningsError>) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(e) => {
                self.failed.get_or_insert(e);
                None
            }
        }
    }

    /// Distributions of the seeds of layer `layer`.
    fn total(&self, layer: usize) -> Result<u128, OpeningsError> {
        let sum = self.board.sum(layer);
        self.board
            .ranker
            .total(sum)
            .ok_or(OpeningsError::BoardTooBig(sum))
    }

    fn layer_set(&self, layer: usize) -> Result<LayerSet, OpeningsError> {
        Ok(LayerSet::new(self.total(layer)?))
    }

    fn bad(layer: usize) -> impl Fn(&'static str) -> OpeningsError {
        move |what| OpeningsError::Undecodable {
            layer: layer as u32,
            what,
        }
    }

    /// The forward pass from layer `from` up.
    fn forward(
        &mut self,
        pending: &mut [Option<LayerSet>],
        from: usize,
    ) -> Result<(), OpeningsError> {
        for s in from..self.layers {
            let (payload, count) = match pending[s].take() {
                Some(set) => set.finish(&mut self.meter),
                None => (Vec::new(), 0),
            };
            let total = self.ex.sum(&[count])[0];
            if total == 0 {
                continue;
            }
            self.positions += total;
            if self.positions > self.limits.max_positions {
                return Err(OpeningsError::TooManyPositions {
                    limit: self.limits.max_positions,
                    layer: s as u32,
                    layer_positions: total,
                });
            }
            self.progress
                .layer(Pass::Forward, s as u32, self.layers as u32, total);
            let held = payload.len() as u64;
            let charged = self.meter.charge(held).map_err(over(&self.meter));
            self.note(charged);
            let (hash, sent) = self.expand(s, &payload, count, pending)?;
            self.meter.release(held);
            let kept = self.keep(s, payload, count);
            self.note(kept);
            let sums = self.ex.sum(&[hash, sent]);
            self.progress.layer_done(&LayerDone {
                pass: Pass::Forward,
                layer: s as u32,
                positions: total,
                hash: sums[0],
                exchanged_bytes: sums[1],
            });
            if self.checkpoint_due()? {
                let written = self.write_forward(s, pending);
                self.note(written);
                self.commit(Pass::Forward, s)?;
            }
        }
        self.agree()
    }

    /// Expand this rank's `count` positions of layer `s` (in `payload`)
    /// into the pending sets of every rank; returns the hash of the
    /// positions and the bytes sent to other ranks.
    fn expand(
        &mut self,
        s: usize,
        payload: &[u8],
        count: u64,
        pending: &mut [Option<LayerSet>],
    ) -> Result<(u64, u64), OpeningsError> {
        let k = self.ex.size();
        let me = self.ex.rank();
        let mut ranks = Ranks::new(payload, s, self.total(s)?, count);
        let rounds = self.ex.max(&[count.div_ceil(CHUNK as u64)])[0];
        let mut chunk = Vec::with_capacity(CHUNK);
        let (mut hash, mut sent) = (0u64, 0u64);
        let board = self.board;
        for _ in 0..rounds {
            let parts = (|| {
                let mut buckets: Vec<Vec<(usize, u128)>> = vec![Vec::new(); k];
                if ranks.next_chunk_with(&mut chunk, Self::bad(s))? {
                    let kids = expand(board, s, &chunk);
                    for (h, out) in kids {
                        hash = hash.wrapping_add(h);
                        for (l, r) in out {
                            buckets[owner(l, r, k)].push((l, r));
                        }
                    }
                }
                Ok(buckets.iter_mut().map(encode_keys).collect::<Vec<_>>())
            })();
            let parts = self.agree_with(parts)?;
            sent += others_bytes(&parts, me);
            let got = self.ex.all_to_all(parts);
            let absorbed = self.absorb(&got, pending);
            self.note(absorbed);
        }
        Ok((hash, sent))
    }

    /// Add the positions received to the pending sets.
    fn absorb(
        &mut self,
        got: &[Vec<u8>],
        pending: &mut [Option<LayerSet>],
    ) -> Result<(), OpeningsError> {
        for part in got {
            let groups = decode_keys(part).ok_or(OpeningsError::Undecodable {
                layer: 0,
                what: "the positions received from another rank do not decode",
            })?;
            for (l, ranks) in groups {
                if l >= self.layers {
                    return Err(OpeningsError::Undecodable {
                        layer: l as u32,
                        what: "a position received from another rank lies beyond the last layer",
                    });
                }
                if pending[l].is_none() {
                    pending[l] = Some(self.layer_set(l)?);
                }
                let set = pending[l].as_mut().expect("just made");
                set.extend(&ranks, &mut self.meter)
                    .map_err(over(&self.meter))?;
            }
        }
        Ok(())
    }

    /// Keep finished layer `s` (in memory, or in a file once the layers in
    /// memory would pass their share of the budget).
    fn keep(&mut self, s: usize, payload: Vec<u8>, count: u64) -> Result<(), OpeningsError> {
        self.counts[s] = count;
        if count == 0 {
            return Ok(());
        }
        let bytes = payload.len() as u64;
        if let Some(files) = self.files.as_mut() {
            if self.mem_bytes + bytes > self.limits.layers_in_memory {
                self.on_disk[s] = Some(files.write(Kind::Finished, s, count, 0, &payload)?);
                return Ok(());
            }
        }
        self.meter.charge(bytes).map_err(over(&self.meter))?;
        self.mem_bytes += bytes;
        self.mem[s] = Some(payload);
        Ok(())
    }

    /// Finished layer `s`'s encoded positions, out of memory or its file.
    fn take_layer(&mut self, s: usize) -> Result<Vec<u8>, OpeningsError> {
        if let Some(p) = self.mem[s].take() {
            self.mem_bytes -= p.len() as u64;
            self.meter.release(p.len() as u64);
            return Ok(p);
        }
        match (&self.on_disk[s], &self.files) {
            (Some(r), Some(files)) => {
                let dir = files.dir_of(files.rank, files.ranks);
                files.read(&dir, Kind::Finished, r, 0)
            }
            _ => Ok(Vec::new()),
        }
    }

    /// The backward pass over the layers below `from`, top down.
    fn backward(&mut self, win: &mut Winners, from: usize) -> Result<(), OpeningsError> {
        for s in (self.first..from.min(self.layers)).rev() {
            let count = self.counts[s];
            let total = self.ex.sum(&[count])[0];
            if total == 0 {
                continue;
            }
            self.progress
                .layer(Pass::Backward, s as u32, self.layers as u32, total);
            let payload = self.take_layer(s);
            let payload = self.agree_with(payload)?;
            let (found, sent) = self.evaluate(s, &payload, count, win)?;
            let charged = self
                .meter
                .charge(found.len() as u64 * WIN_ENTRY_BYTES)
                .map_err(over(&self.meter));
            self.note(charged);
            let hash = found
                .iter()
                .fold(0u64, |h, (r, sum)| h.wrapping_add(winner_hash(s, *r, sum)));
            let sums = self.ex.sum(&[found.len() as u64, hash, sent]);
            self.winning_positions += sums[0];
            win[s] = found.into_iter().collect();
            self.progress.layer_done(&LayerDone {
                pass: Pass::Backward,
                layer: s as u32,
                positions: sums[0],
                hash: sums[1],
                exchanged_bytes: sums[2],
            });
            if s > self.first && self.checkpoint_due()? {
                let written = self.write_backward(s, win);
                self.note(written);
                self.commit(Pass::Backward, s)?;
            }
        }
        self.agree()
    }

    /// This rank's positions of layer `s` with a winning continuation, the
    /// summaries of their children asked of their owners; with the bytes
    /// sent to other ranks.
    fn evaluate(
        &mut self,
        s: usize,
        payload: &[u8],
        count: u64,
        win: &Winners,
    ) -> Result<(Vec<(u128, Summary)>, u64), OpeningsError> {
        let k = self.ex.size();
        let me = self.ex.rank();
        let board = self.board;
        let mut ranks = Ranks::new(payload, s, self.total(s)?, count);
        let rounds = self.ex.max(&[count.div_ceil(CHUNK as u64)])[0];
        let mut chunk = Vec::with_capacity(CHUNK);
        let mut found = Vec::new();
        let mut sent = 0u64;
        for _ in 0..rounds {
            let mut asked: Vec<Vec<(usize, u128)>> = vec![Vec::new(); k];
            let requests = (|| {
                if ranks.next_chunk_with(&mut chunk, Self::bad(s))? {
                    let kids: Vec<Vec<(usize, u128)>> = chunk
                        .par_chunks(1024)
                        .map(|c| {
                            let mut out = Vec::with_capacity(4 * c.len());
                            for &r in c {
                                board.bonus_children(&board.position(s, r), &mut out);
                            }
                            out
                        })
                        .collect();
                    for (l, r) in kids.into_iter().flatten() {
                        asked[owner(l, r, k)].push((l, r));
                    }
                }
                Ok(asked.iter_mut().map(encode_keys).collect::<Vec<_>>())
            })();
            let requests = self.agree_with(requests)?;
            sent += others_bytes(&requests, me);
            let got = self.ex.all_to_all(requests);
            let answers = got
                .iter()
                .map(|part| answer(part, win))
                .collect::<Result<Vec<_>, _>>();
            let answers = self.agree_with(answers)?;
            sent += others_bytes(&answers, me);
            let replies = self.ex.all_to_all(answers);
            let evaluated = (|| {
                let mut known: HashMap<(usize, u128), Summary> = HashMap::new();
                for (keys, reply) in asked.iter().zip(&replies) {
                    let mut at = 0;
                    for &key in keys {
                        let flag = *reply.get(at).ok_or_else(|| bad_reply(s))?;
                        at += 1;
                        if flag == 1 {
                            let sum = reply.get(at..at + SUMMARY_BYTES).and_then(read_summary);
                            known.insert(key, sum.ok_or_else(|| bad_reply(s))?);
                            at += SUMMARY_BYTES;
                        }
                    }
                }
                let results: Vec<Result<Option<(u128, Summary)>, OpeningsError>> = chunk
                    .par_iter()
                    .map(|&r| {
                        let lookup = |l: usize, rank: u128| known.get(&(l, rank)).copied();
                        let sum = board.summarise_with(&board.position(s, r), lookup)?;
                        Ok((sum.count > 0).then_some((r, sum)))
                    })
                    .collect();
                let mut out = Vec::new();
                for r in results {
                    out.extend(r?);
                }
                Ok(out)
            })();
            if let Some(v) = self.note(evaluated) {
                found.extend(v);
            }
        }
        Ok((found, sent))
    }

    /// The job's summary of position `p` (from its owner).
    fn lookup(&self, win: &Winners, p: &Position) -> Summary {
        let (l, r) = self.board.key(p);
        let o = owner(l, r, self.ex.size());
        let mut bytes = Vec::new();
        if o == self.ex.rank() {
            if let Some(s) = win[l].get(&r) {
                push_summary(&mut bytes, s);
            }
        }
        let bytes = self.ex.broadcast(o, bytes);
        read_summary(&bytes).unwrap_or_default()
    }

    /// The answer for the root `pos`, the chains followed through every
    /// rank's winners; the working folder is removed.
    fn finish(mut self, pos: &Position, win: &Winners) -> Result<Openings, OpeningsError> {
        let board = self.board;
        let root = self.lookup(win, pos);
        let follow = |pick: fn(&Summary) -> u8| -> Vec<usize> {
            let mut chain = Vec::new();
            let mut p = *pos;
            let mut s = root;
            while pick(&s) != 0 {
                let h = usize::from(pick(&s));
                chain.push(h);
                p = p.play_unchecked(h, &board.rules);
                if p.is_over() || p.side_to_move() != board.me {
                    break;
                }
                s = self.lookup(win, &p);
            }
            chain
        };
        let shortest = follow(|s| s.short_first);
        let best = follow(|s| s.best_first);
        let peak = self.ex.max(&[self.meter.peak])[0];
        let disk = self.files.as_ref().map_or(0, |f| f.disk_bytes);
        let disk = self.ex.sum(&[disk])[0];
        if let Some(files) = &self.files {
            files.remove_own();
        }
        self.agree()?;
        if let (Some(files), 0) = (&self.files, self.ex.rank()) {
            // Best effort: the folder is the count's own.
            let _ = std::fs::remove_dir_all(&files.root);
        }
        Ok(Openings {
            winning_chains: root.count,
            shortest,
            best,
            best_margin: (root.best_first != 0).then_some(i32::from(root.best_margin)),
            positions: self.positions,
            winning_positions: self.winning_positions,
            peak_bytes: peak,
            disk_bytes: disk,
        })
    }

    /// Whether a checkpoint is due now, agreed by every rank.
    fn checkpoint_due(&mut self) -> Result<bool, OpeningsError> {
        let mine = self.files.is_some()
            && self
                .limits
                .checkpoint_every
                .is_some_and(|every| self.last_checkpoint.elapsed() >= every);
        let due = self.ex.max(&[u64::from(mine)])[0] == 1;
        if due {
            self.last_checkpoint = Instant::now();
        }
        Ok(due)
    }

    /// Write the finished layers still in memory to files.
    fn spill(&mut self) -> Result<(), OpeningsError> {
        let files = self.files.as_mut().expect("a working folder");
        for l in 0..self.layers {
            if let Some(p) = self.mem[l].take() {
                self.on_disk[l] = Some(files.write(Kind::Finished, l, self.counts[l], 0, &p)?);
                self.mem_bytes -= p.len() as u64;
                self.meter.release(p.len() as u64);
            }
        }
        Ok(())
    }

    /// The finished layer files up to (not including) `to`.
    fn finished_records(&self, to: usize) -> Vec<FileRecord> {
        (0..to).filter_map(|l| self.on_disk[l]).collect()
    }

    /// This rank's part of the forward checkpoint after layer `s`.
    fn write_forward(
        &mut self,
        s: usize,
        pending: &mut [Option<LayerSet>],
    ) -> Result<(), OpeningsError> {
        self.spill()?;
        let files = self.files.as_mut().expect("a working folder");
        let mut saved = Vec::new();
        for (l, set) in pending.iter_mut().enumerate() {
            if let Some(set) = set {
                let (bytes, n) = set.snapshot();
                if n > 0 {
                    saved.push(files.write(Kind::Pending, l, n, s as u32, &bytes)?);
                }
            }
        }
        let cp = Checkpoint {
            pass: Pass::Forward,
            layer: s as u32,
            counts: self.counts.clone(),
            finished: self.finished_records(s + 1),
            pending: saved,
            winners: Vec::new(),
        };
        let files = self.files.as_mut().expect("a working folder");
        files.write_state(s as u32, &cp)
    }

    /// This rank's part of the backward checkpoint at layer `s` (every
    /// layer from `s` up evaluated).
    fn write_backward(&mut self, s: usize, win: &Winners) -> Result<(), OpeningsError> {
        self.spill()?;
        let files = self.files.as_mut().expect("a working folder");
        for (l, table) in win.iter().enumerate().skip(s) {
            if self.winners_on_disk[l].is_none() && !table.is_empty() {
                let (bytes, n) = encode_winners(table);
                self.winners_on_disk[l] = Some(files.write(Kind::Winners, l, n, 0, &bytes)?);
            }
        }
        let cp = Checkpoint {
            pass: Pass::Backward,
            layer: s as u32,
            counts: self.counts.clone(),
            finished: self.finished_records(s),
            pending: Vec::new(),
            winners: (s..self.layers)
                .filter_map(|l| self.winners_on_disk[l])
                .collect(),
        };
        let job = Job {
            ranks: self.ex.size(),
            pass: Pass::Backward,
            layer: s as u32,
        };
        let files = self.files.as_mut().expect("a working folder");
        files.write_state(job.number(self.layers), &cp)
    }

    /// Once every rank has written its part: rank 0 records the
    /// checkpoint in `job`, then every rank removes its older files.
    fn commit(&mut self, pass: Pass, layer: usize) -> Result<(), OpeningsError> {
        self.agree()?;
        let job = Job {
            ranks: self.ex.size(),
            pass,
            layer: layer as u32,
        };
        let files = self.files.as_ref().expect("a working folder");
        let written = if self.ex.rank() == 0 {
            files.write_job(job)
        } else {
            Ok(())
        };
        self.agree_with(written)?;
        files_tidy(self.files.as_ref(), job.number(self.layers));
        self.checkpoints += 1;
        if self.limits.stop_after_checkpoints == Some(self.checkpoints) {
            return Err(OpeningsError::Stopped(self.checkpoints));
        }
        Ok(())
    }
}

fn files_tidy(files: Option<&ShardFiles>, number: u32) {
    if let Some(f) = files {
        f.tidy(number);
    }
}

/// Bytes of `parts` addressed to ranks other than `me`.
fn others_bytes(parts: &[Vec<u8>], me: usize) -> u64 {
    parts
        .iter()
        .enumerate()
        .filter(|&(j, _)| j != me)
        .map(|(_, p)| p.len() as u64)
        .sum()
}

/// The answer to one rank's request: for each key asked, in order, 0 (not
/// a winning position) or 1 and its summary.
fn answer(part: &[u8], win: &Winners) -> Result<Vec<u8>, OpeningsError> {
    let groups = decode_keys(part).ok_or(OpeningsError::Undecodable {
        layer: 0,
        what: "the positions asked by another rank do not decode",
    })?;
    let mut out = Vec::new();
    for (l, ranks) in groups {
        let table = win.get(l).ok_or(OpeningsError::Undecodable {
            layer: l as u32,
            what: "a position asked by another rank lies beyond the last layer",
        })?;
        for r in ranks {
            match table.get(&r) {
                Some(s) => {
                    out.push(1);
                    push_summary(&mut out, s);
                }
                None => out.push(0),
            }
        }
    }
    Ok(out)
}

fn bad_reply(layer: usize) -> OpeningsError {
    OpeningsError::Undecodable {
        layer: layer as u32,
        what: "the summaries received from another rank do not decode",
    }
}

#[cfg(test)]
mod tests;
