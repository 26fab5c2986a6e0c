//! Openings that win outright: chains of moves of the first player's first
//! turn (a bonus move keeps the turn) that end the game (RULES.md §2.3)
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
//! ranked as a composition of the seeds on the board ([`ranker`]).
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

mod layer_set;
mod layer_store;
mod ranker;

use std::path::PathBuf;

use dalkon_rules::dakon::{Position, Rules, Side};
use hashbrown::HashMap;
use rayon::prelude::*;

use layer_set::{Decoder, LayerSet, Meter};
use layer_store::{LayerStore, LayerTag};
use ranker::Ranker;

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
        "the count needs more than {:.1} GiB of memory, over its budget of {:.1} GiB; it was abandoned",
        *.needed as f64 / (1u64 << 30) as f64,
        *.budget as f64 / (1u64 << 30) as f64
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
    #[error("cannot read or write {}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
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
    /// Stopped on request after a checkpoint (see
    /// [`OpeningLimits::stop_after_checkpoints`]).
    #[error("stopped after checkpoint {0}, as asked")]
    Stopped(u32),
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
}

/// An [`OpeningsProgress`] that ignores everything.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoOpeningsProgress;

impl OpeningsProgress for NoOpeningsProgress {}

/// What is known of the winning continuations of one position.
#[derive(Debug, Clone, Copy, Default)]
struct Summary {
    count: u64,
    /// Length of the shortest winning continuation.
    short_len: u16,
    /// First move of the shortest winning continuation (0: none).
    short_first: u8,
    /// Final margin of the best winning continuation.
    best_margin: i16,
    /// First move of the best winning continuation (0: none).
    best_first: u8,
}

/// Bytes a remembered winning position costs in its hash table.
const WIN_ENTRY_BYTES: u64 = 48;
/// Positions decoded and expanded at a time.
const CHUNK: usize = 1 << 18;

/// The board of one count: how positions map to (layer, rank) and back.
struct Board {
    holes: usize,
    me: Side,
    opp_store: u8,
    /// Seeds on the board and in the mover's store.
    seeds: u32,
    ranker: Ranker,
    rules: Rules,
}

impl Board {
    /// The board of the turn of the side to move in `pos`.
    fn new(pos: &Position, rules: &Rules) -> Board {
        let me = pos.side_to_move();
        let seeds = pos.seeds_on_board() + u32::from(pos.store(me));
        Board {
            holes: pos.holes(),
            me,
            opp_store: pos.store(me.other()),
            seeds,
            ranker: Ranker::new(pos.holes(), seeds),
            rules: *rules,
        }
    }

    fn sum(&self, layer: usize) -> u32 {
        self.seeds - layer as u32
    }

    fn key(&self, p: &Position) -> (usize, u128) {
        let mut cells = [0u8; 32];
        let n = self.holes;
        cells[..n].copy_from_slice(p.pits(self.me));
        cells[n..2 * n].copy_from_slice(p.pits(self.me.other()));
        let layer = usize::from(p.store(self.me));
        (layer, self.ranker.rank(&cells[..2 * n], self.sum(layer)))
    }

    fn position(&self, layer: usize, rank: u128) -> Position {
        let mut cells = [0u8; 32];
        let n = self.holes;
        self.ranker
            .unrank(rank, self.sum(layer), &mut cells[..2 * n]);
        let (mine, theirs) = cells[..2 * n].split_at(n);
        let (south, north, stores) = match self.me {
            Side::South => (mine, theirs, [layer as u8, self.opp_store]),
            Side::North => (theirs, mine, [self.opp_store, layer as u8]),
        };
        Position::new(south, north, stores, self.me).expect("a valid rank")
    }

    /// The positions that follow `p` by a bonus move.
    fn bonus_children(&self, p: &Position, out: &mut Vec<(usize, u128)>) {
        for h in p.moves() {
            let c = p.play_unchecked(h, &self.rules);
            if c.terminal_value().is_none() && c.side_to_move() == self.me {
                out.push(self.key(&c));
            }
        }
    }

