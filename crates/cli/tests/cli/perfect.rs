//! The solved tables on the command line (docs/cli.md, "Daldøs solved"):
//! `daldos best` and `game`'s hint with `--db-dir` are exact where the
//! tables cover a position, and the `perfect` player of `match` and `game`
//! plays from them, or is refused in one line naming the command that
//! builds them.
//!
//! The tables are built through the library (the 1 v 1 layer of L = 4 in a
//! scratch folder; the whole L = 4 game once, some 15 s, in a folder under
//! the target directory that later runs map).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use dalkon_daldos::solved::{plan, value_report, NoProgress, Tables, EPS};
use dalkon_rules::daldos::{plays, Board, Position, Throw, Variants};
use serde_json::Value;

use super::{json, run, without_timing, Scratch};

fn l4() -> Board {
    Board::new(4).unwrap()
}

/// Build (or map) the L = 4 tables up to `pieces` in `dir`.
fn build(dir: &Path, pieces: (u8, u8)) -> Tables {
    let v = Variants::default();
    let p = plan(l4(), &v, pieces).unwrap();
    let mut t = Tables::new(l4(), v, Some(dir));
    if t.build(&p, EPS, &mut NoProgress).is_err() {
        // Files of an older format: start afresh.
        let _ = std::fs::remove_dir_all(dir);
        t = Tables::new(l4(), v, Some(dir));
        t.build(&p, EPS, &mut NoProgress).unwrap();
    }
    t
}

/// The folder with the tables of the whole L = 4 game.
pub(super) fn full() -> &'static str {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("perfect-tables");
        build(&dir, (4, 4));
        dir
    })
    .to_str()
    .unwrap()
}

/// Run `dalkon` with `$DALKON_DB_DIR` set to `db` (stdin empty).
fn run_in(db: &str, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_dalkon"))
        .args(args)
        .env("DALKON_DB_DIR", db)
        .output()
        .unwrap()
}

fn stdout_json(out: &std::process::Output) -> Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

const ONE_V_ONE: &str = "..a./...../.b.. a";

#[test]
fn best_with_tables_returns_their_value_as_exact() {
    let scratch = Scratch::new("perfect-1v1");
    let tables = build(scratch.path(), (1, 1));
    let want = tables
        .bounds(&ONE_V_ONE.parse::<Position>().unwrap())
        .unwrap();
    let args = [
        "daldos",
        "best",
        "--position",
        ONE_V_ONE,
        "--format",
        "json",
        "--db-dir",
        scratch.str(),
    ];
    let v = json(&args);
    assert_eq!(v["exact"], true, "{v}");
    assert_eq!(v["tables"], 1);
    assert!((v["value"].as_f64().unwrap() - want.value()).abs() <= 1e-12);
    for t in v["throws"].as_array().unwrap() {
        assert_eq!(t["exact"], true, "{t}");
        assert!(t["plays"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["exact"] == true));
    }
    assert!(v["stats"]["table_hits"].as_u64().unwrap() > 0);
    // The same through $DALKON_DB_DIR, and for one throw.
    let env = stdout_json(&run_in(scratch.str(), &args[..6]));
    assert_eq!(env, v);
    let throw = json(&[&args[..], &["--dice", "2,3"]].concat());
    assert_eq!(throw["exact"], true);
    let report = value_report(&tables, &ONE_V_ONE.parse().unwrap()).unwrap();
    let dice: Throw = "2,3".parse().unwrap();
    let tv = report
        .throws
        .iter()
        .find(|t| t.throw == dice.sorted())
        .unwrap();
    // The same play (written for the dice in the order given).
    let pos: Position = ONE_V_ONE.parse().unwrap();
    let best = plays(&pos, &Variants::default(), dice)
        .into_iter()
        .find(|o| o.play.notation(l4()) == throw["best"])
        .unwrap();
    assert_eq!(best.result, tv.plays[0].result);
    let top = tv.plays[0].bounds.value();
    assert!((throw["value"].as_f64().unwrap() - top).abs() <= 1e-12);
    // Any thread count, the same answer.
    let one = json(&[&args[..], &["--threads", "1"]].concat());
    let two = json(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(one, two);
    // Text says where exactness comes from.
    let text = run(
        &args[..4]
            .iter()
            .chain(&args[6..])
            .copied()
            .collect::<Vec<_>>(),
        None,
    );
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains("in the solved tables, 1 layers; exact to 1e-12"),
        "{text}"
    );
    assert!(text.contains("(a's win probability, exact)"), "{text}");
    // Without tables (the default folder is empty here) it is an estimate.
    let plain = json(&args[..6]);
    assert_eq!(plain["exact"], false);
    assert_eq!(plain["tables"], 0);
    assert_eq!(plain["stats"]["table_hits"], 0);
}

