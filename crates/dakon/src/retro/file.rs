//! The database file format: one file per (board size `n`, rule set, level
//! `k`), a fixed 64-byte header followed by the raw entries.
//!
//! Header (all integers little-endian), format version 2:
//!
//! | offset | size | field                                              |
//! |-------:|-----:|----------------------------------------------------|
//! | 0      | 8    | magic `DALKONDB`                                   |
//! | 8      | 4    | format version ([`FORMAT_VERSION`], 2)             |
//! | 12     | 8    | game, `dakon` padded with zero bytes               |
//! | 20     | 4    | `n`, holes per side                                |
//! | 24     | 4    | rules code (`Rules::code()`)                       |
//! | 28     | 4    | level `k`, seeds on the board                      |
//! | 32     | 4    | entry width in bytes (1: `i8`)                     |
//! | 36     | 8    | entry count (`C(k + 2n - 1, 2n - 1)`)              |
//! | 44     | 8    | checksum: FNV-1a 64 of the payload, then of header |
//! |        |      | bytes 0..44 and 52..64 (all but this field)        |
//! | 52     | 12   | reserved, zero                                     |
//!
//! The payload is `count` signed bytes, entry `i` being the future margin of
//! the position of rank `i` (see `rank.rs`), stored as its two's-complement
//! byte.
//!
//! The checksum covers the header as well as the payload, so a file whose
//! header was edited (say, a level of other rules renamed and its rules
//! field changed to match) is refused, not silently read. The payload is
//! hashed first so that the intermediate state is the payload's own FNV-1a
//! 64 ([`MappedLevel::checksum`]), the fingerprint of a level's entries
//! whatever file holds them, obtained in the same single pass. Version 1
//! (checksum of the payload only) is refused with [`DbError::Version`]; the
//! folder is a cache, rebuilt from nothing.
//!
//! Files are written with [`dalkon_store::atomic`] (a temporary name in the
//! same folder, renamed into place), so a file under its final name is
//! always complete: an interrupted build keeps every finished level. Files
//! are never modified in place, which is what makes mapping them into
//! memory sound (see [`dalkon_store::mapped`]).

use std::path::{Path, PathBuf};

use dalkon_store::checksum::{seal, Fnv1a64};
use dalkon_store::header::{u32_at, u64_at, Header, Prefix, PrefixError, GAME_AT};
use dalkon_store::FileError;
use dalkon_store::{atomic, mapped};
use memmap2::Mmap;

use super::error::DbError;

/// File magic (shared with the Daldøs tables; the game field tells them
/// apart).
pub const MAGIC: [u8; 8] = dalkon_store::header::DB_MAGIC;
/// Version of the layout described in this module.
pub const FORMAT_VERSION: u32 = 2;
/// Game tag in the header.
pub const GAME: [u8; 8] = *b"dakon\0\0\0";
/// Header size in bytes; the payload starts here.
pub const HEADER_LEN: usize = 64;
/// Bytes per entry.
pub const ENTRY_WIDTH: u32 = 1;
/// Where the checksum sits in the header.
const CHECKSUM_AT: std::ops::Range<usize> = 44..52;

/// What a database file is for: the fields of the header that identify it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LevelKey {
    /// Holes per side.
    pub holes: u32,
    /// `Rules::code()`.
    pub rules: u8,
    /// Seeds on the board.
    pub level: u32,
}

impl LevelKey {
    /// File name of this level inside a database folder.
    pub fn file_name(&self) -> String {
        format!("{}{:03}.db", self.board_prefix(), self.level)
    }

    /// The start shared by the file names of every level of this board
    /// size and rule set.
    fn board_prefix(&self) -> String {
        format!("dakon-n{}-r{}-k", self.holes, self.rules)
    }

    /// Whether `file_name` names a level (any level) of this board size and
    /// rule set.
    pub fn same_board(&self, file_name: &str) -> bool {
        file_name
            .strip_prefix(&self.board_prefix())
            .and_then(|rest| rest.strip_suffix(".db"))
            .is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
    }

    /// Full path of this level inside `dir`.
    pub fn path(&self, dir: &Path) -> PathBuf {
        dir.join(self.file_name())
    }
}

/// The checksums of a file of header `head` and payload `payload`: the
/// payload's own, and the file's (payload, then every header byte but the
/// checksum field), as the module doc describes.
fn checksums(head: &[u8], payload: &[u8]) -> (u64, u64) {
    let of_payload = Fnv1a64::new().update(payload);
    let of_file = seal(of_payload, &head[..HEADER_LEN], CHECKSUM_AT);
    (of_payload.value(), of_file)
}