    /// Evaluate `p` from its moves, given the summaries of higher layers.
    fn summarise(
        &self,
        p: &Position,
        win: &[HashMap<u128, Summary>],
    ) -> Result<Summary, OpeningsError> {
        let mut s = Summary::default();
        for h in p.moves() {
            let child = p.play_unchecked(h, &self.rules);
            let (count, len, margin) = if let Some(tv) = child.terminal_value() {
                let margin = if child.side_to_move() == self.me {
                    tv
                } else {
                    -tv
                };
                if margin <= 0 {
                    continue;
                }
                (1, 1, margin)
            } else if child.side_to_move() == self.me {
                let (layer, rank) = self.key(&child);
                let Some(c) = win[layer].get(&rank) else {
                    continue;
                };
                (c.count, c.short_len + 1, i32::from(c.best_margin))
            } else {
                continue;
            };
            s.count = s
                .count
                .checked_add(count)
                .ok_or(OpeningsError::CountOverflow)?;
            let hb = h as u8;
            if s.short_first == 0 || len < s.short_len {
                s.short_len = len;
                s.short_first = hb;
            }
            if s.best_first == 0 || margin > i32::from(s.best_margin) {
                s.best_margin = margin as i16;
                s.best_first = hb;
            }
        }
        Ok(s)
    }
}

/// Bytes of one winning position in a winners file: its rank and summary.
const WINNER_BYTES: usize = 30;

/// A layer's winning positions as bytes, in rank order (so the file does
/// not depend on the hash table's order), with their number.
fn encode_winners(table: &HashMap<u128, Summary>) -> (Vec<u8>, u64) {
    let mut entries: Vec<(&u128, &Summary)> = table.iter().collect();
    entries.sort_unstable_by_key(|e| *e.0);
    let mut out = Vec::with_capacity(entries.len() * WINNER_BYTES);
    for (r, s) in entries {
        out.extend_from_slice(&r.to_le_bytes());
        out.extend_from_slice(&s.count.to_le_bytes());
        out.extend_from_slice(&s.short_len.to_le_bytes());
        out.push(s.short_first);
        out.extend_from_slice(&s.best_margin.to_le_bytes());
        out.push(s.best_first);
    }
    (out, table.len() as u64)
}

/// The inverse of [`encode_winners`]; `None` when the bytes are not `n`
/// entries.
fn decode_winners(bytes: &[u8], n: u64) -> Option<HashMap<u128, Summary>> {
    if bytes.len() as u64 != n * WINNER_BYTES as u64 {
        return None;
    }
    let mut table = HashMap::with_capacity(n as usize);
    for e in bytes.chunks_exact(WINNER_BYTES) {
        let r = u128::from_le_bytes(e[0..16].try_into().ok()?);
        let s = Summary {
            count: u64::from_le_bytes(e[16..24].try_into().ok()?),
            short_len: u16::from_le_bytes(e[24..26].try_into().ok()?),
            short_first: e[26],
            best_margin: i16::from_le_bytes(e[27..29].try_into().ok()?),
            best_first: e[29],
        };
        table.insert(r, s);
    }
    Some(table)
}

