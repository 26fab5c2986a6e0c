//! Bad input: one clear line on stderr, exit code 2, never a panic.

use super::{run, Scratch};

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
        "column 18: row M has 16 holes, expected 17 (row A has 16)",
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
        "face 5 is not on a four-sided long die (1..=4)",
    );
    refused(
        &["daldos", "odds", "--position", "nonsense"],
        "column 9: expected 3 rows separated by '/', found 1",
    );
}

#[test]
fn usage_errors_are_one_line_naming_the_command() {
    refused(
        &["dakon", "solve", "--holes", "3"],
        "error: the following required arguments were not provided: --seeds <SEEDS>; see 'dalkon dakon solve --help'\n",
    );
    refused(
        &["dakon"],
        "error: 'dalkon dakon' needs a command: solve, best, play, openings, prove, verify, show, game, analyse; see 'dalkon dakon --help'\n",
    );
    refused(
        &["daldos"],
        "error: 'dalkon daldos' needs a command: table, odds, moves, best, match, show, game, solve, value, analyse, train; see 'dalkon daldos --help'\n",
    );
    refused(
        &["daldos", "table", "--dal", "foo"],
        "error: invalid value 'foo' for '--dal <DAL>' [possible values: any, sternmost]; see 'dalkon daldos table --help'\n",
    );
    for args in [
        &["dakon", "solve", "--holes", "3"][..],
        &["dakon"],
        &["--seedz"],
    ] {
        let out = run(args, None);
        assert_eq!(
            String::from_utf8_lossy(&out.stderr).lines().count(),
            1,
            "{args:?}"
        );
    }
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
        "error: invalid value '0' for '--threads <N>': 0 is not in 1..=256; see 'dalkon dakon solve --help'",
    );
    refused(
        &[
            "dakon", "solve", "--holes", "3", "--seeds", "3", "--format", "csv",
        ],
        "error: invalid value 'csv' for '--format <FORMAT>' [possible values: text, json]; see 'dalkon dakon solve --help'\n",
    );
    refused(
        &[
            "--format", "csv", "dakon", "solve", "--holes", "3", "--seeds", "3",
        ],
        "error: this command does not offer --format csv; choose one of: text, json\n",
    );
    // A folder that exists but is not an openings checkpoint is refused,
    // and left as it was.
    let other = Scratch::new("not-a-checkpoint");
    std::fs::create_dir_all(other.path()).unwrap();
    std::fs::write(other.path().join("notes.txt"), "mine").unwrap();
    refused(
        &[
            "dakon",
            "openings",
            "--holes",
            "3",
            "--seeds",
            "3",
            "--work-dir",
            other.str(),
        ],
        "the folder exists but holds no checkpoint of an openings count",
    );
    assert_eq!(
        std::fs::read_to_string(other.path().join("notes.txt")).unwrap(),
        "mine"
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
        "the first turn holds more than 1000 distinct positions; the count was abandoned",
    );
    refused(
        &[
            "daldos", "match", "--a", "engine:x", "--b", "random", "--games", "2", "--seed", "1",
        ],
        "bad engine depth \"x\": expected a number from 1 to 8",
    );
}
