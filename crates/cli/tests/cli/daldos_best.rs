//! `dalkon daldos best` within its node budget (`--max-nodes`, iterative
//! deepening) and in batch mode (`--position -`).

use std::time::{Duration, Instant};

use super::{has_fields, json, run};

const MIDDLE: &str = "AAAAAAA.a.a...ba/ba..b..a.ab..a.bb/BBBBBBB.b.b.aab. a";
const START: &str = "AAAAAAAAAAAAAAAA/................./BBBBBBBBBBBBBBBB a";

fn legal_plays(pos: &str, dice: &str) -> Vec<String> {
    let v = json(&[
        "daldos",
        "moves",
        "--position",
        pos,
        "--dice",
        dice,
        "--format",
        "json",
    ]);
    v["plays"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["play"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_deep_search_answers_within_its_node_limit() {
    let started = Instant::now();
    let args = [
        "daldos",
        "best",
        "--position",
        MIDDLE,
        "--dice",
        "3,1",
        "--depth",
        "8",
        "--max-nodes",
        "100000",
        "--format",
        "json",
    ];
    let v = json(&args);
    assert!(started.elapsed() < Duration::from_secs(20));
    has_fields(&v, &["value", "best", "plays", "depth", "nodes"]);
    assert_eq!(v["complete"], false);
    assert_eq!(v["depth_asked"], 8);
    let depth = v["depth"].as_u64().unwrap();
    assert!((1..8).contains(&depth), "{v}");
    assert!(v["nodes_total"].as_u64().unwrap() <= 100_000);
    let best = v["best"].as_str().unwrap();
    assert!(
        legal_plays(MIDDLE, "3,1").iter().any(|p| p == best),
        "{best}"
    );
    // The same answer on any thread count.
    let two = json(&[&args[..], &["--threads", "2"]].concat());
    let one = json(&[&args[..], &["--threads", "1"]].concat());
    let one = super::without_folder(one);
    assert_eq!(one, super::without_folder(two));
    assert_eq!(one, super::without_folder(v));

    let text = run(&args[..args.len() - 2], None);
    assert!(text.status.success());
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains(&format!("depth {depth} of the 8 asked (node limit reached")),
        "{text}"
    );
}

#[test]
fn a_search_that_finishes_says_complete() {
    let v = json(&[
        "daldos",
        "best",
        "--position",
        MIDDLE,
        "--dice",
        "3,1",
        "--depth",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(
        (v["depth"].as_u64(), v["depth_asked"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(v["complete"], true);
    // No limit: the depth asked, searched at once.
    let free = json(&[
        "daldos",
        "best",
        "--position",
        MIDDLE,
        "--dice",
        "3,1",
        "--depth",
        "2",
        "--max-nodes",
        "0",
        "--format",
        "json",
    ]);
    assert_eq!(free["complete"], true);
    assert_eq!(free["value"], v["value"]);
    assert_eq!(free["plays"], v["plays"]);
    assert_eq!(free["nodes"], v["nodes"]);
    assert_eq!(free["nodes_total"], free["nodes"]);
}

#[test]
fn batch_answers_every_line() {
    let input = format!("{MIDDLE}\nnot a position\n{START}\n");
    let out = run(
        &[
            "daldos",
            "best",
            "--position",
            "-",
            "--dice",
            "3,1",
            "--depth",
            "2",
        ],
        Some(&input),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stderr.len() < 300, "no progress bar: {:?}", out.stderr);
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    let single = json(&[
        "daldos",
        "best",
        "--position",
        MIDDLE,
        "--dice",
        "3,1",
        "--depth",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(
        super::without_folder(lines[0].clone()),
        super::without_folder(single)
    );
    assert_eq!(lines[1]["line"], 2);
    assert!(lines[1]["error"].is_string());
    has_fields(&lines[2], &["value", "best", "plays", "depth", "nodes"]);
    let best = lines[2]["best"].as_str().unwrap();
    assert!(
        legal_plays(START, "3,1").iter().any(|p| p == best),
        "{best}"
    );
}

/// `--rollouts N`: every listed play gets N games' mean and standard
/// error, the same for the same seed on any thread count; the text shows
/// them beside the search's value; 0 games is refused.
#[test]
fn rollouts_give_each_play_a_mean_and_standard_error() {
    let args = [
        "daldos",
        "best",
        "--position",
        MIDDLE,
        "--dice",
        "3,1",
        "--depth",
        "1",
        "--top",
        "3",
        "--rollouts",
        "40",
        "--format",
        "json",
    ];
    let v = json(&args);
    let plays = v["plays"].as_array().unwrap();
    assert_eq!(plays.len(), 3);
    for p in plays {
        has_fields(
            &p["rollout"],
            &["games", "mean", "stderr", "table_ends", "capped"],
        );
        assert_eq!(p["rollout"]["games"], 40);
        let s = p["rollout"]["stderr"].as_f64().unwrap();
        assert!(s > 0.0 && s < 0.1, "{p}");
    }
    assert_eq!(v["rollouts"]["player"], "engine:1");
    assert_eq!(v["rollouts"]["seed"], 1);
    let again = json(&[&args[..], &["--threads", "1"]].concat());
    assert_eq!(
        super::without_folder(again),
        super::without_folder(v.clone())
    );
    let other = json(&[&args[..], &["--rollout-seed", "2"]].concat());
    assert_ne!(other["plays"], v["plays"]);

    let text = run(&args[..args.len() - 2], None);
    let text = String::from_utf8(text.stdout).unwrap();
    let m = plays[0]["rollout"]["mean"].as_f64().unwrap();
    let s = plays[0]["rollout"]["stderr"].as_f64().unwrap();
    assert!(text.contains(&format!("rollout {m:.4} ± {s:.4}")), "{text}");
    assert!(text.contains("40 games per play of engine:1"), "{text}");

    // Without --dice: each throw's listed play.
    let all = json(&[
        "daldos",
        "best",
        "--position",
        MIDDLE,
        "--depth",
        "1",
        "--top",
        "1",
        "--rollouts",
        "5",
        "--format",
        "json",
    ]);
    let throws = all["throws"].as_array().unwrap();
    assert_eq!(throws.len(), 16);
    assert!(throws
        .iter()
        .all(|t| t["plays"][0]["rollout"]["games"] == 5));

    for (n, flag) in [("0", "--rollouts"), ("100001", "--rollouts")] {
        let out = run(&[&args[..10], &[flag, n]].concat(), None);
        assert!(!out.status.success());
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains(&format!("--rollouts {n} is out of range 1..=100000")),
            "{err}"
        );
    }
    let out = run(&[&args[..], &["--rollout-depth", "0"]].concat(), None);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("--rollout-depth 0 is out of range"), "{err}");
}
