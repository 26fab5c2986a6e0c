//! The fixed-size headers of dalkon's binary files (the Dakon database
//! levels, the Daldøs solved tables, the openings count's working files):
//! eight bytes of magic, a little-endian `u32` format version, then fields
//! at fixed offsets, every integer little-endian. Each format lays out its
//! own fields (documented in its module and in docs/formats.md); this module
//! writes and reads them, and checks the start that the formats share.

use std::ops::Range;

/// The magic of the database files of both games (the Dakon levels and the
/// Daldøs tables); the game tag at [`GAME_AT`] tells them apart.
pub const DB_MAGIC: [u8; 8] = *b"DALKONDB";
/// Where the magic sits.
pub const MAGIC_AT: Range<usize> = 0..8;
/// Where the format version sits.
pub const VERSION_AT: Range<usize> = 8..12;
/// Where the game tag (the game's name, zero-padded) sits in a file of
/// magic [`DB_MAGIC`].
pub const GAME_AT: Range<usize> = 12..20;

/// A header of `N` bytes being written: zero but for the magic and version
/// until fields are put in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header<const N: usize>([u8; N]);

impl<const N: usize> Header<N> {
    /// A header starting with `magic` and `version`.
    pub fn new(magic: [u8; 8], version: u32) -> Header<N> {
        let mut h = Header([0u8; N]);
        h.bytes(MAGIC_AT.start, &magic)
            .u32(VERSION_AT.start, version);
        h
    }

    /// A header to edit, from its bytes.
    pub fn from_bytes(bytes: [u8; N]) -> Header<N> {
        Header(bytes)
    }

    /// Put `bytes` at offset `at`.
    pub fn bytes(&mut self, at: usize, bytes: &[u8]) -> &mut Header<N> {
        self.0[at..at + bytes.len()].copy_from_slice(bytes);
        self
    }

    /// Put `v` at offset `at`.
    pub fn u32(&mut self, at: usize, v: u32) -> &mut Header<N> {
        self.bytes(at, &v.to_le_bytes())
    }

    /// Put `v` at offset `at`.
    pub fn u64(&mut self, at: usize, v: u64) -> &mut Header<N> {
        self.bytes(at, &v.to_le_bytes())
    }

    /// Put `v` at offset `at`.
    pub fn f64(&mut self, at: usize, v: f64) -> &mut Header<N> {
        self.bytes(at, &v.to_le_bytes())
    }

    /// The header's bytes.
    pub fn to_bytes(&self) -> [u8; N] {
        self.0
    }
}

/// The `u32` at offset `at` of `b` (which must hold it).
pub fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

/// The `u64` at offset `at` of `b` (which must hold it).
pub fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// The `f64` at offset `at` of `b` (which must hold it).
pub fn f64_at(b: &[u8], at: usize) -> f64 {
    f64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// Why the start of a file is not the header of a format: each format
/// turns it into its own error, in its own words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PrefixError {
    /// The file is shorter than the header.
    Short {
        /// The file's length.
        len: usize,
    },
    /// Other magic.
    Magic,
    /// Another format version.
    Version {
        /// The version in the file.
        found: u32,
    },
    /// A file of another game.
    Game {
        /// The game tag in the file, zero padding removed.
        found: String,
    },
}

/// The shared start of a format's header: its length, magic, version and,
/// for the database files, game tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Prefix {
    /// Header bytes.
    pub len: usize,
    /// Magic.
    pub magic: [u8; 8],
    /// The one version read.
    pub version: u32,
    /// The game tag at [`GAME_AT`], for formats that carry one.
    pub game: Option<[u8; 8]>,
}

impl Prefix {
    /// Check the start of `file` in the order a reader needs the answers:
    /// long enough for the header, then magic, version, game.
    pub fn check(&self, file: &[u8]) -> Result<(), PrefixError> {
        if file.len() < self.len {
            return Err(PrefixError::Short { len: file.len() });
        }
        if file[MAGIC_AT] != self.magic {
            return Err(PrefixError::Magic);
        }
        let found = u32_at(file, VERSION_AT.start);
        if found != self.version {
            return Err(PrefixError::Version { found });
        }
        if let Some(game) = self.game {
            if file[GAME_AT] != game {
                return Err(PrefixError::Game {
                    found: String::from_utf8_lossy(&file[GAME_AT])
                        .trim_end_matches('\0')
                        .to_owned(),
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: Prefix = Prefix {
        len: 24,
        magic: DB_MAGIC,
        version: 3,
        game: Some(*b"dakon\0\0\0"),
    };

    fn file() -> [u8; 24] {
        let mut h = Header::<24>::new(DB_MAGIC, 3);
        h.bytes(GAME_AT.start, b"dakon\0\0\0").u32(20, 0xdead_beef);
        h.to_bytes()
    }

    #[test]
    fn fields_are_little_endian_at_their_offsets() {
        let f = file();
        assert_eq!(&f[..8], b"DALKONDB");
        assert_eq!(&f[8..12], &[3, 0, 0, 0]);
        assert_eq!(&f[20..24], &[0xef, 0xbe, 0xad, 0xde]);
        assert_eq!(u32_at(&f, 20), 0xdead_beef);
        let mut h = Header::<16>::new(*b"ABCDEFGH", 1);
        h.f64(8, 0.5);
        assert_eq!(f64_at(&h.to_bytes(), 8), 0.5);
        h.u64(8, 1 << 40);
        assert_eq!(u64_at(&h.to_bytes(), 8), 1 << 40);
    }

    #[test]
    fn the_prefix_is_checked_in_order() {
        let f = file();
        assert_eq!(P.check(&f), Ok(()));
        assert_eq!(P.check(&f[..23]), Err(PrefixError::Short { len: 23 }));
        let mut bad = f;
        bad[0] = b'X';
        assert_eq!(P.check(&bad), Err(PrefixError::Magic));
        let mut bad = f;
        bad[8] = 2;
        assert_eq!(P.check(&bad), Err(PrefixError::Version { found: 2 }));
        let mut bad = f;
        bad[12..20].copy_from_slice(b"daldos\0\0");
        assert_eq!(
            P.check(&bad),
            Err(PrefixError::Game {
                found: "daldos".into()
            })
        );
        let no_game = Prefix { game: None, ..P };
        assert_eq!(no_game.check(&bad), Ok(()));
    }
}
