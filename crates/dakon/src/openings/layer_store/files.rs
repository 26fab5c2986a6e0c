//! The files of the working folder: their names, writing them, and
//! reading them back checked against the checkpoint's record (header,
//! length, checksum), with the errors that name the file at fault.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use dalkon_store::atomic;
use dalkon_store::checksum::Fnv1a64;
use dalkon_store::header::{self as store_header, u64_at};
use dalkon_store::FileError;

use super::checkpoint::{Checkpoint, FileRecord};
use super::format::{header, Header, Kind, CHECKSUM_AT, HEADER_LEN};
use super::{LayerStore, STATE};

use crate::openings::{OpeningsError, Pass};

/// The name of pending layer `layer`'s file saved by the forward
/// checkpoint after layer `checkpoint`.
pub(super) fn pending_name(layer: usize, checkpoint: u32) -> String {
    format!("pending-{layer:03}-after-{checkpoint:03}.bin")
}

/// `(layer, checkpoint)` of a pending file's name.
pub(super) fn parse_pending_name(name: &str) -> Option<(u32, u32)> {
    let (l, c) = name
        .strip_prefix("pending-")?
        .strip_suffix(".bin")?
        .split_once("-after-")?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(l) && digits(c)).then(|| Some((l.parse().ok()?, c.parse().ok()?)))?
}

