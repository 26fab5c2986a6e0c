//! The two-pass count of a turn's winning chains (the passes are described
//! in the module doc of `openings`): [`Count::forward`] finds the positions
//! layer by layer upwards, [`Count::backward`] evaluates them layer by layer
//! downwards, and [`Count::start`] takes the work up where a checkpoint of
//! either pass left it.

use std::time::Instant;

use dalkon_rules::dakon::{Position, Rules};
use hashbrown::HashMap;
use rayon::prelude::*;

use super::board::{Board, Summary};
use super::layer_set::{Decoder, LayerSet, Meter};
use super::layer_store::{decode_winners, encode_winners, Checkpoint, Kind, LayerStore, LayerTag};
use super::shard::codec::{key_hash, winner_hash};
use super::{
    LayerDone, NoOpeningsProgress, OpeningLimits, Openings, OpeningsError, OpeningsProgress, Pass,
};

/// Bytes a remembered winning position costs in its hash table.
pub(super) const WIN_ENTRY_BYTES: u64 = 48;
/// Positions decoded and expanded at a time.
pub(super) const CHUNK: usize = 1 << 18;

/// The winning positions of each layer, by rank.
type Winners = Vec<HashMap<u128, Summary>>;

/// Count and find the winning chains of the side to move's turn in `pos`.
pub fn openings(
    pos: &Position,
    rules: &Rules,
    limits: &OpeningLimits,
) -> Result<Openings, OpeningsError> {
    openings_with_progress(pos, rules, limits, &NoOpeningsProgress)
}

/// [`openings`], reporting progress layer by layer.
pub fn openings_with_progress(
    pos: &Position,
    rules: &Rules,
    limits: &OpeningLimits,
    progress: &dyn OpeningsProgress,
) -> Result<Openings, OpeningsError> {
    let board = Board::new(pos, rules);
    let (mut count, resume) = Count::open(pos, &board, limits, progress)?;
    let mut start = count.start(pos, resume.as_ref())?;
    count.forward(&mut start.pending, start.forward_from)?;
    let mut win = count.saved_winners(start.backward_from)?;
    count.backward(&mut win, start.backward_from)?;
    Ok(count.finish(pos, &win))
}

/// One count under way: its board, limits, memory and layers.
struct Count<'a> {
    board: &'a Board,
    limits: &'a OpeningLimits,
    progress: &'a dyn OpeningsProgress,
    /// Layers in all (one per possible mover's store).
    layers: usize,
    /// The root's layer: no position of the turn lies below it.
    first: usize,
    meter: Meter,
    store: LayerStore,
    /// Distinct positions found so far.
    positions: u64,
    /// Positions found to have a winning continuation so far.
    winning_positions: u64,
    last_checkpoint: Instant,
    checkpoints: u32,
}

/// Where a count takes up its work.
struct Start {
    /// The layers the forward pass is collecting.
    pending: Vec<Option<LayerSet>>,
    /// The first layer the forward pass expands (`layers`: none is left).
    forward_from: usize,
    /// The backward pass evaluates the layers below this one.
    backward_from: usize,
}

/// The refusal of a charge to `meter`, as the count's error.
fn over(meter: &Meter) -> impl Fn(u64) -> OpeningsError {
    let budget = meter.budget;
    move |needed| OpeningsError::TooMuchMemory { needed, budget }
}

impl<'a> Count<'a> {
    /// Open the count's layer store, returning the checkpoint found in its
    /// working folder, if any.
    fn open(
        pos: &Position,
        board: &'a Board,
        limits: &'a OpeningLimits,
        progress: &'a dyn OpeningsProgress,
    ) -> Result<(Count<'a>, Option<Checkpoint>), OpeningsError> {
        let layers = board.seeds as usize + 1;
        let (root_layer, root_rank) = board.key(pos);
        let tag = LayerTag {
            holes: board.holes as u32,
            rules: u32::from(board.rules.code()),
            seeds: board.seeds,
            opp_store: u32::from(board.opp_store),
            root: (root_layer as u32, root_rank),
        };
        let (store, resume) = LayerStore::open(
            tag,
            layers,
            limits.work_dir.clone(),
            limits.layers_in_memory,
        )?;
        let count = Count {
            board,
            limits,
            progress,
            layers,
            first: root_layer,
            meter: Meter {
                used: 0,
                budget: limits.memory_bytes,
                peak: 0,
            },
            store,
            positions: 0,
            winning_positions: 0,
            last_checkpoint: Instant::now(),
            checkpoints: 0,
        };
        Ok((count, resume))
    }

