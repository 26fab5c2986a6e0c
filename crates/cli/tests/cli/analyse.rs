//! `dakon analyse` and `daldos analyse` on game records: every decision's
//! values and loss agree with `dakon best --every-move` (and `daldos
//! value`) at its position, forced decisions are not counted, and the
//! formats are the contract's.

use serde_json::Value;

use super::{json, run, Scratch};

/// A record of a Dakon game on `holes` × `seeds` with `moves`.
fn dakon_record(dir: &Scratch, holes: usize, seeds: u32, moves: &[usize]) -> String {
    std::fs::create_dir_all(dir.path()).unwrap();
    let path = dir.path().join("game.record");
    let text: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    std::fs::write(
        &path,
        format!(
            "[Game \"dakon\"]\n[Holes \"{holes}\"]\n[Seeds \"{seeds}\"]\n\n{}\n",
            text.join(" ")
        ),
    )
    .unwrap();
    path.to_str().unwrap().to_owned()
}

/// Moves of a 4 × 4 game: the lowest legal hole at every turn, a game
/// full of mistakes.
fn lowest_hole_game(holes: usize, seeds: u32) -> Vec<usize> {
    let start = format!(
        "{}/{}/0,0 0",
        vec![seeds.to_string(); holes].join(","),
        vec![seeds.to_string(); holes].join(",")
    );
    let mut moves = Vec::new();
    let mut pos = start.clone();
    loop {
        let b = json(&[
            "dakon",
            "best",
            "--position",
            &pos,
            "--every-move",
            "--format",
            "json",
        ]);
        let Some(first) = b["moves"].as_array().unwrap().first() else {
            break;
        };
        let h = first["move"].as_u64().unwrap() as usize;
        moves.push(h);
        let p = json(&[
            "dakon",
            "play",
            "--position",
            &pos,
            "--moves",
            &h.to_string(),
            "--format",
            "json",
        ]);
        pos = p["positions"][0].as_str().unwrap().to_owned();
    }
    moves
}

#[test]
fn dakon_analyse_agrees_with_best_every_move_at_every_decision() {
    let dir = Scratch::new("analyse-dakon");
    let moves = lowest_hole_game(4, 4);
    let file = dakon_record(&dir, 4, 4, &moves);
    let r = json(&["dakon", "analyse", &file, "--format", "json"]);
    assert_eq!(r["game"], "dakon");
    let decisions = r["decisions"].as_array().unwrap();
    assert_eq!(decisions.len(), moves.len());
    let mut counted = [0u64; 2];
    let mut marks = [0u64; 2];
    for (k, d) in decisions.iter().enumerate() {
        assert_eq!(d["ply"], k + 1);
        assert_eq!(d["played"], moves[k]);
        assert_eq!(d["exact"], true, "a 4 × 4 game is exact: {d}");
        let pos = d["position"].as_str().unwrap();
        let b = json(&[
            "dakon",
            "best",
            "--position",
            pos,
            "--every-move",
            "--format",
            "json",
        ]);
        let legal = b["moves"].as_array().unwrap();
        assert_eq!(d["forced"], legal.len() == 1, "{d}");
        if legal.len() == 1 {
            assert_eq!(d["mark"], Value::Null);
            continue;
        }
        assert_eq!(d["best_value"], b["value"], "{pos}");
        assert_eq!(d["best"], b["best_moves"], "{pos}");
        let played = legal.iter().find(|m| m["move"] == d["played"]).unwrap();
        assert_eq!(d["played_value"], played["value"], "{pos}");
        let loss = b["value"].as_i64().unwrap() - played["value"].as_i64().unwrap();
        assert_eq!(d["loss"], loss);
        let mark = match loss {
            l if l >= 12 => "blunder",
            l if l >= 6 => "mistake",
            l if l >= 2 => "inaccuracy",
            _ => "",
        };
        let side = d["side"].as_u64().unwrap() as usize;
        counted[side] += 1;
        if mark.is_empty() {
            assert_eq!(d["mark"], Value::Null);
        } else {
            assert_eq!(d["mark"], mark);
            marks[side] += 1;
        }
    }
    for side in 0..2 {
        let s = &r["summary"][side.to_string()];
        assert_eq!(s["decisions"], counted[side]);
        let m = &s["marks"];
        let total = m["inaccuracy"].as_u64().unwrap()
            + m["mistake"].as_u64().unwrap()
            + m["blunder"].as_u64().unwrap();
        assert_eq!(total, marks[side]);
    }
    assert!(
        marks[0] + marks[1] > 0,
        "the lowest hole is not always best"
    );
}

