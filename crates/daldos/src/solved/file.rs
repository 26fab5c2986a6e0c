//! The table file format: one file per board, rules and layer, a fixed
//! 128-byte header followed by the bounds of every position of the layer.
//!
//! Header (integers little-endian), format version 1:
//!
//! | offset | size | field                                                 |
//! |-------:|-----:|-------------------------------------------------------|
//! | 0      | 8    | magic `DALKONDB`                                      |
//! | 8      | 4    | format version ([`FORMAT_VERSION`], 1)                |
//! | 12     | 8    | game, `daldos` padded with zero bytes                 |
//! | 20     | 4    | board `L`                                             |
//! | 24     | 1    | `dal`: 0 any, 1 sternmost                             |
//! | 25     | 1    | `capture`: 0 final, 1 path                            |
//! | 26     | 1    | `end`: 0 last, 1 one                                  |
//! | 27     | 1    | zero                                                  |
//! | 28     | 4    | `a`, pieces of the side to throw (A)                  |
//! | 32     | 4    | `b`, pieces of the other side                         |
//! | 36     | 8    | entry count (the layer's size, `index.rs`)            |
//! | 44     | 4    | entry width in bytes (16: `lo`, `hi` as `f64`)        |
//! | 48     | 4    | sweeps (the most any component of the layer needed)   |
//! | 52     | 4    | 1 if some component stalled before its gap closed     |
//! | 56     | 8    | `eps` the build aimed for, `f64`                      |
//! | 64     | 8    | checksum: FNV-1a 64 of the payload, then of header    |
//! |        |      | bytes 0..64 and 72..128 (all but this field)          |
//! | 72     | 8    | position updates (positions × sweeps, summed over     |
//! |        |      | components)                                           |
//! | 80     | 48   | zero                                                  |
//!
//! Entry `r` (the position of rank `r`) is `lo` then `hi`, each an `f64`
//! little-endian. The checksum covers the header with the data, so a file
//! of other rules or another layer, or one edited or cut short, is refused
//! ([`TableError::BadFile`]), never read as this layer. Every entry must
//! also be a pair of bounds `0 ≤ lo ≤ hi ≤ 1` (no NaN): one that is not
//! makes the file damaged whatever its checksum says, checked at load.
//!
//! Files are written atomically (`dalkon_store::atomic`) and never
//! modified in place, which is what makes mapping them sound.

use std::io::Write;
use std::path::{Path, PathBuf};

use dalkon_rules::daldos::{CaptureRule, DalRule, EndRule, Variants};
use dalkon_store::checksum::{seal, Fnv1a64};
use dalkon_store::header::{f64_at, u32_at, u64_at, Header, Prefix, PrefixError, GAME_AT};
use dalkon_store::FileError;
use memmap2::Mmap;

use super::error::TableError;
use super::index::LayerKey;

/// File magic (shared with the Dakon databases; the game field tells them
/// apart).
pub const MAGIC: [u8; 8] = dalkon_store::header::DB_MAGIC;
/// Version of the layout described in this module.
pub const FORMAT_VERSION: u32 = 1;
/// Game tag.
pub const GAME: [u8; 8] = *b"daldos\0\0";
/// Header bytes; entries start here.
pub const HEADER_LEN: usize = 128;
/// Bytes per entry.
pub const ENTRY_WIDTH: u32 = 16;
const CHECKSUM_AT: std::ops::Range<usize> = 64..72;

/// What the header says beyond the layer's identity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FileStats {
    /// Sweeps.
    pub sweeps: u32,
    /// Whether some component stalled.
    pub stalled: bool,
    /// Position updates.
    pub updates: u64,
    /// The gap aimed for.
    pub eps: f64,
}

/// File name of a layer: `daldos-L4-any-final-last-4v4.tbl`.
pub fn file_name(key: LayerKey, v: &Variants) -> String {
    format!(
        "daldos-L{}-{}-{}-{}-{}v{}.tbl",
        key.board.len(),
        v.dal,
        v.capture,
        v.end,
        key.a,
        key.b
    )
}

fn codes(v: &Variants) -> [u8; 3] {
    [
        u8::from(v.dal == DalRule::Sternmost),
        u8::from(v.capture == CaptureRule::Path),
        u8::from(v.end == EndRule::One),
    ]
}

