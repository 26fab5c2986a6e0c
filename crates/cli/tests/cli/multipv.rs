//! `dakon best --multipv K` (issue 19 §3): the K best moves, each with
//! its value and its own line; lines agree with `--every-move`, are ranked
//! as the move table is, and an exact line replayed by `dakon play` ends
//! the game at its value. The readable lines of the text (`S2 S1 | N2`).

use serde_json::Value;

use super::{json, run};

/// Small boards and game positions of 5 × 5 and 7 × 7 that solve in a
/// fraction of a second with every move, with turns passing in their
/// lines.
const POSITIONS: &[&str] = &[
    "4,4,4,4/4,4,4,4/0,0 0",
    "5,5,5,5,5/5,5,5,5,5/0,0 0",
    "0,3,0,1,2/1,0,2,0,3/6,4 1",
    "0,2,1,0,3,0,1/2,0,1,1,0,2,0/40,45 0",
    "1,0,3,2,0,4,1/0,3,1,0,2,1,3/38,39 1",
    "2,1,0,3,4,0,2/1,4,0,2,1,3,0/30,45 0",
];

fn best(pos: &str, extra: &[&str]) -> Value {
    let mut args = vec!["dakon", "best", "--position", pos, "--format", "json"];
    args.extend_from_slice(extra);
    json(&args)
}

fn int(v: &Value) -> i64 {
    v.as_i64().unwrap_or_else(|| panic!("not an integer: {v}"))
}

/// The final store difference for `pos`'s side to move at the end of
/// `pv` played from `pos` by `dakon play`, or `None` if the game is not
/// over there.
fn replayed(pos: &str, pv: &[i64]) -> Option<i64> {
    let moves: Vec<String> = pv.iter().map(|h| h.to_string()).collect();
    let played = json(&[
        "dakon",
        "play",
        "--position",
        pos,
        "--moves",
        &moves.join(","),
        "--format",
        "json",
    ]);
    let end = played["positions"].as_array().unwrap().last().unwrap();
    let (rows, rest) = end.as_str().unwrap().rsplit_once('/').unwrap();
    if !rows.split(['/', ',']).all(|c| c == "0") {
        return None;
    }
    let stores: Vec<i64> = rest
        .split(' ')
        .next()
        .unwrap()
        .split(',')
        .map(|s| s.parse().unwrap())
        .collect();
    Some(match pos.ends_with('0') {
        true => stores[0] - stores[1],
        false => stores[1] - stores[0],
    })
}

