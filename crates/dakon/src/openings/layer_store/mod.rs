//! Where finished layers of the first turn wait for the backward pass (in
//! memory while they fit, then in files of a working folder), and the
//! checkpoints from which an interrupted count resumes.
//!
//! Every file is a 64-byte header and a payload; all integers
//! little-endian:
//!
//! | offset | size | field                                               |
//! |-------:|-----:|-----------------------------------------------------|
//! | 0      | 8    | magic `DKOPENLY`                                    |
//! | 8      | 4    | format version (2)                                  |
//! | 12     | 4    | holes per row                                       |
//! | 16     | 4    | rules code (`Rules::code()`)                        |
//! | 20     | 4    | seeds in the game                                   |
//! | 24     | 4    | the opponent's store (fixed during the turn)        |
//! | 28     | 4    | layer (the mover's store)                           |
//! | 32     | 8    | number of entries                                   |
//! | 40     | 8    | payload length in bytes                             |
//! | 48     | 8    | FNV-1a 64 checksum of the payload                   |
//! | 56     | 4    | kind: 0 finished layer, 1 pending layer, 2 winners  |
//! | 60     | 4    | for a pending layer, the checkpoint it belongs to   |
//!
//! A finished or pending layer's payload is its encoded ranks (see
//! `layer_set.rs`); a winners payload is the layer's positions that can
//! still win, each a 16-byte rank and a 14-byte summary. A file read back
//! must match the count in every field and its checksum, so a truncated,
//! stale or foreign file is refused, never misread (and since the whole
//! header must be the one expected, the header needs no checksum of its
//! own). Files are written with [`dalkon_store::atomic`], and the
//! checkpoint (`state`, a short text) is renamed into place only after
//! every file it names is complete, so whatever moment a count is killed,
//! the folder holds a consistent checkpoint or none. Pending files carry
//! their checkpoint in their name, so writing the next checkpoint's never
//! replaces a file the current `state` still names.
//!
//! A checkpoint is trusted only once it agrees with itself and with the
//! files: `state` ends with the checksum of its text, and records the
//! count and the payload checksum of every file it relies on (taken when
//! the file was written); every field is parsed, then validated against
//! the count (layer numbers in range, counts where the pass allows them,
//! the right files listed), and every file's header is checked against
//! the record before the count resumes. A payload is checked against its
//! record again when it is read.
//!
//! `format.rs` lays out the files, `checkpoint.rs` the checkpoint's text,
//! `files.rs` writes and checks the files; this module keeps the layers
//! (in memory, or spilled to files) and takes the checkpoints.

mod checkpoint;
mod files;
mod format;

use std::path::PathBuf;

use dalkon_store::atomic;

pub(crate) use checkpoint::{Checkpoint, FileRecord};
use files::parse_pending_name;
pub(crate) use format::{
    decode_winners, encode_winners, header, Header, Kind, LayerTag, HEADER_LEN,
};

use super::layer_set::Meter;
use super::{OpeningsError, Pass, WORK_DIR_FOR};

const STATE: &str = "state";
const STATE_MAGIC: &str = "dalkon openings checkpoint 4";

/// The finished layers of one count, and its checkpoints.
#[derive(Debug)]
pub(crate) struct LayerStore {
    tag: LayerTag,
    /// The count's working folder.
    dir: Option<PathBuf>,
    /// Whether this run made the folder (and may remove it).
    created: bool,
    /// Whether the folder holds a checkpoint (it is then kept when the
    /// count stops early, to resume from).
    checkpointed: bool,
    /// Layers kept in memory, by layer.
    mem: Vec<Option<Vec<u8>>>,
    /// Positions of each layer.
    counts: Vec<u64>,
    /// The payload checksum of each layer in a file (`None`: not in a
    /// file), as written: a file read back must still have it.
    hashes: Vec<Option<u64>>,
    /// The winners files written (or found by the checkpoint resumed).
    winners: Vec<FileRecord>,
    /// Bytes of layers kept in memory.
    mem_bytes: u64,
    /// Keep layers in memory up to this many bytes.
    mem_cap: u64,
    /// Bytes written to files.
    pub(crate) disk_bytes: u64,
}

