//! `dakon game` and `daldos game`: whole games scripted through standard
//! input, checked line by line against `dakon play`, `dakon best`,
//! `daldos moves` and `daldos best`. The drawn boards are not compared
//! (how they look is not these tests' concern); every move line carries
//! the position it leads to, and that is.

use super::{json, run};

/// Run a game that must succeed, with `input` on stdin; its output.
fn game(args: &[&str], input: &str) -> String {
    let out = run(args, Some(input));
    assert!(
        out.status.success(),
        "dalkon {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// The output's lines with the prompts (`> `) taken off their starts.
fn lines(text: &str) -> Vec<&str> {
    text.lines()
        .map(|mut l| {
            while let Some(rest) = l.strip_prefix("> ") {
                l = rest;
            }
            l
        })
        .collect()
}

/// The position after `-> ` at the end of a move (or undo) line.
fn after_arrow(line: &str) -> Option<&str> {
    line.split_once(" -> ").map(|(_, p)| p)
}

/// Every line of `text` that starts with `prefix`.
fn starting<'a>(text: &'a str, prefix: &str) -> Vec<&'a str> {
    lines(text)
        .into_iter()
        .filter(|l| l.starts_with(prefix))
        .collect()
}

// ---------------------------------------------------------------------------
// Dakon

const D3: &str = "3,3,3/3,3,3/0,0 0";

/// The moves typed, one a line.
fn typed(moves: &[usize]) -> String {
    moves.iter().map(|m| format!("{m}\n")).collect()
}

#[test]
fn dakon_human_game_follows_dakon_play_to_the_final_score() {
    let moves = [3, 3, 1, 1, 3, 2, 3, 2, 3];
    let text = game(
        &[
            "dakon", "game", "--holes", "3", "--seeds", "3", "--second", "human",
        ],
        &typed(&moves),
    );
    let list = moves.map(|m| m.to_string()).join(",");
    let play = json(&[
        "dakon",
        "play",
        "--position",
        D3,
        "--moves",
        &list,
        "--format",
        "json",
    ]);
    let expected: Vec<&str> = play["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    let played = starting(&text, "South (0) plays hole ")
        .into_iter()
        .chain(starting(&text, "North (1) plays hole "))
        .count();
    assert_eq!(played, moves.len(), "{text}");
    let got: Vec<&str> = lines(&text)
        .into_iter()
        .filter(|l| l.contains(" plays hole "))
        .filter_map(after_arrow)
        .collect();
    assert_eq!(got, expected);
    // The last position of `dakon play` has both stores at 9.
    assert_eq!(expected.last(), Some(&"0,0,0/0,0,0/9,9 0"));
    let tail: Vec<&str> = lines(&text).into_iter().rev().take(2).collect();
    assert_eq!(
        tail,
        [
            "Moves from 3,3,3/3,3,3/0,0 0: 3,3,1,1,3,2,3,2,3",
            "Game over: South (0) 9, North (1) 9: a draw.",
        ]
    );
    // The events are those of `dakon play`.
    let events = play["events"][0].as_array().unwrap();
    let first = lines(&text);
    let at = first
        .iter()
        .position(|l| l.starts_with("South (0) plays hole 3 -> "))
        .unwrap();
    for (k, e) in events.iter().enumerate() {
        assert_eq!(first[at + 1 + k], format!("  {}", e.as_str().unwrap()));
    }
}

/// One `hint` of a Dakon transcript.
struct Hint {
    /// The position it was asked in.
    pos: String,
    /// (move, value), as listed.
    rows: Vec<(usize, i64)>,
    /// Its first line.
    header: String,
}

/// Each `hint` of a transcript that starts from `start`.
fn hints(text: &str, start: &str) -> Vec<Hint> {
    let mut pos = start.to_owned();
    let mut out = Vec::new();
    let all = lines(text);
    for (i, l) in all.iter().enumerate() {
        if let Some(p) = after_arrow(l) {
            pos = p.to_owned();
        }
        if l.starts_with("hint: ") {
            assert_eq!(all[i + 1], " move  value");
            let rows: Vec<(usize, i64)> = all[i + 2..]
                .iter()
                .map_while(|r| {
                    let mut w = r.split_whitespace();
                    let m = w.next()?.parse().ok()?;
                    let v = w.next()?.parse().ok()?;
                    Some((m, v))
                })
                .collect();
            out.push(Hint {
                pos: pos.clone(),
                rows,
                header: l.to_string(),
            });
        }
    }
    out
}

#[test]
fn dakon_hints_are_the_values_of_dakon_best() {
    let text = game(
        &["dakon", "game", "--holes", "3", "--seeds", "3"],
        "hint\n2\nhint\nquit\n",
    );
    let hints = hints(&text, D3);
    assert_eq!(hints.len(), 2, "{text}");
    assert_eq!(
        hints[0].header,
        "hint: final store difference for South (0) after each move, best play after it (exact)"
    );
    // From the start: ranked best first.
    assert_eq!(hints[0].rows, [(1, 10), (3, 0), (2, -4)]);
    for Hint { pos, rows, header } in &hints {
        assert!(header.ends_with("(exact)"), "{header}");
        let best = json(&[
            "dakon",
            "best",
            "--position",
            pos,
            "--every-move",
            "--format",
            "json",
        ]);
        assert_eq!(best["exact"], true);
        let mut want: Vec<(usize, i64)> = best["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["move"].as_u64().unwrap() as usize,
                    m["value"].as_i64().unwrap(),
                )
            })
            .collect();
        want.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
        assert_eq!(rows, &want, "hint in {pos}");
    }
    // The engine's moves are exact best moves, and say so; its first reply
    // (North has seeds only in N3 after South plays 2) is forced.
    let engine = starting(&text, "  engine: ");
    assert_eq!(engine[0], "  engine: forced: the only legal move");
    assert!(engine.len() > 1);
    assert!(
        engine[1..]
            .iter()
            .all(|l| l.starts_with("  engine: exact best move, value ")),
        "{engine:?}"
    );
    assert!(
        text.ends_with(
            "Game stopped, not finished: stores South (0) 5, North (1) 10; 3 seeds still on the board.\n\
             Moves from 3,3,3/3,3,3/0,0 0: 2,3,2,1,1\n"
        ),
        "{text}"
    );
}