/// Decode up to [`CHUNK`] more ranks of layer `layer` into `chunk`;
/// `false` when none are left.
fn next_chunk(
    dec: &mut Decoder<'_>,
    chunk: &mut Vec<u128>,
    layer: usize,
) -> Result<bool, OpeningsError> {
    chunk.clear();
    while chunk.len() < CHUNK {
        match dec.next_rank() {
            Ok(Some(r)) => chunk.push(r),
            Ok(None) => break,
            Err(()) => {
                return Err(OpeningsError::Undecodable {
                    layer: layer as u32,
                    what: "the encoded positions end in the middle of a number",
                })
            }
        }
    }
    Ok(!chunk.is_empty())
}

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
    let (me, seeds) = (board.me, board.seeds);
    let first = usize::from(pos.store(me));
    let layers = seeds as usize + 1;
    let size = |layer: usize| {
        board
            .ranker
            .layer_size(board.sum(layer))
            .ok_or(OpeningsError::BoardTooBig(board.sum(layer)))
    };
    let mut meter = Meter {
        used: 0,
        budget: limits.memory_bytes,
        peak: 0,
    };
    let over = |budget: u64| move |needed| OpeningsError::TooMuchMemory { needed, budget };
    let tag = LayerTag {
        holes: pos.holes() as u32,
        rules: u32::from(rules.code()),
        seeds,
        opp_store: u32::from(board.opp_store),
        root: {
            let (l, r) = board.key(pos);
            (l as u32, r)
        },
    };
    let (mut store, resume) = LayerStore::open(
        tag,
        layers,
        limits.work_dir.clone(),
        limits.layers_in_memory,
    )?;
    let mut last_checkpoint = std::time::Instant::now();
    let mut checkpoints = 0u32;
    let mut checkpoint_due = || {
        let due = limits
            .checkpoint_every
            .is_some_and(|every| last_checkpoint.elapsed() >= every);
        if due {
            last_checkpoint = std::time::Instant::now();
        }
        due
    };
    let stop_now = |checkpoints: u32| limits.stop_after_checkpoints == Some(checkpoints);

    // Forward: find every position of the turn, layer by layer.
    let mut pending: Vec<Option<LayerSet>> = (0..layers).map(|_| None).collect();
    let mut positions = 0u64;
    let (forward_from, backward_from) = match &resume {
        None => {
            let (l0, r0) = board.key(pos);
            let mut root_set = LayerSet::new(size(l0)?);
            root_set
                .extend(&[r0], &mut meter)
                .map_err(over(meter.budget))?;
            pending[l0] = Some(root_set);
            (first, layers)
        }
        Some(cp) if cp.pass == Pass::Forward => {
            for &l in &cp.pending {
                let l = l as usize;
                let (payload, _) = store.pending(cp, l)?;
                let mut set = LayerSet::new(size(l)?);
                let mut dec = Decoder::new(&payload);
                let mut chunk = Vec::with_capacity(CHUNK);
                while next_chunk(&mut dec, &mut chunk, l)? {
                    set.extend(&chunk, &mut meter).map_err(over(meter.budget))?;
                }
                pending[l] = Some(set);
            }
            positions = cp.counts[..=cp.layer as usize].iter().sum();
            (cp.layer as usize + 1, layers)
        }
        Some(cp) => {
            positions = cp.counts.iter().sum();
            (layers, cp.layer as usize)
        }
    };
    let mut staged: Vec<Vec<u128>> = vec![Vec::new(); layers];
    for s in forward_from..layers {
        let Some(set) = pending[s].take() else {
            continue;
        };
        let (payload, count) = set.finish(&mut meter);
        // The layer's encoded positions are held while it is expanded.
        let held = payload.len() as u64;
        meter.charge(held).map_err(over(meter.budget))?;
        positions += count;
        if positions > limits.max_positions {
            return Err(OpeningsError::TooManyPositions {
                limit: limits.max_positions,
                layer: s as u32,
                layer_positions: count,
            });
        }
        progress.layer(Pass::Forward, s as u32, layers as u32, count);
        let mut dec = Decoder::new(&payload);
        let mut chunk = Vec::with_capacity(CHUNK);
        while next_chunk(&mut dec, &mut chunk, s)? {
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
                staged[l].push(r);
            }
            for l in s + 1..layers {
                if staged[l].is_empty() {
                    continue;
                }
                if pending[l].is_none() {
                    pending[l] = Some(LayerSet::new(size(l)?));
                }
                let set = pending[l].as_mut().expect("just made");
                set.extend(&staged[l], &mut meter)
                    .map_err(over(meter.budget))?;
                staged[l].clear();
            }
        }
        meter.release(held);
        store.put(s, payload, count, &mut meter)?;
        if checkpoint_due() {
            let mut saved = Vec::new();
            for (l, set) in pending.iter_mut().enumerate() {
                if let Some(set) = set {
                    let (bytes, n) = set.snapshot();
                    store.write_pending(s as u32, l, &bytes, n)?;
                    saved.push(l as u32);
                }
            }
            store.checkpoint(Pass::Forward, s as u32, saved, &mut meter)?;
            checkpoints += 1;
            if stop_now(checkpoints) {
                return Err(OpeningsError::Stopped(checkpoints));
            }
        }
    }

    // Backward: evaluate every position from the top layer down.
    let mut win: Vec<HashMap<u128, Summary>> = (0..layers).map(|_| HashMap::new()).collect();
    let mut winning_positions = 0u64;
    if backward_from < layers {
        for (l, table) in win.iter_mut().enumerate().skip(backward_from) {
            if store.count(l) > 0 {
                let (payload, n) = store.winners(l)?;
                *table = decode_winners(&payload, n).ok_or(OpeningsError::Undecodable {
                    layer: l as u32,
                    what: "the winners are not whole entries",
                })?;
                meter
                    .charge(n * WIN_ENTRY_BYTES)
                    .map_err(over(meter.budget))?;
                winning_positions += n;
            }
        }
    }
    let mut unsaved: Vec<usize> = Vec::new();
    for s in (first..backward_from.min(layers)).rev() {
        let count = store.count(s);
        if count == 0 {
            continue;
        }
        progress.layer(Pass::Backward, s as u32, layers as u32, count);
        let payload = store.take(s, &mut meter)?;
        let mut dec = Decoder::new(&payload);
        let mut found: Vec<(u128, Summary)> = Vec::new();
        let mut chunk = Vec::with_capacity(CHUNK);
        while next_chunk(&mut dec, &mut chunk, s)? {
            let results: Vec<Result<Option<(u128, Summary)>, OpeningsError>> = chunk
                .par_iter()
                .map(|&r| {
                    let sum = board.summarise(&board.position(s, r), &win)?;
                    Ok((sum.count > 0).then_some((r, sum)))
                })
                .collect();
            for r in results {
                if let Some(e) = r? {
                    found.push(e);
                }
            }
        }
        drop(payload);
        meter
            .charge(found.len() as u64 * WIN_ENTRY_BYTES)
            .map_err(over(meter.budget))?;
        winning_positions += found.len() as u64;
        win[s] = found.into_iter().collect();
        unsaved.push(s);
        if s > first && checkpoint_due() {
            for l in unsaved.drain(..) {
                let (bytes, n) = encode_winners(&win[l]);
                store.write_winners(l, &bytes, n)?;
            }
            store.checkpoint(Pass::Backward, s as u32, Vec::new(), &mut meter)?;
            checkpoints += 1;
            if stop_now(checkpoints) {
                return Err(OpeningsError::Stopped(checkpoints));
            }
        }
    }

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
            p = p.play_unchecked(h, rules);
            if p.is_over() || p.side_to_move() != me {
                break;
            }
            s = lookup(&p);
        }
        chain
    };
    let disk_bytes = store.disk_bytes;
    store.finish();
    Ok(Openings {
        winning_chains: root.count,
        shortest: follow(|s| s.short_first),
        best: follow(|s| s.best_first),
        best_margin: (root.best_first != 0).then_some(i32::from(root.best_margin)),
        positions,
        winning_positions,
        peak_bytes: meter.peak,
        disk_bytes,
    })
}

