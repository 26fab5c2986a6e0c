//! `dalkon dakon …` against docs/cli.md.

use super::{has_fields, json, run, Scratch};

#[test]
fn solve_reports_the_contract_fields_and_known_values() {
    let v = json(&[
        "dakon", "solve", "--holes", "3", "--seeds", "3", "--format", "json",
    ]);
    has_fields(
        &v,
        &[
            "holes",
            "seeds",
            "value",
            "result",
            "best_moves",
            "method",
            "positions",
            "seconds",
        ],
    );
    assert_eq!(v["holes"], 3);
    assert_eq!(v["seeds"], 3);
    assert_eq!(v["value"], 10);
    assert_eq!(v["result"], "win");
    // 3 holes x 5 seeds is a loss for the first player.
    let v = json(&[
        "dakon", "solve", "--holes", "3", "--seeds", "5", "--format", "json",
    ]);
    assert_eq!(
        (v["value"].as_i64(), v["result"].as_str()),
        (Some(-10), Some("loss"))
    );
}

#[test]
fn retrograde_and_search_agree() {
    let dir = Scratch::new("retro");
    let dir_s = dir.str();
    let retro = json(&[
        "dakon",
        "solve",
        "--holes",
        "3",
        "--seeds",
        "4",
        "--method",
        "retrograde",
        "--db-dir",
        dir_s,
        "--format",
        "json",
    ]);
    let search = json(&[
        "dakon", "solve", "--holes", "3", "--seeds", "4", "--method", "search", "--format", "json",
    ]);
    assert!(dir.path().join("dakon-n3-r0-k024.db").exists());
    drop(dir);
    assert_eq!(retro["method"], "retrograde");
    assert_eq!(search["method"], "search");
    assert_eq!(retro["value"], search["value"]);
    assert_eq!(retro["value"], 20);
    assert_eq!(retro["best_moves"], search["best_moves"]);
}