impl LayerStore {
    /// A store for layers `0..layers`. `dir`, when given, is the count's
    /// working folder: created when first needed, or, when it exists, it
    /// must hold a checkpoint of this same count (returned, to resume),
    /// which is checked against itself and its files first.
    pub(crate) fn open(
        tag: LayerTag,
        layers: usize,
        dir: Option<PathBuf>,
        mem_cap: u64,
    ) -> Result<(Self, Option<Checkpoint>), OpeningsError> {
        let mut store = LayerStore {
            tag,
            dir,
            created: false,
            checkpointed: false,
            mem: vec![None; layers],
            counts: vec![0; layers],
            hashes: vec![None; layers],
            winners: Vec::new(),
            mem_bytes: 0,
            mem_cap,
            disk_bytes: 0,
        };
        let Some(dir) = store.dir.clone() else {
            return Ok((store, None));
        };
        dalkon_store::error::check_folder(&dir, WORK_DIR_FOR)?;
        if !dir.exists() {
            return Ok((store, None));
        }
        let state = dir.join(STATE);
        let text = match std::fs::read(&state) {
            Ok(bytes) => {
                String::from_utf8(bytes).map_err(|_| store.corrupt(&state, "not UTF-8 text"))?
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(OpeningsError::NotACheckpoint { dir });
            }
            Err(e) => return Err(store.read_error(&state, e)),
        };
        let cp = Checkpoint::from_text(&text, tag).map_err(|why| store.corrupt(&state, why))?;
        // A run killed mid-write left its temporary; nothing will rename it.
        atomic::remove_stale(&dir, |_| true).map_err(|e| Self::io(&dir, e))?;
        store.check_files(&cp)?;
        store.counts.clone_from(&cp.counts);
        store.checkpointed = true;
        for r in &cp.finished {
            store.hashes[r.layer as usize] = Some(r.hash);
        }
        store.winners.clone_from(&cp.winners);
        Ok((store, Some(cp)))
    }

    /// Keep layer `layer` (`count` positions, encoded in `payload`).
    pub(crate) fn put(
        &mut self,
        layer: usize,
        payload: Vec<u8>,
        count: u64,
        meter: &mut Meter,
    ) -> Result<(), OpeningsError> {
        self.counts[layer] = count;
        let bytes = payload.len() as u64;
        if self.mem_bytes + bytes <= self.mem_cap || self.dir.is_none() {
            meter
                .charge(bytes)
                .map_err(|needed| OpeningsError::TooMuchMemory {
                    needed,
                    budget: meter.budget,
                })?;
            self.mem_bytes += bytes;
            self.mem[layer] = Some(payload);
            return Ok(());
        }
        let r = self.write_file(Kind::Finished, layer, count, 0, &payload)?;
        self.hashes[layer] = Some(r.hash);
        Ok(())
    }

    /// Positions of layer `layer`.
    pub(crate) fn count(&self, layer: usize) -> u64 {
        self.counts[layer]
    }

    /// Layer `layer`'s encoded positions (from memory, or read and checked
    /// from its file), and whether they came from a file. The file stays
    /// until the count ends: a checkpoint may need it.
    pub(crate) fn take(
        &mut self,
        layer: usize,
        meter: &mut Meter,
    ) -> Result<(Vec<u8>, bool), OpeningsError> {
        if let Some(p) = self.mem[layer].take() {
            self.mem_bytes -= p.len() as u64;
            meter.release(p.len() as u64);
            return Ok((p, false));
        }
        let Some(hash) = self.hashes[layer] else {
            return Ok((Vec::new(), false));
        };
        let r = FileRecord {
            layer: layer as u32,
            count: self.counts[layer],
            hash,
        };
        Ok((self.read_file(Kind::Finished, &r, 0)?, true))
    }

    /// Write every layer still in memory to its file (a checkpoint needs
    /// them all on disk).
    fn spill_all(&mut self, meter: &mut Meter) -> Result<(), OpeningsError> {
        for layer in 0..self.mem.len() {
            if let Some(p) = self.mem[layer].take() {
                let r = self.write_file(Kind::Finished, layer, self.counts[layer], 0, &p)?;
                self.hashes[layer] = Some(r.hash);
                self.mem_bytes -= p.len() as u64;
                meter.release(p.len() as u64);
            }
        }
        Ok(())
    }

    /// Save pending layer `layer` (`count` positions, encoded in
    /// `payload`) for the forward checkpoint after layer `checkpoint`;
    /// returns its record for the checkpoint.
    pub(crate) fn write_pending(
        &mut self,
        checkpoint: u32,
        layer: usize,
        payload: &[u8],
        count: u64,
    ) -> Result<FileRecord, OpeningsError> {
        self.write_file(Kind::Pending, layer, count, checkpoint, payload)
    }

