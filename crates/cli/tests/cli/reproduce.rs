//! `dalkon reproduce` against the committed `data/` (CLI.md, "Data files
//! written by `reproduce`"): the same bytes, files written atomically, and
//! earlier `--full` rows kept by key.
//!
//! Each test writes only under its own scratch folder in the system's
//! temporary folder, removed at the end (also when the test fails).

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::run;

/// A scratch folder, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let path =
            std::env::temp_dir().join(format!("dalkon-reproduce-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        Scratch(path)
    }

    fn out(&self) -> PathBuf {
        self.0.join("data")
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The committed `data/<game>` folder.
fn committed(game: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data")
        .join(game)
}

/// The files under `dir`, by path relative to it, subfolders included
/// (not the git-ignored `proofs-large/`, which only `--full` fills).
fn file_names(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, sub: &str, names: &mut Vec<String>) {
        for e in std::fs::read_dir(root.join(sub)).unwrap() {
            let e = e.unwrap();
            let name = format!("{sub}{}", e.file_name().to_string_lossy());
            if e.file_type().unwrap().is_dir() {
                if name != "proofs-large" {
                    walk(root, &format!("{name}/"), names);
                }
            } else {
                names.push(name);
            }
        }
    }
    let mut names = Vec::new();
    walk(dir, "", &mut names);
    names.sort();
    names
}

/// Every file of `want` is in `got` with the same bytes, and `got` holds
/// nothing else (no temporary left behind).
fn assert_same_files(want: &Path, got: &Path) {
    assert_eq!(
        file_names(got),
        file_names(want),
        "files in {}",
        got.display()
    );
    for name in file_names(want) {
        let (w, g) = (
            std::fs::read(want.join(&name)).unwrap(),
            std::fs::read(got.join(&name)).unwrap(),
        );
        if w != g && name.ends_with(".gz") {
            panic!("{name} differs from the committed file");
        }
        if w != g {
            let (w, g) = (String::from_utf8_lossy(&w), String::from_utf8_lossy(&g));
            let line = w
                .lines()
                .zip(g.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(w.lines().count().min(g.lines().count()));
            panic!(
                "{name} differs from the committed file at line {}:\n  committed: {:?}\n  written:   {:?}",
                line + 1,
                w.lines().nth(line),
                g.lines().nth(line)
            );
        }
    }
}

/// Run `dalkon reproduce …`, which must succeed; its standard output and
/// standard error (a pipe, not a terminal: one line per step).
fn reproduce(args: &[&str]) -> (Vec<u8>, String) {
    let t0 = Instant::now();
    let out = run(args, None);
    assert!(
        out.status.success(),
        "dalkon {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    eprintln!("dalkon {args:?}: {:.1} s", t0.elapsed().as_secs_f64());
    (out.stdout, String::from_utf8(out.stderr).unwrap())
}

/// The Daldøs part, capture tables and the default matches, into a
/// fresh folder, with one thread: the committed bytes. The folder starts
/// with a `matches.json` holding only the `--full`-only matches, which the
/// default run must keep (and the others be played, not copied), and the
/// `--full`-only result files, which it must leave untouched. With
/// `--format json` the summary is one JSON document.
#[test]
fn the_daldos_part_writes_the_committed_bytes() {
    let scratch = Scratch::new("daldos");
    let dir = scratch.out().join("daldos");
    std::fs::create_dir_all(&dir).unwrap();
    let matches: serde_json::Value =
        serde_json::from_slice(&std::fs::read(committed("daldos").join("matches.json")).unwrap())
            .unwrap();
    // The `--full`-only matches of the committed file.
    let full_only = [
        "engine3_vs_greedy",
        "hand3_vs_greedy",
        "engine3_vs_hand3",
        "engine3_vs_hand3_norwegian",
    ];
    let kept: serde_json::Map<String, serde_json::Value> = full_only
        .iter()
        .filter_map(|&k| Some((k.to_owned(), matches.get(k)?.clone())))
        .collect();
    assert!(
        !kept.is_empty(),
        "the committed matches.json has no --full match"
    );
    let kept = serde_json::Value::Object(kept);
    std::fs::write(dir.join("matches.json"), kept.to_string()).unwrap();
    // Files only `--full` writes (`solved_full.*`, `engine_vs_perfect_full.*`):
    // the default run must leave them as they are.
    for name in file_names(&committed("daldos")) {
        if name.contains("_full.") {
            std::fs::copy(committed("daldos").join(&name), dir.join(&name)).unwrap();
        }
    }
    let out = scratch.out();
    let (summary, progress) = reproduce(&[
        "--threads",
        "1",
        "reproduce",
        "--only",
        "daldos",
        "--out",
        out.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_same_files(&committed("daldos"), &dir);
    // Standard error is a pipe: one line as each step starts (a run of
    // minutes is not silent in a log or CI).
    assert_eq!(
        progress,
        "reproduce: daldos capture tables (1/4) …\n\
         reproduce: daldos matches (2/4) …\n\
         reproduce: daldos exact values (solved tables) (3/4) …\n\
         reproduce: daldos engine against perfect play (4/4) …\n"
    );
    let summary: serde_json::Value = serde_json::from_slice(&summary).unwrap();
    assert_eq!(summary["out"], out.to_str().unwrap());
    assert_eq!(summary["only"], "daldos");
    assert_eq!(summary["full"], false);
    assert!(summary["seconds"].as_f64().is_some(), "{summary}");
    assert!(summary["log"].as_str().unwrap().ends_with("reproduce.log"));
    let lines = summary["summary"].as_array().unwrap();
    assert!(
        lines
            .iter()
            .any(|l| l.as_str().unwrap().starts_with("daldos: capture tables")),
        "{summary}"
    );
    let log = std::fs::read_to_string(scratch.0.join("reproduce.log")).unwrap();
    assert!(log.contains("daldos match engine2_vs_random"), "{log}");
}

/// The default Dakon run into a folder holding the committed openings
/// files, the proofs manifest (one row of a proof the run makes spoiled)
/// and the proof files only `--full` writes: it solves every board,
/// proves all but those, keeps the `--full` rows, and writes every
/// committed file, Markdown and proofs included, byte for byte.
#[test]
fn the_dakon_default_run_writes_the_committed_bytes() {
    let scratch = Scratch::new("dakon");
    let dir = scratch.out().join("dakon");
    let committed = committed("dakon");
    let manifest = std::fs::read_to_string(committed.join("proofs/manifest.csv")).unwrap();
    let mut full_only = Vec::new();
    for line in manifest.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let (path, is_committed, by) = (f[10], f[11], f[12]);
        if is_committed == "true" && by == "reproduce --full" {
            full_only.push(path.to_owned());
        }
    }
    assert!(!full_only.is_empty());
    for name in file_names(&committed) {
        if name.starts_with("openings") && name.ends_with(".csv") || full_only.contains(&name) {
            let to = dir.join(&name);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(committed.join(&name), to).unwrap();
        }
    }
    let right = "7,7,sow,on,keep,0,98,40,";
    assert!(manifest.contains(&format!("\n{right}")), "{right}");
    std::fs::write(
        dir.join("proofs/manifest.csv"),
        manifest.replace(right, "7,7,sow,on,keep,0,98,41,"),
    )
    .unwrap();
    let out = scratch.out();
    let (summary, progress) = reproduce(&[
        "--threads",
        "2",
        "reproduce",
        "--only",
        "dakon",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_same_files(&committed, &dir);
    assert_eq!(
        progress,
        "reproduce: dakon boards solved (1/4) …\n\
         reproduce: dakon proofs (2/4) …\n\
         reproduce: dakon openings (3/4) …\n\
         reproduce: dakon files (4/4) …\n"
    );
    // The summary names what the run wrote: a default run writes no large
    // proofs, so it does not name their untracked folder.
    let summary = String::from_utf8(summary).unwrap();
    let dakon = summary.lines().find(|l| l.starts_with("dakon: ")).unwrap();
    assert!(!summary.contains("proofs-large"), "{summary}");
    assert!(dakon.contains(" proof files ("), "{dakon}");
    assert!(
        summary
            .lines()
            .last()
            .unwrap()
            .starts_with("data regenerated under "),
        "{summary}"
    );
    let log = std::fs::read_to_string(scratch.0.join("reproduce.log")).unwrap();
    assert!(log.contains("dakon value 9x9"), "{log}");
    assert!(log.contains("dakon proof 7x7 origin=sow"), "{log}");
}

/// A write that fails leaves the old file intact: the temporary name of
/// `capture_tables.csv` is taken by a folder before `dalkon` starts (a
/// shell makes it with its own process id, then `exec`s `dalkon`, which
/// keeps that id).
#[cfg(unix)]
#[test]
fn a_failed_write_keeps_the_old_file() {
    let scratch = Scratch::new("atomic");
    let out = scratch.out();
    let dir = out.join("daldos");
    std::fs::create_dir_all(&dir).unwrap();
    let target = dir.join("capture_tables.csv");
    std::fs::write(&target, "old content\n").unwrap();
    let status = std::process::Command::new("sh")
        .args([
            "-c",
            "mkdir \"$2/capture_tables.csv.$$.tmp\" && exec \"$0\" reproduce --only daldos --out \"$1\"",
            env!("CARGO_BIN_EXE_dalkon"),
        ])
        .arg(&out)
        .arg(&dir)
        .env("DALKON_DB_DIR", scratch.0.join("db"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&status.stderr);
    assert_eq!(status.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("capture_tables.csv"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "old content\n");
}

/// A malformed row in an earlier CSV file stops the run before any work,
/// naming the file, line and column; nothing is written.
#[test]
fn a_malformed_row_stops_the_run() {
    let scratch = Scratch::new("malformed");
    let out = scratch.out();
    let dir = out.join("dakon");
    std::fs::create_dir_all(dir.join("proofs")).unwrap();
    let text = "holes,seeds,origin,mikul,nembak,player,guarantees,lines,bytes,sha256,path,committed,regenerated_by\n\
                5,9,sow,on,keep,0,minus sixty,1,1,,proofs-large/5x9-sow-on-keep/mover.strategy.gz,false,reproduce --full\n";
    std::fs::write(dir.join("proofs/manifest.csv"), text).unwrap();
    let r = run(
        &[
            "reproduce",
            "--only",
            "dakon",
            "--out",
            out.to_str().unwrap(),
        ],
        None,
    );
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("manifest.csv: line 2, column 7 (guarantees): cannot read \"minus sixty\""),
        "{stderr}"
    );
    assert_eq!(file_names(&dir), ["proofs/manifest.csv"]);
    assert_eq!(
        std::fs::read_to_string(dir.join("proofs/manifest.csv")).unwrap(),
        text
    );
}