impl LayerStore {
    /// Every file `cp` relies on is there, complete, and its header is
    /// the one recorded (count, checksum, checkpoint); and no pending file
    /// of this checkpoint is left out of it.
    pub(super) fn check_files(&self, cp: &Checkpoint) -> Result<(), OpeningsError> {
        for r in &cp.finished {
            self.check_header(Kind::Finished, r, 0)?;
        }
        for r in &cp.pending {
            self.check_header(Kind::Pending, r, cp.layer)?;
        }
        for r in &cp.winners {
            self.check_header(Kind::Winners, r, 0)?;
        }
        if cp.pass == Pass::Forward {
            let dir = self.dir.as_ref().expect("a working folder");
            let entries = std::fs::read_dir(dir).map_err(|e| Self::io(dir, e))?;
            for entry in entries {
                let entry = entry.map_err(|e| Self::io(dir, e))?;
                let name = entry.file_name();
                let Some((l, c)) = name.to_str().and_then(parse_pending_name) else {
                    continue;
                };
                if c == cp.layer && !cp.pending.iter().any(|r| r.layer == l) {
                    return Err(self.corrupt(
                        &dir.join(STATE),
                        format!(
                            "{} belongs to this checkpoint but is not listed in its pending \
                             layers",
                            entry.path().display()
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The header of the file recorded by `r` against the record, and
    /// the file's length against its header.
    pub(super) fn check_header(
        &self,
        kind: Kind,
        r: &FileRecord,
        checkpoint: u32,
    ) -> Result<(), OpeningsError> {
        let path = self.path(kind, r.layer as usize, checkpoint);
        let mut head = [0u8; HEADER_LEN];
        let len = File::open(&path)
            .and_then(|mut f| {
                f.read_exact(&mut head)?;
                Ok(f.metadata()?.len())
            })
            .map_err(|e| self.read_error(&path, e))?;
        let h = Header {
            tag: self.tag,
            layer: r.layer,
            count: r.count,
            kind,
            checkpoint,
        };
        // All but the payload length, which the record does not hold; the
        // length is then checked against the file's size.
        let want = header(&h, &[]);
        let payload_len = u64_at(&head, 40);
        let want = store_header::Header::<HEADER_LEN>::from_bytes(want)
            .u64(40, payload_len)
            .u64(CHECKSUM_AT, r.hash)
            .to_bytes();
        if head != want || Some(len) != payload_len.checked_add(HEADER_LEN as u64) {
            return Err(self.corrupt(
                &path,
                "its header, length or checksum is not the one the checkpoint recorded",
            ));
        }
        Ok(())
    }

    pub(super) fn path(&self, kind: Kind, layer: usize, checkpoint: u32) -> PathBuf {
        let dir = self.dir.as_ref().expect("a working folder");
        match kind {
            Kind::Pending => dir.join(pending_name(layer, checkpoint)),
            _ => dir.join(format!("{}-{layer:03}.bin", kind.prefix())),
        }
    }

    pub(super) fn io(path: &Path, source: std::io::Error) -> OpeningsError {
        FileError::io(path)(source).into()
    }

    /// A file the checkpoint relies on cannot be read (missing, cut short,
    /// a folder in its place, unreadable): damage that another run would
    /// meet again.
    pub(super) fn read_error(&self, path: &Path, e: std::io::Error) -> OpeningsError {
        match e.kind() {
            std::io::ErrorKind::NotFound => {
                self.corrupt(path, "the checkpoint needs this file, which is missing")
            }
            std::io::ErrorKind::UnexpectedEof => self.corrupt(path, "shorter than its header"),
            // Not a write that a full disk stopped: reading the same file
            // again fails the same way, so this is no checkpoint to resume.
            _ => self.corrupt(path, format!("cannot be read ({e})")),
        }
    }

    /// The error for `path`, a file of the working folder that cannot be
    /// used.
    pub(super) fn corrupt(&self, path: &Path, why: impl Into<String>) -> OpeningsError {
        OpeningsError::CorruptLayer {
            dir: self.dir.clone().expect("a working folder"),
            path: path.to_path_buf(),
            why: why.into(),
        }
    }

    /// The error for the checkpoint's `state` (it passed its own checks
    /// but does not fit the board).
    pub(crate) fn corrupt_state(&self, why: impl Into<String>) -> OpeningsError {
        let dir = self.dir.clone().expect("a working folder");
        OpeningsError::CorruptLayer {
            path: dir.join(STATE),
            dir,
            why: why.into(),
        }
    }

    /// The error for encoded positions of layer `layer` (of `kind`,
    /// pending after `checkpoint`) that do not decode: damage of its file
    /// when it came from one, else [`OpeningsError::Undecodable`].
    pub(crate) fn undecodable(
        &self,
        kind: Kind,
        layer: usize,
        checkpoint: u32,
        from_file: bool,
        what: &'static str,
    ) -> OpeningsError {
        if from_file && self.dir.is_some() {
            return self.corrupt(&self.path(kind, layer, checkpoint), what);
        }
        OpeningsError::Undecodable {
            layer: layer as u32,
            what,
        }
    }

    pub(super) fn ensure_dir(&mut self) -> Result<PathBuf, OpeningsError> {
        let dir = self.dir.clone().expect("a working folder");
        if !dir.exists() {
            std::fs::create_dir_all(&dir).map_err(|e| Self::io(&dir, e))?;
            self.created = true;
        }
        Ok(dir)
    }

    /// Write a file; returns its record.
    pub(super) fn write_file(
        &mut self,
        kind: Kind,
        layer: usize,
        count: u64,
        checkpoint: u32,
        payload: &[u8],
    ) -> Result<FileRecord, OpeningsError> {
        self.ensure_dir()?;
        let path = self.path(kind, layer, checkpoint);
        let h = Header {
            tag: self.tag,
            layer: layer as u32,
            count,
            kind,
            checkpoint,
        };
        let head = header(&h, payload);
        atomic::write_parts(&path, &[&head, payload]).map_err(|e| Self::io(&path, e))?;
        self.disk_bytes += (HEADER_LEN + payload.len()) as u64;
        Ok(FileRecord {
            layer: layer as u32,
            count,
            hash: u64_at(&head, CHECKSUM_AT),
        })
    }

    /// Read the file of record `r` and check it against the record.
    pub(super) fn read_file(
        &self,
        kind: Kind,
        r: &FileRecord,
        checkpoint: u32,
    ) -> Result<Vec<u8>, OpeningsError> {
        let path = self.path(kind, r.layer as usize, checkpoint);
        let mut bytes = Vec::new();
        File::open(&path)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .map_err(|e| self.read_error(&path, e))?;
        if bytes.len() < HEADER_LEN {
            return Err(self.corrupt(&path, "shorter than its header"));
        }
        let payload = bytes.split_off(HEADER_LEN);
        let h = Header {
            tag: self.tag,
            layer: r.layer,
            count: r.count,
            kind,
            checkpoint,
        };
        let hash = Fnv1a64::new().update(&payload).value();
        if hash != r.hash || bytes[..] != header(&h, &payload)[..] {
            return Err(self.corrupt(
                &path,
                "header or checksum does not match this count (truncated, changed, stale or foreign)",
            ));
        }
        Ok(payload)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::layer_store::format::LayerTag;
    use crate::openings::layer_store::testing::{meter, tag};

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
        assert_eq!(store.take(2, &mut meter).unwrap(), (vec![1, 2, 3], true));

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
    fn a_file_in_place_of_the_working_folder_is_refused_by_name() {
        let file = std::env::temp_dir().join(format!("dalkon-layer-notdir-{}", std::process::id()));
        std::fs::write(&file, b"x").unwrap();
        let err = LayerStore::open(tag(), 19, Some(file.clone()), 0).unwrap_err();
        assert!(matches!(err, OpeningsError::NotAFolder { .. }), "{err}");
        assert_eq!(
            err.to_string(),
            format!(
                "{} is not a folder: name a folder for the count's checkpoints (it is created \
                 if missing)",
                file.display()
            )
        );
        assert!(err.is_bad_input());
        std::fs::remove_file(&file).unwrap();
    }

    /// The bytes of a pending layer's file as docs/formats.md and this
    /// module's table lay them out (written out by hand, not by this
    /// code): files of format 2 written by earlier builds must still be
    /// written the same and read back.
    #[test]
    fn a_file_of_format_2_is_written_and_read_byte_for_byte() {
        let golden = "444b4f50454e4c5902000000030000000000000012000000040000000500000002000000\
                      000000000300000000000000c1b99a6a18ad96d70100000007000000008101";
        let tag = LayerTag {
            opp_store: 4,
            ..tag()
        };
        let payload = [0u8, 0x81, 0x01];
        let h = Header {
            tag,
            layer: 5,
            count: 2,
            kind: Kind::Pending,
            checkpoint: 7,
        };
        let mut file = header(&h, &payload).to_vec();
        file.extend_from_slice(&payload);
        let hex: String = file.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex, golden);

        let dir = std::env::temp_dir().join(format!("dalkon-layer-golden-{}", std::process::id()));
        let (store, _) = LayerStore::open(tag, 19, Some(dir.clone()), 0).unwrap();
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(pending_name(5, 7)), &file).unwrap();
        let record = FileRecord {
            layer: 5,
            count: 2,
            hash: 0xd796_ad18_6a9a_b9c1,
        };
        assert_eq!(store.read_file(Kind::Pending, &record, 7).unwrap(), payload);
        store.check_header(Kind::Pending, &record, 7).unwrap();
        drop(store);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