#[test]
fn solve_is_the_same_on_one_and_two_threads() {
    let args = [
        "dakon", "solve", "--holes", "5", "--seeds", "4", "--method", "search", "--format", "json",
    ];
    let one = json(&[&args[..], &["--threads", "1"]].concat());
    let two = json(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(one["value"], 38);
    // The values are the result; `positions` counts the work, which root
    // parallelism may share differently between threads.
    for field in ["value", "best_moves", "result", "method"] {
        assert_eq!(one[field], two[field], "{field}");
    }
}

#[test]
fn best_reads_positions_from_stdin_one_json_line_each() {
    let input = "4,4,4,4/4,4,4,4/0,0 0\n0,1/3,0/0,0 0\n";
    let out = run(
        &["dakon", "best", "--position", "-", "--format", "json"],
        Some(input),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    for v in &lines {
        has_fields(v, &["value", "best_moves", "moves", "exact"]);
    }
    assert_eq!(lines[0]["value"], 32);
    assert_eq!(lines[0]["best_moves"], serde_json::json!([1]));
    // S2 into the store is a bonus, then South is empty: North sweeps 3.
    assert_eq!(lines[1]["value"], -2);
    assert_eq!(
        lines[1]["moves"],
        serde_json::json!([{"move": 2, "value": -2}])
    );
}

#[test]
fn play_lists_positions_and_events_per_move() {
    let v = json(&[
        "dakon",
        "play",
        "--position",
        "7,7,7,7,7,7,7/7,7,7,7,7,7,7/0,0 0",
        "--moves",
        "1,3",
        "--format",
        "json",
    ]);
    assert_eq!(
        v["positions"],
        serde_json::json!([
            "0,8,8,8,8,8,8/7,7,7,7,7,7,7/1,0 0",
            "2,10,2,1,11,11,11/9,9,1,9,9,0,9/4,0 0"
        ])
    );
    assert_eq!(v["events"][1].as_array().unwrap().len(), 5);
}

#[test]
fn openings_counts_winning_first_turns() {
    let v = json(&[
        "dakon", "openings", "--holes", "3", "--seeds", "1", "--format", "json",
    ]);
    has_fields(
        &v,
        &[
            "holes",
            "seeds",
            "winning_chains",
            "shortest",
            "best",
            "best_margin",
        ],
    );
    assert_eq!(v["winning_chains"], 2);
    assert_eq!(v["shortest"], serde_json::json!([2]));
    let none = json(&[
        "dakon", "openings", "--holes", "4", "--seeds", "4", "--format", "json",
    ]);
    assert_eq!(none["winning_chains"], 0);
    assert_eq!(none["shortest"], serde_json::json!([]));
    // 5x6: 148 winning chains (data/dakon/openings.csv); the same on one
    // thread with a working folder named, which is removed afterwards.
    let dir = Scratch::new("openings");
    let args = [
        "dakon", "openings", "--holes", "5", "--seeds", "6", "--format", "json",
    ];
    let v = json(&args);
    assert_eq!(v["winning_chains"], 148);
    assert_eq!(v["best_margin"], 60);
    assert_eq!(
        v["shortest"],
        serde_json::json!([1, 2, 4, 4, 4, 2, 5, 2, 4, 1, 1, 4, 5, 3, 4, 5, 2])
    );
    let mut spilled = args.to_vec();
    spilled.extend(["--work-dir", dir.str(), "--threads", "1"]);
    assert_eq!(json(&spilled), v);
    assert!(!dir.path().exists());
}

#[test]
fn openings_first_finds_a_chain_that_play_confirms() {
    // 8x8: the whole first turn is out of reach, but a depth-first search in
    // move order finds the lexicographically first winning chain at once.
    // Replaying it move by move with `play` must keep the turn with South
    // until the last move ends the game with South ahead by the margin.
    let v = json(&[
        "dakon", "openings", "--holes", "8", "--seeds", "8", "--first", "--format", "json",
    ]);
    has_fields(
        &v,
        &["holes", "seeds", "first", "first_margin", "positions"],
    );
    let chain: Vec<String> = v["first"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.to_string())
        .collect();
    assert_eq!(chain.len(), 57);
    assert_eq!(v["first_margin"], 74);
    let moves = chain.join(",");
    let start = "8,8,8,8,8,8,8,8/8,8,8,8,8,8,8,8/0,0 0";
    let p = json(&[
        "dakon",
        "play",
        "--position",
        start,
        "--moves",
        &moves,
        "--format",
        "json",
    ]);
    let positions = p["positions"].as_array().unwrap();
    let (last, before) = positions.split_last().unwrap();
    for pos in before {
        assert!(
            pos.as_str().unwrap().ends_with(" 0"),
            "South keeps the turn: {pos}"
        );
    }
    let last = last.as_str().unwrap();
    let stores = last.split('/').nth(2).unwrap().split(' ').next().unwrap();
    let (s, n) = stores.split_once(',').unwrap();
    assert!(
        last.starts_with("0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/"),
        "{last}"
    );
    assert_eq!(s.parse::<i32>().unwrap() - n.parse::<i32>().unwrap(), 74);
}

#[test]
fn database_folders_that_cannot_be_used() {
    // A file where the folder should be: bad input, saying so.
    let scratch = Scratch::new("db-file");
    std::fs::create_dir_all(scratch.path()).unwrap();
    let file = scratch.path().join("plain-file");
    std::fs::write(&file, "not a folder").unwrap();
    let args = [
        "dakon",
        "solve",
        "--holes",
        "2",
        "--seeds",
        "2",
        "--method",
        "retrograde",
        "--db-dir",
    ];
    let out = run(&[&args[..], &[file.to_str().unwrap()]].concat(), None);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.ends_with("plain-file is not a folder: name a folder for the databases (it is created if missing)\n"),
        "{err}"
    );
    // A folder that cannot be written (sysfs refuses new folders, even to
    // root): solved in memory, and a note says the databases were not saved.
    if std::path::Path::new("/sys").is_dir() {
        let out = run(
            &[&args[..], &["/sys/dalkon-db", "--format", "json"]].concat(),
            None,
        );
        assert_eq!(out.status.code(), Some(0));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["value"], 8);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("note: the databases were not saved (cannot create /sys/dalkon-db"),
            "{err}"
        );
    }
}

