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
//! the folder holds a consistent checkpoint or none.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use dalkon_store::atomic;
use dalkon_store::checksum::fnv1a64;
use hashbrown::HashMap;

use super::board::Summary;
use super::layer_set::Meter;
use super::{OpeningsError, Pass};

const MAGIC: [u8; 8] = *b"DKOPENLY";
const VERSION: u32 = 2;
const HEADER_LEN: usize = 64;
const STATE: &str = "state";
const STATE_MAGIC: &str = "dalkon openings checkpoint 3";

/// What every file of one count must say in its header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LayerTag {
    pub(crate) holes: u32,
    pub(crate) rules: u32,
    pub(crate) seeds: u32,
    pub(crate) opp_store: u32,
    /// The position whose turn is counted, as (layer, rank): checked by
    /// the checkpoint only (files of one count share it).
    pub(crate) root: (u32, u128),
}

/// The kinds of file in a working folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Finished = 0,
    Pending = 1,
    Winners = 2,
}

impl Kind {
    fn prefix(self) -> &'static str {
        match self {
            Kind::Finished => "layer",
            Kind::Pending => "pending",
            Kind::Winners => "winners",
        }
    }
}

struct Header {
    tag: LayerTag,
    layer: u32,
    count: u64,
    kind: Kind,
    checkpoint: u32,
}

fn header(h: &Header, payload: &[u8]) -> [u8; HEADER_LEN] {
    let mut b = [0u8; HEADER_LEN];
    b[0..8].copy_from_slice(&MAGIC);
    b[8..12].copy_from_slice(&VERSION.to_le_bytes());
    b[12..16].copy_from_slice(&h.tag.holes.to_le_bytes());
    b[16..20].copy_from_slice(&h.tag.rules.to_le_bytes());
    b[20..24].copy_from_slice(&h.tag.seeds.to_le_bytes());
    b[24..28].copy_from_slice(&h.tag.opp_store.to_le_bytes());
    b[28..32].copy_from_slice(&h.layer.to_le_bytes());
    b[32..40].copy_from_slice(&h.count.to_le_bytes());
    b[40..48].copy_from_slice(&(payload.len() as u64).to_le_bytes());
    b[48..56].copy_from_slice(&fnv1a64(payload).to_le_bytes());
    b[56..60].copy_from_slice(&(h.kind as u32).to_le_bytes());
    b[60..64].copy_from_slice(&h.checkpoint.to_le_bytes());
    b
}

/// Bytes of one winning position in a winners file: its rank and summary.
const WINNER_BYTES: usize = 30;