fn header(key: LayerKey, v: &Variants, count: u64, stats: FileStats) -> [u8; HEADER_LEN] {
    let mut h = Header::<HEADER_LEN>::new(MAGIC, FORMAT_VERSION);
    h.bytes(GAME_AT.start, &GAME)
        .u32(20, u32::from(key.board.len()))
        .bytes(24, &codes(v))
        .u32(28, u32::from(key.a))
        .u32(32, u32::from(key.b))
        .u64(36, count)
        .u32(44, ENTRY_WIDTH)
        .u32(48, stats.sweeps)
        .u32(52, u32::from(stats.stalled))
        .f64(56, stats.eps)
        .u64(72, stats.updates);
    h.to_bytes()
}

/// Bytes of `values` (interleaved `lo, hi`) in chunks, little-endian.
fn chunks(values: &[f64]) -> impl Iterator<Item = Vec<u8>> + '_ {
    values
        .chunks(1 << 16)
        .map(|c| c.iter().flat_map(|x| x.to_le_bytes()).collect())
}

/// Write layer `key`'s bounds (interleaved `lo, hi` by rank) into `dir`.
pub fn write(
    dir: &Path,
    key: LayerKey,
    v: &Variants,
    values: &[f64],
    stats: FileStats,
) -> Result<PathBuf, TableError> {
    let path = dir.join(file_name(key, v));
    let count = (values.len() / 2) as u64;
    let mut sum = Fnv1a64::new();
    for c in chunks(values) {
        sum = sum.update(&c);
    }
    let mut head = header(key, v, count, stats);
    let sealed = seal(sum, &head, CHECKSUM_AT);
    head[CHECKSUM_AT].copy_from_slice(&sealed.to_le_bytes());
    dalkon_store::atomic::write_with(&path, |w: &mut dyn Write| {
        w.write_all(&head)?;
        for c in chunks(values) {
            w.write_all(&c)?;
        }
        Ok(())
    })
    .map_err(FileError::io(&path))?;
    Ok(path)
}

/// The layer's bounds handed over in pieces, in rank order, each time
/// they are asked for: `pass(sink)` calls `sink` with every piece.
pub(crate) type Pieces<'a> = dyn FnMut(&mut dyn FnMut(&[f64])) + 'a;

/// [`write`] of a layer whose bounds are not in memory at once (a job
/// partitioned across ranks gathers them a piece at a time): `pass` is run
/// twice, for the checksum and then for the bytes, and must hand over the
/// same bounds both times. It is run twice whatever happens, so that the
/// ranks taking part in it stay together. The file is the one [`write`]
/// makes of the same bounds, byte for byte. Returns the path and the
/// layer's checksum (the header's).
pub(crate) fn write_pieces(
    dir: &Path,
    key: LayerKey,
    v: &Variants,
    count: u64,
    stats: FileStats,
    pass: &mut Pieces<'_>,
) -> Result<(PathBuf, u64), TableError> {
    let path = dir.join(file_name(key, v));
    let mut sum = Fnv1a64::new();
    pass(&mut |piece| {
        for c in chunks(piece) {
            sum = sum.update(&c);
        }
    });
    let mut head = header(key, v, count, stats);
    let sealed = seal(sum, &head, CHECKSUM_AT);
    head[CHECKSUM_AT].copy_from_slice(&sealed.to_le_bytes());
    let mut ran = false;
    let written = dalkon_store::atomic::write_with(&path, |w: &mut dyn Write| {
        ran = true;
        w.write_all(&head)?;
        let mut failed = None;
        pass(&mut |piece| {
            if failed.is_none() {
                for c in chunks(piece) {
                    if let Err(e) = w.write_all(&c) {
                        failed = Some(e);
                        break;
                    }
                }
            }
        });
        failed.map_or(Ok(()), Err)
    });
    if !ran {
        pass(&mut |_| {});
    }
    written.map_err(FileError::io(&path))?;
    Ok((path, sealed))
}

/// A layer file mapped into memory, header and checksum checked.
#[derive(Debug)]
pub struct Mapped {
    map: Mmap,
}

impl Mapped {
    /// The bounds of entry `r`.
    #[inline]
    pub fn get(&self, r: usize) -> (f64, f64) {
        let at = HEADER_LEN + 16 * r;
        let b = &self.map[at..at + 16];
        (f64_at(b, 0), f64_at(b, 8))
    }

    /// What the header says beyond the layer's identity.
    pub fn stats(&self) -> FileStats {
        let h = &self.map[..HEADER_LEN];
        FileStats {
            sweeps: u32_at(h, 48),
            stalled: u32_at(h, 52) != 0,
            eps: f64_at(h, 56),
            updates: u64_at(h, 72),
        }
    }