/// Every K from 1 to past the legal moves: K lines (clamped to the legal
/// moves), each move's value that of `--every-move`, best first, the
/// first a best move, each pv starting with its move and ending the game
/// at its value; the rest of the answer is `best`'s own.
#[test]
fn lines_agree_with_every_move_and_replay_to_their_value() {
    for pos in POSITIONS {
        let every = best(pos, &["--every-move", "--threads", "1"]);
        let values: Vec<(i64, i64)> = every["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (int(&m["move"]), int(&m["value"])))
            .collect();
        let plain = best(pos, &[]);
        let legal = values.len();
        for k in [1, 2, legal, legal + 3] {
            let v = best(pos, &["--multipv", &k.to_string()]);
            for field in ["value", "best_moves", "pv", "exact"] {
                assert_eq!(v[field], plain[field], "{pos} K={k}: {field}");
            }
            let lines = v["lines"].as_array().unwrap();
            assert_eq!(lines.len(), k.min(legal), "{pos} K={k}");
            let mut last = i64::MAX;
            for (i, l) in lines.iter().enumerate() {
                assert_eq!(l["exact"], true, "{pos} K={k}: {l}");
                assert!(l.get("lower").is_none() && l.get("upper").is_none());
                let (hole, value) = (int(&l["move"]), int(&l["value"]));
                assert!(values.contains(&(hole, value)), "{pos} K={k}: {l}");
                assert!(value <= last, "{pos} K={k}: not ranked at {l}");
                last = value;
                if i == 0 {
                    assert_eq!(value, int(&v["value"]), "{pos}");
                    assert!(v["best_moves"].as_array().unwrap().contains(&l["move"]));
                }
                let pv: Vec<i64> = l["pv"].as_array().unwrap().iter().map(int).collect();
                assert_eq!(pv[0], hole, "{pos}: {l}");
                assert_eq!(replayed(pos, &pv), Some(value), "{pos}: {l}");
            }
            // All the lines: every legal move once.
            if k >= legal {
                let mut holes: Vec<i64> = lines.iter().map(|l| int(&l["move"])).collect();
                holes.sort();
                let mut all: Vec<i64> = values.iter().map(|m| m.0).collect();
                all.sort();
                assert_eq!(holes, all, "{pos}");
            }
        }
    }
}

/// The hand-worked position of render's `line`: South's S2 ends in its
/// store (a bonus move), S1 then captures North's N1 with the seed it
/// sows into the empty S2 and the turn passes; North's N2 ends in its
/// store, North's row is empty, the leftover seed (S2's) is South's: 3
/// to 1, +2. S1 at once captures N2's seed and ends the game 4 to 0.
#[test]
fn the_text_reads_each_line_with_its_sides() {
    let out = run(
        &[
            "dakon",
            "best",
            "--position",
            "1,1/1,1/0,0 0",
            "--multipv",
            "2",
        ],
        None,
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let shown: Vec<&str> = text.lines().collect();
    let at = shown
        .iter()
        .position(|l| *l == " line  move  value  pv")
        .unwrap_or_else(|| panic!("no lines table in\n{text}"));
    assert_eq!(
        shown[at + 1..at + 3],
        ["    1     1     +4  S1", "    2     2     +2  S2 S1 | N2"]
    );
    assert!(text.contains("\npv          S1\n"), "{text}");
    let v = best("1,1/1,1/0,0 0", &["--multipv", "2"]);
    assert_eq!(
        v["lines"],
        serde_json::json!([
            {"move": 1, "value": 4, "exact": true, "pv": [1]},
            {"move": 2, "value": 2, "exact": true, "pv": [2, 1, 2]},
        ])
    );
    // The 4 × 4 start's pv in `best`'s text: South's first turn of 13
    // moves (each ending in South's store but the last), North's one
    // move, South's last.
    let out = run(
        &["dakon", "best", "--position", "4,4,4,4/4,4,4,4/0,0 0"],
        None,
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("\npv          S1 S4 S2 S4 S1 S4 S1 S3 S2 S3 S4 S1 S2 | N2 | S1\n"),
        "{text}"
    );
}

/// A budget that proves only the best move of the 7 × 7 start: the first
/// line exact (+98), the others
/// with proved bounds (`lower`/`upper`, the value within them) below it,
/// marked not proved in the text; the budget still bounds the work.
#[test]
fn a_budget_gives_lines_with_bounds() {
    let pos = "7,7,7,7,7,7,7/7,7,7,7,7,7,7/0,0 0";
    let budget = ["--max-nodes", "150000", "--threads", "1", "--multipv", "3"];
    let v = best(pos, &budget);
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3);
    assert_eq!((int(&lines[0]["move"]), int(&lines[0]["value"])), (1, 98));
    // The budget ran out while the proved line was walked: it stops
    // early (docs/cli.md), as `best`'s own pv does, and never leaves the
    // value.
    assert_eq!(lines[0]["pv"], v["pv"]);
    let pv: Vec<i64> = lines[0]["pv"].as_array().unwrap().iter().map(int).collect();
    assert!(matches!(replayed(pos, &pv), None | Some(98)), "{v}");
    let mut last_upper = i64::MAX;
    for l in &lines[1..] {
        assert_eq!(l["exact"], false, "{l}");
        let (lo, hi, value) = (int(&l["lower"]), int(&l["upper"]), int(&l["value"]));
        assert!(lo <= value && value <= hi && hi < 98, "{l}");
        assert!(hi <= last_upper, "not ranked: {l}");
        last_upper = hi;
        assert_eq!(l["pv"][0], l["move"]);
    }
    // Two searches of 150000 nodes each (the second when `every_move`'s
    // is cut), the lines' walks within one node each, the estimate.
    assert!(int(&v["nodes"]) < 2 * 150_000 + 2 * 8192 + 1_000_000, "{v}");
    let text = run(
        &[
            "dakon",
            "best",
            "--position",
            pos,
            "--max-nodes",
            "150000",
            "--multipv",
            "2",
        ],
        None,
    );
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains("  (the table's line, not proved)\n"),
        "{text}"
    );
}

/// K = 0 is refused: one line, exit 2.
#[test]
fn no_lines_is_refused() {
    let out = run(
        &[
            "dakon",
            "best",
            "--position",
            "4,4,4,4/4,4,4,4/0,0 0",
            "--multipv",
            "0",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: --multipv must be at least 1 (the number of best moves to show)\n"
    );
    assert!(out.stdout.is_empty());
}

/// A batch gives each position its lines, a finished game none.
#[test]
fn a_batch_gives_each_position_its_lines() {
    let out = run(
        &["dakon", "best", "--position", "-", "--multipv", "2"],
        Some("1,1/1,1/0,0 0\n0,0/1,1/0,0 0\n"),
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows[0]["lines"].as_array().unwrap().len(), 2);
    assert_eq!(rows[1]["lines"], serde_json::json!([]));
}

/// The game's hint ends with the best line, read as `best`'s text reads
/// its pv (`[1,2,1,2,1,3,1,1,3,1,1]` on the 3 × 3 start: five moves of
/// South's first turn, then the turn passes at every move but the last).
#[test]
fn the_hint_reads_the_best_line() {
    let out = run(
        &["dakon", "game", "--holes", "3", "--seeds", "3"],
        Some("hint\nquit\n"),
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("\n    2     -4\nbest line: S1 S2 S1 S2 S1 | N3 | S1 | N1 | S3 | N1 | S1\n"),
        "{text}"
    );
    let v = best("3,3,3/3,3,3/0,0 0", &[]);
    assert_eq!(
        v["pv"],
        serde_json::json!([1, 2, 1, 2, 1, 3, 1, 1, 3, 1, 1])
    );
}