/// A layer's winning positions as bytes, in rank order (so the file does
/// not depend on the hash table's order), with their number.
pub(super) fn encode_winners(table: &HashMap<u128, Summary>) -> (Vec<u8>, u64) {
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
pub(super) fn decode_winners(bytes: &[u8], n: u64) -> Option<HashMap<u128, Summary>> {
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

/// A consistent point of a count: everything needed to go on from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Checkpoint {
    /// The pass that was running.
    pub(crate) pass: Pass,
    /// Forward: every layer up to this one is finished (and in a file),
    /// the higher ones pending (in files). Backward: every layer from this
    /// one up is evaluated (its winners in files).
    pub(crate) layer: u32,
    /// Positions of each finished layer (all layers).
    pub(crate) counts: Vec<u64>,
    /// Which layers have a pending file (forward only).
    pub(crate) pending: Vec<u32>,
}

impl Checkpoint {
    fn to_text(&self, tag: LayerTag) -> String {
        let list = |v: &mut dyn Iterator<Item = String>| v.collect::<Vec<_>>().join(" ");
        format!(
            "{STATE_MAGIC}\nholes {}\nrules {}\nseeds {}\nopp_store {}\nroot {} {}\npass {}\nlayer {}\ncounts {}\npending {}\n",
            tag.holes,
            tag.rules,
            tag.seeds,
            tag.opp_store,
            tag.root.0,
            tag.root.1,
            match self.pass {
                Pass::Forward => "forward",
                Pass::Backward => "backward",
            },
            self.layer,
            list(&mut self.counts.iter().map(u64::to_string)),
            list(&mut self.pending.iter().map(u32::to_string)),
        )
    }

    fn from_text(text: &str, tag: LayerTag) -> Result<Checkpoint, String> {
        let mut lines = text.lines();
        if lines.next() != Some(STATE_MAGIC) {
            return Err("not a checkpoint of this version".into());
        }
        let mut field = |name: &str| -> Result<&str, String> {
            let line = lines.next().ok_or(format!("no '{name}' line"))?;
            let rest = line
                .strip_prefix(name)
                .ok_or(format!("'{name}' expected, found '{line}'"))?;
            Ok(rest.trim())
        };
        let num = |s: &str| s.parse::<u64>().map_err(|_| format!("bad number '{s}'"));
        let found = LayerTag {
            holes: num(field("holes")?)? as u32,
            rules: num(field("rules")?)? as u32,
            seeds: num(field("seeds")?)? as u32,
            opp_store: num(field("opp_store")?)? as u32,
            root: {
                let r = field("root")?;
                let (l, k) = r.split_once(' ').ok_or(format!("bad root '{r}'"))?;
                (
                    num(l)? as u32,
                    k.parse::<u128>().map_err(|_| format!("bad root '{r}'"))?,
                )
            },
        };
        if found != tag {
            return Err(format!(
                "it belongs to another count ({} holes, rules {}, {} seeds, opponent's store {}, \
                 first position {} {})",
                found.holes, found.rules, found.seeds, found.opp_store, found.root.0, found.root.1
            ));
        }
        let pass = match field("pass")? {
            "forward" => Pass::Forward,
            "backward" => Pass::Backward,
            other => return Err(format!("unknown pass '{other}'")),
        };
        let layer = num(field("layer")?)? as u32;
        let counts = field("counts")?
            .split_whitespace()
            .map(num)
            .collect::<Result<Vec<u64>, _>>()?;
        let pending = field("pending")?
            .split_whitespace()
            .map(|s| num(s).map(|v| v as u32))
            .collect::<Result<Vec<u32>, _>>()?;
        if counts.len() != tag.seeds as usize + 1 {
            return Err("wrong number of layer counts".into());
        }
        Ok(Checkpoint {
            pass,
            layer,
            counts,
            pending,
        })
    }
}

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
    /// Layers in files.
    on_disk: Vec<bool>,
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
    /// must hold a checkpoint of this same count (returned, to resume).
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
            on_disk: vec![false; layers],
            mem_bytes: 0,
            mem_cap,
            disk_bytes: 0,
        };
        let Some(dir) = store.dir.clone() else {
            return Ok((store, None));
        };
        if !dir.exists() {
            return Ok((store, None));
        }
        let state = dir.join(STATE);
        let text = match std::fs::read_to_string(&state) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(OpeningsError::NotACheckpoint { dir });
            }
            Err(source) => {
                return Err(OpeningsError::Io {
                    path: state,
                    source,
                })
            }
        };
        let cp = Checkpoint::from_text(&text, tag).map_err(|why| store.corrupt(&state, why))?;
        // A run killed mid-write left its temporary; nothing will rename it.
        atomic::remove_stale(&dir, |_| true).map_err(|source| OpeningsError::Io {
            path: dir.clone(),
            source,
        })?;
        store.counts.clone_from(&cp.counts);
        store.checkpointed = true;
        match cp.pass {
            Pass::Forward => {
                for l in 0..=cp.layer as usize {
                    store.on_disk[l] = cp.counts[l] > 0;
                }
            }
            Pass::Backward => {
                for l in 0..cp.layer as usize {
                    store.on_disk[l] = cp.counts[l] > 0;
                }
            }
        }
        Ok((store, Some(cp)))
    }

    fn path(&self, kind: Kind, layer: usize) -> PathBuf {
        self.dir
            .as_ref()
            .expect("a working folder")
            .join(format!("{}-{layer:03}.bin", kind.prefix()))
    }

    fn io(path: &Path, source: std::io::Error) -> OpeningsError {
        OpeningsError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    /// The error for `path`, a file of the working folder that cannot be
    /// used.
    fn corrupt(&self, path: &Path, why: impl Into<String>) -> OpeningsError {
        OpeningsError::CorruptLayer {
            dir: self.dir.clone().expect("a working folder"),
            path: path.to_path_buf(),
            why: why.into(),
        }
    }

    fn ensure_dir(&mut self) -> Result<PathBuf, OpeningsError> {
        let dir = self.dir.clone().expect("a working folder");
        if !dir.exists() {
            std::fs::create_dir_all(&dir).map_err(|e| Self::io(&dir, e))?;
            self.created = true;
        }
        Ok(dir)
    }

    fn write_file(
        &mut self,
        kind: Kind,
        layer: usize,
        count: u64,
        checkpoint: u32,
        payload: &[u8],
    ) -> Result<(), OpeningsError> {
        self.ensure_dir()?;
        let path = self.path(kind, layer);
        let h = Header {
            tag: self.tag,
            layer: layer as u32,
            count,
            kind,
            checkpoint,
        };
        atomic::write_parts(&path, &[&header(&h, payload), payload])
            .map_err(|e| Self::io(&path, e))?;
        self.disk_bytes += (HEADER_LEN + payload.len()) as u64;
        Ok(())
    }

    fn read_file(
        &self,
        kind: Kind,
        layer: usize,
        count: u64,
        checkpoint: u32,
    ) -> Result<Vec<u8>, OpeningsError> {
        let path = self.path(kind, layer);
        let mut bytes = Vec::new();
        File::open(&path)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .map_err(|e| Self::io(&path, e))?;
        if bytes.len() < HEADER_LEN {
            return Err(self.corrupt(&path, "shorter than its header"));
        }
        let payload = bytes.split_off(HEADER_LEN);
        let h = Header {
            tag: self.tag,
            layer: layer as u32,
            count,
            kind,
            checkpoint,
        };
        if bytes[..] != header(&h, &payload)[..] {
            return Err(self.corrupt(
                &path,
                "header or checksum does not match this count (truncated, changed, stale or foreign)",
            ));
        }
        Ok(payload)
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
        self.write_file(Kind::Finished, layer, count, 0, &payload)?;
        self.on_disk[layer] = true;
        Ok(())
    }

    /// Positions of layer `layer`.
    pub(crate) fn count(&self, layer: usize) -> u64 {
        self.counts[layer]
    }

    /// Layer `layer`'s encoded positions (from memory, or read and checked
    /// from its file). The file stays until the count ends: a checkpoint
    /// may need it.
    pub(crate) fn take(
        &mut self,
        layer: usize,
        meter: &mut Meter,
    ) -> Result<Vec<u8>, OpeningsError> {
        if let Some(p) = self.mem[layer].take() {
            self.mem_bytes -= p.len() as u64;
            meter.release(p.len() as u64);
            return Ok(p);
        }
        if !self.on_disk[layer] {
            return Ok(Vec::new());
        }
        self.read_file(Kind::Finished, layer, self.counts[layer], 0)
    }

    /// Write every layer still in memory to its file (a checkpoint needs
    /// them all on disk).
    fn spill_all(&mut self, meter: &mut Meter) -> Result<(), OpeningsError> {
        for layer in 0..self.mem.len() {
            if let Some(p) = self.mem[layer].take() {
                self.write_file(Kind::Finished, layer, self.counts[layer], 0, &p)?;
                self.on_disk[layer] = true;
                self.mem_bytes -= p.len() as u64;
                meter.release(p.len() as u64);
            }
        }
        Ok(())
    }

    /// Save pending layer `layer` (`count` positions, encoded in
    /// `payload`) for the forward checkpoint after layer `checkpoint`.
    pub(crate) fn write_pending(
        &mut self,
        checkpoint: u32,
        layer: usize,
        payload: &[u8],
        count: u64,
    ) -> Result<(), OpeningsError> {
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
        pending: Vec<u32>,
        meter: &mut Meter,
    ) -> Result<(), OpeningsError> {
        self.spill_all(meter)?;
        let cp = Checkpoint {
            pass,
            layer,
            counts: self.counts.clone(),
            pending,
        };
        self.write_state(&cp)
    }

    /// A pending layer saved by the forward checkpoint `cp`, with its count.
    pub(crate) fn pending(
        &self,
        cp: &Checkpoint,
        layer: usize,
    ) -> Result<(Vec<u8>, u64), OpeningsError> {
        let count = self.count_in_file(Kind::Pending, layer)?;
        Ok((
            self.read_file(Kind::Pending, layer, count, cp.layer)?,
            count,
        ))
    }

    fn count_in_file(&self, kind: Kind, layer: usize) -> Result<u64, OpeningsError> {
        let path = self.path(kind, layer);
        let mut head = [0u8; HEADER_LEN];
        File::open(&path)
            .and_then(|mut f| f.read_exact(&mut head))
            .map_err(|e| Self::io(&path, e))?;
        Ok(u64::from_le_bytes(
            head[32..40].try_into().expect("8 bytes"),
        ))
    }

    /// Save the winning positions of evaluated layer `layer`.
    pub(crate) fn write_winners(
        &mut self,
        layer: usize,
        payload: &[u8],
        count: u64,
    ) -> Result<(), OpeningsError> {
        self.write_file(Kind::Winners, layer, count, 0, payload)
    }

    /// The winners of layer `layer` saved by a backward checkpoint, with
    /// their number.
    pub(crate) fn winners(&self, layer: usize) -> Result<(Vec<u8>, u64), OpeningsError> {
        let count = self.count_in_file(Kind::Winners, layer)?;
        Ok((self.read_file(Kind::Winners, layer, count, 0)?, count))
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
mod tests {
    use super::*;

    fn tag() -> LayerTag {
        LayerTag {
            holes: 3,
            rules: 0,
            seeds: 18,
            opp_store: 0,
            root: (0, 17),
        }
    }

    fn meter() -> Meter {
        Meter {
            used: 0,
            budget: 1 << 20,
            peak: 0,
        }
    }

    #[test]
    fn layers_come_back_from_files_and_damage_is_caught() {
        let dir = std::env::temp_dir().join(format!("dalkon-layer-store-{}", std::process::id()));
        let mut meter = meter();
        let (mut store, cp) = LayerStore::open(tag(), 19, Some(dir.clone()), 0).unwrap();
        assert!(cp.is_none());
        store.put(2, vec![1, 2, 3], 3, &mut meter).unwrap();
        store.put(5, vec![0, 0x81, 0x01], 2, &mut meter).unwrap();
        assert_eq!(meter.used, 0, "spilled layers cost no memory");
        assert_eq!(store.count(5), 2);
        assert_eq!(store.take(2, &mut meter).unwrap(), vec![1, 2, 3]);

        // Flip one payload byte: the checksum no longer matches.
        let path = dir.join("layer-005.bin");
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[HEADER_LEN + 1] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(matches!(
            store.take(5, &mut meter),
            Err(OpeningsError::CorruptLayer { .. })
        ));
        drop(store);
        assert!(
            !dir.exists(),
            "without a checkpoint the folder goes with the store"
        );
    }

    #[test]
    fn winners_round_trip_in_rank_order() {
        let mut table = HashMap::new();
        for (r, count) in [(u128::MAX - 3, 7u64), (5, 1), (1 << 70, u64::MAX)] {
            let s = Summary {
                count,
                short_len: 3,
                short_first: 2,
                best_margin: -4,
                best_first: 9,
            };
            table.insert(r, s);
        }
        let (bytes, n) = encode_winners(&table);
        assert_eq!((bytes.len(), n), (3 * WINNER_BYTES, 3));
        assert_eq!(bytes[..16], 5u128.to_le_bytes(), "rank order");
        let back = decode_winners(&bytes, n).unwrap();
        assert_eq!(back.len(), 3);
        for (r, s) in &table {
            let b = back[r];
            assert_eq!(
                (
                    b.count,
                    b.short_len,
                    b.short_first,
                    b.best_margin,
                    b.best_first
                ),
                (
                    s.count,
                    s.short_len,
                    s.short_first,
                    s.best_margin,
                    s.best_first
                )
            );
        }
        assert!(decode_winners(&bytes[1..], n).is_none());
    }

    #[test]
    fn checkpoints_round_trip_and_belong_to_one_count() {
        let dir = std::env::temp_dir().join(format!("dalkon-layer-cp-{}", std::process::id()));
        let mut meter = meter();
        let (mut store, _) = LayerStore::open(tag(), 19, Some(dir.clone()), 1 << 20).unwrap();
        store.put(0, vec![0], 1, &mut meter).unwrap();
        store.put(1, vec![4, 0], 2, &mut meter).unwrap();
        store.write_pending(1, 3, &[7], 1).unwrap();
        store
            .checkpoint(Pass::Forward, 1, vec![3], &mut meter)
            .unwrap();
        assert_eq!(meter.used, 0, "a checkpoint puts every layer on disk");
        drop(store);
        assert!(dir.join("state").exists(), "a checkpoint keeps the folder");

        // A write killed before its rename left a temporary (no process has
        // this id: Linux pids stop at 2^22); resuming removes it.
        let stale = dir.join("layer-002.bin.999999999.tmp");
        std::fs::write(&stale, b"half a layer").unwrap();
        let (mut again, cp) = LayerStore::open(tag(), 19, Some(dir.clone()), 0).unwrap();
        assert!(!stale.exists());
        let cp = cp.unwrap();
        assert_eq!(
            (cp.pass, cp.layer, cp.pending.clone()),
            (Pass::Forward, 1, vec![3])
        );
        assert_eq!(again.pending(&cp, 3).unwrap(), (vec![7], 1));
        assert_eq!(again.take(1, &mut meter).unwrap(), vec![4, 0]);
        drop(again);

        // Another board's count, or another position's, refuses the folder.
        for other in [
            LayerTag { holes: 4, ..tag() },
            LayerTag {
                root: (0, 18),
                ..tag()
            },
        ] {
            assert!(matches!(
                LayerStore::open(other, 19, Some(dir.clone()), 0),
                Err(OpeningsError::CorruptLayer { .. })
            ));
        }
        // A damaged checkpoint cannot be resumed: the error names the
        // folder and says to delete it, not to run the count again.
        let state = dir.join("state");
        let kept = std::fs::read(&state).unwrap();
        std::fs::write(&state, b"dalkon openings checkpoint 3\nholes x\n").unwrap();
        let err = LayerStore::open(tag(), 19, Some(dir.clone()), 0).unwrap_err();
        assert!(matches!(err, OpeningsError::CorruptLayer { .. }), "{err}");
        assert!(!err.resumable());
        let text = err.to_string();
        assert!(text.contains("delete that folder"), "{text}");
        assert!(text.contains(&dir.display().to_string()), "{text}");
        std::fs::write(&state, kept).unwrap();

        let (mut last, _) = LayerStore::open(tag(), 19, Some(dir.clone()), 0).unwrap();
        last.finish();
        assert!(!dir.exists(), "a finished count removes its folder");
    }
}