    /// An empty set for the positions of layer `layer`.
    fn layer_set(&self, layer: usize) -> Result<LayerSet, OpeningsError> {
        let sum = self.board.sum(layer);
        let size = self
            .board
            .ranker
            .total(sum)
            .ok_or(OpeningsError::BoardTooBig(sum))?;
        Ok(LayerSet::new(size))
    }

    /// Where the work starts: from the root alone, or from `resume`.
    fn start(
        &mut self,
        pos: &Position,
        resume: Option<&Checkpoint>,
    ) -> Result<Start, OpeningsError> {
        let mut pending: Vec<Option<LayerSet>> = (0..self.layers).map(|_| None).collect();
        let layers = self.layers;
        let (forward_from, backward_from) = match resume {
            None => {
                let (l0, r0) = self.board.key(pos);
                let mut root_set = self.layer_set(l0)?;
                root_set
                    .extend(&[r0], &mut self.meter)
                    .map_err(over(&self.meter))?;
                pending[l0] = Some(root_set);
                (self.first, layers)
            }
            Some(cp) if cp.pass == Pass::Forward => {
                self.check_against_board(cp)?;
                self.reload_pending(cp, &mut pending)?;
                self.positions = cp.counts[..=cp.layer as usize].iter().sum();
                (cp.layer as usize + 1, layers)
            }
            Some(cp) => {
                self.check_against_board(cp)?;
                self.positions = cp.counts.iter().sum();
                (layers, cp.layer as usize)
            }
        };
        Ok(Start {
            pending,
            forward_from,
            backward_from,
        })
    }

    /// The counts of checkpoint `cp` against the board: no layer holds
    /// more positions (nor more pending ones) than it has distributions of
    /// its seeds.
    fn check_against_board(&self, cp: &Checkpoint) -> Result<(), OpeningsError> {
        let total = |l: usize| self.board.ranker.total(self.board.sum(l));
        let pending = cp.pending.iter().map(|r| (r.layer as usize, r.count));
        for (l, n) in cp.counts.iter().copied().enumerate().chain(pending) {
            if total(l).is_some_and(|t| u128::from(n) > t) {
                return Err(self.store.corrupt_state(format!(
                    "layer {l} is said to hold {n} positions, more than its {} distributions \
                     of seeds",
                    total(l).unwrap_or_default()
                )));
            }
        }
        Ok(())
    }

    /// The pending layers a forward checkpoint saved, back into sets.
    fn reload_pending(
        &mut self,
        cp: &Checkpoint,
        pending: &mut [Option<LayerSet>],
    ) -> Result<(), OpeningsError> {
        for r in &cp.pending {
            let l = r.layer as usize;
            let payload = self.store.pending(cp, r)?;
            let mut set = self.layer_set(l)?;
            let mut ranks = self.ranks(&payload, l, r.count, (Kind::Pending, cp.layer, true))?;
            let mut chunk = Vec::with_capacity(CHUNK);
            while ranks.next_chunk(&mut chunk, &self.store)? {
                set.extend(&chunk, &mut self.meter)
                    .map_err(over(&self.meter))?;
            }
            pending[l] = Some(set);
        }
        Ok(())
    }

