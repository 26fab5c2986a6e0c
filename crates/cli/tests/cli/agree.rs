//! One answer everywhere (issue 18): `dakon best`, `dakon show --best`, the
//! `dakon game` hint and the game engine's move are one request underneath,
//! so for the same position and budget they name the same best moves with
//! the same values and labels — on every small board's start and on 7×7
//! game positions.

use serde_json::Value;

use super::{json, run, Scratch};

/// 7×7 positions from the principal variation of the 7×7 start (24, 26, 30
/// and 32 plies in), and one with North to move (the first, mirrored);
/// each is solved with every move in about a second or less.
const GAME_7X7: [&str; 5] = [
    "0,0,0,1,0,0,7/0,6,0,2,6,9,2/65,0 0",
    "3,3,3,0,1,2,1/1,0,1,5,1,2,5/70,0 0",
    "4,1,0,3,2,1,2/0,1,0,6,0,3,0/75,0 0",
    "3,1,4,2,0,1,3/1,0,1,0,1,0,1/80,0 0",
    "0,6,0,2,6,9,2/0,0,0,1,0,0,7/0,65 1",
];

fn positions() -> Vec<String> {
    let mut all = Vec::new();
    for holes in 2..=5 {
        for seeds in 1..=4 {
            let row = vec![seeds.to_string(); holes].join(",");
            all.push(format!("{row}/{row}/0,0 0"));
        }
    }
    all.extend(GAME_7X7.iter().map(|p| p.to_string()));
    all
}