#[test]
fn dakon_undo_takes_back_the_move_and_the_engine_reply() {
    let args = ["dakon", "game", "--holes", "3", "--seeds", "3"];
    let text = game(&args, "2\nundo\n1\nquit\n");
    let all = lines(&text);
    let undo = all
        .iter()
        .find(|l| l.starts_with("undo: "))
        .expect("an undo line");
    // Everything since the typed move goes, the engine's four replies
    // (bonus moves) included.
    assert_eq!(starting(&text, "North (1) plays hole ").len(), 4);
    assert_eq!(
        *undo,
        "undo: took back 5 moves (holes 2, 3, 2, 1, 1) -> 3,3,3/3,3,3/0,0 0"
    );
    // Back at the start: the same prompt, and the game goes on from there
    // as a game where 1 was the first move typed.
    let at = all.iter().position(|l| l.starts_with("undo: ")).unwrap();
    let prompt = "South (0) to move: hole 1, 2 or 3 (or hint, undo, help, quit)";
    assert!(all[at..].contains(&prompt));
    let fresh = game(&args, "1\nquit\n");
    let tail = |t: &str| -> Vec<String> {
        let l = lines(t);
        let from = l
            .iter()
            .rposition(|x| x.starts_with("South (0) plays hole 1 -> "))
            .unwrap();
        l[from..].iter().map(|s| s.to_string()).collect()
    };
    assert_eq!(tail(&text), tail(&fresh));
    // Nothing to undo at the start.
    let none = game(&args, "undo\nquit\n");
    assert!(
        lines(&none).contains(&"nothing to undo: no move has been typed yet"),
        "{none}"
    );
}