    /// A reader of the `count` encoded ranks of layer `layer` in `payload`
    /// (from `source`: its kind, checkpoint and whether it came from a
    /// file).
    fn ranks<'p>(
        &self,
        payload: &'p [u8],
        layer: usize,
        count: u64,
        source: (Kind, u32, bool),
    ) -> Result<Ranks<'p>, OpeningsError> {
        let sum = self.board.sum(layer);
        let total = self
            .board
            .ranker
            .total(sum)
            .ok_or(OpeningsError::BoardTooBig(sum))?;
        Ok(Ranks {
            dec: Decoder::new(payload),
            layer,
            total,
            count,
            read: 0,
            source,
        })
    }

    /// The forward pass from layer `from` up: every layer's positions are
    /// expanded into the higher layers' sets, then stored.
    fn forward(
        &mut self,
        pending: &mut [Option<LayerSet>],
        from: usize,
    ) -> Result<(), OpeningsError> {
        let mut staged: Vec<Vec<u128>> = vec![Vec::new(); self.layers];
        for s in from..self.layers {
            let Some(set) = pending[s].take() else {
                continue;
            };
            self.expand_layer(s, set, pending, &mut staged)?;
            if self.checkpoint_due() {
                self.forward_checkpoint(s, pending)?;
            }
        }
        Ok(())
    }

    /// Finish layer `s`'s set, add the children of its positions to the
    /// pending sets, and hand the layer to the store.
    fn expand_layer(
        &mut self,
        s: usize,
        set: LayerSet,
        pending: &mut [Option<LayerSet>],
        staged: &mut [Vec<u128>],
    ) -> Result<(), OpeningsError> {
        let (payload, count) = set.finish(&mut self.meter);
        // The layer's encoded positions are held while it is expanded.
        let held = payload.len() as u64;
        self.meter.charge(held).map_err(over(&self.meter))?;
        self.positions += count;
        if self.positions > self.limits.max_positions {
            return Err(OpeningsError::TooManyPositions {
                limit: self.limits.max_positions,
                layer: s as u32,
                layer_positions: count,
            });
        }
        self.progress
            .layer(Pass::Forward, s as u32, self.layers as u32, count);
        let board = self.board;
        let mut ranks = self.ranks(&payload, s, count, (Kind::Finished, 0, false))?;
        let mut chunk = Vec::with_capacity(CHUNK);
        let mut hash = 0u64;
        while ranks.next_chunk(&mut chunk, &self.store)? {
            let kids = expand(board, s, &chunk);
            for (h, out) in kids {
                hash = hash.wrapping_add(h);
                for (l, r) in out {
                    staged[l].push(r);
                }
            }
            for l in s + 1..self.layers {
                if staged[l].is_empty() {
                    continue;
                }
                if pending[l].is_none() {
                    pending[l] = Some(self.layer_set(l)?);
                }
                let set = pending[l].as_mut().expect("just made");
                set.extend(&staged[l], &mut self.meter)
                    .map_err(over(&self.meter))?;
                staged[l].clear();
            }
        }
        self.meter.release(held);
        self.progress.layer_done(&LayerDone {
            pass: Pass::Forward,
            layer: s as u32,
            positions: count,
            hash,
            exchanged_bytes: 0,
        });
        self.store.put(s, payload, count, &mut self.meter)
    }

    /// Save the pending sets and record that layers up to `s` are done.
    fn forward_checkpoint(
        &mut self,
        s: usize,
        pending: &mut [Option<LayerSet>],
    ) -> Result<(), OpeningsError> {
        let mut saved = Vec::new();
        for (l, set) in pending.iter_mut().enumerate() {
            if let Some(set) = set {
                let (bytes, n) = set.snapshot();
                saved.push(self.store.write_pending(s as u32, l, &bytes, n)?);
            }
        }
        self.store
            .checkpoint(Pass::Forward, s as u32, saved, &mut self.meter)?;
        self.checkpoint_made()
    }

    /// The winners of the layers from `from` up, saved by a backward
    /// checkpoint (none when the backward pass starts from the top).
    fn saved_winners(&mut self, from: usize) -> Result<Winners, OpeningsError> {
        let mut win: Winners = (0..self.layers).map(|_| HashMap::new()).collect();
        for (l, table) in win.iter_mut().enumerate().skip(from) {
            if self.store.count(l) > 0 {
                let (payload, n) = self.store.winners(l)?;
                *table = decode_winners(&payload, n).ok_or_else(|| {
                    self.store.undecodable(
                        Kind::Winners,
                        l,
                        0,
                        true,
                        "the winners are not whole entries",
                    )
                })?;
                self.meter
                    .charge(n * WIN_ENTRY_BYTES)
                    .map_err(over(&self.meter))?;
                self.winning_positions += n;
            }
        }
        Ok(win)
    }

    /// The backward pass over the layers below `from`, top down: each
    /// layer's winning positions go into `win`.
    fn backward(&mut self, win: &mut Winners, from: usize) -> Result<(), OpeningsError> {
        let mut unsaved: Vec<usize> = Vec::new();
        for s in (self.first..from.min(self.layers)).rev() {
            let count = self.store.count(s);
            if count == 0 {
                continue;
            }
            self.progress
                .layer(Pass::Backward, s as u32, self.layers as u32, count);
            let found = self.evaluate_layer(s, win)?;
            self.meter
                .charge(found.len() as u64 * WIN_ENTRY_BYTES)
                .map_err(over(&self.meter))?;
            self.winning_positions += found.len() as u64;
            self.progress.layer_done(&LayerDone {
                pass: Pass::Backward,
                layer: s as u32,
                positions: found.len() as u64,
                hash: found
                    .iter()
                    .fold(0u64, |h, (r, sum)| h.wrapping_add(winner_hash(s, *r, sum))),
                exchanged_bytes: 0,
            });
            win[s] = found.into_iter().collect();
            unsaved.push(s);
            if s > self.first && self.checkpoint_due() {
                for l in unsaved.drain(..) {
                    let (bytes, n) = encode_winners(&win[l]);
                    self.store.write_winners(l, &bytes, n)?;
                }
                self.store
                    .checkpoint(Pass::Backward, s as u32, Vec::new(), &mut self.meter)?;
                self.checkpoint_made()?;
            }
        }
        Ok(())
    }

    /// The positions of layer `s` with a winning continuation, given the
    /// winners of the layers above.
    fn evaluate_layer(
        &mut self,
        s: usize,
        win: &Winners,
    ) -> Result<Vec<(u128, Summary)>, OpeningsError> {
        let board = self.board;
        let (payload, from_file) = self.store.take(s, &mut self.meter)?;
        let count = self.store.count(s);
        let mut ranks = self.ranks(&payload, s, count, (Kind::Finished, 0, from_file))?;
        let mut found: Vec<(u128, Summary)> = Vec::new();
        let mut chunk = Vec::with_capacity(CHUNK);
        while ranks.next_chunk(&mut chunk, &self.store)? {
            let results: Vec<Result<Option<(u128, Summary)>, OpeningsError>> = chunk
                .par_iter()
                .map(|&r| {
                    let sum = board.summarise(&board.position(s, r), win)?;
                    Ok((sum.count > 0).then_some((r, sum)))
                })
                .collect();
            for r in results {
                if let Some(e) = r? {
                    found.push(e);
                }
            }
        }
        Ok(found)
    }

    /// Whether a checkpoint is due now (and if so, the clock restarts).
    fn checkpoint_due(&mut self) -> bool {
        let due = self
            .limits
            .checkpoint_every
            .is_some_and(|every| self.last_checkpoint.elapsed() >= every);
        if due {
            self.last_checkpoint = Instant::now();
        }
        due
    }

    /// Count a checkpoint just written, stopping when the limits ask to.
    fn checkpoint_made(&mut self) -> Result<(), OpeningsError> {
        self.checkpoints += 1;
        if self.limits.stop_after_checkpoints == Some(self.checkpoints) {
            return Err(OpeningsError::Stopped(self.checkpoints));
        }
        Ok(())
    }

    /// The answer for the root `pos`, the chains followed through `win`;
    /// the working folder is removed.
    fn finish(mut self, pos: &Position, win: &Winners) -> Openings {
        let board = self.board;
        let lookup = |p: &Position| {
            let (l, r) = board.key(p);
            win[l].get(&r).copied().unwrap_or_default()
        };
        let root = lookup(pos);
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
                s = lookup(&p);
            }
            chain
        };
        let disk_bytes = self.store.disk_bytes;
        self.store.finish();
        Openings {
            winning_chains: root.count,
            shortest: follow(|s| s.short_first),
            best: follow(|s| s.best_first),
            best_margin: (root.best_first != 0).then_some(i32::from(root.best_margin)),
            positions: self.positions,
            winning_positions: self.winning_positions,
            peak_bytes: self.meter.peak,
            disk_bytes,
        }
    }
}