    /// The checksum its header records (of the header and every entry).
    pub fn checksum(&self) -> u64 {
        u64_at(&self.map[..HEADER_LEN], CHECKSUM_AT.start)
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        (self.map.len() - HEADER_LEN) / 16
    }

    /// Whether it has no entries (never for a real layer).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Open the file of layer `key` in `dir`, if there is one: `Ok(None)` when
/// it does not exist; an error when it exists but is not this layer's
/// table under these rules, or is damaged.
pub fn open(
    dir: &Path,
    key: LayerKey,
    v: &Variants,
    count: u64,
) -> Result<Option<Mapped>, TableError> {
    let path = dir.join(file_name(key, v));
    let map = match dalkon_store::mapped::map_read_only(&path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            let not_regular = e
                .get_ref()
                .and_then(|s| s.downcast_ref::<dalkon_store::mapped::NotARegularFile>())
                .copied();
            return Err(match not_regular {
                Some(n) => TableError::BadFile {
                    path,
                    reason: format!("{n}, where the table of this layer belongs"),
                },
                None => FileError::io(&path)(e).into(),
            });
        }
    };
    let bad = |reason: String| TableError::BadFile {
        path: path.clone(),
        reason,
    };
    let prefix = Prefix {
        len: HEADER_LEN,
        magic: MAGIC,
        version: FORMAT_VERSION,
        game: Some(GAME),
    };
    prefix.check(&map).map_err(|e| {
        bad(match e {
            PrefixError::Short { len } => {
                format!("{len} bytes, shorter than the {HEADER_LEN}-byte header")
            }
            PrefixError::Magic => "not a dalkon table file (bad magic)".into(),
            PrefixError::Version { found } => {
                format!("format version {found}, this build reads version {FORMAT_VERSION}")
            }
            PrefixError::Game { .. } => "a table of another game".into(),
        })
    })?;
    let h: &[u8; HEADER_LEN] = map[..HEADER_LEN].try_into().expect("header");
    let want = header(
        key,
        v,
        count,
        FileStats {
            sweeps: 0,
            stalled: false,
            eps: 0.0,
            updates: 0,
        },
    );
    let fields: [(&str, std::ops::Range<usize>); 6] = [
        ("board", 20..24),
        ("rules", 24..28),
        ("a", 28..32),
        ("b", 32..36),
        ("entry count", 36..44),
        ("entry width", 44..48),
    ];
    for (name, range) in fields {
        if h[range.clone()] != want[range.clone()] {
            return Err(bad(format!(
                "its {name} field does not match layer {} v {} of board {} under {v}",
                key.a,
                key.b,
                key.board.len()
            )));
        }
    }
    let expected_len = HEADER_LEN as u64 + 16 * count;
    if map.len() as u64 != expected_len {
        return Err(bad(format!(
            "{} bytes, expected {expected_len} (cut short or padded)",
            map.len()
        )));
    }
    let stored = u64_at(h, CHECKSUM_AT.start);
    let sum = seal(Fnv1a64::new().update(&map[HEADER_LEN..]), h, CHECKSUM_AT);
    if stored != sum {
        return Err(bad(format!(
            "checksum {stored:016x} in the header, {sum:016x} computed: the file is damaged"
        )));
    }
    if let Some((r, lo, hi)) = first_unsound_entry(&map[HEADER_LEN..]) {
        return Err(bad(format!(
            "entry {r} holds the bounds {lo} and {hi}, not 0 ≤ lower ≤ upper ≤ 1: the file is \
             damaged"
        )));
    }
    Ok(Some(Mapped { map }))
}

/// The first entry of `payload` that is not a pair of bounds
/// `0 ≤ lo ≤ hi ≤ 1`, NaN included (every comparison with NaN fails), with
/// its two values. The checksum only says the file is as written; a file
/// written with impossible values (resealed by hand, or by a faulty
/// build) must not reach `value`, the engines or the check. One pass of
/// comparisons beside the checksum's pass over the same bytes, so every
/// entry is checked once, at load, and reads need no check.
fn first_unsound_entry(payload: &[u8]) -> Option<(usize, f64, f64)> {
    payload
        .chunks_exact(ENTRY_WIDTH as usize)
        .enumerate()
        .find_map(|(r, e)| {
            let (lo, hi) = (f64_at(e, 0), f64_at(e, 8));
            let sound = 0.0 <= lo && lo <= hi && hi <= 1.0;
            (!sound).then_some((r, lo, hi))
        })
}