#[test]
fn perfect_without_tables_is_refused_in_one_line() {
    let scratch = Scratch::new("perfect-none");
    for cmd in [
        &["daldos", "match", "--a", "perfect", "--b", "greedy"][..],
        &["daldos", "game", "--a", "perfect", "--b", "greedy"][..],
    ] {
        let args = [cmd, &["--board", "4", "--db-dir", scratch.str()]].concat();
        let out = run(&args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(
            err,
            format!(
                "error: --a: perfect needs the tables of board 4 up to 4 v 4 (layer 1 v 1 is \
                 not in {0}): run dalkon daldos solve --board 4 --pieces 4,4 --db-dir {0}\n",
                scratch.str()
            )
        );
        assert!(out.stdout.is_empty() || cmd[1] == "game");
    }
    // Tables that stop short name the first layer missing.
    build(scratch.path(), (3, 3));
    let out = run(
        &[
            "daldos",
            "match",
            "--a",
            "engine:1",
            "--b",
            "perfect",
            "--board",
            "4",
            "--db-dir",
            scratch.str(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with(
            "error: --b: perfect needs the tables of board 4 up to 4 v 4 (layer 4 v 1 is not in "
        ),
        "{err}"
    );
    assert!(run(
        &["daldos", "match", "--a", "perfekt", "--b", "greedy"],
        None
    )
    .status
    .code()
    .eq(&Some(2)));
}

#[test]
fn perfect_plays_matches_and_games_from_the_tables() {
    let dir = full();
    let args = [
        "daldos", "match", "--a", "engine:1", "--b", "perfect", "--board", "4", "--games", "200",
        "--format", "json", "--db-dir", dir,
    ];
    let v = without_timing(json(&args));
    assert_eq!(v["games"], 200);
    assert_eq!(v["b"], "perfect");
    let wins = v["a_wins"].as_u64().unwrap() + v["b_wins"].as_u64().unwrap();
    assert_eq!(wins, 200);
    let one = without_timing(json(&[&args[..], &["--threads", "1"]].concat()));
    let two = without_timing(json(&[&args[..], &["--threads", "2"]].concat()));
    assert_eq!(one, v);
    assert_eq!(two, v);
    // A machine game: perfect's plays are the tables' best.
    let out = run(
        &[
            "daldos", "game", "--a", "perfect", "--b", "random", "--board", "4", "--seed", "3",
            "--db-dir", dir,
        ],
        None,
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("a: perfect; b: random"), "{text}");
    assert!(text.contains("Game over after "), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    let mut checked = 0;
    for (k, line) in lines.iter().enumerate() {
        let Some(rest) = line.strip_prefix("a (perfect) plays ") else {
            continue;
        };
        let (play, _) = rest.split_once(" -> ").unwrap();
        // The throw line before it, and the position before the throw.
        let throw = lines[..k]
            .iter()
            .rev()
            .find_map(|l| l.split_once(": a throws ").map(|(_, t)| t))
            .unwrap();
        let before = lines[..k]
            .iter()
            .rev()
            .skip(1)
            .find_map(|l| l.split_once(" -> ").map(|(_, p)| p))
            .unwrap_or("AAAA/...../BBBB a");
        if !before.ends_with(" a") {
            continue;
        }
        let best = json(&[
            "daldos",
            "best",
            "--position",
            before,
            "--dice",
            throw,
            "--depth",
            "1",
            "--format",
            "json",
            "--db-dir",
            dir,
        ]);
        assert_eq!(best["exact"], true);
        let top = best["value"].as_f64().unwrap();
        let chosen = best["plays"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["play"] == play)
            .unwrap();
        assert!(
            (chosen["value"].as_f64().unwrap() - top).abs() <= 1e-12,
            "{line}"
        );
        checked += 1;
    }
    assert!(checked > 0, "{text}");
}

#[test]
fn hints_with_tables_are_exact() {
    let dir = full();
    let args = [
        "daldos", "game", "--board", "4", "--seed", "3", "--b", "random", "--db-dir", dir,
    ];
    let out = run(&args, Some("hint\nquit\n"));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|l| l.contains("hint: a's")).unwrap();
    assert!(
        lines[at].ends_with("(solved tables: 16 layers)"),
        "{}",
        lines[at]
    );
    let best = json(&[
        "daldos",
        "best",
        "--position",
        "AAA./..a../BBBB a",
        "--dice",
        "4,1",
        "--format",
        "json",
        "--db-dir",
        dir,
    ]);
    let plays = best["plays"].as_array().unwrap();
    assert_eq!(plays.len(), 2);
    for (k, p) in plays.iter().enumerate() {
        assert_eq!(p["exact"], true);
        let row = lines[at + 1 + k];
        assert!(row.ends_with("  exact"), "{row}");
        assert!(
            row.contains(&format!(
                "{}  {:.4}",
                p["play"].as_str().unwrap(),
                p["value"].as_f64().unwrap()
            )),
            "{row}"
        );
    }
}