#[test]
fn dakon_analyse_draws_the_game_and_refuses_bad_records() {
    let dir = Scratch::new("analyse-dakon-svg");
    let file = dakon_record(&dir, 3, 2, &lowest_hole_game(3, 2));
    let out = run(&["dakon", "analyse", &file, "--format", "svg"], None);
    assert!(out.status.success());
    let svg = String::from_utf8(out.stdout).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
        "{svg}"
    );
    let text = String::from_utf8(run(&["dakon", "analyse", &file], None).stdout).unwrap();
    assert!(text.starts_with("ply  side "), "{text}");
    let bad = dakon_record(&dir, 3, 2, &[9]);
    let out = run(&["dakon", "analyse", &bad], None);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("line 5, column 1: move 1 `9`: there is no hole 9"),
        "{err}"
    );
    let out = run(&["dakon", "analyse", &file, "--format", "csv"], None);
    assert_eq!(out.status.code(), Some(2));
}

/// The committed example chart is what the program draws of the example
/// game (every value exact, so the same bytes on any machine).
#[test]
fn the_committed_dakon_example_chart_is_the_programs() {
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/examples");
    let record = examples.join("dakon-6x6.record");
    let out = run(
        &[
            "dakon",
            "analyse",
            record.to_str().unwrap(),
            "--time",
            "0",
            "--format",
            "svg",
        ],
        None,
    );
    assert!(out.status.success());
    let committed = std::fs::read_to_string(examples.join("dakon-6x6.svg")).unwrap();
    assert!(
        String::from_utf8(out.stdout).unwrap() == committed,
        "docs/examples/dakon-6x6.svg is stale: regenerate it with the command of docs/cli.md"
    );
}

/// `daldos value`'s exact value of every play of `dice` at `pos`.
fn daldos_values(db: &str, pos: &str, dice: (u64, u64)) -> Vec<(String, f64)> {
    let v = json(&[
        "daldos",
        "value",
        "--position",
        pos,
        "--db-dir",
        db,
        "--format",
        "json",
    ]);
    let sorted = (dice.0.max(dice.1), dice.0.min(dice.1));
    let throw = v["throws"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| {
            (
                t["dice"][0].as_u64().unwrap(),
                t["dice"][1].as_u64().unwrap(),
            ) == sorted
        })
        .unwrap_or_else(|| panic!("{pos}: no throw {sorted:?}"));
    throw["plays"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["play"].as_str().unwrap().to_owned(),
                p["value"].as_f64().unwrap(),
            )
        })
        .collect()
}

