//! End-to-end tests of the `dalkon` binary against the command-line
//! contract (shared/CLI.md): JSON field names, exit codes, and results that
//! do not depend on the thread count.

mod dakon;
mod daldos;
mod errors;
mod reproduce;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// Run `dalkon` with `args` (and optional stdin).
pub fn run(args: &[&str], stdin: Option<&str>) -> Output {
    // Databases built by `dakon solve` go to a scratch folder, not the tree.
    let db_dir = std::env::temp_dir().join(format!("dalkon-cli-tests-{}", std::process::id()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_dalkon"))
        .args(args)
        .env("DALKON_DB_DIR", db_dir)
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

/// Assert that `v` is an object with all of `fields`.
pub fn has_fields(v: &Value, fields: &[&str]) {
    for f in fields {
        assert!(v.get(f).is_some(), "missing field {f:?} in {v}");
    }
}