/// Header bytes for `payload` stored under `key`.
pub fn header(key: LevelKey, payload: &[u8]) -> [u8; HEADER_LEN] {
    let mut h = Header::<HEADER_LEN>::new(MAGIC, FORMAT_VERSION);
    h.bytes(GAME_AT.start, &GAME)
        .u32(20, key.holes)
        .u32(24, u32::from(key.rules))
        .u32(28, key.level)
        .u32(32, ENTRY_WIDTH)
        .u64(36, payload.len() as u64);
    let (_, of_file) = checksums(&h.to_bytes(), payload);
    h.u64(CHECKSUM_AT.start, of_file);
    h.to_bytes()
}

/// Write one level atomically (see [`dalkon_store::atomic`]). Returns the
/// payload's checksum, as [`MappedLevel::checksum`] would.
pub fn write_level(dir: &Path, key: LevelKey, payload: &[u8]) -> Result<u64, DbError> {
    let path = key.path(dir);
    let head = header(key, payload);
    atomic::write_parts(&path, &[&head, payload]).map_err(FileError::io(&path))?;
    Ok(checksums(&head, payload).0)
}

/// Map `path` read-only (sound because level files are written with
/// [`atomic`] and never modified in place, see [`mapped`]).
fn map_file(path: &Path) -> Result<Mmap, DbError> {
    Ok(mapped::map_read_only(path).map_err(FileError::io(path))?)
}

/// A level file mapped into memory, header checked.
#[derive(Debug)]
pub struct MappedLevel {
    map: Mmap,
    checksum: u64,
}

impl MappedLevel {
    /// The entries (as stored bytes; read an entry with `as i8`).
    pub fn payload(&self) -> &[u8] {
        &self.map[HEADER_LEN..]
    }

    /// FNV-1a 64 of the payload alone (computed while the file checksum
    /// was verified): the fingerprint of the level's entries.
    pub fn checksum(&self) -> u64 {
        self.checksum
    }
}

/// Open and check the file of `key` in `dir`: header fields, length and
/// checksum. `expected_count` is the entry count the level must have.
pub fn open_level(dir: &Path, key: LevelKey, expected_count: u64) -> Result<MappedLevel, DbError> {
    let path = key.path(dir);
    let map = map_file(&path)?;
    let checksum = check(&path, &map, key, expected_count)?;
    Ok(MappedLevel { map, checksum })
}

/// Check a whole file image against what `key` says it must be; returns
/// the payload's checksum. Each header field is checked on its own first,
/// so that a wrong field is named; the checksum then catches an edit that
/// made a field look right.
pub fn check(
    path: &Path,
    bytes: &[u8],
    key: LevelKey,
    expected_count: u64,
) -> Result<u64, DbError> {
    let path = path.to_path_buf();
    let prefix = Prefix {
        len: HEADER_LEN,
        magic: MAGIC,
        version: FORMAT_VERSION,
        game: Some(GAME),
    };
    if let Err(e) = prefix.check(bytes) {
        return Err(match e {
            PrefixError::Short { len } => DbError::Truncated {
                path,
                expected: HEADER_LEN as u64 + expected_count,
                found: len as u64,
            },
            PrefixError::Magic => DbError::NotADatabase { path },
            PrefixError::Version { found } => DbError::Version {
                path,
                found,
                expected: FORMAT_VERSION,
            },
            PrefixError::Game { found } => DbError::WrongGame { path, found },
        });
    }
    let holes = u32_at(bytes, 20);
    if holes != key.holes {
        return Err(DbError::WrongBoard {
            path,
            expected: key.holes,
            found: holes,
        });
    }
    let rules = u32_at(bytes, 24);
    if rules != u32::from(key.rules) {
        return Err(DbError::WrongRules {
            path,
            expected: key.rules,
            found: rules,
        });
    }
    let level = u32_at(bytes, 28);
    if level != key.level {
        return Err(DbError::WrongLevel {
            path,
            expected: key.level,
            found: level,
        });
    }
    let width = u32_at(bytes, 32);
    if width != ENTRY_WIDTH {
        return Err(DbError::EntryWidth { path, found: width });
    }
    let count = u64_at(bytes, 36);
    if count != expected_count {
        return Err(DbError::WrongCount {
            path,
            expected: expected_count,
            found: count,
        });
    }
    let payload = &bytes[HEADER_LEN..];
    if payload.len() as u64 != count {
        return Err(DbError::Truncated {
            path,
            expected: HEADER_LEN as u64 + count,
            found: bytes.len() as u64,
        });
    }
    if bytes[CHECKSUM_AT.end..HEADER_LEN].iter().any(|&b| b != 0) {
        return Err(DbError::Reserved { path });
    }
    let recorded = u64_at(bytes, CHECKSUM_AT.start);
    let (of_payload, actual) = checksums(&bytes[..HEADER_LEN], payload);
    if recorded != actual {
        return Err(DbError::Checksum {
            path,
            recorded,
            actual,
        });
    }
    if let Some(index) = first_out_of_range(payload, level) {
        return Err(DbError::OutOfRange {
            path,
            index: index as u64,
            value: payload[index] as i8,
            level,
        });
    }
    Ok(of_payload)
}

