//! Damaged Dakon databases and openings checkpoints, end to end (issue 24,
//! items 2, 3, 4 and 13): one line on stderr, exit code 1 for a damaged
//! file, 2 for a bad option, never a wrong answer with exit code 0.

use std::path::Path;

use dalkon_dakon::openings::{openings, OpeningLimits, OpeningsError};
use dalkon_rules::dakon::{Position, Rules};
use dalkon_store::checksum::fnv1a64;

use super::{run, Scratch};

/// `dalkon args` fails with exit code `code` and exactly the line `line`.
fn fails(args: &[&str], code: i32, line: &str) {
    let out = run(args, None);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "dalkon {args:?}: {err}");
    assert_eq!(err, format!("{line}\n"), "dalkon {args:?}");
    assert!(out.stdout.is_empty(), "dalkon {args:?} printed to stdout");
}

/// Set entry `index` of a level file and reseal its checksum as
/// docs/formats.md §1.3 says: FNV-1a 64 of the payload, then of header
/// bytes 0..44 and 52..64, at offset 44.
fn forge_level(path: &Path, index: usize, value: u8) {
    let mut raw = std::fs::read(path).unwrap();
    raw[64 + index] = value;
    let mut covered = raw[64..].to_vec();
    covered.extend_from_slice(&raw[..44]);
    covered.extend_from_slice(&raw[52..64]);
    let h = fnv1a64(&covered);
    raw[44..52].copy_from_slice(&h.to_le_bytes());
    std::fs::write(path, raw).unwrap();
}

#[test]
fn a_resealed_impossible_database_value_is_refused() {
    let db = Scratch::new("db-forged");
    let args = [
        "dakon",
        "solve",
        "--holes",
        "3",
        "--seeds",
        "3",
        "--method",
        "retrograde",
        "--db-dir",
        db.str(),
        "--format",
        "json",
    ];
    let out = run(&args, None);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["value"].as_i64(), v["best_moves"].to_string().as_str()),
        (Some(10), "[1]")
    );
    let level = db.path().join("dakon-n3-r0-k018.db");
    forge_level(&level, 20466, 100);
    fails(
        &args,
        1,
        &format!(
            "error: retrograde solve failed: {}: entry 20466 is 100, but no margin exceeds the \
             18 seeds on the board: the file is damaged or forged; delete it to rebuild",
            level.display()
        ),
    );
}

#[test]
fn probe_seeds_out_of_range_are_refused_whatever_the_method() {
    for method in ["auto", "retrograde", "search"] {
        fails(
            &[
                "dakon",
                "solve",
                "--holes",
                "3",
                "--seeds",
                "3",
                "--method",
                method,
                "--probe-seeds",
                "256",
            ],
            2,
            "error: --probe-seeds 256 must be between 0 and 127 (a database entry is one signed \
             byte, so a level holds at most 127 seeds on the board)",
        );
    }
    fails(
        &[
            "dakon",
            "solve",
            "--holes",
            "3",
            "--seeds",
            "3",
            "--probe-seeds",
            "128",
        ],
        2,
        "error: --probe-seeds 128 must be between 0 and 127 (a database entry is one signed \
         byte, so a level holds at most 127 seeds on the board)",
    );
}

/// A checkpoint of `dakon openings --holes 5 --seeds 6` in `dir`, made by
/// the library (a checkpoint after every layer, stopped after the 10th, as
/// an interruption would).
fn checkpoint(dir: &Path) {
    let limits = OpeningLimits {
        work_dir: Some(dir.to_path_buf()),
        checkpoint_every: Some(std::time::Duration::ZERO),
        stop_after_checkpoints: Some(10),
        ..OpeningLimits::default()
    };
    let r = openings(&Position::start(5, 6).unwrap(), &Rules::default(), &limits);
    assert!(matches!(r, Err(OpeningsError::Stopped(10))), "{r:?}");
}

fn openings_args(dir: &Scratch) -> Vec<&str> {
    vec![
        "dakon",
        "openings",
        "--holes",
        "5",
        "--seeds",
        "6",
        "--checkpoint-minutes",
        "0",
        "--work-dir",
        dir.str(),
        "--format",
        "json",
    ]
}

fn damaged(dir: &Scratch, file: &str, why: &str) -> String {
    format!(
        "error: {}: {why}; the count cannot resume from {}: delete that folder to start the \
         count over",
        dir.path().join(file).display(),
        dir.str()
    )
}

fn reseal_state(text: &str) -> String {
    let body = &text[..text.rfind("checksum ").unwrap()];
    format!("{body}checksum {:016x}\n", fnv1a64(body.as_bytes()))
}

#[test]
fn damaged_openings_checkpoints_are_refused_with_exit_1() {
    let w = Scratch::new("openings-cp");
    checkpoint(w.path());
    let state = w.path().join("state");
    let good = std::fs::read_to_string(&state).unwrap();
    let replace = |from: &str, to: &str| {
        let line = good.lines().find(|l| l.starts_with(from)).unwrap();
        good.replace(line, to)
    };
    let args = openings_args(&w);

    // A bare `pending` line, as edited and resealed.
    std::fs::write(&state, replace("pending ", "pending")).unwrap();
    fails(
        &args,
        1,
        &damaged(
            &w,
            "state",
            "its checksum does not match its text (the file was edited or damaged)",
        ),
    );
    for layer in ["999", "85"] {
        std::fs::write(
            &state,
            reseal_state(&replace("layer ", &format!("layer {layer}"))),
        )
        .unwrap();
        fails(
            &args,
            1,
            &damaged(
                &w,
                "state",
                &format!(
                    "layer {layer} is out of range: a forward checkpoint of this count has a \
                     layer from 0 to 60"
                ),
            ),
        );
    }
    std::fs::write(&state, &good).unwrap();

    // A layer's payload changed and its own checksum resealed.
    let layer = w.path().join("layer-005.bin");
    let kept = std::fs::read(&layer).unwrap();
    let mut forged = kept.clone();
    forged[64] ^= 1;
    let h = fnv1a64(&forged[64..]);
    forged[48..56].copy_from_slice(&h.to_le_bytes());
    std::fs::write(&layer, &forged).unwrap();
    fails(
        &args,
        1,
        &damaged(
            &w,
            "layer-005.bin",
            "its header, length or checksum is not the one the checkpoint recorded",
        ),
    );

    // Put back, the checkpoint resumes to the whole count's answer.
    std::fs::write(&layer, &kept).unwrap();
    let out = run(&args, None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["winning_chains"], 148);
    assert!(!w.path().exists(), "a complete count removes its folder");
}
