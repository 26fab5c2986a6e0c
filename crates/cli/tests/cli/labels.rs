//! Honest labels: `daldos best` calls a value exact only where the search
//! reached the end of the game, `daldos odds` says what it computes and
//! shows fractions only where they are the probability, and each command's
//! `--help` lists only the formats it writes.

use serde_json::Value;

use super::{json, run};

/// A to move on the 4-hole board; every throw captures b's last piece.
const ONE_THROW_FROM_THE_END: &str = "a.../....b/.aa. a";
const START: &str = "AAAAAAAAAAAAAAAA/................./BBBBBBBBBBBBBBBB a";
const MIDDLE: &str = "AAAAAAA.a.a...ba/ba..b..a.ab..a.bb/BBBBBBB.b.b.aab. a";
/// B to move; a's pieces on A1, A2, A4 and M2.
const ODDS: &str = "AA.a/..a../.b.B b";

fn stdout(args: &[&str]) -> String {
    let out = run(args, None);
    assert!(
        out.status.success(),
        "dalkon {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Exit code 2 and exactly this one line on stderr, nothing on stdout.
fn refused_with(args: &[&str], line: &str) {
    let out = run(args, None);
    assert_eq!(out.status.code(), Some(2), "dalkon {args:?}");
    assert_eq!(String::from_utf8_lossy(&out.stderr), format!("{line}\n"));
    assert!(out.stdout.is_empty());
}

fn plays(v: &Value) -> &Vec<Value> {
    v["plays"].as_array().unwrap()
}

#[test]
fn best_is_exact_one_throw_from_the_end() {
    let args = [
        "daldos",
        "best",
        "--position",
        ONE_THROW_FROM_THE_END,
        "--depth",
        "1",
    ];
    let v = json(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(
        (v["value"].as_f64(), &v["exact"]),
        (Some(1.0), &Value::Bool(true))
    );
    for t in v["throws"].as_array().unwrap() {
        assert_eq!(t["exact"], true, "{t}");
        assert_eq!(t["value"], 1.0, "{t}");
        // The best play of each throw captures the last piece: exact.
        assert_eq!(plays(t)[0]["exact"], true, "{t}");
    }
    let text = stdout(&args);
    assert!(
        text.contains("expected value before the throw: 1.0000 (a's win probability, exact)\n"),
        "{text}"
    );
    assert!(
        text.contains("  1,2  B3-M4x        1.0000  exact\n"),
        "{text}"
    );
    assert!(!text.contains("estimate\n"), "{text}");

    // One throw: the plays that capture are exact, the one that does not
    // is valued by the static evaluation.
    let throw = [&args[..], &["--dice", "2,2"]].concat();
    let v = json(&[&throw[..], &["--format", "json"]].concat());
    assert_eq!(v["exact"], true);
    let labels: Vec<(&str, bool)> = plays(&v)
        .iter()
        .map(|p| (p["play"].as_str().unwrap(), p["exact"].as_bool().unwrap()))
        .collect();
    assert_eq!(
        labels,
        [
            ("A1-A3 B3-M4x", true),
            ("B3-M4x", true),
            ("A1-A3 A3-M4x", true),
            ("B3-M4 M4-M2", false)
        ]
    );
    let text = stdout(&throw);
    assert!(
        text.contains(
            "throw 2,2: best A1-A3 B3-M4x with value 1.0000 (a's win probability, exact)\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("    1. A1-A3 B3-M4x  1.0000  exact\n"),
        "{text}"
    );
    let last = text.lines().find(|l| l.contains("4. B3-M4 M4-M2")).unwrap();
    assert!(last.ends_with("  estimate"), "{last}");
    // With --fast the others are upper bounds, and say so.
    let fast = stdout(&[&throw[..], &["--fast"]].concat());
    assert!(
        fast.contains("    2. B3-M4x        1.0000  upper bound\n"),
        "{fast}"
    );
}

#[test]
fn best_is_an_estimate_at_the_start() {
    let args = ["daldos", "best", "--position", START, "--depth", "1"];
    let v = json(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(v["exact"], false);
    for t in v["throws"].as_array().unwrap() {
        assert_eq!(t["exact"], false, "{t}");
        assert!(plays(t).iter().all(|p| p["exact"] == false), "{t}");
    }
    let text = stdout(&args);
    assert!(text.contains("(a's win probability, estimate)\n"), "{text}");
    assert!(!text.contains("exact\n"), "{text}");
    let v = json(&[
        "daldos",
        "best",
        "--position",
        START,
        "--dice",
        "3,1",
        "--depth",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(v["exact"], false);
    assert!(plays(&v).iter().all(|p| p["exact"] == false), "{v}");
}

#[test]
fn top_limits_the_plays_listed() {
    let args = [
        "daldos",
        "best",
        "--position",
        MIDDLE,
        "--dice",
        "3,1",
        "--depth",
        "1",
    ];
    let all = json(&[&args[..], &["--format", "json"]].concat());
    let total = plays(&all).len();
    assert!(total > 10, "{total} plays");
    assert_eq!(all["plays_total"], total);
    let three = json(&[&args[..], &["--top", "3", "--format", "json"]].concat());
    assert_eq!(plays(&three)[..], plays(&all)[..3]);
    assert_eq!(three["plays_total"], total);
    assert_eq!(three["value"], all["value"]);
    // Text lists 10 by default and says how many it left out.
    let text = stdout(&args);
    assert!(text.contains("\n   10. "), "{text}");
    assert!(!text.contains("\n   11. "), "{text}");
    assert!(
        text.contains(&format!(
            "       … {} more plays (--top all lists every play)\n",
            total - 10
        )),
        "{text}"
    );
    let every = stdout(&[&args[..], &["--top", "all"]].concat());
    assert!(every.contains(&format!("\n  {total:>3}. ")), "{every}");
    assert!(!every.contains("more play"), "{every}");
    // Without --dice: each throw's best play, or K of them.
    let position = ["daldos", "best", "--position", MIDDLE, "--depth", "1"];
    let text = stdout(&position);
    assert!(
        text.contains("(at most 1 play per throw; --top K lists more)\n"),
        "{text}"
    );
    let v = json(&[&position[..], &["--top", "2", "--format", "json"]].concat());
    for t in v["throws"].as_array().unwrap() {
        assert!(plays(t).len() <= 2, "{t}");
    }
    refused_with(
        &[&args[..], &["--top", "0"]].concat(),
        "error: invalid value '0' for '--top <K|all>': expected a number of plays from 1, or `all`; see 'dalkon daldos best --help'",
    );
}

#[test]
fn odds_says_what_it_computes() {
    let text = stdout(&["daldos", "odds", "--position", ODDS]);
    assert!(
        text.contains(
            "b to move, dal=any capture=final end=last\n\
             chance that b captures each a piece this turn\n"
        ),
        "{text}"
    );
    // A fraction only where it is the probability: A1 was cut after nine
    // dal-dals, M2 and "any" are exact.
    let row = |name: &str| {
        text.lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap()
            .to_owned()
    };
    assert!(row("A1").ends_with("  +9.1e-13"), "{text}");
    assert!(row("M2").ends_with("  exact  41/256"), "{text}");
    assert!(row("any").ends_with("  exact  47/256"), "{text}");
    assert!(!text.contains("43673/1048576"), "{text}");

    let one = stdout(&["daldos", "odds", "--position", ODDS, "--target", "m2"]);
    assert!(
        one.contains("chance that b captures the a piece on M2 this turn\n"),
        "{one}"
    );
    assert!(one.contains("\nM2 "), "{one}");
    assert!(!one.contains("\nA1 ") && !one.contains("\nany "), "{one}");
    let v = json(&[
        "daldos",
        "odds",
        "--position",
        ODDS,
        "--target",
        "A1",
        "--format",
        "json",
    ]);
    let targets = v["targets"].as_array().unwrap();
    assert_eq!(targets.len(), 1);
    assert_eq!(targets[0]["hole"], "A1");
    assert_eq!(targets[0]["exact"], false);
}

#[test]
fn a_target_without_an_enemy_piece_is_refused() {
    refused_with(
        &["daldos", "odds", "--position", ODDS, "--target", "B2"],
        "error: --target B2: no piece of a (the side not to move) there; its pieces are on A1 A2 A4 M2",
    );
    refused_with(
        &["daldos", "odds", "--position", ODDS, "--target", "M9"],
        "error: --target \"M9\": hole \"M9\": column 9 is outside row M (columns 0..=4)",
    );
}

/// The command names a `--help` lists under `Commands:` (without `help`).
fn commands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// The formats a command's `--help` lists for `--format`.
fn formats(help: &str) -> Vec<String> {
    let at = help.find("--format <FORMAT>").expect("a --format flag");
    let rest = &help[at..];
    let start = rest.find("[possible values: ").expect("possible values") + 18;
    let end = start + rest[start..].find(']').unwrap();
    rest[start..end].split(", ").map(str::to_owned).collect()
}

#[test]
fn each_help_lists_only_the_formats_of_its_command() {
    // Most commands offer text and json; these offer other formats.
    let offered = |path: &str| -> &[&str] {
        match path {
            "daldos table" => &["text", "json", "csv", "md"],
            "daldos game" | "dakon game" => &["text"],
            "daldos show" | "dakon show" => &["text", "svg", "json"],
            "daldos analyse" | "dakon analyse" => &["text", "json", "svg"],
            _ => &["text", "json"],
        }
    };
    let mut leaves = Vec::new();
    for top in commands(&stdout(&["--help"])) {
        let subs = commands(&stdout(&[&top, "--help"]));
        if subs.is_empty() {
            leaves.push(vec![top.clone()]);
        }
        for sub in subs {
            leaves.push(vec![top.clone(), sub]);
        }
    }
    assert!(leaves.len() >= 10, "{leaves:?}");
    for words in leaves {
        let path = words.join(" ");
        let args: Vec<&str> = words.iter().map(String::as_str).chain(["--help"]).collect();
        let help = stdout(&args);
        assert_eq!(formats(&help), offered(&path), "dalkon {path} --help");
        if path == "daldos table" || path == "daldos match" {
            assert!(
                !help.contains("a position") && !help.contains("--position"),
                "{help}"
            );
        }
    }
    // A format a command does not offer is refused in lower case, after the
    // command name by the parser, before it by the command.
    refused_with(
        &["daldos", "best", "--position", START, "--format", "md"],
        "error: invalid value 'md' for '--format <FORMAT>' [possible values: text, json]; see 'dalkon daldos best --help'",
    );
    refused_with(
        &["--format", "csv", "daldos", "best", "--position", START],
        "error: this command does not offer --format csv; choose one of: text, json",
    );
    refused_with(
        &["daldos", "table", "--format", "svg"],
        "error: invalid value 'svg' for '--format <FORMAT>' [possible values: text, json, csv, md]; see 'dalkon daldos table --help'",
    );
}
