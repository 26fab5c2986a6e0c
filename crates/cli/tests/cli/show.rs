//! `dakon show` and `daldos show` end to end: the text drawing, the SVG
//! picture read back as XML, `--best`, and bad input refused in one line.

use super::run;

/// Run a command that must succeed; its standard output.
fn stdout(args: &[&str]) -> String {
    let out = run(args, None);
    assert!(
        out.status.success(),
        "dalkon {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The `class` of every element of `svg`, in document order, after checking
/// that it is well-formed XML (no parse error, every start tag closed by its
/// own end tag, one `svg` root).
fn classes(svg: &str) -> Vec<String> {
    use svg::node::element::tag::Type;
    use svg::parser::Event;
    let mut open: Vec<String> = Vec::new();
    let mut out = Vec::new();
    let mut roots = 0;
    for event in svg::read(svg).unwrap() {
        match event {
            Event::Error(e) => panic!("not well-formed: {e}"),
            Event::Tag(name, kind, attributes) => {
                if kind != Type::End {
                    if open.is_empty() {
                        roots += 1;
                        assert_eq!(name, "svg");
                    }
                    if let Some(c) = attributes.get("class") {
                        out.push(c.to_string());
                    }
                }
                match kind {
                    Type::Start => open.push(name.to_owned()),
                    Type::End => assert_eq!(open.pop().as_deref(), Some(name)),
                    Type::Empty => {}
                }
            }
            _ => {}
        }
    }
    assert!(open.is_empty(), "unclosed: {open:?}");
    assert_eq!(roots, 1);
    out
}

fn count(classes: &[String], class: &str) -> usize {
    classes.iter().filter(|c| *c == class).count()
}

#[test]
fn dakon_text_names_holes_stores_and_the_mover() {
    let text = stdout(&["dakon", "show", "--position", "1,0,3/2,5,6/4,9 1"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 8, "{text}");
    // North's row right to left, each hole under its name.
    assert_eq!(lines[1].trim(), "N3    N2    N1");
    assert_eq!(lines[2].trim(), "[  6] [  5] [  2]");
    assert!(lines[3].starts_with("North store [  9]"), "{text}");
    assert!(lines[3].ends_with("[  4] South store"), "{text}");
    assert_eq!(lines[4].trim(), "[  1] [  0] [  3]");
    assert_eq!(lines[5].trim(), "S1    S2    S3");
    assert!(lines[0].contains("<-- North (1) sows"), "{text}");
    assert!(lines[6].contains("--> South (0) sows"), "{text}");
    assert_eq!(lines[7], "North (1) to move   (1,0,3/2,5,6/4,9 1)");
}

/// A finished position names the winner by the rules' final score: the
/// seeds left on the board go to the side not to move (rules.md §2.3).
/// `0,0/5,0/3,0 0` said "South (0) wins by 3", `0,0/1,1/0,0 0` "a draw".
#[test]
fn dakon_finished_positions_count_the_leftover_seeds() {
    for pos in ["0,0/5,0/3,0 0", "0,0/1,1/0,0 0"] {
        let text = stdout(&["dakon", "show", "--position", pos]);
        assert_eq!(
            text.lines().last().unwrap(),
            format!("game over: North (1) wins by 2   ({pos})")
        );
        let svg = stdout(&["dakon", "show", "--position", pos, "--format", "svg"]);
        assert!(
            svg.contains("Dakon, 2 holes a row: game over: North (1) wins by 2\n"),
            "{svg}"
        );
    }
    let text = stdout(&["dakon", "show", "--position", "1,1/0,0/0,2 1"]);
    assert!(
        text.ends_with("game over: a draw   (1,1/0,0/0,2 1)\n"),
        "{text}"
    );
}

#[test]
fn dakon_best_is_marked() {
    // Whatever the search finds, its best moves are the holes starred
    // (one more star in the legend line).
    let pos = "0,1,2/1,1,1/0,0 0";
    let best = super::json(&["dakon", "best", "--position", pos, "--format", "json"]);
    let moves: Vec<u64> = best["best_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_u64().unwrap())
        .collect();
    let text = stdout(&["dakon", "show", "--position", pos, "--best"]);
    for m in &moves {
        assert!(text.contains(&format!("*S{m}")), "{text}");
    }
    assert_eq!(text.matches('*').count(), moves.len() + 1, "{text}");
    assert!(text.contains("(exact)"), "{text}");
    let svg = stdout(&[
        "dakon",
        "show",
        "--position",
        pos,
        "--best",
        "--format",
        "svg",
    ]);
    let c = classes(&svg);
    assert_eq!(count(&c, "hole"), 6);
    assert_eq!(count(&c, "store"), 2);
    assert_eq!(count(&c, "best"), moves.len());
}

#[test]
fn dakon_svg_has_every_hole_and_store() {
    let svg = stdout(&[
        "--format",
        "svg",
        "dakon",
        "show",
        "--position",
        "7,7,7,7,7,7,7/7,7,7,7,7,7,7/0,0 0",
    ]);
    let c = classes(&svg);
    assert_eq!(count(&c, "hole"), 14);
    assert_eq!(count(&c, "store"), 2);
    assert_eq!(count(&c, "best"), 0);
}

#[test]
fn daldos_text_has_rows_legend_and_paths() {
    let text = stdout(&["daldos", "show", "--position", "AAA./.b.a./BBB. a"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[2], "   A    /  A  A  A  .  |  --> toward the stern");
    assert_eq!(lines[3], "   M   <.  b  .  a  .  |  <-- toward the bow");
    assert_eq!(lines[4], "   B    \\  B  B  B  .  |  --> toward the stern");
    assert!(
        text.contains("A travels A1..A4 > M4..M0 > B1..B4"),
        "{text}"
    );
    assert!(text.contains("a, b: dalt pieces"), "{text}");
    assert!(text.ends_with("A to throw; A: 4 pieces (3 undalt), B: 4 pieces (3 undalt)\n"));
}

/// The play `show --best` draws is the one `daldos best` finds.
#[test]
fn daldos_best_is_drawn_as_arrows() {
    let pos = "AAA./.b.a./BBB. a";
    let best = super::json(&[
        "daldos",
        "best",
        "--position",
        pos,
        "--dice",
        "2,1",
        "--format",
        "json",
    ]);
    let play = best["best"].as_str().unwrap();
    let text = stdout(&[
        "daldos",
        "show",
        "--position",
        pos,
        "--dice",
        "2,1",
        "--best",
    ]);
    assert!(
        text.contains(&format!("best play for the throw 2,1: {play} ")),
        "{text}"
    );
    let svg = stdout(&[
        "daldos",
        "show",
        "--position",
        pos,
        "--dice",
        "2,1",
        "--best",
        "--format",
        "svg",
    ]);
    let c = classes(&svg);
    assert_eq!(count(&c, "hole"), 13);
    assert_eq!(count(&c, "piece"), 8);
    assert_eq!(count(&c, "best"), play.split(' ').count());
    assert_eq!(count(&c, "best-play"), 1);
}

#[test]
fn daldos_svg_pieces_of_the_danish_start() {
    let svg = stdout(&[
        "daldos",
        "show",
        "--format",
        "svg",
        "--position",
        "AAAAAAAAAAAAAAAA/................./BBBBBBBBBBBBBBBB a",
    ]);
    let c = classes(&svg);
    assert_eq!(count(&c, "hole"), 49);
    assert_eq!(count(&c, "piece"), 32);
    assert_eq!(count(&c, "boat"), 1);
    assert_eq!(count(&c, "best"), 0);
}

/// Bad input: exit code 2 and one line on stderr, nothing on stdout.
#[test]
fn bad_input_is_one_line() {
    for (args, needle) in [
        (
            &["dakon", "show", "--position", "1,2/3/0,0 0"][..],
            "bad --position",
        ),
        (
            &[
                "dakon",
                "show",
                "--position",
                "1,2/3,4/0,0 0",
                "--format",
                "csv",
            ][..],
            "invalid value 'csv' for '--format <FORMAT>' [possible values: text, svg, json]",
        ),
        (
            &["daldos", "show", "--position", "AAAA/..../BBBB a"][..],
            "row M has 4 holes",
        ),
        (
            &[
                "daldos",
                "show",
                "--position",
                "AAA./...../BBB. a",
                "--best",
            ][..],
            "--best needs --dice",
        ),
        (
            &[
                "daldos",
                "show",
                "--position",
                "AAA./...../BBB. a",
                "--dice",
                "0,1",
            ][..],
            "--dice",
        ),
        (
            &[
                "daldos",
                "show",
                "--position",
                "..../...../BBB. a",
                "--dice",
                "1,1",
                "--best",
            ][..],
            "already over",
        ),
    ] {
        let out = run(args, None);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "dalkon {args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "dalkon {args:?}: {err}");
        assert!(err.contains(needle), "dalkon {args:?}: {err}");
        assert!(out.stdout.is_empty(), "dalkon {args:?}");
    }
}

/// `--best` says "exact" only where the search proved it: on this 7×7
/// game position its budget proves bounds only, and the line says so, as
/// the JSON's `"exact": false` does (it once printed "(exact)").
#[test]
fn dakon_best_is_labelled_as_its_report_is() {
    let pos = "2,10,2,1,11,11,11/9,9,1,9,9,0,9/4,0 0";
    let text = stdout(&["dakon", "show", "--position", pos, "--best"]);
    let j: serde_json::Value = serde_json::from_str(&stdout(&[
        "dakon",
        "show",
        "--position",
        pos,
        "--best",
        "--format",
        "json",
    ]))
    .unwrap();
    let line = text.lines().last().unwrap();
    assert_eq!(j["exact"], false);
    assert!(!line.contains("(exact)"), "{line}");
    assert!(line.contains("NOT exact: proved between"), "{line}");
}

/// A best play's (play, value, exact, depth) in a JSON answer.
type Answer = (String, f64, bool, u64);

/// `show --best` and `best` for one position, the throw 2,2 and a tables folder:
/// (play, value, exact, depth) from each JSON, and the text line of show.
fn show_and_best(pos: &str, db: &super::Scratch) -> (Answer, Answer, String) {
    let common = [
        "--position",
        pos,
        "--dice",
        "2,2",
        "--max-nodes",
        "2000000",
        "--db-dir",
        db.str(),
    ];
    let mut best_args = vec!["daldos", "best"];
    best_args.extend_from_slice(&common);
    best_args.extend_from_slice(&["--format", "json"]);
    let b = super::json(&best_args);
    let mut show_args = vec!["daldos", "show", "--best"];
    show_args.extend_from_slice(&common);
    let mut show_json = show_args.clone();
    show_json.extend_from_slice(&["--format", "json"]);
    let s = super::json(&show_json);
    let key = |v: &serde_json::Value| {
        (
            v["best"].as_str().unwrap().to_owned(),
            v["value"].as_f64().unwrap(),
            v["exact"].as_bool().unwrap(),
            v["depth"].as_u64().unwrap(),
        )
    };
    (key(&b), key(&s), stdout(&show_args))
}

/// `show --best` is `daldos best`'s request: on a 2 v 1 endgame of board 4
/// covered by tables built here it shows the same play and value as
/// `best`, labelled exact as `best` labels it (it once searched without
/// the tables); without tables both give the same estimate.
#[test]
fn daldos_show_best_agrees_with_best_with_and_without_tables() {
    let pos = "A..a/..b../.... a";
    let db = super::Scratch::new("show-best-tables");
    super::json(&[
        "daldos",
        "solve",
        "--board",
        "4",
        "--pieces",
        "2,1",
        "--db-dir",
        db.str(),
        "--format",
        "json",
    ]);
    let (best, show, text) = show_and_best(pos, &db);
    assert_eq!(show, best);
    assert!(best.2, "the tables cover the position: {best:?}");
    // The tables' value of the play (an estimate of 0.5991 without them).
    assert_eq!(
        (best.0.as_str(), best.1),
        ("A4-M3 M3-M1", 0.8346634858567179)
    );
    assert!(
        text.contains(&format!(
            "best play for the throw 2,2: {}  (value {:.4}: A's chance to win, exact, depth {})",
            best.0, best.1, best.3
        )),
        "{text}"
    );
    let empty = super::Scratch::new("show-best-none");
    let (best, show, text) = show_and_best(pos, &empty);
    assert_eq!(show, best);
    assert!(!best.2, "no tables: an estimate at depth 3: {best:?}");
    assert_eq!((best.0.as_str(), best.3), ("A4-M3 M3-M1", 3));
    assert!(text.contains(", estimate, depth "), "{text}");
}
