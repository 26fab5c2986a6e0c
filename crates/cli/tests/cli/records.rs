//! Game records (docs/formats.md, "Game records") as the commands write
//! and read them: `game --save`, `save FILE` at the prompt, `game --load`,
//! `daldos match --records`, and the refusal of a record whose move is
//! illegal, with its line and column.

use super::{json, run, Scratch};

fn ok(args: &[&str], input: &str) -> String {
    let out = run(args, Some(input));
    assert!(
        out.status.success(),
        "dalkon {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The moves of a record: the words after the blank line that ends the tags.
fn move_words(record: &str) -> Vec<String> {
    let (_, moves) = record.split_once("\n\n").expect("tags, then moves");
    moves.split_whitespace().map(str::to_owned).collect()
}

fn tag<'a>(record: &'a str, name: &str) -> Option<&'a str> {
    record.lines().find_map(|l| {
        l.strip_prefix(&format!("[{name} \""))
            .and_then(|r| r.strip_suffix("\"]"))
    })
}

#[test]
fn a_saved_dakon_game_replays_with_dakon_play_and_loads_to_the_same_end() {
    let dir = Scratch::new("dakon-record");
    std::fs::create_dir_all(dir.path()).unwrap();
    let file = dir.path().join("g.record");
    let f = file.to_str().unwrap();
    let engines = ["dakon", "game", "--first", "engine", "--second", "engine"];
    let text = ok(
        &[&engines[..], &["--holes", "4", "--seeds", "4", "--save", f]].concat(),
        "",
    );
    let record = std::fs::read_to_string(&file).unwrap();
    assert!(record.starts_with("[Game \"dakon\"]\n[Rules \"origin=sow mikul=on nembak=keep\"]\n[Holes \"4\"]\n[Seeds \"4\"]\n[South \"engine\"]\n[North \"engine\"]\n[Result \""), "{record}");
    let moves = move_words(&record).join(",");
    let play = json(&[
        "dakon",
        "play",
        "--position",
        "4,4,4,4/4,4,4,4/0,0 0",
        "--moves",
        &moves,
        "--format",
        "json",
    ]);
    let end = play["positions"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .as_str()
        .unwrap()
        .to_owned();
    assert!(text.contains(&end), "the game ended in {end}");
    // The 4 × 4 start is a win for South (docs: +4 — the exact engines play it out).
    assert_eq!(tag(&record, "Result"), Some("1-0"));

    // The first three moves, loaded: the engines play on to the same end.
    let words = move_words(&record);
    let head: String = record
        .split_once("\n\n")
        .unwrap()
        .0
        .replace("[Result \"1-0\"]", "[Result \"*\"]");
    let part = dir.path().join("part.record");
    std::fs::write(&part, format!("{head}\n\n{}\n", words[..3].join(" "))).unwrap();
    let again = dir.path().join("again.record");
    let text = ok(
        &[
            &engines[..],
            &[
                "--load",
                part.to_str().unwrap(),
                "--save",
                again.to_str().unwrap(),
            ],
        ]
        .concat(),
        "",
    );
    assert!(text.starts_with("loaded 3 moves from "), "{text}");
    assert_eq!(std::fs::read_to_string(&again).unwrap(), record);
}

#[test]
fn save_at_the_prompt_writes_the_game_so_far() {
    let dir = Scratch::new("dakon-save");
    std::fs::create_dir_all(dir.path()).unwrap();
    let file = dir.path().join("now.record");
    let input = format!("1\nsave\nsave {}\nquit\n", file.display());
    let text = ok(&["dakon", "game", "--holes", "4", "--seeds", "4"], &input);
    assert!(text.contains("save needs a file: save FILE"), "{text}");
    let record = std::fs::read_to_string(&file).unwrap();
    // South played 1 (a bonus move: its last seed in its store), then had to move again.
    assert_eq!(move_words(&record), ["1"]);
    assert!(
        record.contains("[South \"human\"]\n[North \"engine\"]\n[Result \"*\"]"),
        "{record}"
    );
    let saved = text
        .lines()
        .find(|l| l.contains("saved 1 move to"))
        .expect("said");
    assert!(saved.ends_with("now.record"), "{saved}");
}

#[test]
fn a_record_with_an_illegal_move_is_refused_with_its_line_and_column() {
    let dir = Scratch::new("bad-record");
    std::fs::create_dir_all(dir.path()).unwrap();
    let bad = dir.path().join("bad.record");
    std::fs::write(
        &bad,
        "[Game \"dakon\"]\n[Holes \"4\"]\n[Seeds \"4\"]\n\n1 2\n  9\n",
    )
    .unwrap();
    let out = run(
        &["dakon", "game", "--load", bad.to_str().unwrap()],
        Some(""),
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.ends_with("bad.record: line 6, column 3: move 3 `9`: there is no hole 9: holes are numbered 1 to 4 (North (1) to move)\n"), "{err}");
    // A Daldøs record read as a Dakon one says so.
    std::fs::write(&bad, "[Game \"daldos\"]\n").unwrap();
    let out = run(
        &["dakon", "game", "--load", bad.to_str().unwrap()],
        Some(""),
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.ends_with(
            "line 1: tag Game: this is a record of \"daldos\", read here as a record of dakon\n"
        ),
        "{err}"
    );
    let out = run(
        &[
            "daldos",
            "game",
            "--load",
            dir.path().join("none").to_str().unwrap(),
        ],
        Some(""),
    );
    assert_eq!(out.status.code(), Some(2), "a missing file is bad input");
}

#[test]
fn match_records_keep_every_game_and_their_results_add_up() {
    let dir = Scratch::new("match-records");
    let d = dir.str();
    let report = json(&[
        "daldos",
        "match",
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "6",
        "--board",
        "4",
        "--seed",
        "7",
        "--records",
        d,
        "--moves",
        "--format",
        "json",
    ]);
    let mut a_wins = 0;
    for i in 1..=6 {
        let record =
            std::fs::read_to_string(dir.path().join(format!("game-{i:04}.record"))).unwrap();
        assert_eq!(tag(&record, "Round"), Some(&*i.to_string()));
        let a_on_a = i % 2 == 1;
        assert_eq!(
            tag(&record, "A"),
            Some(if a_on_a {
                "greedy (player a)"
            } else {
                "random (player b)"
            })
        );
        let result = tag(&record, "Result").unwrap();
        if (result == "1-0") == a_on_a {
            a_wins += 1;
        }
        if i == 1 {
            // Game 1 is the one --moves lists, throw for throw.
            let listed: Vec<String> = report["first_game"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap().to_owned())
                .collect();
            let words = move_words(&record)
                .join(" ")
                .replace(['(', ')'], "")
                .replace(" - ", " pass ");
            let words = words
                .strip_suffix(" -")
                .map_or(words.clone(), |w| format!("{w} pass"));
            assert_eq!(words, listed.join(" "));
        }
    }
    assert_eq!(report["a_wins"], a_wins);
    assert_eq!(report["records"], d);
}

#[test]
fn a_loaded_daldos_game_goes_on_from_its_last_throw() {
    let dir = Scratch::new("daldos-load");
    std::fs::create_dir_all(dir.path()).unwrap();
    let file = dir.path().join("g.record");
    let f = file.to_str().unwrap();
    let machines = [
        "daldos", "game", "--a", "random", "--b", "random", "--board", "4",
    ];
    ok(
        &[&machines[..], &["--seed", "11", "--save", f]].concat(),
        "",
    );
    let record = std::fs::read_to_string(&file).unwrap();
    assert_eq!(tag(&record, "Seed"), Some("11"));
    let result = tag(&record, "Result").unwrap();
    assert!(result == "1-0" || result == "0-1", "{record}");
    // Load it whole: nothing is left to play, and the game says who won.
    let text = ok(&[&machines[..], &["--load", f]].concat(), "");
    let throws = move_words(&record)
        .iter()
        .filter(|w| w.parse::<dalkon_rules::daldos::Throw>().is_ok())
        .count();
    assert!(
        text.contains(&format!("loaded {throws} throws from")),
        "{text}"
    );
    let winner = if result == "1-0" { "a" } else { "b" };
    assert!(
        text.contains(&format!("Game over after {throws} throws: {winner} ")),
        "{text}"
    );
}
