//! Atomic file writes: a file under its final name is always complete.
//!
//! The bytes go to a temporary file in the same folder (so the rename never
//! crosses file systems), named `<name>.<pid>.tmp` so that two processes
//! writing the same file never share a temporary; the file is flushed to
//! disk, renamed over the final name, and the folder is synced so the rename
//! itself survives a crash. A failure at any step removes the temporary and
//! leaves the old file, if any, untouched.
//!
//! Temporaries being written are listed, so that a process stopped by a
//! signal can remove them on its way out ([`remove_live_temporaries`]); one
//! killed outright leaves its temporary behind for [`remove_stale`] to
//! find on the next run.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Temporaries this process is writing now.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn live() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    // A panic while the lock was held leaves the list itself intact.
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Remove every temporary this process is writing (for a signal handler:
/// the writes in flight are abandoned, the files under their final names
/// stay as they were). Returns how many were removed.
pub fn remove_live_temporaries() -> usize {
    remove_listed(&mut live())
}

/// Remove the files of `list` and empty it; how many were removed.
fn remove_listed(list: &mut Vec<PathBuf>) -> usize {
    list.drain(..)
        .filter(|p| std::fs::remove_file(p).is_ok())
        .count()
}

/// The temporary name used while `path` is written by this process.
pub fn temp_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{}.tmp", std::process::id()));
    path.with_file_name(name)
}

/// Write `parts`, one after the other, as the whole content of `path`.
pub fn write_parts(path: &Path, parts: &[&[u8]]) -> io::Result<()> {
    write_with(path, |w| {
        for p in parts {
            w.write_all(p)?;
        }
        Ok(())
    })
}

/// Write whatever `fill` writes as the whole content of `path` (buffered),
/// for contents too large to hold twice in memory.
pub fn write_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let tmp = temp_path(path);
    live().push(tmp.clone());
    let result = (|| {
        let mut w = io::BufWriter::with_capacity(1 << 20, File::create(&tmp)?);
        fill(&mut w)?;
        let f = w.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        sync_parent(path);
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    live().retain(|p| p != &tmp);
    result
}

/// Write `bytes` as the whole content of `path`.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_parts(path, &[bytes])
}

/// Remove the temporaries in `dir` that a process no longer running left
/// behind (killed mid-write, or stopped by a full disk), for final names
/// that `ours` accepts. A temporary of a live process (this one included)
/// is kept: that process may still rename it. Liveness is read from
/// `/proc/<pid>`; where there is no `/proc`, every writer is taken for
/// gone. Returns how many files were removed.
pub fn remove_stale(dir: &Path, ours: impl Fn(&str) -> bool) -> io::Result<usize> {
    let mut removed = 0;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some((target, pid)) = name.to_str().and_then(split_temp_name) else {
            continue;
        };
        if ours(target) && !is_running(pid) {
            std::fs::remove_file(entry.path())?;
            removed += 1;
        }
    }
    Ok(removed)
}

/// Whether the process `pid` may still be running (this one is): read from
/// `/proc/<pid>`; where there is no `/proc`, only this process is taken
/// for running.
pub fn is_running(pid: u32) -> bool {
    pid == std::process::id() || {
        let proc = Path::new("/proc");
        proc.is_dir() && proc.join(pid.to_string()).exists()
    }
}

/// `<name>.<pid>.tmp` (the naming of [`temp_path`]) as `(name, pid)`.
fn split_temp_name(file_name: &str) -> Option<(&str, u32)> {
    let (name, pid) = file_name.strip_suffix(".tmp")?.rsplit_once('.')?;
    let pid_is_digits = !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit());
    Some((name, pid.parse().ok().filter(|_| pid_is_digits)?))
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
    fn live_temporaries_are_listed_while_written_and_removed_on_request() {
        let dir = std::env::temp_dir().join(format!("dalkon-atomic-live-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("f.db");
        // A write in flight: its temporary exists and is listed. (A list
        // of the test's own: emptying the process's would abandon the
        // writes of tests running beside this one.)
        let tmp = temp_path(&path);
        std::fs::write(&tmp, b"half").unwrap();
        let mut list = vec![tmp.clone(), dir.join("gone.tmp")];
        assert_eq!(remove_listed(&mut list), 1);
        assert!(list.is_empty() && !tmp.exists());
        // A finished write leaves nothing listed for it.
        write(&path, b"whole").unwrap();
        assert!(!live().contains(&temp_path(&path)));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn writes_replace_the_whole_file_and_leave_no_temporary() {
        let dir = std::env::temp_dir().join(format!("dalkon-atomic-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("f.txt");
        write(&path, b"first, longer content").unwrap();
        write_parts(&path, &[b"sec", b"ond"]).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        assert!(!temp_path(&path).exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn stale_temporaries_of_dead_writers_are_removed() {
        let dir = std::env::temp_dir().join(format!("dalkon-atomic-stale-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // No process has this id: Linux pids stop at 2^22.
        let dead = dir.join("a.db.999999999.tmp");
        let live = temp_path(&dir.join("a.db"));
        let not_ours = dir.join("b.db.999999999.tmp");
        let other = dir.join("a.db.x.tmp");
        for f in [&dead, &live, &not_ours, &other] {
            std::fs::write(f, b"partial").unwrap();
        }
        assert_eq!(
            remove_stale(&dir, |name| name.starts_with("a.")).unwrap(),
            1
        );
        assert!(!dead.exists());
        assert!(live.exists(), "this process may still rename it");
        assert!(not_ours.exists() && other.exists());
        assert_eq!(split_temp_name("a.db.12.tmp"), Some(("a.db", 12)));
        assert_eq!(split_temp_name("a.db.+12.tmp"), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_write_keeps_the_old_file() {
        let dir = std::env::temp_dir().join(format!("dalkon-atomic-fail-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
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