/// The encoded ranks of one layer, decoded in chunks and checked: each
/// rank is a distribution of the layer's seeds, and there are as many as
/// the layer's count says.
pub(super) struct Ranks<'p> {
    dec: Decoder<'p>,
    layer: usize,
    /// Distributions of the layer's seeds: every rank is below.
    total: u128,
    /// Ranks the layer holds.
    count: u64,
    read: u64,
    /// Where the bytes came from (kind, checkpoint, from a file), to name
    /// the file at fault.
    source: (Kind, u32, bool),
}

impl<'p> Ranks<'p> {
    /// A reader of the `count` encoded ranks of layer `layer` in
    /// `payload`, each below `total`.
    pub(super) fn new(payload: &'p [u8], layer: usize, total: u128, count: u64) -> Ranks<'p> {
        Ranks {
            dec: Decoder::new(payload),
            layer,
            total,
            count,
            read: 0,
            source: (Kind::Finished, 0, false),
        }
    }

    /// Decode up to [`CHUNK`] more ranks into `chunk`; `false` when none
    /// are left.
    fn next_chunk(
        &mut self,
        chunk: &mut Vec<u128>,
        store: &LayerStore,
    ) -> Result<bool, OpeningsError> {
        let (kind, checkpoint, from_file) = self.source;
        let layer = self.layer;
        self.next_chunk_with(chunk, |what| {
            store.undecodable(kind, layer, checkpoint, from_file, what)
        })
    }

    /// [`Ranks::next_chunk`], the error of bytes that do not decode made
    /// by `bad`.
    pub(super) fn next_chunk_with(
        &mut self,
        chunk: &mut Vec<u128>,
        bad: impl Fn(&'static str) -> OpeningsError,
    ) -> Result<bool, OpeningsError> {
        chunk.clear();
        while chunk.len() < CHUNK {
            match self.dec.next_rank() {
                Ok(Some(r)) if r < self.total && self.read < self.count => {
                    self.read += 1;
                    chunk.push(r);
                }
                Ok(Some(r)) if r >= self.total => {
                    return Err(bad(
                        "a position's rank is beyond the layer's distributions of seeds",
                    ))
                }
                Ok(Some(_)) => return Err(bad("more positions than the layer's count")),
                Ok(None) if self.read < self.count && chunk.is_empty() => {
                    return Err(bad("fewer positions than the layer's count"))
                }
                Ok(None) => break,
                Err(()) => return Err(bad("the encoded positions end in the middle of a number")),
            }
        }
        Ok(!chunk.is_empty())
    }
}

/// The children (layer, rank) of the positions `chunk` of layer `s`, in
/// slices of 1,024 expanded in parallel, each slice with the sum of its
/// positions' [`key_hash`]es (the layer log's partition-free hash). Slices
/// come back in order, so the result does not depend on the threads.
pub(super) fn expand(board: &Board, s: usize, chunk: &[u128]) -> Vec<(u64, Vec<(usize, u128)>)> {
    chunk
        .par_chunks(1024)
        .map(|c| {
            let mut out = Vec::with_capacity(4 * c.len());
            let mut h = 0u64;
            for &r in c {
                h = h.wrapping_add(key_hash(s, r));
                board.bonus_children(&board.position(s, r), &mut out);
            }
            (h, out)
        })
        .collect()
}
