//! `dalkon daldos solve` and `daldos value` (docs/cli.md, docs/solved.md):
//! the layers of a small scope with pinned counts, a second run that loads
//! them, a damaged file refused, and the values and ranked plays of a
//! position checked against the recursion of docs/rules.md §1.8 from the
//! command's own output.
//!
//! Every test builds board 4 up to 2 v 2 pieces (under a second) into a
//! scratch folder of its own.

use serde_json::Value;

use super::{json, run, Scratch};

/// A 1 v 1 position, A to throw: A's piece undalt on A4, B's dalt on M2.
const ONE_V_ONE: &str = "...A/..b../.... a";
/// The same position seen from the other side: B to throw, mirrored.
const ONE_V_ONE_MIRROR: &str = "..../..a../...B b";
/// 3 v 1 pieces: beyond the 2 v 2 tables.
const THREE_V_ONE: &str = "AAA./...../B... a";

/// Build board 4 up to 2 v 2 into `db` (JSON).
fn solve_22(db: &Scratch, extra: &[&str]) -> Value {
    let mut args = vec![
        "daldos",
        "solve",
        "--board",
        "4",
        "--pieces",
        "2,2",
        "--db-dir",
        db.str(),
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    json(&args)
}

fn value(db: &Scratch, pos: &str) -> Value {
    json(&[
        "daldos",
        "value",
        "--position",
        pos,
        "--db-dir",
        db.str(),
        "--format",
        "json",
    ])
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// The layers of board 4 up to 2 v 2, in build order, with their sizes
/// (the index formula of `dalkon_daldos::solved`) and sweeps; every gap
/// within 1e-12; a second run loads the same numbers.
#[test]
fn solve_lists_the_layers_and_a_second_run_loads_them() {
    let db = Scratch::new("solved");
    let first = solve_22(&db, &[]);
    assert_eq!(first["board"], 4);
    assert_eq!(first["pieces"], serde_json::json!([2, 2]));
    assert_eq!(f(&first["eps"]), 1e-12);
    assert_eq!(
        first["rules"],
        serde_json::json!({"dal": "any", "capture": "final", "end": "last"})
    );
    assert!(first["start"].is_null(), "not a whole game: {first}");
    let layers = first["layers"].as_array().unwrap();
    let got: Vec<(u64, u64, u64, u64)> = layers
        .iter()
        .map(|l| {
            (
                l["a"].as_u64().unwrap(),
                l["b"].as_u64().unwrap(),
                l["positions"].as_u64().unwrap(),
                l["sweeps"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (1, 1, 237, 85),
            (2, 1, 1593, 69),
            (1, 2, 1593, 69),
            (2, 2, 9759, 50)
        ]
    );
    for l in layers {
        assert!(f(&l["gap"]) <= 1e-12, "{l}");
        assert!((0.0..=1.0).contains(&f(&l["mean_w"])), "{l}");
        assert_eq!(l["stalled"], false);
        assert_eq!(l["loaded"], false);
        assert!(f(&l["seconds"]) >= 0.0);
    }
    // More pieces make the side to throw stronger.
    assert!(f(&layers[1]["mean_w"]) > 0.9 && f(&layers[2]["mean_w"]) < 0.2);
    let mut names: Vec<String> = std::fs::read_dir(db.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["1v1", "1v2", "2v1", "2v2"].map(|k| format!("daldos-L4-any-final-last-{k}.tbl"))
    );
    let second = solve_22(&db, &[]);
    for (a, b) in layers.iter().zip(second["layers"].as_array().unwrap()) {
        assert_eq!(b["loaded"], true, "{b}");
        for k in ["a", "b", "positions", "sweeps", "gap", "mean_w", "stalled"] {
            assert_eq!(a[k], b[k], "{k}: {a} then {b}");
        }
    }
}

/// The tables are the same bytes whatever the thread count.
#[test]
fn the_tables_do_not_depend_on_the_threads() {
    let (one, two) = (Scratch::new("solved-t1"), Scratch::new("solved-t2"));
    solve_22(&one, &["--threads", "1"]);
    solve_22(&two, &["--threads", "2"]);
    for k in ["1v1", "2v1", "1v2", "2v2"] {
        let name = format!("daldos-L4-any-final-last-{k}.tbl");
        assert!(
            std::fs::read(one.path().join(&name)).unwrap()
                == std::fs::read(two.path().join(&name)).unwrap(),
            "{name} differs"
        );
    }
}

/// The text summary: the aligned table, the layer convention, eps.
#[test]
fn solve_text_explains_the_layers() {
    let db = Scratch::new("solved-text");
    let out = run(
        &[
            "daldos",
            "solve",
            "--board",
            "4",
            "--pieces",
            "2,1",
            "--db-dir",
            db.str(),
        ],
        None,
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("a pieces of the side to throw, b of the other"),
        "{text}"
    );
    assert!(text.contains("exact to eps = 1e-12"), "{text}");
    let header = text.lines().find(|l| l.starts_with("layer  ")).unwrap();
    let row = text.lines().find(|l| l.starts_with("1 v 1")).unwrap();
    let end = |l: &str, w: &str| l.find(w).unwrap() + w.len();
    assert_eq!(end(header, "positions"), end(row, "237"), "{text}");
    assert!(text.contains("(with 2 v 1)"), "{text}");
}

/// A table file with one byte changed is refused, naming the file and
/// the checksum, and left for the user to delete (docs/cli.md: a damaged
/// table file is a failure, exit code 1, as for the Dakon databases).
#[test]
fn a_damaged_file_is_refused() {
    let db = Scratch::new("solved-bad");
    solve_22(&db, &[]);
    let path = db.path().join("daldos-L4-any-final-last-2v1.tbl");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[128 + 100] ^= 0x10;
    std::fs::write(&path, &bytes).unwrap();
    for args in [
        &[
            "daldos",
            "solve",
            "--board",
            "4",
            "--pieces",
            "2,2",
            "--db-dir",
            db.str(),
        ][..],
        &[
            "daldos",
            "value",
            "--position",
            ONE_V_ONE,
            "--db-dir",
            db.str(),
        ][..],
    ] {
        let out = run(args, None);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("daldos-L4-any-final-last-2v1.tbl: checksum"),
            "{err}"
        );
        assert!(
            err.contains("the file is damaged; the folder is a cache: delete the file and the layer is rebuilt"),
            "{err}"
        );
        assert!(out.stdout.is_empty());
    }
    assert_eq!(
        std::fs::read(&path).unwrap(),
        bytes,
        "the file is left as it was"
    );
}

/// `value` of a 1 v 1 position: the fields of docs/cli.md, the ten
/// throws weighing 16 in all, each throw's plays best first, and the
/// position's value the weighted sum of the best plays' values (the
/// recursion of docs/rules.md §1.8, from the output alone).
#[test]
fn value_ranks_every_play_and_satisfies_the_recursion() {
    let db = Scratch::new("solved-value");
    solve_22(&db, &[]);
    let v = value(&db, ONE_V_ONE);
    let (w, lo, hi) = (f(&v["value"]), f(&v["lower"]), f(&v["upper"]));
    assert_eq!(v["exact"], true);
    assert!(lo <= w && w <= hi && hi - lo <= 1e-12, "{v}");
    let throws = v["throws"].as_array().unwrap();
    assert_eq!(throws.len(), 10);
    let weights: u64 = throws.iter().map(|t| t["weight"].as_u64().unwrap()).sum();
    assert_eq!(weights, 16);
    let mut sum = 0.0;
    for t in throws {
        let dice = t["dice"].as_array().unwrap();
        let (d1, d2) = (dice[0].as_u64().unwrap(), dice[1].as_u64().unwrap());
        assert_eq!(t["weight"].as_u64().unwrap(), if d1 == d2 { 1 } else { 2 });
        let plays = t["plays"].as_array().unwrap();
        assert!(!plays.is_empty(), "{t}");
        assert_eq!(t["best"], plays[0]["play"], "{t}");
        let values: Vec<f64> = plays.iter().map(|p| f(&p["value"])).collect();
        assert!(values.windows(2).all(|x| x[0] >= x[1]), "not sorted: {t}");
        let max = values.iter().copied().fold(f64::MIN, f64::max);
        assert_eq!(values[0], max);
        for p in plays {
            assert!(f(&p["lower"]) <= f(&p["value"]) && f(&p["value"]) <= f(&p["upper"]));
            assert!(
                p["result"].as_str().unwrap().ends_with(" a")
                    || p["result"].as_str().unwrap().ends_with(" b")
            );
        }
        sum += t["weight"].as_u64().unwrap() as f64 / 16.0 * values[0];
    }
    assert!(
        (sum - w).abs() <= 1e-12,
        "W = {w}, the recursion gives {sum}"
    );
    // The mirror image with B to throw has the same value.
    let m = value(&db, ONE_V_ONE_MIRROR);
    assert_eq!(m["value"], v["value"]);
    assert_eq!(m["lower"], v["lower"]);
}

/// The worked example of docs/solved.md: the numbers it quotes for
/// [`ONE_V_ONE`].
#[test]
fn the_worked_example_of_the_docs() {
    let db = Scratch::new("solved-docs");
    solve_22(&db, &[]);
    let v = value(&db, ONE_V_ONE);
    assert_eq!(format!("{:.12}", f(&v["value"])), "0.385784037429");
    let throw = |dice: [u64; 2]| {
        v["throws"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["dice"] == serde_json::json!(dice))
            .unwrap()
            .clone()
    };
    let t = throw([1, 1]);
    assert_eq!(t["best"], "A4-M4 M4-M3");
    assert_eq!(
        format!("{:.12}", f(&t["plays"][0]["value"])),
        "0.698856616908"
    );
    let t = throw([2, 1]);
    assert_eq!(t["best"], "A4-M4 M4-M2x");
    assert_eq!(t["plays"][0]["value"], 1.0);
    let t = throw([4, 4]);
    assert_eq!(t["best"], "pass");
    assert_eq!(
        format!("{:.12}", f(&t["plays"][0]["value"])),
        "0.268674825255"
    );
    // The text output lists the same.
    let out = run(
        &[
            "daldos",
            "value",
            "--position",
            ONE_V_ONE,
            "--db-dir",
            db.str(),
        ],
        None,
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("W = 0.385784037429: A's chance to win under perfect play (exact to 1e-12: lower 0.385784037428695, upper 0.385784037429061)"),
        "{text}"
    );
    assert!(
        text.contains("2,1      2/16    1  A4-M4 M4-M2x  1.000000000000"),
        "{text}"
    );
}

/// A position beyond the tables is refused with the layer it needs; in a
/// batch it gets an error line and the batch goes on (exit code 2 at the
/// end).
#[test]
fn a_position_beyond_the_tables_names_its_layer() {
    let db = Scratch::new("solved-cover");
    solve_22(&db, &[]);
    let out = run(
        &[
            "daldos",
            "value",
            "--position",
            THREE_V_ONE,
            "--db-dir",
            db.str(),
        ],
        None,
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("it needs layer 3 v 1 (pieces of the side to throw v the other)"),
        "{err}"
    );
    assert!(
        err.contains("dalkon daldos solve --board 4 --pieces 3,1"),
        "{err}"
    );
    // A dalt piece on its own first hole: no table holds it, and the
    // message says why.
    let out = run(
        &[
            "daldos",
            "value",
            "--position",
            "aA../.b.../.... a",
            "--db-dir",
            db.str(),
        ],
        None,
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("has a dalt piece on its own first hole, which no game reaches"),
        "{err}"
    );
    let input = format!("{ONE_V_ONE}\n{THREE_V_ONE}\nnonsense\n  {ONE_V_ONE_MIRROR}  \n");
    let out = run(
        &["daldos", "value", "--position", "-", "--db-dir", db.str()],
        Some(&input),
    );
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!(lines[0]["exact"], true);
    assert_eq!(lines[1]["line"], 2);
    assert!(lines[1]["error"]
        .as_str()
        .unwrap()
        .contains("it needs layer 3 v 1"));
    assert_eq!(lines[2]["line"], 3);
    assert_eq!(lines[3]["value"], lines[0]["value"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "error: 2 of 4 input lines were bad; each got an error line"
    );
}

/// Bad `--pieces` are refused before any work, in one line (exit code 2).
#[test]
fn bad_pieces_are_refused() {
    let db = Scratch::new("solved-refused");
    for (pieces, extra, needle) in [
        (
            "4",
            &[][..],
            "--pieces \"4\": expected the most pieces of each side as two whole numbers A,B",
        ),
        (
            "5,1",
            &[][..],
            "5 pieces a side do not fit board 4: each side has at most L = 4",
        ),
        (
            "1,1",
            &["--end", "one"][..],
            "a layer needs at least 2 pieces a side under end=one",
        ),
    ] {
        let mut args = vec![
            "daldos",
            "solve",
            "--board",
            "4",
            "--pieces",
            pieces,
            "--db-dir",
            db.str(),
        ];
        args.extend_from_slice(extra);
        let out = run(&args, None);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    assert!(!db.path().exists(), "nothing was written");
    // A scope far beyond the memory is refused before any work, with the
    // sizes: a failure of the machine (exit code 1), as for the Dakon
    // databases.
    let out = run(
        &[
            "daldos",
            "solve",
            "--board",
            "8",
            "--pieces",
            "8,8",
            "--db-dir",
            db.str(),
        ],
        None,
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("solving board 8 up to 8 v 8 pieces needs"),
        "{err}"
    );
    assert!(err.contains("the largest layer, 8 v 8, has"), "{err}");
    assert!(!db.path().exists(), "nothing was written");
}

/// `daldos solve --check` of board 4 up to 2 v 2 in `db`, as text.
fn check_22_text(db: &Scratch) -> std::process::Output {
    let args = [
        "daldos",
        "solve",
        "--board",
        "4",
        "--pieces",
        "2,2",
        "--db-dir",
        db.str(),
        "--check",
    ];
    run(&args, None)
}

/// `--check` on sound tables: every layer passes, with a violation within
/// rounding and a residual within eps, in the JSON and the text.
#[test]
fn check_passes_on_sound_tables() {
    let db = Scratch::new("solved-check");
    let j = solve_22(&db, &["--check"]);
    let layers = j["layers"].as_array().unwrap();
    assert_eq!(layers.len(), 4);
    for l in layers {
        let c = &l["check"];
        assert_eq!(c["passed"], true, "{l}");
        assert!(f(&c["violation"]) <= 1e-14, "{l}");
        assert!(f(&c["residual"]) <= 1e-12, "{l}");
    }
    // Without --check there is no check field.
    let j = solve_22(&db, &[]);
    assert!(j["layers"][0].get("check").is_none(), "{j}");
    let out = check_22_text(&db);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let header = text.lines().find(|l| l.starts_with("check ")).unwrap();
    assert!(
        header.contains("violation") && header.contains("residual"),
        "{text}"
    );
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.ends_with(char::is_numeric) && l.contains("passed"))
        .collect();
    assert_eq!(rows.len(), 4, "{text}");
}

/// Tables whose values were changed and the file resealed (so the
/// checksum holds, as after a bug in the builder rather than damage on
/// disk) fail `--check`: the layer is named, exit code 1.
#[test]
fn check_fails_on_wrong_values() {
    let db = Scratch::new("solved-check-bad");
    solve_22(&db, &[]);
    let path = db.path().join("daldos-L4-any-final-last-1v1.tbl");
    let mut bytes = std::fs::read(&path).unwrap();
    // Entry 5 moved a quarter away from its value (both bounds): bounds
    // that the equations do not support.
    let at = 128 + 5 * 16;
    let hi = f64::from_le_bytes(bytes[at + 8..at + 16].try_into().unwrap());
    let moved = if hi < 0.5 { hi + 0.25 } else { hi - 0.25 };
    bytes[at..at + 8].copy_from_slice(&moved.to_le_bytes());
    bytes[at + 8..at + 16].copy_from_slice(&moved.to_le_bytes());
    let sum = dalkon_store::checksum::Fnv1a64::new()
        .update(&bytes[128..])
        .update(&bytes[..64])
        .update(&bytes[72..128])
        .value();
    bytes[64..72].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let out = check_22_text(&db);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("error: the tables fail their check on layer 1 v 1"),
        "{err}"
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let row = text
        .lines()
        .find(|l| l.starts_with("1 v 1") && l.contains("FAILED"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(!row.is_empty());
}

/// Write `values` (lower, upper) into entries of table `name` in `db` and
/// reseal the checksum of docs/formats.md, as a hand edit would; `None`
/// for every entry.
fn forge(db: &Scratch, name: &str, entry: Option<usize>, lo: f64, hi: f64) {
    let path = db.path().join(name);
    let mut bytes = std::fs::read(&path).unwrap();
    let entries: Vec<usize> = match entry {
        Some(r) => vec![r],
        None => (0..(bytes.len() - 128) / 16).collect(),
    };
    for r in entries {
        let at = 128 + 16 * r;
        bytes[at..at + 8].copy_from_slice(&lo.to_le_bytes());
        bytes[at + 8..at + 16].copy_from_slice(&hi.to_le_bytes());
    }
    let sum = dalkon_store::checksum::Fnv1a64::new()
        .update(&bytes[128..])
        .update(&bytes[..64])
        .update(&bytes[72..128])
        .value();
    bytes[64..72].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
}

/// Exit code 1 and the one line of `args`' error.
fn refused(args: &[&str]) -> String {
    let out = run(args, None);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(out.stdout.is_empty(), "{args:?}");
    err
}

fn check_args(db: &Scratch) -> Vec<&str> {
    vec![
        "daldos",
        "solve",
        "--board",
        "4",
        "--pieces",
        "2,2",
        "--db-dir",
        db.str(),
        "--check",
    ]
}

fn value_args<'a>(db: &'a Scratch, pos: &'a str) -> Vec<&'a str> {
    vec!["daldos", "value", "--position", pos, "--db-dir", db.str()]
}

/// Issue 24 §1: two NaN doubles in entry 9758 of the 2 v 2 table, checksum
/// resealed, passed `--check` and made `value` print `W = NaN`; values out
/// of [0, 1] (6.0) or with lower > upper were printed too. Every entry is
/// checked at load: the file is damaged, named with the entry, exit 1.
#[test]
fn impossible_values_are_refused_however_sealed() {
    const POS: &str = "Aa../...../Bb.. a";
    const FILE: &str = "daldos-L4-any-final-last-2v2.tbl";
    let cases = [
        (
            f64::NAN,
            f64::NAN,
            "entry 9758 holds the bounds NaN and NaN",
        ),
        (6.0, 6.0, "entry 9758 holds the bounds 6 and 6"),
        (0.75, 0.25, "entry 9758 holds the bounds 0.75 and 0.25"),
        (-0.5, 0.5, "entry 9758 holds the bounds -0.5 and 0.5"),
    ];
    for (lo, hi, says) in cases {
        let db = Scratch::new("solved-forged");
        solve_22(&db, &[]);
        forge(&db, FILE, Some(9758), lo, hi);
        for args in [check_args(&db), value_args(&db, POS)] {
            let err = refused(&args);
            assert!(err.contains(&format!("{FILE}: {says}, not 0 ≤ lower ≤ upper ≤ 1: the file is damaged; the folder is a cache")), "{err}");
        }
    }
    // A table of NaN throughout (it passed with violation -inf): entry 0.
    let db = Scratch::new("solved-all-nan");
    solve_22(&db, &[]);
    forge(&db, FILE, None, f64::NAN, f64::NAN);
    let err = refused(&check_args(&db));
    assert!(
        err.contains(&format!("{FILE}: entry 0 holds the bounds NaN and NaN")),
        "{err}"
    );
    // The sound tables still pass and `value` still answers.
    let db = Scratch::new("solved-sound");
    solve_22(&db, &["--check"]);
    let w = f(&value(&db, POS)["value"]);
    assert!((0.0..=1.0).contains(&w), "{w}");
}

/// Issue 24 §10 and §13: a FIFO named like a table blocked `value` and
/// `solve` forever; a directory there said "No such device". Neither is
/// opened: exit 1, naming the file and what it is.
#[test]
fn a_table_name_that_is_not_a_regular_file_is_refused() {
    const FILE: &str = "daldos-L4-any-final-last-1v1.tbl";
    let db = Scratch::new("solved-fifo");
    solve_22(&db, &[]);
    let path = db.path().join(FILE);
    std::fs::remove_file(&path).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .unwrap();
    assert!(made.success());
    let solve = [
        "daldos",
        "solve",
        "--board",
        "4",
        "--pieces",
        "2,2",
        "--db-dir",
        db.str(),
    ];
    for args in [&solve[..], &value_args(&db, ONE_V_ONE)[..]] {
        let err = refused(args);
        assert!(err.contains(&format!("{FILE}: a FIFO (named pipe), not a regular file, where the table of this layer belongs")), "{err}");
    }
    std::fs::remove_file(&path).unwrap();
    std::fs::create_dir(&path).unwrap();
    for args in [&solve[..], &value_args(&db, ONE_V_ONE)[..]] {
        let err = refused(args);
        assert!(
            err.contains(&format!("{FILE}: a directory, not a regular file")),
            "{err}"
        );
        assert!(!err.contains("No such device"), "{err}");
    }
}

/// Issue 24 §13: `--pieces 16,16` said "needs 18446744073709551615 bytes
/// … the largest layer, 14 v 1" (the counts saturated); beyond 64 bits the
/// sizes are given in floating point and the largest layer is named. The
/// whole game on L = 32 took 20 s to refuse (it built every layer's index
/// first): refused at once now, from the estimate.
#[test]
fn scopes_beyond_64_bits_are_refused_with_their_real_size() {
    let db = Scratch::new("solved-huge");
    for (board, pieces, says) in [
        (
            "danish",
            "16,16",
            "needs about 1.37e27 bytes (1.28e18 GiB) of memory",
        ),
        ("32", "32,32", "needs about 5.31e53 bytes"),
    ] {
        let args = [
            "daldos",
            "solve",
            "--board",
            board,
            "--pieces",
            pieces,
            "--db-dir",
            db.str(),
        ];
        let err = refused(&args);
        assert!(err.contains(says), "{err}");
        let largest = format!(
            "the largest layer, {}, has about",
            pieces.replace(',', " v ")
        );
        assert!(err.contains(&largest), "{err}");
        assert!(!err.contains("18446744073709551615"), "{err}");
    }
    // Within 64 bits the counts are exact, as before.
    let args = [
        "daldos",
        "solve",
        "--board",
        "32",
        "--pieces",
        "3,3",
        "--db-dir",
        db.str(),
    ];
    let err = refused(&args);
    assert!(
        err.contains("needs 3398497611504 bytes (3165.10 GiB)"),
        "{err}"
    );
    assert!(
        err.contains("the largest layer, 3 v 3, has 104105050175 positions"),
        "{err}"
    );
    assert!(!db.path().exists(), "nothing was written");
}
