//! Atomic file writes: a file under its final name is always complete.
//!
//! The bytes go to a temporary file in the same folder (so the rename never
//! crosses file systems), named `<name>.<pid>.tmp` so that two processes
//! writing the same file never share a temporary; the file is flushed to
//! disk, renamed over the final name, and the folder is synced so the rename
//! itself survives a crash. A failure at any step removes the temporary and
//! leaves the old file, if any, untouched.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The temporary name used while `path` is written by this process.
pub fn temp_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{}.tmp", std::process::id()));
    path.with_file_name(name)
}

/// Write `parts`, one after the other, as the whole content of `path`.
pub fn write_parts(path: &Path, parts: &[&[u8]]) -> io::Result<()> {
    let tmp = temp_path(path);
    let result = (|| {
        let mut f = File::create(&tmp)?;
        for p in parts {
            f.write_all(p)?;
        }
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        sync_parent(path);
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Write `bytes` as the whole content of `path`.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_parts(path, &[bytes])
}

/// Flush the folder holding `path` so that a rename into it is durable.
/// Best effort: some file systems refuse to open or sync a folder, and the
/// data itself is already on disk by then.
fn sync_parent(path: &Path) {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if let Ok(dir) = File::open(parent) {
        let _ = dir.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_replace_the_whole_file_and_leave_no_temporary() {
        let dir = std::env::temp_dir().join(format!("dalkon-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("f.txt");
        write(&path, b"first, longer content").unwrap();
        write_parts(&path, &[b"sec", b"ond"]).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        assert!(!temp_path(&path).exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_write_keeps_the_old_file() {
        let dir = std::env::temp_dir().join(format!("dalkon-atomic-fail-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("f.txt");
        write(&path, b"old").unwrap();
        // The temporary's name is taken by a folder: creating it fails.
        std::fs::create_dir(temp_path(&path)).unwrap();
        assert!(write(&path, b"new").is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
