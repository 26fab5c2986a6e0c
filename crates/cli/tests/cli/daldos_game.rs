//! `daldos game` and `daldos match` share one game loop (issue 18 §1): the
//! same seed gives the same dice and plays; a game without `--seed` prints
//! the seed that replays it; a hint on a big position keeps to its budget
//! (issue 18 §5).

use std::time::{Duration, Instant};

use super::{json, run, Scratch};

/// The output of a game that must succeed.
fn game(args: &[&str], input: &str) -> String {
    let out = run(args, Some(input));
    assert!(
        out.status.success(),
        "dalkon {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Every throw of a game's transcript as `match --moves` writes it: the
/// dice, a space, the play (`pass` for a lost throw).
fn throws(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut dice = None;
    for l in text.lines() {
        if let Some(rest) = l.strip_prefix("throw ") {
            dice = Some(rest.rsplit_once(" throws ").unwrap().1.to_owned());
        } else if l.ends_with(": pass (no die can be used)") {
            out.push(format!("{} pass", dice.take().unwrap()));
        } else if let Some((head, _)) = l.split_once(" -> ") {
            if let Some((_, play)) = head.split_once(" plays ") {
                let play = play.trim_end_matches(" (the only play)");
                out.push(format!("{} {play}", dice.take().unwrap()));
            }
        }
    }
    out
}

#[test]
fn game_plays_game_one_of_the_match_with_its_seed() {
    for (a, b, board, seed) in [
        ("engine:1", "engine:1", "6", "11"),
        ("random", "greedy", "norwegian", "5"),
        ("greedy", "random", "4", "123456789"),
    ] {
        let text = game(
            &[
                "daldos", "game", "--a", a, "--b", b, "--board", board, "--seed", seed,
            ],
            "",
        );
        let m = json(&[
            "daldos", "match", "--a", a, "--b", b, "--board", board, "--seed", seed, "--games",
            "1", "--moves", "--format", "json",
        ]);
        let listed: Vec<String> = m["first_game"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_owned())
            .collect();
        let played = throws(&text);
        assert!(played.len() > 5, "{text}");
        assert_eq!(played, listed, "{a} v {b} on {board}, seed {seed}");
        assert_eq!(m["mean_turns"].as_f64(), Some(played.len() as f64));
        let winner = if m["a_wins"] == 1 { "a" } else { "b" };
        let last = text.lines().last().unwrap();
        assert!(
            last.starts_with(&format!(
                "Game over after {} throws: {winner} (",
                played.len()
            )),
            "{last}"
        );
    }
    // Without --moves the match's JSON has no such field.
    let m = json(&[
        "daldos", "match", "--a", "random", "--b", "random", "--board", "4", "--games", "1",
        "--format", "json",
    ]);
    assert!(m.get("first_game").is_none(), "{m}");
}

#[test]
fn a_game_without_a_seed_prints_the_seed_that_replays_it() {
    let args = [
        "daldos", "game", "--a", "random", "--b", "random", "--board", "5",
    ];
    let text = game(&args, "");
    let line = text
        .lines()
        .find(|l| l.starts_with("seed "))
        .unwrap_or_else(|| panic!("no seed line in\n{text}"));
    let seed = line
        .strip_prefix("seed ")
        .and_then(|r| r.split_once(' '))
        .map(|(s, _)| s)
        .unwrap();
    assert_eq!(line, format!("seed {seed} (replay with --seed {seed})"));
    assert!(seed.parse::<u64>().is_ok(), "{line}");
    let header = text.lines().next().unwrap();
    assert!(header.ends_with(&format!("; dice seed {seed}")), "{header}");
    let replay = game(&[&args[..], &["--seed", seed]].concat(), "");
    // The replay is the same game, less the line saying how to replay it.
    let without: Vec<&str> = text.lines().filter(|l| *l != line).collect();
    assert_eq!(replay.lines().collect::<Vec<_>>(), without);
    assert!(!replay.contains("replay with"));
}

/// A hint on an L = 32 position with 28 pieces a side answers within its
/// node budget: the deeper depths asked are cut short and said to be, and
/// every play is labelled an estimate. (It ran past 60 s: the tables
/// built an index for each of the board's 1,024 absent layers.)
#[test]
fn a_hint_on_a_big_position_keeps_to_its_budget() {
    let dir = Scratch::new("bighint");
    std::fs::create_dir_all(dir.path()).unwrap();
    let pos = "aaaaaaaaaaaaaa..aaaaaaaaaaaaaa../................................./\
               bbbbbbbbbbbbbb..bbbbbbbbbbbbbb.. a";
    let started = Instant::now();
    let text = game(
        &[
            "daldos",
            "game",
            "--a",
            "human",
            "--b",
            "human",
            "--position",
            pos,
            "--seed",
            "3",
            "--hint-depth",
            "8",
            "--db-dir",
            dir.str(),
        ],
        "hint\nquit\n",
    );
    let took = started.elapsed();
    assert!(took < Duration::from_secs(40), "{took:?}");
    let lines: Vec<&str> = text.lines().map(|l| l.trim_start_matches("> ")).collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("hint: "))
        .unwrap_or_else(|| panic!("no hint in\n{text}"));
    assert!(
        lines[at].contains(" of the 8 asked (the node limit stopped the deeper search)"),
        "{}",
        lines[at]
    );
    let plays: Vec<&&str> = lines[at + 1..]
        .iter()
        .take_while(|l| l.starts_with("    "))
        .collect();
    assert_eq!(plays.len(), 5, "{text}");
    assert!(plays.iter().all(|l| l.ends_with("  estimate")), "{plays:?}");
}
