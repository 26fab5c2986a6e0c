//! End-to-end tests of the `dalkon` binary against the command-line
//! contract (docs/cli.md): JSON field names, exit codes, and results that
//! do not depend on the thread count.

mod agree;
mod analyse;
mod dakon;
mod dakondb;
mod daldos;
mod daldos_best;
mod daldos_game;
mod data_dir;
mod docs;
mod errors;
mod game;
mod labels;
mod multipv;
mod perfect;
mod records;
mod reproduce;
mod show;
mod solved;
mod streams;
mod verify;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

/// A folder under the system's temporary folder, unique to this process
/// and call, removed when dropped (also when the test fails).
#[derive(Debug)]
pub struct Scratch(PathBuf);

impl Scratch {
    /// A new name; the folder itself is created by whoever writes there.
    pub fn new(tag: &str) -> Scratch {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        Scratch(std::env::temp_dir().join(format!("dalkon-cli-{tag}-{}-{n}", std::process::id())))
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn str(&self) -> &str {
        self.0.to_str().expect("a UTF-8 temporary path")
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Run `dalkon` with `args` (and optional stdin).
pub fn run(args: &[&str], stdin: Option<&str>) -> Output {
    // Databases built by `dakon solve` go to a scratch folder, not the tree,
    // removed when the command is done.
    let db_dir = Scratch::new("db");
    let mut child = Command::new(env!("CARGO_BIN_EXE_dalkon"))
        .args(args)
        .env("DALKON_DB_DIR", db_dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("dalkon runs");
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    } else {
        drop(child.stdin.take());
    }
    child.wait_with_output().unwrap()
}

/// Run a command that must succeed and print one JSON document.
pub fn json(args: &[&str]) -> Value {
    let out = run(args, None);
    assert!(
        out.status.success(),
        "dalkon {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "dalkon {args:?}: not JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

/// The same JSON without the fields that measure time.
pub fn without_timing(mut v: Value) -> Value {
    if let Some(map) = v.as_object_mut() {
        map.remove("seconds");
    }
    v
}

/// The same JSON without `db_dir`: each run of [`run`] has its own scratch
/// folder, so answers compare without it.
pub fn without_folder(mut v: Value) -> Value {
    if let Some(map) = v.as_object_mut() {
        map.remove("db_dir");
    }
    v
}

/// Assert that `v` is an object with all of `fields`.
pub fn has_fields(v: &Value, fields: &[&str]) {
    for f in fields {
        assert!(v.get(f).is_some(), "missing field {f:?} in {v}");
    }
}