#[test]
fn dakon_bad_lines_get_a_message_and_a_new_prompt() {
    let text = game(
        &[
            "dakon", "game", "--holes", "3", "--seeds", "3", "--second", "human",
        ],
        "seven\n0\n9\n\n-1\n3\n1\n",
    );
    let all = lines(&text);
    for message in [
        "\"seven\" is not a move: type a hole number (1, 2 or 3), or help",
        "there is no hole 0: holes are numbered 1 to 3: play hole 1, 2 or 3",
        "there is no hole 9: holes are numbered 1 to 3: play hole 1, 2 or 3",
        "\"\" is not a move: type a hole number (1, 2 or 3), or help",
        "\"-1\" is not a move: type a hole number (1, 2 or 3), or help",
        // After 3, North's first hole is empty.
        "hole 1 of the side to move is empty: play hole 3",
    ] {
        assert!(all.contains(&message), "{message:?} missing from\n{text}");
    }
    assert_eq!(starting(&text, "South (0) plays hole 3 -> ").len(), 1);
    assert!(
        text.ends_with("Moves from 3,3,3/3,3,3/0,0 0: 3\n"),
        "{text}"
    );
    // Bytes that are not UTF-8 are one bad line too.
    let out = super::streams::run_bytes(
        &[
            "dakon", "game", "--holes", "2", "--seeds", "2", "--second", "human",
        ],
        b"\xff\xfe\n1\n",
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        lines(&text).contains(&"that line is not UTF-8 text; type help for the commands"),
        "{text}"
    );
    assert_eq!(starting(&text, "South (0) plays hole 1 -> ").len(), 1);
}

/// `before`, a line of 2 MiB, then `after`.
fn overlong(before: &str, after: &str) -> Vec<u8> {
    let mut bytes = before.as_bytes().to_vec();
    bytes.resize(bytes.len() + (2 << 20), b'7');
    bytes.push(b'\n');
    bytes.extend_from_slice(after.as_bytes());
    bytes
}

const TOO_LONG: &str = "that line is longer than 1 MiB (1048576 bytes); type help for the commands";

