//! Read-only mapping of a data file into memory: the workspace's one
//! `unsafe` block (the lint denies it everywhere else).
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

/// Map `path` read-only. `path` must be a file written with
/// [`crate::atomic`] and never modified in place (see the module doc).
#[allow(unsafe_code)]
pub fn map_read_only(path: &Path) -> io::Result<Mmap> {
    let file = File::open(path)?;
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
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
