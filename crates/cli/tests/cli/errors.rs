//! Bad input: one clear line on stderr, exit code 2, never a panic.

use super::run;

fn refused(args: &[&str], needle: &str) {
    let out = run(args, None);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "dalkon {args:?}: {err}");
    assert!(!err.contains("panicked"), "dalkon {args:?} panicked: {err}");
    assert!(
        err.contains(needle),
        "dalkon {args:?}: {err:?} does not mention {needle:?}"
    );
    assert!(out.stdout.is_empty(), "dalkon {args:?} printed to stdout");
}

#[test]
fn bad_positions_are_refused_with_a_reason() {
    refused(
        &["dakon", "best", "--position", "1,2/3/0,0 0"],
        "row 0 has 2 holes but row 1 has 1",
    );
    refused(
        &[
            "dakon",
            "play",
            "--position",
            "1,2/3,4/0,0 0",
            "--moves",
            "5",
        ],
        "no hole 5",
    );
    refused(
        &[
            "daldos",
            "moves",
            "--position",
            "AAAAAAAAAAAAAAAA/................/BBBBBBBBBBBBBBBB a",
            "--dice",
            "1,2",
        ],
        "column",
    );
    refused(
        &[
            "daldos",
            "moves",
            "--position",
            "AAAAAAAAAAAAAAAA/................./BBBBBBBBBBBBBBBB a",
            "--dice",
            "5,1",
        ],
        "5",
    );
    refused(&["daldos", "odds", "--position", "nonsense"], "error");
}

#[test]
fn bad_options_are_refused() {
    refused(
        &[
            "dakon",
            "solve",
            "--holes",
            "3",
            "--seeds",
            "3",
            "--threads",
            "0",
        ],
        "threads",
    );
    refused(
        &[
            "dakon", "solve", "--holes", "3", "--seeds", "3", "--format", "csv",
        ],
        "format",
    );
    let here = env!("CARGO_MANIFEST_DIR");
    refused(
        &[
            "dakon",
            "openings",
            "--holes",
            "3",
            "--seeds",
            "3",
            "--work-dir",
            here,
        ],
        "holds no checkpoint",
    );
    refused(
        &[
            "dakon",
            "openings",
            "--holes",
            "6",
            "--seeds",
            "6",
            "--max-positions",
            "1000",
        ],
        "distinct positions",
    );
    refused(
        &[
            "daldos", "match", "--a", "engine:x", "--b", "random", "--games", "2", "--seed", "1",
        ],
        "engine",
    );
}
