//! Read-only mapping of a data file into memory: one of the workspace's
//! three `unsafe` places, with `cache` and `huge` (the lint denies it
//! everywhere else).
//!
//! A mapping is sound only while the file does not change under it, so this
//! is for files written with [`crate::atomic`] (a temporary name, renamed
//! into place) and never modified in place afterwards: a rebuild writes a
//! new file and renames it over the old name, which leaves a mapping of the
//! old inode intact.

use std::fs::File;
use std::io;
use std::path::Path;

use memmap2::Mmap;

/// A path that exists but is not a regular file: mapping a directory fails
/// with "No such device", and merely opening a FIFO blocks until something
/// writes to it, so neither is opened. Carried as the source of an
/// [`io::Error`] of kind [`io::ErrorKind::InvalidInput`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotARegularFile {
    /// What it is instead: `a directory`, `a FIFO (named pipe)`, ….
    pub kind: &'static str,
}

impl std::fmt::Display for NotARegularFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}, not a regular file", self.kind)
    }
}

impl std::error::Error for NotARegularFile {}

/// What a file type is, in words (for [`NotARegularFile`]).
fn kind(t: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    if t.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

/// `Err` with [`NotARegularFile`] unless `t` is a regular file.
fn regular(t: std::fs::FileType) -> io::Result<()> {
    if t.is_file() {
        Ok(())
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            NotARegularFile { kind: kind(t) },
        ))
    }
}

/// Map `path` read-only. `path` must be a file written with
/// [`crate::atomic`] and never modified in place (see the module doc).
/// Anything but a regular file (a FIFO, a directory, a device) is refused
/// before it is opened, with [`NotARegularFile`].
#[allow(unsafe_code)]
pub fn map_read_only(path: &Path) -> io::Result<Mmap> {
    regular(std::fs::metadata(path)?.file_type())?;
    let file = File::open(path)?;
    // Checked again on what was opened, in case the name changed between.
    regular(file.metadata()?.file_type())?;
    // SAFETY: a mapping is undefined behaviour only if the file changes while
    // mapped. These files are ours: they are written once to a temporary
    // name and renamed into place, never modified in place (a rebuild writes
    // a new file and renames it over the old name, which leaves an existing
    // mapping on the old inode intact). We open read-only and only read.
    unsafe { Mmap::map(&file) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_file_maps_to_its_bytes() {
        let dir = std::env::temp_dir().join(format!("dalkon-mapped-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("f.db");
        crate::atomic::write_parts(&path, &[b"head", b"payload"]).unwrap();
        let map = map_read_only(&path).unwrap();
        assert_eq!(&map[..], b"headpayload");
        // Rewriting renames a new file over the name: the old mapping
        // still reads the old bytes.
        crate::atomic::write(&path, b"other").unwrap();
        assert_eq!(&map[..], b"headpayload");
        assert_eq!(&map_read_only(&path).unwrap()[..], b"other");
        let missing = map_read_only(&dir.join("missing.db")).unwrap_err();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
        let folder = map_read_only(&dir).unwrap_err();
        assert_eq!(folder.kind(), io::ErrorKind::InvalidInput);
        assert_eq!(folder.to_string(), "a directory, not a regular file");
        #[cfg(unix)]
        {
            // Opening a FIFO would block until a writer comes: refused
            // before that.
            let fifo = dir.join("fifo.db");
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            if made.is_ok_and(|s| s.success()) {
                let e = map_read_only(&fifo).unwrap_err();
                assert_eq!(e.to_string(), "a FIFO (named pipe), not a regular file");
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