#[test]
fn an_overlong_line_is_a_bad_command_in_both_games() {
    let out = super::streams::run_bytes(
        &[
            "dakon", "game", "--holes", "2", "--seeds", "2", "--second", "human",
        ],
        &overlong("", "1\n"),
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(lines(&text).contains(&TOO_LONG), "{text}");
    assert_eq!(starting(&text, "South (0) plays hole 1 -> ").len(), 1);

    // Daldøs (4 board, seed 3): a chooses at throw 3 and throw 5.
    let out = super::streams::run_bytes(
        &[
            "daldos", "game", "--board", "4", "--seed", "3", "--b", "random",
        ],
        &overlong("1\n", "quit\n"),
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let all = lines(&text);
    let at = all.iter().position(|l| *l == TOO_LONG).expect(&text);
    let throw_5 = all.iter().position(|l| *l == "throw 5: a throws 3,1");
    assert!(throw_5.is_some_and(|t| t < at), "{text}");
    assert!(all.contains(&"a plays M2-B2x A3-A4 -> AA.a/...../BaBB b"));
    assert!(
        text.ends_with("Game stopped after 4 throws, not finished; pieces left: a 4, b 3.\n"),
        "{text}"
    );
}

#[test]
fn dakon_engine_game_plays_to_the_end_without_input() {
    let text = game(
        &[
            "dakon", "game", "--holes", "3", "--seeds", "2", "--first", "engine", "--second",
            "engine",
        ],
        "",
    );
    assert!(
        !text.contains("\n> "),
        "an engine game asks nothing: {text}"
    );
    let moves = text
        .lines()
        .find_map(|l| l.strip_prefix("Moves from 2,2,2/2,2,2/0,0 0: "))
        .expect("a moves line");
    let play = json(&[
        "dakon",
        "play",
        "--position",
        "2,2,2/2,2,2/0,0 0",
        "--moves",
        moves,
        "--format",
        "json",
    ]);
    let last = play["positions"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .as_str()
        .unwrap();
    assert_eq!(last, "0,0,0/0,0,0/9,3 1");
    assert!(text.contains("\nGame over: South (0) 9, North (1) 3: South (0) wins by 6.\n"));
    // Perfect play from both sides keeps the value of the start.
    let best = json(&[
        "dakon",
        "best",
        "--position",
        "2,2,2/2,2,2/0,0 0",
        "--format",
        "json",
    ]);
    assert_eq!(best["value"], 6);
    assert_eq!(
        starting(&text, "  engine: ")[0],
        "  engine: exact best move, value +6 for South (0) (final store difference)"
    );
}

#[test]
fn dakon_engine_past_its_node_limit_says_it_estimates() {
    let text = game(
        // One thread: the node count at which the search gives up is then
        // the same in every run.
        &[
            "--threads",
            "1",
            "dakon",
            "game",
            "--max-nodes",
            "10",
            "--first",
            "engine",
        ],
        "hint\nquit\n",
    );
    let engine = starting(&text, "  engine: ");
    assert!(
        engine.iter().any(|l| l
            .contains("NOT exact: the exact search did not finish within 10 nodes (--max-nodes)")),
        "{engine:?}"
    );
    let hint = starting(&text, "hint: ");
    assert!(
        hint.iter().all(|l| l.ends_with("(ESTIMATE, 6 plies deep: the exact search did not finish within 10 nodes (--max-nodes))")),
        "{hint:?}"
    );
}

/// A game started from a finished position ends at once with the rules'
/// final score, on the drawn board and in the result line: North's
/// leftover seeds are North's (it said "South (0) wins by 3" and "a
/// draw").
#[test]
fn dakon_game_from_a_finished_position_counts_the_leftover_seeds() {
    for (pos, result) in [
        (
            "0,0/5,0/3,0 0",
            "Game over: South (0) 3, North (1) 5: North (1) wins by 2.",
        ),
        (
            "0,0/1,1/0,0 0",
            "Game over: South (0) 0, North (1) 2: North (1) wins by 2.",
        ),
    ] {
        let text = game(&["dakon", "game", "--position", pos], "");
        let lines = lines(&text);
        assert!(
            lines.contains(&format!("game over: North (1) wins by 2   ({pos})").as_str()),
            "{text}"
        );
        assert!(lines.contains(&result), "{text}");
        assert!(
            !text.contains("South (0) wins") && !text.contains("draw"),
            "{text}"
        );
    }
}

/// A forced move is played at once, with no search: on a 32-hole board
/// with one legal move (no move was made in 60 s).
#[test]
fn dakon_engine_plays_a_forced_move_at_once() {
    let mut south = vec!["0"; 31];
    south.push("1");
    let pos = format!("{}/{}/0,0 0", south.join(","), vec!["3"; 32].join(","));
    let text = game(
        &[
            "dakon",
            "game",
            "--first",
            "engine",
            "--second",
            "engine",
            "--position",
            &pos,
        ],
        "",
    );
    let played = starting(&text, "South (0) plays hole ");
    assert_eq!(played.len(), 1, "{text}");
    assert!(
        played[0].starts_with("South (0) plays hole 32 -> "),
        "{text}"
    );
    assert_eq!(
        starting(&text, "  engine: "),
        vec!["  engine: forced: the only legal move"]
    );
    // The sweep gives North its 96 seeds.
    assert!(
        text.contains("\nGame over: South (0) 1, North (1) 96: North (1) wins by 95.\n"),
        "{text}"
    );
}

#[test]
fn game_offers_text_only() {
    for (args, message) in [
        (
            &["dakon", "game", "--format", "json"][..],
            "error: invalid value 'json' for '--format <FORMAT>' [possible values: text]; see 'dalkon dakon game --help'\n",
        ),
        (
            &["--format", "json", "daldos", "game"][..],
            "error: this command does not offer --format json; choose one of: text\n",
        ),
        (
            &["daldos", "game", "--a", "minimax"][..],
            "error: --a: unknown player \"minimax\": expected human, random, greedy, engine:N, hand:N or perfect\n",
        ),
        (
            &["dakon", "game", "--holes", "3"][..],
            "error: the following required arguments were not provided: --seeds <SEEDS>; see 'dalkon dakon game --help'\n",
        ),
    ] {
        let out = run(args, Some(""));
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        assert_eq!(String::from_utf8_lossy(&out.stderr), message);
    }
}

// ---------------------------------------------------------------------------
// Daldøs

/// The start of a board of row length `l`, a to move.
fn daldos_start(l: usize) -> String {
    format!(
        "{}/{}/{} a",
        "A".repeat(l),
        ".".repeat(l + 1),
        "B".repeat(l)
    )
}

/// Follow a Daldøs transcript from `start`, checking every throw's play
/// against `daldos moves`; the number of throws checked.
fn check_daldos(text: &str, start: &str) -> usize {
    let all = lines(text);
    let mut pos = start.to_owned();
    let mut throws = 0;
    let mut i = 0;
    while i < all.len() {
        let l = all[i];
        if l.starts_with("undo: ") {
            pos = after_arrow(l).unwrap().to_owned();
        }
        let Some(rest) = l.strip_prefix("throw ") else {
            i += 1;
            continue;
        };
        let (_, dice) = rest.rsplit_once(" throws ").unwrap();
        let plays = json(&[
            "daldos",
            "moves",
            "--position",
            &pos,
            "--dice",
            dice,
            "--format",
            "json",
        ]);
        let plays = plays["plays"].as_array().unwrap();
        // The play line follows the list of plays and the prompts, if any.
        let Some(j) = (i + 1..all.len()).find(|&j| {
            let l = all[j];
            (l.contains(" plays ")
                && l.contains(" -> ")
                && (l.starts_with("a ") || l.starts_with("b ")))
                || l.ends_with(": pass (no die can be used)")
                || l.starts_with("undo: ")
                || l.starts_with("Game stopped")
        }) else {
            break;
        };
        let line = all[j];
        if line.starts_with("undo: ") || line.starts_with("Game stopped") {
            i = j;
            continue;
        }
        throws += 1;
        if line.ends_with(": pass (no die can be used)") {
            assert_eq!(plays.len(), 1, "{pos} {dice}");
            assert_eq!(plays[0]["play"], "pass");
            pos = plays[0]["result"].as_str().unwrap().to_owned();
        } else {
            let (head, result) = line.split_once(" -> ").unwrap();
            let (_, play) = head.split_once(" plays ").unwrap();
            let only = play.ends_with(" (the only play)");
            let play = play.trim_end_matches(" (the only play)");
            assert_eq!(only, plays.len() == 1, "{line}");
            let found = plays
                .iter()
                .find(|p| p["play"] == play)
                .unwrap_or_else(|| panic!("{play} is not a play of {dice} in {pos}"));
            assert_eq!(found["result"], result, "{line}");
            pos = result.to_owned();
        }
        i = j + 1;
    }
    throws
}

#[test]
fn daldos_machine_games_replay_from_their_seed() {
    for (a, b, board, l, end) in [
        (
            "random",
            "greedy",
            "6",
            6,
            "Game over after 14 throws: b (greedy) wins; pieces left: a 0, b 6.",
        ),
        (
            "engine:1",
            "greedy",
            "norwegian",
            12,
            "Game over after 58 throws: b (greedy) wins; pieces left: a 0, b 3.",
        ),
    ] {
        let args = [
            "daldos", "game", "--a", a, "--b", b, "--board", board, "--seed", "5",
        ];
        let text = game(&args, "");
        assert!(
            !text.contains("\n> "),
            "a game of machines asks nothing: {text}"
        );
        assert_eq!(game(&args, ""), text, "the same seed, the same game");
        assert_eq!(text.lines().last(), Some(end));
        let throws = check_daldos(&text, &daldos_start(l));
        assert_eq!(
            Some(throws),
            end.split(' ').nth(3).and_then(|n| n.parse().ok())
        );
        // Another seed, another game.
        let other = game(
            &[
                "daldos", "game", "--a", a, "--b", b, "--board", board, "--seed", "6",
            ],
            "",
        );
        assert_ne!(other, text);
    }
}

#[test]
fn daldos_after_a_dal_dal_the_same_side_throws_again() {
    let text = game(
        &[
            "daldos",
            "game",
            "--a",
            "engine:1",
            "--b",
            "greedy",
            "--board",
            "norwegian",
            "--seed",
            "5",
        ],
        "",
    );
    let all = lines(&text);
    let mut daldals = 0;
    for (k, l) in all.iter().enumerate() {
        let Some((_, rest)) = l.split_once(": ") else {
            continue;
        };
        if !(l.starts_with("throw ") && rest.ends_with(" throws 1,1")) {
            continue;
        }
        daldals += 1;
        let side = &rest[..1];
        let again = format!("dal-dal: {side} throws again");
        let next = all[k + 1..]
            .iter()
            .position(|x| x.starts_with("throw "))
            .map(|j| k + 1 + j)
            .expect("a next throw: the game did not end on a dal-dal");
        assert!(all[k + 1..next].contains(&again.as_str()), "{l}");
        assert!(
            all[next].contains(&format!(": {side} throws ")),
            "{}",
            all[next]
        );
    }
    assert_eq!(daldals, 4);
}

#[test]
fn daldos_human_game_by_numbers_notation_undo_and_hint() {
    // On the 4 board with seed 6, a's first choice is at throw 5 (2,1:
    // three plays), the next at throw 8.
    let args = [
        "daldos", "game", "--board", "4", "--seed", "6", "--b", "random",
    ];
    let input = "hint\n2\nundo\nm1-b1x   A3-A4\nfoo\n99\n1\n";
    let text = game(&args, input);
    let all = lines(&text);
    let listed = [
        "    1. M1-B1x A3-A4",
        "    2. A3-A4 A4-M3",
        "    3. M1-B1 B1-B2x",
    ];
    let at = all
        .iter()
        .position(|l| *l == "throw 5: a throws 2,1")
        .unwrap();
    assert_eq!(&all[at + 1..at + 4], listed);
    assert_eq!(
        all[at + 4],
        "a to move: a play (1 to 3, or its notation), or hint, undo, save, help, quit"
    );
    // The hint ranks the plays by the values of `daldos best --dice`, with
    // their numbers in the list.
    let pos = "AAA./.a.../BBBB a";
    let best = json(&[
        "daldos",
        "best",
        "--position",
        pos,
        "--dice",
        "2,1",
        "--depth",
        "3",
        "--format",
        "json",
    ]);
    assert_eq!(
        all[at + 5],
        "hint: a's win probability after each play, depth 3; exact = the value of the game, \
         estimate = the engine's evaluation entered it"
    );
    let plays = best["plays"].as_array().unwrap();
    assert_eq!(plays.len(), 3);
    // Plays are padded to the longest.
    let width = plays
        .iter()
        .map(|p| p["play"].as_str().unwrap().len())
        .max()
        .unwrap();
    for (k, p) in plays.iter().enumerate() {
        let play = p["play"].as_str().unwrap();
        let number = listed.iter().position(|l| l.ends_with(play)).unwrap() + 1;
        let label = if p["exact"] == true {
            "exact"
        } else {
            "estimate"
        };
        let value = p["value"].as_f64().unwrap();
        assert_eq!(
            all[at + 6 + k],
            format!("  {number:>3}. {play:<width$}  {value:.4}  {label}")
        );
    }
    // Play 2, then undo: the same throw comes again, and the notation (any
    // case, any spacing) chooses too.
    assert!(all.contains(&"a plays A3-A4 A4-M3 -> AA../.a.a./BBBB b"));
    let undo = all.iter().position(|l| l.starts_with("undo: ")).unwrap();
    assert_eq!(
        all[undo],
        "undo: took back 4 throws and their plays -> AAA./.a.../BBBB a"
    );
    assert_eq!(
        all[undo + 1..]
            .iter()
            .filter(|l| **l == "throw 5: a throws 2,1")
            .count(),
        1
    );
    assert!(all[undo..].contains(&"a plays M1-B1x A3-A4 -> AA.a/...../aBBB b"));
    for message in [
        "\"foo\" is not a play of this throw: type its number (1 to 5) or its notation as listed, or help",
        "there is no play 99: the plays are numbered 1 to 5",
    ] {
        assert!(all.contains(&message), "{message:?} missing from\n{text}");
    }
    assert!(all.contains(&"a plays A4-M1 A2-A3 -> A.a./ba.../aB.b b"));
    check_daldos(&text, &daldos_start(4));
    // The end of the input stops the game.
    assert_eq!(
        text.lines().last(),
        Some("Game stopped after 9 throws, not finished; pieces left: a 4, b 3.")
    );
    // Nothing to undo before the first choice.
    let none = game(&args, "undo\nquit\n");
    assert!(lines(&none).contains(&"nothing to undo: no play has been chosen yet"));
}

/// At the 7×7 start the game's budget proves the best move (1, +98, as
/// `dakon best` proves it) but not the others: the hint ranks the proved
/// move first, says "exact" only of what is proved, and gives the rest as
/// proved upper bounds (it once listed move 1 last and every move as
/// "-80 .. +98 (not proved)" under an "(exact)" header).
#[test]
fn dakon_hint_ranks_the_proved_best_move_first() {
    let text = game(
        &["dakon", "game", "--holes", "7", "--seeds", "7"],
        "hint\nquit\n",
    );
    let at = text.find("hint: ").expect("a hint");
    let rows: Vec<&str> = text[at..].lines().skip(2).take(7).collect();
    assert_eq!(rows[0], "    1    +98", "{text}");
    for r in &rows[1..] {
        assert!(r.contains("<= +"), "{r}: {text}");
    }
    let best = json(&[
        "dakon",
        "best",
        "--position",
        "7,7,7,7,7,7,7/7,7,7,7,7,7,7/0,0 0",
        "--format",
        "json",
    ]);
    assert_eq!(
        (best["value"].as_i64(), best["exact"].as_bool()),
        (Some(98), Some(true))
    );
}