/// Replaying an exact answer's principal variation with `dakon play` ends
/// the game at exactly the answer's value, on small boards' starts and on
/// positions in the middle of a game, either side to move.
#[test]
fn best_pv_replays_to_the_value() {
    for pos in [
        "2,2/2,2/0,0 0",
        "3,3,3/3,3,3/0,0 0",
        "4,4,4,4/4,4,4,4/0,0 0",
        "5,5,5,5,5/5,5,5,5,5/0,0 0",
        "0,3,0,1,2/1,0,2,0,3/6,4 1",
        "2,0,4,1,0,3/0,5,1,0,2,2/7,9 0",
    ] {
        let v = json(&["dakon", "best", "--position", pos, "--format", "json"]);
        assert_eq!(v["exact"], true, "{pos}");
        let pv: Vec<String> = v["pv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h.to_string())
            .collect();
        assert!(!pv.is_empty(), "{pos}");
        let moves = pv.join(",");
        let played = json(&[
            "dakon",
            "play",
            "--position",
            pos,
            "--moves",
            &moves,
            "--format",
            "json",
        ]);
        let end = played["positions"].as_array().unwrap().last().unwrap();
        let end = end.as_str().unwrap();
        // A finished game: both rows empty, the stores hold everything.
        let (rows, rest) = end.rsplit_once('/').unwrap();
        assert!(
            rows.split(['/', ',']).all(|c| c == "0"),
            "{pos}: pv ends at {end}"
        );
        let stores: Vec<i64> = rest
            .split(' ')
            .next()
            .unwrap()
            .split(',')
            .map(|s| s.parse().unwrap())
            .collect();
        let mover = if pos.ends_with('0') {
            stores[0] - stores[1]
        } else {
            stores[1] - stores[0]
        };
        assert_eq!(
            mover,
            v["value"].as_i64().unwrap(),
            "{pos}: pv {moves} ends at {end}"
        );
        // Every best move has its value; the others an upper bound below it.
        for m in v["moves"].as_array().unwrap() {
            if let Some(u) = m.get("upper") {
                assert!(u.as_i64() < v["value"].as_i64(), "{pos}: {m}");
            } else {
                assert_eq!(m["value"], v["value"], "{pos}: {m}");
            }
        }
    }
}

/// A budget that ends before the proof gives `"exact": false` with proved
/// bounds around the value (checked against the exact answer).
#[test]
fn best_within_a_budget_is_marked_and_bounded() {
    let pos = "6,6,6,6,6,6/6,6,6,6,6,6/0,0 0";
    let v = json(&[
        "dakon",
        "best",
        "--position",
        pos,
        "--max-nodes",
        "2000",
        "--format",
        "json",
    ]);
    assert_eq!(v["exact"], false);
    let (lo, hi) = (v["lower"].as_i64().unwrap(), v["upper"].as_i64().unwrap());
    let exact = json(&["dakon", "best", "--position", pos, "--format", "json"]);
    assert_eq!(exact["value"], 72);
    assert!(lo <= 72 && 72 <= hi, "[{lo}, {hi}]");
    assert_eq!(v["best_moves"].as_array().unwrap().len(), 1);
    let out = run(&["dakon", "best", "--position", pos, "--time", "0"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--time must be more than 0 seconds"));
}

/// `4,…,4/3,…,3,2/0,0 0` on 32 holes: `--max-nodes 1` took 28 s in an
/// unbounded estimate. The nodes reported (the estimate's included) stay
/// within the budget, the search's overshoot on one thread (4,096 + 32)
/// and the estimate's bound (1,000,000).
#[test]
fn best_on_the_widest_board_stays_within_its_node_budget() {
    let mut north = vec!["3"; 31];
    north.push("2");
    let pos = format!("{}/{}/0,0 0", vec!["4"; 32].join(","), north.join(","));
    let v = json(&[
        "--threads",
        "1",
        "dakon",
        "best",
        "--position",
        &pos,
        "--max-nodes",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(v["exact"], false);
    assert_eq!(v["best_moves"].as_array().unwrap().len(), 1);
    let nodes = v["nodes"].as_u64().unwrap();
    assert!(nodes <= 1 + 4096 + 32 + 1_000_000, "{nodes} nodes");
}

/// `solve --holes` takes 1 to 32 holes (search), databases 1 to 16
/// (docs/cli.md said 1–16 for every method): each boundary, both sides.
#[test]
fn solve_holes_limits_at_each_boundary() {
    let solve = |args: &[&str]| {
        let mut all = vec!["dakon", "solve", "--seeds", "1", "--format", "json"];
        all.extend(args);
        let out = run(&all, None);
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    assert_eq!(
        solve(&["--holes", "0"]),
        (
            Some(2),
            "error: cannot set up 0 holes × 1 seeds: a board needs at least 1 hole per row\n"
                .to_owned()
        )
    );
    assert_eq!(solve(&["--holes", "1"]), (Some(0), String::new()));
    // 32 holes pass the board check (it comes first): the table of 0 MiB
    // is what is refused; 33 are refused by the board check.
    assert_eq!(
        solve(&["--holes", "32", "--method", "search", "--tt-mb", "0"]),
        (Some(2), "error: the transposition table needs at least 1 MiB, but only 0 MiB fit or were given\n".to_owned())
    );
    let (code, err) = solve(&["--holes", "33", "--method", "search", "--tt-mb", "0"]);
    assert_eq!(code, Some(2));
    assert!(
        err.starts_with(
            "error: cannot set up 33 holes × 1 seeds: 33 holes per row is more than the 32"
        ),
        "{err}"
    );
    // Databases: 16 holes pass the check (their memory does not fit, exit
    // 1); 17 are refused as bad input, for a retrograde solve and a probe.
    let (code, err) = solve(&["--holes", "16", "--method", "retrograde"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.starts_with(
            "error: retrograde solve failed: building databases for 16 holes up to 32 seeds needs "
        ),
        "{err}"
    );
    for args in [
        &["--method", "retrograde"][..],
        &["--method", "search", "--probe-seeds", "1"],
    ] {
        let mut all = vec!["--holes", "17"];
        all.extend(args);
        let (code, err) = solve(&all);
        assert_eq!(code, Some(2), "{args:?}");
        assert!(
            err.contains("a database needs 1 to 16 holes per side, not 17"),
            "{err}"
        );
    }
}