/// A winning chain found without counting the others.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FirstChain {
    /// The lexicographically first winning chain (holes ascending at every
    /// step), or `None` when the turn cannot be won.
    pub chain: Option<Vec<usize>>,
    /// Its final store difference, first player minus opponent.
    pub margin: Option<i32>,
    /// Distinct positions expanded to find it.
    pub positions: u64,
}

/// The lexicographically first winning chain of the side to move's turn,
/// by a depth-first search in move order that remembers the positions it
/// has left without a win. Far cheaper than [`openings`] when wins come
/// early in move order, and exact either way: `chain: None` means no
/// chain wins. Stops with [`OpeningsError::TooManyPositions`] beyond
/// `max_positions` expanded positions, and with
/// [`OpeningsError::TooMuchMemory`] when the positions remembered would
/// take more than `memory_bytes`.
pub fn first_winning_chain(
    pos: &Position,
    rules: &Rules,
    max_positions: u64,
    memory_bytes: u64,
) -> Result<FirstChain, OpeningsError> {
    let board = Board::new(pos, rules);
    struct Dfs<'a> {
        board: &'a Board,
        dead: hashbrown::HashSet<(usize, u128)>,
        positions: u64,
        max_positions: u64,
        max_dead: usize,
        chain: Vec<usize>,
    }
    impl Dfs<'_> {
        /// The margin of the first winning continuation from `p` (its
        /// moves pushed on `chain`), or `None`.
        fn go(&mut self, p: &Position) -> Result<Option<i32>, OpeningsError> {
            let key = self.board.key(p);
            if self.dead.contains(&key) {
                return Ok(None);
            }
            self.positions += 1;
            if self.positions > self.max_positions {
                return Err(OpeningsError::TooManyPositions {
                    limit: self.max_positions,
                    layer: key.0 as u32,
                    layer_positions: 0,
                });
            }
            let me = self.board.me;
            for h in p.moves() {
                let child = p.play_unchecked(h, &self.board.rules);
                self.chain.push(h);
                if let Some(tv) = child.terminal_value() {
                    let margin = if child.side_to_move() == me { tv } else { -tv };
                    if margin > 0 {
                        return Ok(Some(margin));
                    }
                } else if child.side_to_move() == me {
                    if let Some(m) = self.go(&child)? {
                        return Ok(Some(m));
                    }
                }
                self.chain.pop();
            }
            if self.dead.len() >= self.max_dead {
                return Err(OpeningsError::TooMuchMemory {
                    needed: (self.dead.len() as u64 + 1) * DEAD_ENTRY_BYTES,
                    budget: self.max_dead as u64 * DEAD_ENTRY_BYTES,
                });
            }
            self.dead.insert(key);
            Ok(None)
        }
    }
    // A hash-set slot with its share of the table's spare room.
    const DEAD_ENTRY_BYTES: u64 = 56;
    let mut dfs = Dfs {
        board: &board,
        dead: hashbrown::HashSet::new(),
        positions: 0,
        max_positions,
        max_dead: (memory_bytes / DEAD_ENTRY_BYTES) as usize,
        chain: Vec::new(),
    };
    let margin = dfs.go(pos)?;
    Ok(FirstChain {
        chain: margin.map(|_| dfs.chain.clone()),
        margin,
        positions: dfs.positions,
    })
}
