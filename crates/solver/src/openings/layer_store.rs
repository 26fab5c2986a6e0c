//! Where finished layers of the first turn wait for the backward pass: in
//! memory while they fit, then in files of a working folder.
//!
//! A layer file is a 64-byte header and the encoded ranks (see
//! `layer_set.rs`); all integers little-endian:
//!
//! | offset | size | field                                         |
//! |-------:|-----:|-----------------------------------------------|
//! | 0      | 8    | magic `DKOPENLY`                              |
//! | 8      | 4    | format version (1)                            |
//! | 12     | 4    | holes per row                                 |
//! | 16     | 4    | rules code (`Rules::code()`)                  |
//! | 20     | 4    | seeds in the game                             |
//! | 24     | 4    | the opponent's store (fixed during the turn)  |
//! | 28     | 4    | layer (the mover's store)                     |
//! | 32     | 8    | number of positions                           |
//! | 40     | 8    | payload length in bytes                       |
//! | 48     | 8    | FNV-1a 64 checksum of the payload             |
//! | 56     | 8    | zero                                          |
//!
//! A file read back must match the count in every field and its checksum,
//! so a truncated or foreign file is refused, never misread. The folder is
//! the count's own (created fresh, removed when the count ends).

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use super::layer_set::Meter;
use super::OpeningsError;
use crate::db::fnv1a64;

const MAGIC: [u8; 8] = *b"DKOPENLY";
const VERSION: u32 = 1;
const HEADER_LEN: usize = 64;

/// What every layer file of one count must say in its header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LayerTag {
    pub(crate) holes: u32,
    pub(crate) rules: u32,
    pub(crate) seeds: u32,
    pub(crate) opp_store: u32,
}

fn header(tag: LayerTag, layer: u32, count: u64, payload: &[u8]) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[0..8].copy_from_slice(&MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&tag.holes.to_le_bytes());
    h[16..20].copy_from_slice(&tag.rules.to_le_bytes());
    h[20..24].copy_from_slice(&tag.seeds.to_le_bytes());
    h[24..28].copy_from_slice(&tag.opp_store.to_le_bytes());
    h[28..32].copy_from_slice(&layer.to_le_bytes());
    h[32..40].copy_from_slice(&count.to_le_bytes());
    h[40..48].copy_from_slice(&(payload.len() as u64).to_le_bytes());
    h[48..56].copy_from_slice(&fnv1a64(payload).to_le_bytes());
    h
}

/// The finished layers of one count.
#[derive(Debug)]
pub(crate) struct LayerStore {
    tag: LayerTag,
    /// The count's own folder (created on the first spill).
    dir: Option<PathBuf>,
    created: bool,
    /// Layers kept in memory, by layer.
    mem: Vec<Option<Vec<u8>>>,
    /// Positions of each layer.
    counts: Vec<u64>,
    /// Layers written to files.
    on_disk: Vec<bool>,
    /// Bytes of layers kept in memory.
    mem_bytes: u64,
    /// Keep layers in memory up to this many bytes.
    mem_cap: u64,
    /// Bytes written to files.
    pub(crate) disk_bytes: u64,
}

impl LayerStore {
    /// A store for layers `0..layers`; `dir` is a folder that must not
    /// exist yet (it is created when a layer first goes to disk).
    pub(crate) fn new(tag: LayerTag, layers: usize, dir: Option<PathBuf>, mem_cap: u64) -> Self {
        LayerStore {
            tag,
            dir,
            created: false,
            mem: vec![None; layers],
            counts: vec![0; layers],
            on_disk: vec![false; layers],
            mem_bytes: 0,
            mem_cap,
            disk_bytes: 0,
        }
    }

    fn path(&self, layer: usize) -> Option<PathBuf> {
        self.dir
            .as_ref()
            .map(|d| d.join(format!("layer-{layer:03}.bin")))
    }

    fn io(path: &Path, e: std::io::Error) -> OpeningsError {
        OpeningsError::Io(format!("{}: {e}", path.display()))
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
        let fits = self.mem_bytes + bytes <= self.mem_cap;
        if fits || self.dir.is_none() {
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
        let dir = self.dir.clone().expect("checked above");
        if !self.created {
            std::fs::create_dir(&dir).map_err(|e| Self::io(&dir, e))?;
            self.created = true;
        }
        let path = self.path(layer).expect("a folder");
        let head = header(self.tag, layer as u32, count, &payload);
        let mut f = File::create(&path).map_err(|e| Self::io(&path, e))?;
        f.write_all(&head).map_err(|e| Self::io(&path, e))?;
        f.write_all(&payload).map_err(|e| Self::io(&path, e))?;
        f.flush().map_err(|e| Self::io(&path, e))?;
        self.on_disk[layer] = true;
        self.disk_bytes += HEADER_LEN as u64 + bytes;
        Ok(())
    }

    /// Positions of layer `layer`.
    pub(crate) fn count(&self, layer: usize) -> u64 {
        self.counts[layer]
    }

    /// Take layer `layer` back (from memory, or read and checked from its
    /// file, which is then removed).
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
        let path = self.path(layer).expect("on disk");
        let mut bytes = Vec::new();
        File::open(&path)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .map_err(|e| Self::io(&path, e))?;
        let corrupt = |why: &str| OpeningsError::CorruptLayer(format!("{}: {why}", path.display()));
        if bytes.len() < HEADER_LEN {
            return Err(corrupt("shorter than its header"));
        }
        let payload = bytes.split_off(HEADER_LEN);
        let want = header(self.tag, layer as u32, self.counts[layer], &payload);
        if bytes[..] != want[..] {
            return Err(corrupt(
                "header or checksum does not match this count (truncated, changed or foreign)",
            ));
        }
        std::fs::remove_file(&path).map_err(|e| Self::io(&path, e))?;
        self.on_disk[layer] = false;
        Ok(payload)
    }
}

impl Drop for LayerStore {
    fn drop(&mut self) {
        if self.created {
            if let Some(d) = &self.dir {
                // Best effort: the folder is the count's own scratch space.
                let _ = std::fs::remove_dir_all(d);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_come_back_from_files_and_damage_is_caught() {
        let dir = std::env::temp_dir().join(format!("dalkon-layer-store-{}", std::process::id()));
        let tag = LayerTag {
            holes: 3,
            rules: 0,
            seeds: 18,
            opp_store: 0,
        };
        let mut meter = Meter {
            used: 0,
            budget: 1 << 20,
            peak: 0,
        };
        let mut store = LayerStore::new(tag, 19, Some(dir.clone()), 0);
        store.put(2, vec![1, 2, 3], 3, &mut meter).unwrap();
        store.put(5, vec![0, 0x81, 0x01], 2, &mut meter).unwrap();
        assert_eq!(meter.used, 0, "spilled layers cost no memory");
        assert_eq!(store.count(5), 2);
        assert_eq!(store.take(2, &mut meter).unwrap(), vec![1, 2, 3]);
        assert!(
            !dir.join("layer-002.bin").exists(),
            "a layer read back is removed"
        );

        // Flip one payload byte: the checksum no longer matches.
        let path = dir.join("layer-005.bin");
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[HEADER_LEN + 1] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(matches!(
            store.take(5, &mut meter),
            Err(OpeningsError::CorruptLayer(_))
        ));
        drop(store);
        assert!(!dir.exists(), "the working folder goes with the store");
    }
}