/// Games of `daldos match --records` on the L = 4 board with its whole
/// tables: every decision exact and as `daldos value` ranks it, and the
/// luck identity: A's result − W at the start = Σ_A (luck − loss) −
/// Σ_B (luck − loss).
#[test]
fn daldos_analyse_agrees_with_daldos_value_and_luck_adds_up() {
    let db = super::perfect::full();
    let dir = Scratch::new("analyse-daldos");
    let d = dir.str();
    json(&[
        "daldos",
        "match",
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "3",
        "--board",
        "4",
        "--seed",
        "4",
        "--records",
        d,
        "--format",
        "json",
    ]);
    for i in 1..=3 {
        let file = dir.path().join(format!("game-{i:04}.record"));
        let r = json(&[
            "daldos",
            "analyse",
            file.to_str().unwrap(),
            "--db-dir",
            db,
            "--format",
            "json",
        ]);
        assert_eq!(r["game"], "daldos");
        let mut sum = 0.0;
        for d in r["decisions"].as_array().unwrap() {
            assert_eq!(d["exact"], true, "{d}");
            let f = |k: &str| d[k].as_f64().unwrap();
            let sign = if d["side"] == "a" { 1.0 } else { -1.0 };
            sum += sign * (f("luck") - f("loss"));
            let dice = (
                d["dice"][0].as_u64().unwrap(),
                d["dice"][1].as_u64().unwrap(),
            );
            let plays = daldos_values(db, d["position"].as_str().unwrap(), dice);
            let best = plays.iter().map(|p| p.1).fold(f64::MIN, f64::max);
            assert!((f("best_value") - best).abs() < 1e-9, "{d}");
            assert!(
                plays.iter().any(|p| (p.1 - f("played_value")).abs() < 1e-9),
                "the played value is one of the throw's: {d}"
            );
            assert!((f("loss") - (f("best_value") - f("played_value"))).abs() < 1e-12);
            assert!(f("loss") >= -1e-12);
            if plays.len() == 1 {
                assert_eq!(d["forced"], true, "{d}");
                assert_eq!(d["mark"], Value::Null);
            }
        }
        let result = r["result"].as_f64().unwrap();
        let start = r["start_value"].as_f64().unwrap();
        assert!(
            (result - start - sum).abs() < 1e-9,
            "game {i}: {result} - {start} != {sum}"
        );
    }
}

#[test]
fn daldos_analyse_without_tables_estimates_and_says_so() {
    let dir = Scratch::new("analyse-daldos-est");
    std::fs::create_dir_all(dir.path()).unwrap();
    let file = dir.path().join("g.record");
    // The Danish start, two throws: no tables cover it.
    std::fs::write(&file, "[Game \"daldos\"]\n3,1 (A16-M16 M16-M13)\n4,2 -\n").unwrap();
    let f = file.to_str().unwrap();
    let r = json(&["daldos", "analyse", f, "--time", "0.2", "--format", "json"]);
    let ds = r["decisions"].as_array().unwrap();
    assert_eq!(ds.len(), 2);
    assert!(
        ds.iter()
            .all(|d| d["exact"] == false && d["source"] == "search"),
        "{r}"
    );
    let text =
        String::from_utf8(run(&["daldos", "analyse", f, "--time", "0.2"], None).stdout).unwrap();
    assert!(text.contains("estimate"), "{text}");
    let out = run(&["daldos", "analyse", f, "--time", "0"], None);
    assert_eq!(out.status.code(), Some(2));
    let svg = String::from_utf8(
        run(
            &["daldos", "analyse", f, "--time", "0.2", "--format", "svg"],
            None,
        )
        .stdout,
    )
    .unwrap();
    assert!(svg.starts_with("<svg"), "{svg}");
}

/// The committed Daldøs example chart is what the program draws of the
/// example game with the whole L = 4 tables (every value exact).
#[test]
fn the_committed_daldos_example_chart_is_the_programs() {
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/examples");
    let record = examples.join("daldos-4.record");
    let db = super::perfect::full();
    let out = run(
        &[
            "daldos",
            "analyse",
            record.to_str().unwrap(),
            "--db-dir",
            db,
            "--format",
            "svg",
        ],
        None,
    );
    assert!(out.status.success());
    let committed = std::fs::read_to_string(examples.join("daldos-4.svg")).unwrap();
    assert!(
        String::from_utf8(out.stdout).unwrap() == committed,
        "docs/examples/daldos-4.svg is stale: regenerate it with the command of docs/cli.md"
    );
}