    /// Record a checkpoint (see [`Checkpoint`] for what `layer` means in
    /// each pass); the `pending` layers of a forward checkpoint were saved
    /// by [`LayerStore::write_pending`], the winners of a backward one by
    /// [`LayerStore::write_winners`].
    pub(crate) fn checkpoint(
        &mut self,
        pass: Pass,
        layer: u32,
        pending: Vec<FileRecord>,
        meter: &mut Meter,
    ) -> Result<(), OpeningsError> {
        self.spill_all(meter)?;
        let files_to = match pass {
            Pass::Forward => layer as usize + 1,
            Pass::Backward => layer as usize,
        };
        let finished = (0..files_to)
            .filter(|&l| self.counts[l] > 0)
            .map(|l| FileRecord {
                layer: l as u32,
                count: self.counts[l],
                hash: self.hashes[l].expect("every finished layer is in a file after the spill"),
            })
            .collect();
        let mut winners: Vec<FileRecord> = match pass {
            Pass::Forward => Vec::new(),
            Pass::Backward => self
                .winners
                .iter()
                .filter(|r| r.layer >= layer)
                .copied()
                .collect(),
        };
        winners.sort_unstable_by_key(|r| r.layer);
        let cp = Checkpoint {
            pass,
            layer,
            counts: self.counts.clone(),
            finished,
            pending,
            winners,
        };
        self.write_state(&cp)?;
        if pass == Pass::Forward {
            self.remove_old_pending(layer);
        }
        Ok(())
    }

    /// Remove the pending files of checkpoints other than `current`, which
    /// no `state` names any more. Best effort: they are recognised by
    /// their name and ignored if left.
    fn remove_old_pending(&self, current: u32) {
        let Some(dir) = &self.dir else { return };
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            if let Some((_, c)) = name.to_str().and_then(parse_pending_name) {
                if c != current {
                    let _ = std::fs::remove_file(entry.path());
                }
            }
        }
    }

    /// A pending layer saved by the forward checkpoint `cp`, as recorded.
    pub(crate) fn pending(
        &self,
        cp: &Checkpoint,
        r: &FileRecord,
    ) -> Result<Vec<u8>, OpeningsError> {
        self.read_file(Kind::Pending, r, cp.layer)
    }

    /// Save the winning positions of evaluated layer `layer`.
    pub(crate) fn write_winners(
        &mut self,
        layer: usize,
        payload: &[u8],
        count: u64,
    ) -> Result<(), OpeningsError> {
        let r = self.write_file(Kind::Winners, layer, count, 0, payload)?;
        self.winners.retain(|w| w.layer != r.layer);
        self.winners.push(r);
        Ok(())
    }

    /// The winners of layer `layer` saved by a backward checkpoint, with
    /// their number.
    pub(crate) fn winners(&self, layer: usize) -> Result<(Vec<u8>, u64), OpeningsError> {
        let r = *self
            .winners
            .iter()
            .find(|r| r.layer as usize == layer)
            .ok_or_else(|| {
                self.corrupt_state(format!("no winners file is recorded for layer {layer}"))
            })?;
        Ok((self.read_file(Kind::Winners, &r, 0)?, r.count))
    }

    fn write_state(&mut self, cp: &Checkpoint) -> Result<(), OpeningsError> {
        let dir = self.ensure_dir()?;
        let state = dir.join(STATE);
        atomic::write(&state, cp.to_text(self.tag).as_bytes()).map_err(|e| Self::io(&state, e))?;
        self.checkpointed = true;
        Ok(())
    }

    /// The count is complete: remove the working folder.
    pub(crate) fn finish(&mut self) {
        if let Some(d) = &self.dir {
            if self.created || self.checkpointed {
                // Best effort: the folder is the count's own.
                let _ = std::fs::remove_dir_all(d);
            }
        }
        self.created = false;
        self.checkpointed = false;
    }
}

impl Drop for LayerStore {
    /// A count that stops early keeps its folder only if it holds a
    /// checkpoint; otherwise there is nothing to resume from.
    fn drop(&mut self) {
        if self.created && !self.checkpointed {
            if let Some(d) = &self.dir {
                let _ = std::fs::remove_dir_all(d);
            }
        }
    }
}

#[cfg(test)]
mod testing {
    use super::*;

    pub(super) fn tag() -> LayerTag {
        LayerTag {
            holes: 3,
            rules: 0,
            seeds: 18,
            opp_store: 0,
            root: (0, 17),
        }
    }

    pub(super) fn meter() -> Meter {
        Meter {
            used: 0,
            budget: 1 << 20,
            peak: 0,
        }
    }
}