fn stdout(args: &[&str], stdin: Option<&str>) -> String {
    let out = run(args, stdin);
    assert!(
        out.status.success(),
        "dalkon {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The `(hole, value)` rows of a ranked table (` move  value` and after).
fn table(text: &str, after: &str) -> Vec<String> {
    let start = text
        .find(after)
        .unwrap_or_else(|| panic!("{after:?} in {text}"));
    text[start..]
        .lines()
        .skip_while(|l| *l != " move  value")
        .skip(1)
        .take_while(|l| {
            !l.trim().is_empty() && l.len() >= 7 && l[..5].trim().parse::<usize>().is_ok()
        })
        .map(str::to_owned)
        .collect()
}

fn side(pos: &str) -> &'static str {
    if pos.ends_with(" 1") {
        "North (1)"
    } else {
        "South (0)"
    }
}

#[test]
fn best_show_hint_and_engine_agree_on_small_boards_and_7x7_positions() {
    for pos in positions() {
        let best = json(&["dakon", "best", "--position", &pos, "--format", "json"]);
        assert_eq!(best["exact"], true, "{pos}: {best}");
        let every = json(&[
            "dakon",
            "best",
            "--position",
            &pos,
            "--every-move",
            "--format",
            "json",
        ]);
        assert_eq!(
            (&every["value"], &every["best_moves"]),
            (&best["value"], &best["best_moves"]),
            "{pos}"
        );
        let show = json(&[
            "dakon",
            "show",
            "--position",
            &pos,
            "--best",
            "--max-nodes",
            "1000000000",
            "--format",
            "json",
        ]);
        for field in ["value", "best_moves", "exact"] {
            assert_eq!(show[field], best[field], "{pos}: show {field}");
        }
        // The game, exact (no node limit): the hint is `best --every-move`.
        let hint = stdout(
            &[
                "dakon",
                "game",
                "--position",
                &pos,
                "--first",
                "human",
                "--second",
                "human",
                "--max-nodes",
                "0",
            ],
            Some("hint\nquit\n"),
        );
        assert!(
            hint.contains(&format!(
                "hint: final store difference for {} after each move, best play after it (exact)",
                side(&pos)
            )),
            "{pos}: {hint}"
        );
        let best_text = stdout(&["dakon", "best", "--position", &pos, "--every-move"], None);
        let rows = table(&hint, "hint:");
        assert_eq!(rows, table(&best_text, "best moves"), "{pos}");
        let moves = every["moves"].as_array().unwrap();
        assert_eq!(rows.len(), moves.len(), "{pos}");
        let first: Vec<&str> = rows[0].split_whitespace().collect();
        assert_eq!(first[0], best["best_moves"][0].to_string(), "{pos}: {hint}");
        assert_eq!(
            first[1],
            format!("{:+}", best["value"].as_i64().unwrap()),
            "{pos}"
        );
        // The engine plays `best`'s first best move and says its value.
        let game = stdout(
            &[
                "dakon",
                "game",
                "--position",
                &pos,
                "--first",
                "engine",
                "--second",
                "human",
                "--max-nodes",
                "0",
            ],
            Some("quit\n"),
        );
        let hole = &best["best_moves"][0];
        assert!(
            game.contains(&format!("{} plays hole {hole} -> ", side(&pos))),
            "{pos}: {game}"
        );
        let why = if moves.len() == 1 {
            "engine: forced: the only legal move".to_owned()
        } else {
            format!(
                "engine: exact best move, value {:+} for {}",
                best["value"].as_i64().unwrap(),
                side(&pos)
            )
        };
        assert!(game.contains(&why), "{pos}: {game}");
    }
}

/// Under a budget too small for a proof, the hint is still `best
/// --every-move` under the same budget: the same rows, the same label.
#[test]
fn under_the_games_budget_the_hint_is_best_under_that_budget() {
    let pos = "7,7,7,7,7,7,7/7,7,7,7,7,7,7/0,0 0";
    let best_text = stdout(
        &[
            "--threads",
            "1",
            "dakon",
            "best",
            "--position",
            pos,
            "--every-move",
            "--max-nodes",
            "3000",
        ],
        None,
    );
    let hint = stdout(
        &[
            "--threads",
            "1",
            "dakon",
            "game",
            "--first",
            "human",
            "--max-nodes",
            "3000",
        ],
        Some("hint\nquit\n"),
    );
    let rows = table(&hint, "hint:");
    assert!(rows.len() == 7, "{hint}");
    assert_eq!(rows, table(&best_text, "best moves"));
    let label = best_text
        .lines()
        .find(|l| l.starts_with("value"))
        .and_then(|l| l.split_once("side to move, "))
        .map(|(_, rest)| rest.trim_end_matches(')').to_owned())
        .unwrap();
    assert_ne!(label, "exact", "{best_text}");
    assert!(
        hint.contains(&format!(
            "({label}: the exact search did not finish within 3000 nodes"
        )),
        "{hint}\n{label}"
    );
    let v: Value = json(&[
        "--threads",
        "1",
        "dakon",
        "best",
        "--position",
        pos,
        "--every-move",
        "--max-nodes",
        "3000",
        "--format",
        "json",
    ]);
    assert_eq!(v["exact"], false);
}

/// With `--probe-seeds`, `best`, `show --best` and the game's hint and
/// engine probe the same endgame databases (built once into the folder,
/// then reused): the same moves, values and labels as without (`analyse`:
/// the Python test of records runs the CLI's, and the web's test).
#[test]
fn every_front_end_probing_databases_gives_the_same_answers() {
    let db = Scratch::new("agree-db");
    let probe = ["--probe-seeds", "8", "--db-dir", db.str()];
    fn with<'a>(args: &[&'a str], probe: &[&'a str]) -> Vec<&'a str> {
        [args, probe].concat()
    }
    for pos in &GAME_7X7[..3] {
        let args = [
            "dakon",
            "best",
            "--position",
            pos,
            "--every-move",
            "--format",
            "json",
        ];
        let (plain, probing) = (json(&args), json(&with(&args, &probe)));
        for field in ["value", "best_moves", "moves", "exact", "pv"] {
            assert_eq!(probing[field], plain[field], "{pos}: best {field}");
        }
        let show = [
            "dakon",
            "show",
            "--position",
            pos,
            "--best",
            "--max-nodes",
            "1000000000",
            "--format",
            "json",
        ];
        let (a, b) = (json(&show), json(&with(&show, &probe)));
        for field in ["value", "best_moves", "exact"] {
            assert_eq!(a[field], b[field], "{pos}: show {field}");
        }
        // An exact game from `pos`, its first side `first`, the other human.
        let game = |first| {
            [
                "dakon",
                "game",
                "--position",
                pos,
                "--first",
                first,
                "--second",
                "human",
                "--max-nodes",
                "0",
            ]
        };
        let hint = game("human");
        let (a, b) = (
            stdout(&hint, Some("hint\nquit\n")),
            stdout(&with(&hint, &probe), Some("hint\nquit\n")),
        );
        assert_eq!(table(&a, "hint:"), table(&b, "hint:"), "{pos}: {b}");
        let engine = game("engine");
        let (a, b) = (
            stdout(&engine, Some("quit\n")),
            stdout(&with(&engine, &probe), Some("quit\n")),
        );
        let played = |t: &str| {
            t.lines()
                .find(|l| l.contains(" plays hole "))
                .map(str::to_owned)
        };
        assert_eq!(played(&a), played(&b), "{pos}: {b}");
    }
    // Levels 0 to 8 of 7 holes a row, built by the first run, reused after.
    assert_eq!(std::fs::read_dir(db.path()).unwrap().count(), 9);
}