/// The first entry of `payload` larger in size than `level`, the seeds on
/// the board: a future margin never exceeds them (docs/formats.md §1.4),
/// so such an entry is damage the checksum was forged over.
///
/// The scan runs in blocks whose largest size is taken without a branch
/// per byte (the compiler vectorises the fold), which keeps it several
/// times faster than the checksum pass it follows; only a block holding a
/// bad entry is searched byte by byte.
pub fn first_out_of_range(payload: &[u8], level: u32) -> Option<usize> {
    const BLOCK: usize = 1 << 16;
    let bound = u8::try_from(level).unwrap_or(u8::MAX);
    payload
        .chunks(BLOCK)
        .enumerate()
        .find(|(_, block)| {
            block
                .iter()
                .fold(0u8, |m, &b| m.max((b as i8).unsigned_abs()))
                > bound
        })
        .and_then(|(i, block)| {
            let at = block
                .iter()
                .position(|&b| (b as i8).unsigned_abs() > bound)?;
            Some(i * BLOCK + at)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_round_trip_and_refusals() {
        let key = LevelKey {
            holes: 3,
            rules: 5,
            level: 2,
        };
        let payload = [1u8, 0xff, 0xfe];
        let mut file = header(key, &payload).to_vec();
        file.extend_from_slice(&payload);
        let p = Path::new("x.db");
        assert!(check(p, &file, key, 3).is_ok());
        let other_rules = LevelKey { rules: 4, ..key };
        assert!(matches!(
            check(p, &file, other_rules, 3),
            Err(DbError::WrongRules {
                expected: 4,
                found: 5,
                ..
            })
        ));
        let other_board = LevelKey { holes: 4, ..key };
        assert!(matches!(
            check(p, &file, other_board, 3),
            Err(DbError::WrongBoard { .. })
        ));
        assert!(matches!(
            check(p, &file[..file.len() - 1], key, 3),
            Err(DbError::Truncated { .. })
        ));
        let mut flipped = file.clone();
        flipped[HEADER_LEN + 1] ^= 0x10;
        assert!(matches!(
            check(p, &flipped, key, 3),
            Err(DbError::Checksum { .. })
        ));
        // A margin larger than the seeds on the board (2 here), checksum
        // resealed: refused, the entry named.
        let forged = [1u8, 3, 0];
        let mut file3 = header(key, &forged).to_vec();
        file3.extend_from_slice(&forged);
        assert!(matches!(
            check(p, &file3, key, 3),
            Err(DbError::OutOfRange {
                index: 1,
                value: 3,
                level: 2,
                ..
            })
        ));
        let mut bad_magic = file.clone();
        bad_magic[0] = b'X';
        assert!(matches!(
            check(p, &bad_magic, key, 3),
            Err(DbError::NotADatabase { .. })
        ));
    }
}

#[cfg(test)]
mod range_tests {
    use super::first_out_of_range;

    #[test]
    fn out_of_range_entries_are_found_in_any_block() {
        let mut v = vec![0u8; 200_000];
        v[3] = 5;
        v[150_001] = (-5i8) as u8;
        assert_eq!(first_out_of_range(&v, 5), None);
        assert_eq!(first_out_of_range(&v, 4), Some(3));
        v[3] = 0;
        assert_eq!(first_out_of_range(&v, 4), Some(150_001));
        // -128 (the builder's "unsolved" mark) is out of range at any level.
        v[7] = 0x80;
        assert_eq!(first_out_of_range(&v, 127), Some(7));
        assert_eq!(first_out_of_range(&[], 0), None);
    }
}
