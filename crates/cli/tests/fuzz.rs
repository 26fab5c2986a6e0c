//! Property-based fuzzing of every command, run in-process through
//! [`dalkon_cli::run`] (docs/cli.md: every error one line on stderr, exit 2
//! for bad input, never a panic).
//!
//! Argument vectors follow the real grammar (`daldos moves|odds|best|show|
//! table|match|game`, `dakon play|best|show|solve|openings|game`) with random
//! flag values (the games with empty standard input): valid
//! ones, mutated positions, huge and negative numbers, empty strings,
//! unicode, unknown flags. Every case is kept cheap (Dakon boards of at most
//! 4 holes and 3 seeds, Daldøs boards of 4 to 8 holes with few pieces,
//! depths and game counts of at most 2). Each case knows whether its input
//! is good (exit 0), bad (exit 2) or either, from the library's own parsers.
//!
//! Properties: no panic and no hang (each run on its own thread with a
//! deadline); exit code in {0, 1, 2}; exit 0 → stdout not empty, every
//! line JSON under `--format json`, stderr empty; exit ≠ 0 → stdout empty,
//! stderr one line starting `error: `, short; `dakon play` and `daldos
//! moves` answers agree with the rules crate (seeds conserved, the same
//! results).
//!
//! Reproducible (fixed seed); `DALKON_FUZZ_CASES` (or
//! `DALKON_FUZZ_CASES_CLI`) sets the number of cases. Databases go to a
//! temporary `DALKON_DB_DIR`, removed at the end.

use std::io::Cursor;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use dalkon_rules::dakon;
use dalkon_rules::daldos::{self, Board, Cell, Hole, Side, Throw, Variants};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};

/// Longest a single cheap case may take before it counts as a hang.
const DEADLINE: Duration = Duration::from_secs(60);

fn cases(default: u32) -> u32 {
    ["DALKON_FUZZ_CASES_CLI", "DALKON_FUZZ_CASES"]
        .iter()
        .find_map(|k| std::env::var(k).ok())
        .map(|v| v.trim().parse().expect("a case count"))
        .unwrap_or(default)
}

/// What the exit code must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// 0.
    Good,
    /// 2.
    Bad,
    /// 0 or 2 (the library decides, e.g. an illegal move in a list).
    Either,
    /// 0, 1 or 2 (a limit may be reached: memory, positions).
    Any,
}

impl Expect {
    fn and(self, other: Expect) -> Expect {
        use Expect::*;
        match (self, other) {
            (Bad, _) | (_, Bad) => Bad,
            (Any, _) | (_, Any) => Any,
            (Either, _) | (_, Either) => Either,
            (Good, Good) => Good,
        }
    }

    fn allows(self, code: i32) -> bool {
        match self {
            Expect::Good => code == 0,
            Expect::Bad => code == 2,
            Expect::Either => code == 0 || code == 2,
            Expect::Any => (0..=2).contains(&code),
        }
    }
}

/// A check of an exit-0 answer against the rules crate.
#[derive(Debug, Clone)]
enum Answer {
    None,
    /// `dakon play --format json`: the start and the moves.
    DakonPlay(dakon::Position, dakon::Rules, Vec<usize>),
    /// `daldos moves --format json`.
    DaldosMoves(daldos::Position, Variants, Throw),
}

/// One command line.
#[derive(Debug, Clone)]
struct Case {
    args: Vec<String>,
    expect: Expect,
    answer: Answer,
    json: bool,
}

/// Flag words and their expectation.
type Part = (Vec<String>, Expect);

fn part(words: &[&str], expect: Expect) -> Part {
    (words.iter().map(|w| w.to_string()).collect(), expect)
}

// ---------------------------------------------------------------------------
// Values

const ODD: &[&str] = &[
    "",
    " ",
    "７",
    "ø",
    "\u{0}",
    "\u{feff}",
    "−1",
    "-1",
    "-0",
    "+1",
    "1e3",
    "0x10",
    "1.5",
    "99999999999999999999",
    "18446744073709551616",
    "nan",
    "--",
    "-",
];

/// A number flag: valid values, or odd ones (all bad for an unsigned flag
/// except `+1`, which Rust's parsers take).
fn number(valid: Vec<&'static str>) -> impl Strategy<Value = (String, Expect)> {
    prop_oneof![
        12 => prop::sample::select(valid).prop_map(|v| (v.to_owned(), Expect::Good)),
        1 => prop::sample::select(ODD).prop_map(|v| {
            let e = if v == "+1" || v == "-0" { Expect::Either } else { Expect::Bad };
            (v.to_owned(), e)
        }),
    ]
}

/// An enum flag's value: one of `valid`, or a misspelling.
fn choice(valid: &'static [&'static str]) -> impl Strategy<Value = (String, Expect)> {
    prop_oneof![
        20 => prop::sample::select(valid).prop_map(|v| (v.to_owned(), Expect::Good)),
        1 => prop::sample::select(valid).prop_map(|v| (v.to_uppercase(), Expect::Bad)),
        1 => prop::sample::select(ODD).prop_map(|v| (v.to_owned(), Expect::Bad)),
    ]
}

/// `--name value` (or `--name=value`), absent, or `--name` with no value.
fn flag(
    name: &'static str,
    required: bool,
    value: impl Strategy<Value = (String, Expect)>,
) -> impl Strategy<Value = Part> {
    let absent = if required { Expect::Bad } else { Expect::Good };
    let value = value.prop_map(|(v, e)| (v, e));
    prop_oneof![
        12 => (value, any::<bool>()).prop_map(move |((v, e), eq)| {
            // A value that looks like a flag only gets through with `=`.
            let e = if !eq && v.starts_with('-') && v.len() > 1 { Expect::Bad.and(e) } else { e };
            if eq {
                (vec![format!("--{name}={v}")], e)
            } else {
                (vec![format!("--{name}"), v], e)
            }
        }),
        4 => Just((Vec::new(), absent)),
        1 => Just((vec![format!("--{name}")], Expect::Bad)),
    ]
}

/// A switch: absent or present.
fn switch(name: &'static str) -> impl Strategy<Value = Part> {
    prop_oneof![
        Just((Vec::new(), Expect::Good)),
        Just((vec![format!("--{name}")], Expect::Good))
    ]
}

/// Text edits: swap, drop, duplicate, insert a character.
fn mutate(text: &str, edits: &[(u8, usize, char)]) -> String {
    let mut v: Vec<char> = text.chars().collect();
    for &(kind, i, c) in edits {
        let n = v.len();
        match kind % 5 {
            0 if n >= 2 => v.swap(i % (n - 1), i % (n - 1) + 1),
            1 if n >= 1 => {
                v.remove(i % n);
            }
            2 if n >= 1 => v.insert(i % n, v[i % n]),
            3 => v.insert(i % (n + 1), c),
            4 if n >= 1 => v[i % n] = c,
            _ => {}
        }
    }
    v.into_iter().collect()
}

fn edits(alphabet: &'static str) -> impl Strategy<Value = Vec<(u8, usize, char)>> {
    let chars: Vec<char> = alphabet.chars().chain("７ø\u{0}é".chars()).collect();
    prop::collection::vec(
        (any::<u8>(), any::<usize>(), prop::sample::select(chars)),
        0..3,
    )
}

/// A small Dakon position: 1 to 4 holes, at most 3 seeds a hole.
fn dakon_position() -> impl Strategy<Value = dakon::Position> {
    (1..=4usize)
        .prop_flat_map(|n| {
            (
                prop::collection::vec(0..=3u8, n),
                prop::collection::vec(0..=3u8, n),
                [0..=3u8, 0..=3u8],
                any::<bool>(),
            )
        })
        .prop_map(|(s, n, st, north)| {
            let side = if north {
                dakon::Side::North
            } else {
                dakon::Side::South
            };
            dakon::Position::new(&s, &n, st, side).expect("small")
        })
}

/// `--position` for Dakon: valid, mutated or odd; with the parsed value.
fn dakon_position_text() -> impl Strategy<Value = (String, Option<dakon::Position>)> {
    prop_oneof![
        8 => (dakon_position(), edits("0123456789,/ -"))
            .prop_map(|(p, e)| mutate(&p.to_string(), &e)),
        1 => prop::sample::select(ODD).prop_map(str::to_owned),
    ]
    .prop_map(|t| {
        let p = t.parse::<dakon::Position>().ok();
        (t, p)
    })
}

/// A small Daldøs position: a board of 4 to 8 holes a row, at most 4
/// pieces a side, at least one.
fn daldos_position() -> impl Strategy<Value = daldos::Position> {
    (4..=8u8, any::<bool>())
        .prop_flat_map(|(len, b)| {
            let cells = 3 * len + 1;
            (
                Just(len),
                Just(b),
                prop::collection::vec((0..cells, 0..4u8), 1..=8),
            )
        })
        .prop_map(|(len, b, pieces)| {
            let board = Board::new(len).expect("4..=8");
            let mut pos = daldos::Position::empty(board, if b { Side::B } else { Side::A });
            for (i, (h, kind)) in pieces.into_iter().enumerate() {
                let side = if kind % 2 == 0 { Side::A } else { Side::B };
                if pos.count(side) >= 4 {
                    continue;
                }
                let cell = if kind < 2 {
                    Cell::Undalt(side)
                } else {
                    Cell::Dalt(side)
                };
                if let Ok(p) = pos.with_cell(Hole(h), cell) {
                    pos = p;
                } else if i == 0 {
                    pos = pos
                        .with_cell(Hole(h), Cell::Dalt(side))
                        .expect("empty board");
                }
            }
            if pos.count(Side::A) + pos.count(Side::B) == 0 {
                pos = pos
                    .with_cell(Hole(0), Cell::Dalt(Side::A))
                    .expect("one piece");
            }
            pos
        })
}

fn daldos_position_text() -> impl Strategy<Value = (String, Option<daldos::Position>)> {
    prop_oneof![
        8 => (daldos_position(), edits("./AaBb ab"))
            .prop_map(|(p, e)| mutate(&p.to_string(), &e)),
        1 => prop::sample::select(ODD).prop_map(str::to_owned),
    ]
    .prop_map(|t| {
        // A mutation can only keep the board or make it invalid, but keep
        // every accepted position cheap anyway.
        let p = t
            .parse::<daldos::Position>()
            .ok()
            .filter(|p| p.count(Side::A) <= 6 && p.count(Side::B) <= 6);
        (t, p)
    })
}

fn dice_text() -> impl Strategy<Value = (String, Option<Throw>)> {
    prop_oneof![
        6 => (1..=4u8, 1..=4u8).prop_map(|(a, b)| format!("{a},{b}")),
        2 => ((0..=6u8, 0..=6u8), edits("1234, ")).prop_map(|((a, b), e)| mutate(&format!("{a},{b}"), &e)),
        1 => prop::sample::select(ODD).prop_map(str::to_owned),
    ]
    .prop_map(|t| {
        let d = t.parse::<Throw>().ok();
        (t, d)
    })
}

/// `--format` and `--threads` (a pool each: kept to a small share).
fn global(offers_all_formats: bool) -> impl Strategy<Value = (Part, bool)> {
    global_with(offers_all_formats, false)
}

/// [`global`], for a command that may also draw an SVG picture (`show`).
fn global_with(offers_all_formats: bool, offers_svg: bool) -> impl Strategy<Value = (Part, bool)> {
    let format = prop_oneof![
        3 => Just(("text", Expect::Good)),
        5 => Just(("json", Expect::Good)),
        1 => Just(("csv", if offers_all_formats { Expect::Good } else { Expect::Bad })),
        1 => Just(("md", if offers_all_formats { Expect::Good } else { Expect::Bad })),
        1 => Just(("svg", if offers_svg { Expect::Good } else { Expect::Bad })),
        1 => Just(("yaml", Expect::Bad)),
    ];
    let threads = prop_oneof![
        30 => Just((Vec::<String>::new(), Expect::Good)),
        2 => (1..=3u8).prop_map(|n| (vec!["--threads".to_owned(), n.to_string()], Expect::Good)),
        1 => prop::sample::select(vec!["0", "257", "99999999999999999999", "x", ""])
            .prop_map(|v| (vec!["--threads".to_owned(), v.to_owned()], Expect::Bad)),
    ];
    (prop::option::weighted(0.9, format), threads).prop_map(|(format, (t, te))| {
        let mut words = t;
        let mut e = te;
        let json = matches!(format, Some(("json", _)));
        if let Some((f, fe)) = format {
            words.push(format!("--format={f}"));
            e = e.and(fe);
        }
        ((words, e), json)
    })
}

/// Stray words: nothing (mostly), an unknown flag, a stray value.
fn noise() -> impl Strategy<Value = Part> {
    prop_oneof![
        40 => Just((Vec::new(), Expect::Good)),
        1 => Just(part(&["--bogus"], Expect::Bad)),
        1 => Just(part(&["--frobnicate=1"], Expect::Bad)),
        1 => Just(part(&["stray"], Expect::Bad)),
        1 => Just(part(&["-x"], Expect::Bad)),
        1 => Just(part(&["ø"], Expect::Bad)),
    ]
}

fn daldos_rules(board_given: bool) -> impl Strategy<Value = (Part, Option<Board>)> {
    let board = prop_oneof![
        4 => (4..=8u8).prop_map(|l| (l.to_string(), Some(Board::new(l).unwrap()))),
        1 => prop::sample::select(vec!["danish", "norwegian", "Danish"])
            .prop_map(|n| (n.to_owned(), Board::from_name(n).ok())),
        1 => prop::sample::select(vec!["3", "33", "0", "-4", "99999999999999999999", "ø", "", "dansk"])
            .prop_map(|n| (n.to_owned(), None)),
    ];
    let board = prop_oneof![
        (if board_given { 1 } else { 3 }) => Just(None),
        1 => board.prop_map(Some),
    ];
    (
        board,
        flag("dal", false, choice(&["any", "sternmost"])),
        flag("capture", false, choice(&["final", "path"])),
        flag("end", false, choice(&["last", "one"])),
    )
        .prop_map(|(board, dal, cap, end)| {
            let mut words = Vec::new();
            let mut e = dal.1.and(cap.1).and(end.1);
            let mut b = None;
            if let Some((name, parsed)) = board {
                words.push("--board".to_owned());
                words.push(name.clone());
                match parsed {
                    Some(p) => b = Some(p),
                    None if name.starts_with('-') => e = e.and(Expect::Bad),
                    None => e = e.and(Expect::Bad),
                }
            }
            for p in [dal, cap, end] {
                words.extend(p.0);
            }
            ((words, e), b)
        })
}

/// The value given to `--name` (as `--name v` or `--name=v`), if any.
fn flag_value(args: &[String], name: &str) -> Option<String> {
    let eq = format!("--{name}=");
    let bare = format!("--{name}");
    args.iter().enumerate().find_map(|(i, a)| {
        a.strip_prefix(&eq)
            .map(str::to_owned)
            .or_else(|| (a == &bare).then(|| args.get(i + 1).cloned()).flatten())
    })
}

/// The variants a `daldos` command line selects (defaults where a flag is
/// absent or refused).
fn variants_of(args: &[String]) -> Variants {
    let mut v = Variants::default();
    if flag_value(args, "dal").as_deref() == Some("sternmost") {
        v.dal = daldos::DalRule::Sternmost;
    }
    if flag_value(args, "capture").as_deref() == Some("path") {
        v.capture = daldos::CaptureRule::Path;
    }
    if flag_value(args, "end").as_deref() == Some("one") {
        v.end = daldos::EndRule::One;
    }
    v
}

fn dakon_rules() -> impl Strategy<Value = Part> {
    (
        flag("origin", false, choice(&["sow", "skip"])),
        flag("mikul", false, choice(&["on", "off"])),
        flag("nembak", false, choice(&["keep", "take"])),
    )
        .prop_map(|(a, b, c)| {
            let e = a.1.and(b.1).and(c.1);
            ([a.0, b.0, c.0].concat(), e)
        })
}

fn dakon_rules_of(args: &[String]) -> dakon::Rules {
    let is = |name: &str, v: &str| flag_value(args, name).as_deref() == Some(v);
    dakon::Rules {
        origin: if is("origin", "skip") {
            dakon::Origin::Skip
        } else {
            dakon::Origin::Sow
        },
        mikul: if is("mikul", "off") {
            dakon::Mikul::Off
        } else {
            dakon::Mikul::On
        },
        nembak: if is("nembak", "take") {
            dakon::Nembak::Take
        } else {
            dakon::Nembak::Keep
        },
    }
}

// ---------------------------------------------------------------------------
// Commands

fn case(head: &[&str], parts: Vec<Part>, json: bool, answer: Answer, extra: Expect) -> Case {
    let mut args: Vec<String> = std::iter::once("dalkon")
        .chain(head.iter().copied())
        .map(str::to_owned)
        .collect();
    let mut expect = extra;
    for (w, e) in parts {
        args.extend(w);
        expect = expect.and(e);
    }
    Case {
        args,
        expect,
        answer,
        json,
    }
}

fn daldos_moves() -> impl Strategy<Value = Case> {
    (
        daldos_position_text(),
        dice_text(),
        daldos_rules(false),
        global(false),
        noise(),
        0..3u8,
    )
        .prop_map(
            |((pt, pos), (dt, throw), (rules, board), (g, json), noise, drop)| {
                let mut e = Expect::Good;
                let mut parts = vec![];
                if drop != 0 {
                    parts.push((vec!["--position".into(), pt.clone()], Expect::Good));
                } else {
                    e = Expect::Bad;
                }
                parts.push((vec!["--dice".into(), dt.clone()], Expect::Good));
                e = e.and(position_expect(
                    &pt,
                    pos.is_some(),
                    board,
                    pos.map(|p| p.board()),
                ));
                e = e.and(value_expect(&dt, throw.is_some()));
                let v = variants_of(&rules.0);
                parts.extend([rules, g, noise]);
                let answer = match (pos, throw) {
                    (Some(p), Some(t)) if json => Answer::DaldosMoves(p, v, t),
                    _ => Answer::None,
                };
                case(&["daldos", "moves"], parts, json, answer, e)
            },
        )
}

/// A position flag value: good if it parses (and agrees with `--board`),
/// bad otherwise, and bad if clap sees a flag in it.
fn position_expect(
    text: &str,
    parses: bool,
    board: Option<Board>,
    pos_board: Option<Board>,
) -> Expect {
    let mut e = value_expect(text, parses);
    if let (Some(b), Some(pb)) = (board, pos_board) {
        if b != pb {
            e = e.and(Expect::Bad);
        }
    }
    e
}

/// A value passed as its own word: clap refuses one that starts with `-`.
fn value_expect(text: &str, parses: bool) -> Expect {
    if !parses || (text.starts_with('-') && text.len() > 1) {
        Expect::Bad
    } else {
        Expect::Good
    }
}

/// `--target` of `daldos odds`: absent (mostly), or (kind, index, text):
/// kind 0 names the hole of an enemy piece of the position (the index
/// picks which), the others give `text`, a hole name or an odd value.
fn target_choice() -> impl Strategy<Value = Option<(u8, usize, String)>> {
    let text = prop_oneof![
        3 => (prop::sample::select(vec!['A', 'M', 'B', 'm', 'Z']), 0..40u8)
            .prop_map(|(r, c)| format!("{r}{c}")),
        1 => prop::sample::select(ODD).prop_map(str::to_owned),
    ];
    prop::option::weighted(0.3, (0..3u8, any::<usize>(), text))
}

fn daldos_odds() -> impl Strategy<Value = Case> {
    (
        daldos_position_text(),
        flag("max-nodes", false, number(vec!["1", "100", "5000"])),
        target_choice(),
        daldos_rules(false),
        global(false),
        noise(),
    )
        .prop_map(
            |((pt, pos), nodes, target, (rules, board), (g, json), noise)| {
                let over = pos.is_some_and(|p| p.is_over(&variants_of(&rules.0)));
                let mut e = position_expect(&pt, pos.is_some(), board, pos.map(|p| p.board()));
                if over || nodes.0.iter().any(|w| w.ends_with('0') && w.contains("=0")) {
                    e = e.and(Expect::Either);
                }
                let mut parts = vec![
                    (vec!["--position".into(), pt], Expect::Good),
                    nodes,
                    rules,
                    g,
                    noise,
                ];
                if let Some((kind, i, text)) = target {
                    let enemy: Vec<Hole> = pos
                        .map(|p| p.pieces(p.side_to_move().other()).collect())
                        .unwrap_or_default();
                    let text = match pos {
                        Some(p) if kind == 0 && !enemy.is_empty() => {
                            p.board().hole_name(enemy[i % enemy.len()])
                        }
                        _ => text,
                    };
                    // Without a position the position decides; with one, the
                    // hole must hold an enemy piece.
                    if let Some(p) = pos {
                        let holds = p
                            .board()
                            .parse_hole(&text)
                            .is_ok_and(|h| enemy.contains(&h));
                        e = e.and(value_expect(&text, holds));
                    }
                    parts.push((vec!["--target".into(), text], Expect::Good));
                }
                case(&["daldos", "odds"], parts, json, Answer::None, e)
            },
        )
}

fn daldos_best() -> impl Strategy<Value = Case> {
    (
        daldos_position_text(),
        prop::option::of(dice_text()),
        flag("depth", false, prop_oneof![
            4 => prop::sample::select(vec!["1", "2"]).prop_map(|v| (v.to_owned(), Expect::Good)),
            1 => prop::sample::select(vec!["0", "9", "4294967295", "-1", "99999999999999999999", "x", ""])
                .prop_map(|v| (v.to_owned(), Expect::Bad)),
        ]),
        switch("fast"),
        switch("no-prune"),
        flag("top", false, prop_oneof![
            4 => prop::sample::select(vec!["1", "3", "all"]).prop_map(|v| (v.to_owned(), Expect::Good)),
            1 => prop::sample::select(vec!["0", "ALL", "x", "", "99999999999999999999"])
                .prop_map(|v| (v.to_owned(), Expect::Bad)),
        ]),
        daldos_rules(false),
        global(false),
        noise(),
    )
        .prop_map(|((pt, pos), dice, depth, fast, prune, top, (rules, board), (g, json), noise)| {
            let v = variants_of(&rules.0);
            let mut e = position_expect(&pt, pos.is_some(), board, pos.map(|p| p.board()));
            if pos.is_some_and(|p| p.is_over(&v)) {
                e = e.and(Expect::Bad);
            }
            let mut parts = vec![(vec!["--position".into(), pt], Expect::Good)];
            if let Some((dt, t)) = dice {
                e = e.and(value_expect(&dt, t.is_some()));
                parts.push((vec!["--dice".into(), dt], Expect::Good));
            }
            parts.extend([depth, fast, prune, top, rules, g, noise]);
            case(&["daldos", "best"], parts, json, Answer::None, e)
        })
}

fn daldos_show() -> impl Strategy<Value = Case> {
    (
        daldos_position_text(),
        prop::option::of(dice_text()),
        prop::bool::weighted(0.4),
        flag("depth", false, prop_oneof![
            4 => prop::sample::select(vec!["1", "2"]).prop_map(|v| (v.to_owned(), Expect::Good)),
            1 => prop::sample::select(vec!["0", "9", "4294967295", "-1", "x", ""])
                .prop_map(|v| (v.to_owned(), Expect::Bad)),
        ]),
        daldos_rules(false),
        global_with(false, true),
        noise(),
    )
        .prop_map(|((pt, pos), dice, best, depth, (rules, board), (g, json), noise)| {
            let v = variants_of(&rules.0);
            let mut e = position_expect(&pt, pos.is_some(), board, pos.map(|p| p.board()));
            // --best needs a throw and a game still going.
            if best && (dice.is_none() || pos.is_some_and(|p| p.is_over(&v))) {
                e = e.and(Expect::Bad);
            }
            let mut parts = vec![(vec!["--position".into(), pt], Expect::Good)];
            if let Some((dt, t)) = dice {
                e = e.and(value_expect(&dt, t.is_some()));
                parts.push((vec!["--dice".into(), dt], Expect::Good));
            }
            if best {
                parts.push(part(&["--best"], Expect::Good));
            }
            parts.extend([depth, rules, g, noise]);
            case(&["daldos", "show"], parts, json, Answer::None, e)
        })
}

fn daldos_table() -> impl Strategy<Value = Case> {
    (
        flag("max-distance", true, prop_oneof![
            4 => prop::sample::select(vec!["1", "2", "3"]).prop_map(|v| (v.to_owned(), Expect::Good)),
            1 => prop::sample::select(vec!["0", "4294967295", "-1", "99999999999999999999", "x", ""])
                .prop_map(|v| (v.to_owned(), Expect::Bad)),
        ]),
        daldos_rules(false),
        global(true),
        noise(),
    )
        .prop_map(|(dist, (rules, board), (g, json), noise)| {
            // The table needs a board with room for a free piece: small
            // boards are refused, the Danish and Norwegian ones are not.
            let e = match board {
                Some(b) if b.len() < 12 => Expect::Bad,
                _ if rules.0.iter().any(|w| w == "--board") && board.is_none() => Expect::Bad,
                _ => Expect::Good,
            };
            // An absent --max-distance means the default 12: too costly for
            // a fuzz case, so it is always given.
            let dist = if dist.0.is_empty() { part(&["--max-distance", "2"], Expect::Good) } else { dist };
            case(&["daldos", "table"], vec![dist, rules, g, noise], json, Answer::None, e)
        })
}

fn player() -> impl Strategy<Value = (String, Expect)> {
    prop_oneof![
        3 => prop::sample::select(vec!["random", "greedy", "engine:1", "engine:2"])
            .prop_map(|v| (v.to_owned(), Expect::Good)),
        1 => prop::sample::select(vec!["engine:0", "engine:9", "engine:", "engine:-1", "Random", "human", "", "engine:99999999999999999999", "engine:７"])
            .prop_map(|v| (v.to_owned(), Expect::Bad)),
    ]
}

fn daldos_match() -> impl Strategy<Value = Case> {
    (
        flag("a", true, player()),
        flag("b", true, player()),
        prop_oneof![
            4 => prop::sample::select(vec!["1", "2"]).prop_map(|v| part(&["--games", v], Expect::Good)),
            1 => prop::sample::select(vec!["0", "-1", "99999999999999999999", "x", ""])
                .prop_map(|v| (vec!["--games".to_owned(), v.to_owned()], Expect::Bad)),
        ],
        flag("seed", false, number(vec!["0", "1", "18446744073709551615"])),
        flag("turn-cap", false, number(vec!["1", "50", "4294967295"])),
        daldos_rules(false),
        global(false),
        noise(),
    )
        .prop_map(|(a, b, games, seed, cap, (rules, board), (g, json), noise)| {
            let e = Expect::Good;
            // Keep games cheap: off the small boards, a small turn cap.
            let small = board.is_some_and(|b| b.len() <= 8);
            let cap = if !small && cap.1 != Expect::Bad { part(&["--turn-cap", "40"], Expect::Good) } else { cap };
            case(&["daldos", "match"], vec![a, b, games, seed, cap, rules, g, noise], json, Answer::None, e)
        })
}

fn moves_text() -> impl Strategy<Value = (String, Option<Vec<usize>>)> {
    prop_oneof![
        6 => prop::collection::vec(0..=5usize, 1..6)
            .prop_map(|v| v.iter().map(usize::to_string).collect::<Vec<_>>().join(",")),
        1 => (prop::collection::vec(0..=5usize, 1..4), edits("0123456789,- "))
            .prop_map(|(v, e)| mutate(&v.iter().map(usize::to_string).collect::<Vec<_>>().join(","), &e)),
        1 => prop::sample::select(ODD).prop_map(str::to_owned),
    ]
    .prop_map(|t| {
        let m: Option<Vec<usize>> = t.split(',').map(|x| x.parse::<usize>().ok()).collect();
        (t, m)
    })
}

fn dakon_play() -> impl Strategy<Value = Case> {
    (
        dakon_position_text(),
        moves_text(),
        dakon_rules(),
        global(false),
        noise(),
    )
        .prop_map(|((pt, pos), (mt, moves), rules, (g, json), noise)| {
            let r = dakon_rules_of(&rules.0);
            let mut e = value_expect(&pt, pos.is_some()).and(value_expect(&mt, moves.is_some()));
            if let (Some(p), Some(m)) = (pos, &moves) {
                let mut q = p;
                for &h in m {
                    match q.play(h, &r) {
                        Ok(n) => q = n,
                        Err(_) => {
                            e = e.and(Expect::Bad);
                            break;
                        }
                    }
                }
            }
            let answer = match (pos, moves) {
                (Some(p), Some(m)) if json => Answer::DakonPlay(p, r, m),
                _ => Answer::None,
            };
            let parts = vec![
                (vec!["--position".into(), pt], Expect::Good),
                (vec!["--moves".into(), mt], Expect::Good),
                rules,
                g,
                noise,
            ];
            case(&["dakon", "play"], parts, json, answer, e)
        })
}

fn dakon_best() -> impl Strategy<Value = Case> {
    (
        dakon_position_text(),
        flag("max-nodes", false, number(vec!["1", "100", "100000"])),
        flag("estimate-depth", false, number(vec!["0", "1", "4"])),
        flag("tt-mb", false, prop_oneof![
            3 => prop::sample::select(vec!["1", "16"]).prop_map(|v| (v.to_owned(), Expect::Any)),
            1 => prop::sample::select(vec!["0", "99999999999999999", "-1", "x"]).prop_map(|v| (v.to_owned(), Expect::Any)),
        ]),
        dakon_rules(),
        global(false),
        noise(),
    )
        .prop_map(|((pt, pos), nodes, depth, tt, rules, (g, json), noise)| {
            // `-` is batch mode: positions from stdin, here empty, so no
            // output (batch answers are not fuzzed here).
            let batch = pt == "-";
            let mut e = if batch {
                Expect::Either
            } else {
                value_expect(&pt, pos.is_some())
            };
            // A mutation can make a big board: bound the work then.
            let big = pos.is_some_and(|p| p.holes() > 4 || p.seeds_on_board() > 24);
            let nodes = if big { part(&["--max-nodes", "1000"], Expect::Good) } else { nodes };
            let depth = if big { part(&["--estimate-depth", "2"], Expect::Good) } else { depth };
            if big {
                e = e.and(Expect::Any);
            }
            if nodes.0.iter().any(|w| w == "0" || w.ends_with("=0")) {
                e = e.and(Expect::Any);
            }
            let parts = vec![(vec!["--position".into(), pt], Expect::Good), nodes, depth, tt, rules, g, noise];
            case(&["dakon", "best"], parts, json, Answer::None, e)
        })
}

fn dakon_show() -> impl Strategy<Value = Case> {
    (
        dakon_position_text(),
        switch("best"),
        flag("max-nodes", false, prop_oneof![
            3 => prop::sample::select(vec!["1", "100", "100000"]).prop_map(|v| (v.to_owned(), Expect::Good)),
            1 => prop::sample::select(vec!["0", "-1", "18446744073709551616", "x", ""]).prop_map(|v| (v.to_owned(), Expect::Bad)),
        ]),
        dakon_rules(),
        global_with(false, true),
        noise(),
    )
        .prop_map(|((pt, pos), best, nodes, rules, (g, json), noise)| {
            let e = value_expect(&pt, pos.is_some());
            // A mutation can make a big board: bound the --best search then.
            let big = pos.is_some_and(|p| p.holes() > 4 || p.seeds_on_board() > 24);
            let nodes = if big { part(&["--max-nodes", "1000"], Expect::Good) } else { nodes };
            let parts = vec![(vec!["--position".into(), pt], Expect::Good), best, nodes, rules, g, noise];
            case(&["dakon", "show"], parts, json, Answer::None, e)
        })
}

fn holes_seeds(max_product: usize) -> impl Strategy<Value = (Part, Part)> {
    let good = (1..=4usize, 1..=3usize)
        .prop_filter("cheap", move |(h, s)| h * s <= max_product)
        .prop_map(|(h, s)| {
            (
                part(&["--holes", &h.to_string()], Expect::Good),
                part(&["--seeds", &s.to_string()], Expect::Good),
            )
        });
    // Refused whatever the hole limit: too many seeds in all, or no number.
    let bad_holes = prop::sample::select(vec![
        "0",
        "-1",
        "4294967295",
        "99999999999999999999",
        "18446744073709551615",
        "x",
        "",
        "７",
    ]);
    let bad_seeds = prop::sample::select(vec![
        "0",
        "-1",
        "256",
        "4294967296",
        "99999999999999999999",
        "x",
        "",
        "７",
    ]);
    prop_oneof![
        6 => good,
        1 => (bad_holes, 1..=3usize).prop_map(|(h, s)| {
            (
                (vec!["--holes".into(), h.to_owned()], Expect::Bad),
                part(&["--seeds", &s.to_string()], Expect::Good),
            )
        }),
        1 => (1..=4usize, bad_seeds).prop_map(|(h, s)| {
            (
                part(&["--holes", &h.to_string()], Expect::Good),
                (vec!["--seeds".into(), s.to_owned()], Expect::Bad),
            )
        }),
        1 => Just(((Vec::new(), Expect::Bad), part(&["--seeds", "1"], Expect::Good))),
    ]
}

fn dakon_solve(tmp: PathBuf) -> impl Strategy<Value = Case> {
    (
        holes_seeds(8),
        flag("method", false, choice(&["auto", "retrograde", "search"])),
        prop_oneof![
            6 => Just((Vec::new(), Expect::Good)),
            1 => Just(()).prop_map(move |_| (vec!["--db-dir".to_owned(), tmp.join("db-flag").display().to_string()], Expect::Good)),
        ],
        flag("probe-seeds", false, number(vec!["0", "1", "4", "4000000000"])),
        dakon_rules(),
        global(false),
        noise(),
    )
        .prop_map(|((h, s), method, db, probe, rules, (g, json), noise)| {
            // Probing asks for databases up to K seeds: refused beyond a
            // level's limit (bad input), so either.
            let probe_e = if probe.0.is_empty() { Expect::Good } else { probe.1.and(Expect::Either) };
            let parts = vec![h, s, method, db, (probe.0, probe_e), rules, g, noise];
            case(&["dakon", "solve"], parts, json, Answer::None, Expect::Good)
        })
}

fn dakon_openings(tmp: PathBuf) -> impl Strategy<Value = Case> {
    (
        holes_seeds(12),
        switch("first"),
        flag("max-positions", false, number(vec!["1", "1000000"])),
        flag("memory-mb", false, number(vec!["1", "64"])),
        flag("checkpoint-minutes", false, number(vec!["0", "10", "18446744073709551615"])),
        prop_oneof![
            6 => Just((Vec::new(), Expect::Good)),
            1 => (0..1000u32).prop_map(move |k| (vec!["--work-dir".to_owned(), tmp.join(format!("work-{k}")).display().to_string()], Expect::Good)),
        ],
        dakon_rules(),
        global(false),
        noise(),
    )
        .prop_map(|((h, s), first, maxp, mem, ck, work, rules, (g, json), noise)| {
            // Memory and position limits may stop a count: 1, or 2 when the
            // request is at fault.
            let limit = if maxp.0.is_empty() && mem.0.is_empty() { Expect::Good } else { Expect::Any };
            let parts = vec![h, s, first, maxp, mem, ck, work, rules, g, noise];
            case(&["dakon", "openings"], parts, json, Answer::None, limit)
        })
}

/// `--format` and `--threads` for a command that offers text only (the
/// `game` commands): every other format is refused.
fn global_text_only() -> impl Strategy<Value = Part> {
    global(false).prop_map(|((words, e), json)| (words, if json { Expect::Bad } else { e }))
}

fn dakon_game() -> impl Strategy<Value = Case> {
    let board = prop_oneof![
        2 => holes_seeds(6).prop_map(|(h, s)| {
            let e = h.1.and(s.1);
            ([h.0, s.0].concat(), e)
        }),
        1 => dakon_position_text().prop_map(|(t, p)| {
            let e = value_expect(&t, p.is_some());
            (vec!["--position".to_owned(), t], e)
        }),
    ];
    (
        board,
        flag("first", false, choice(&["human", "engine"])),
        flag("second", false, choice(&["human", "engine"])),
        flag("max-nodes", false, number(vec!["0", "1", "1000"])),
        flag("estimate-depth", false, prop_oneof![
            4 => prop::sample::select(vec!["1", "4"]).prop_map(|v| (v.to_owned(), Expect::Good)),
            1 => prop::sample::select(vec!["0", "13", "-1", "x", ""]).prop_map(|v| (v.to_owned(), Expect::Bad)),
        ]),
        flag("tt-mb", false, prop::sample::select(vec!["1", "16", "0", "99999999999999999"]).prop_map(|v| (v.to_owned(), Expect::Any))),
        dakon_rules(),
        global_text_only(),
        noise(),
    )
        .prop_map(|(board, first, second, nodes, depth, tt, rules, g, noise)| {
            // Standard input is empty: a human to move stops the game at
            // once; engines play it out (boards of at most 4 holes here).
            let parts = vec![board, first, second, nodes, depth, tt, rules, g, noise];
            case(&["dakon", "game"], parts, false, Answer::None, Expect::Good)
        })
}

fn seat() -> impl Strategy<Value = (String, Expect)> {
    prop_oneof![
        3 => prop::sample::select(vec!["human", "random", "greedy", "engine:1", "engine:2"])
            .prop_map(|v| (v.to_owned(), Expect::Good)),
        1 => prop::sample::select(vec!["Human", "engine:0", "engine:9", "engine:", "minimax", "", "ø"])
            .prop_map(|v| (v.to_owned(), Expect::Bad)),
    ]
}

fn daldos_game() -> impl Strategy<Value = Case> {
    (
        flag("a", false, seat()),
        flag("b", false, seat()),
        flag("seed", false, number(vec!["0", "1", "18446744073709551615"])),
        flag("turn-cap", false, number(vec!["1", "50"])),
        flag("hint-depth", false, prop_oneof![
            4 => prop::sample::select(vec!["1", "2"]).prop_map(|v| (v.to_owned(), Expect::Good)),
            1 => prop::sample::select(vec!["0", "9", "-1", "x", ""]).prop_map(|v| (v.to_owned(), Expect::Bad)),
        ]),
        flag("max-nodes", false, number(vec!["0", "1", "1000"])),
        prop::option::weighted(0.3, daldos_position_text()),
        daldos_rules(false),
        global_text_only(),
        noise(),
    )
        .prop_map(|(a, b, seed, cap, hint, nodes, position, (rules, board), g, noise)| {
            let mut e = Expect::Good;
            let mut parts = vec![a, b, seed, hint, nodes, rules, g, noise];
            let mut small = board.is_some_and(|b| b.len() <= 8);
            if let Some((t, p)) = position {
                e = e.and(position_expect(&t, p.is_some(), board, p.map(|p| p.board())));
                small = p.is_some();
                parts.push((vec!["--position".to_owned(), t], Expect::Good));
            }
            // `--turn-cap 0` is refused; off the small boards a small cap
            // keeps games of machines cheap.
            let zero = cap.0.iter().any(|w| w == "0" || w.ends_with("=0"));
            let cap = if !small && cap.1 != Expect::Bad && !zero {
                part(&["--turn-cap", "40"], Expect::Good)
            } else {
                cap
            };
            parts.push(cap);
            case(&["daldos", "game"], parts, false, Answer::None, e)
        })
}

/// Mangled command words.
fn command_words() -> impl Strategy<Value = Case> {
    prop::sample::select(vec![
        vec![],
        vec!["daldos"],
        vec!["dakon"],
        vec!["daldøs"],
        vec!["dakon", "solv"],
        vec!["daldos", "moves", "--help"],
        vec!["--version"],
        vec!["dakon", "--format", "json"],
        vec!["DAKON", "play"],
        vec!["\u{0}"],
        vec!["dakon", "play", "--", "--position"],
    ])
    .prop_map(|w| {
        let help = w.contains(&"--help") || w.contains(&"--version");
        let expect = if help { Expect::Good } else { Expect::Bad };
        case(&w, vec![], false, Answer::None, expect)
    })
}

fn any_case(tmp: PathBuf) -> impl Strategy<Value = Case> {
    prop_oneof![
        4 => daldos_moves(),
        2 => daldos_odds(),
        2 => daldos_best(),
        1 => daldos_show(),
        1 => daldos_table(),
        1 => daldos_match(),
        4 => dakon_play(),
        2 => dakon_best(),
        1 => dakon_show(),
        1 => dakon_solve(tmp.clone()),
        1 => dakon_openings(tmp),
        1 => dakon_game(),
        1 => daldos_game(),
        1 => command_words(),
    ]
}

// ---------------------------------------------------------------------------
// Running

/// The exit code and both streams, or `None` on a panic.
type Outcome = Option<(i32, Vec<u8>, Vec<u8>)>;

/// Run on a thread of its own, so that a hang is reported, not waited for.
fn run_case(args: Vec<String>) -> Result<Outcome, String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let r = std::panic::catch_unwind(move || {
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let mut stdin = Cursor::new(Vec::new());
            let code = dalkon_cli::run(
                args,
                dalkon_cli::Streams {
                    stdin: &mut stdin,
                    stdout: &mut out,
                    stderr: &mut err,
                },
            );
            (code, out, err)
        });
        let _ = tx.send(r.ok());
    });
    rx.recv_timeout(DEADLINE)
        .map_err(|_| format!("no answer within {DEADLINE:?}"))
}

fn check(c: &Case, tally: &Tally) -> Result<(), TestCaseError> {
    let t0 = Instant::now();
    let outcome = run_case(c.args.clone()).map_err(TestCaseError::fail)?;
    let Some((code, out, err)) = outcome else {
        return Err(TestCaseError::fail("panicked"));
    };
    tally.add(c, code, t0.elapsed());
    let out = String::from_utf8(out).map_err(|_| TestCaseError::fail("stdout is not UTF-8"))?;
    let err = String::from_utf8(err).map_err(|_| TestCaseError::fail("stderr is not UTF-8"))?;
    // `--position -` is batch mode for every command that takes a position
    // to answer (dakon best, daldos best, odds, moves): stdin is empty here,
    // so it answers nothing and succeeds, whatever the generator expected
    // of `-` as a position; other flags may still be bad.
    let batch = c.args.iter().any(|a| a == "-" || a == "--position=-");
    let batch_command = ["best", "odds", "moves"]
        .iter()
        .any(|cmd| c.args.iter().any(|a| a == cmd));
    let expect = match c.expect {
        Expect::Any => Expect::Any,
        _ if batch && batch_command => Expect::Either,
        e => e,
    };
    prop_assert!(
        expect.allows(code),
        "exit {code}, expected {:?}; stderr {err:?}",
        expect
    );
    if code == 0 {
        prop_assert!(!out.is_empty() || batch, "exit 0 with nothing on stdout");
        prop_assert!(err.is_empty(), "exit 0 with stderr {err:?}");
        if c.json {
            for line in out.lines() {
                let v: Result<serde_json::Value, _> = serde_json::from_str(line);
                prop_assert!(v.is_ok(), "not JSON: {line:?}");
            }
            check_answer(&c.answer, &out)?;
        }
    } else {
        prop_assert!(out.is_empty(), "exit {code} with stdout {out:?}");
        prop_assert!(err.starts_with("error: "), "stderr {err:?}");
        prop_assert!(
            err.ends_with('\n') && err.lines().count() == 1,
            "not one line: {err:?}"
        );
        let widest = c
            .args
            .iter()
            .flat_map(|a| a.chars())
            .map(|ch| ch.escape_debug().count())
            .max()
            .unwrap_or(1);
        let max = 300 + 2 * 81 * widest;
        prop_assert!(
            err.chars().count() <= max,
            "{} chars: {err:?}",
            err.chars().count()
        );
    }
    Ok(())
}

fn check_answer(answer: &Answer, out: &str) -> Result<(), TestCaseError> {
    if matches!(answer, Answer::None) {
        return Ok(());
    }
    let v: serde_json::Value =
        serde_json::from_str(out.trim()).map_err(|e| TestCaseError::fail(e.to_string()))?;
    match answer {
        Answer::None => {}
        Answer::DakonPlay(start, rules, moves) => {
            let positions = v["positions"]
                .as_array()
                .ok_or_else(|| TestCaseError::fail("no positions"))?;
            prop_assert_eq!(positions.len(), moves.len());
            let mut p = *start;
            for (text, &h) in positions.iter().zip(moves) {
                let text = text.as_str().unwrap_or("");
                let q: dakon::Position = text
                    .parse()
                    .map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
                prop_assert_eq!(q.total_seeds(), start.total_seeds(), "{}", text);
                p = p
                    .play(h, rules)
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(q, p);
            }
            prop_assert_eq!(v["events"].as_array().map(Vec::len), Some(moves.len()));
        }
        Answer::DaldosMoves(pos, variants, throw) => {
            let plays = v["plays"]
                .as_array()
                .ok_or_else(|| TestCaseError::fail("no plays"))?;
            let expected = daldos::plays(pos, variants, *throw);
            prop_assert_eq!(plays.len(), expected.len());
            for (j, o) in plays.iter().zip(&expected) {
                let r: daldos::Position = j["result"]
                    .as_str()
                    .unwrap_or("")
                    .parse()
                    .map_err(|e| TestCaseError::fail(format!("{e}")))?;
                prop_assert_eq!(r, o.result);
                let notation = o.play.notation(pos.board());
                prop_assert_eq!(j["play"].as_str(), Some(notation.as_str()));
            }
        }
    }
    Ok(())
}

/// Counts per command and outcome.
#[derive(Debug, Default)]
struct Tally {
    rows: std::cell::RefCell<std::collections::BTreeMap<String, [u64; 4]>>,
    slowest: std::cell::Cell<(f64, usize)>,
}

impl Tally {
    fn add(&self, c: &Case, code: i32, took: Duration) {
        let key = c
            .args
            .iter()
            .skip(1)
            .take(2)
            .cloned()
            .collect::<Vec<_>>()
            .join(" ");
        let key: String = key.chars().take(24).collect();
        let mut rows = self.rows.borrow_mut();
        let row = rows.entry(key).or_default();
        row[match code {
            0 => 0,
            1 => 1,
            2 => 2,
            _ => 3,
        }] += 1;
        let s = took.as_secs_f64();
        if s > self.slowest.get().0 {
            self.slowest.set((s, c.args.len()));
        }
    }
}

#[test]
fn fuzz_cli() {
    let tmp = std::env::temp_dir().join(format!("dalkon-fuzz-cli-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("a temporary folder");
    // Every database and working folder goes there, never into the tree.
    std::env::set_var("DALKON_DB_DIR", tmp.join("db"));
    let n = cases(400);
    let config = Config {
        cases: n,
        failure_persistence: None,
        rng_algorithm: RngAlgorithm::ChaCha,
        max_shrink_iters: 200,
        ..Config::default()
    };
    let mut seed = [7u8; 32];
    if let Some(s) = std::env::var("DALKON_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
    {
        seed[..8].copy_from_slice(&s.to_le_bytes());
    }
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed));
    let tally = Tally::default();
    let t0 = Instant::now();
    let result = runner.run(&any_case(tmp.clone()), |c| check(&c, &tally));
    let seconds = t0.elapsed().as_secs_f64();
    let _ = std::fs::remove_dir_all(&tmp);
    if let Err(e) = result {
        panic!("fuzz cli: {e}");
    }
    let rows = tally.rows.borrow();
    let (mut ok, mut fail, mut bad) = (0, 0, 0);
    for (cmd, r) in rows.iter() {
        println!(
            "fuzz cli {cmd:<24} exit0 {:>8} exit1 {:>6} exit2 {:>8}",
            r[0], r[1], r[2]
        );
        ok += r[0];
        fail += r[1];
        bad += r[2];
    }
    println!(
        "fuzz cli: cases {n} ok {ok} refused {bad} failed {fail} seconds {seconds:.1} slowest {:.2}",
        tally.slowest.get().0
    );
}

/// Regression: a command line without its subcommand (`dalkon`, `dalkon
/// dakon`) printed clap's about text, not an `error: ` line.
#[test]
fn a_missing_subcommand_is_one_error_line() {
    for (args, see) in [
        (vec!["dalkon"], "see 'dalkon --help'"),
        (vec!["dalkon", "dakon"], "see 'dalkon dakon --help'"),
        (
            vec!["dalkon", "daldos", "--format", "json"],
            "see 'dalkon daldos --help'",
        ),
    ] {
        let args: Vec<String> = args.into_iter().map(str::to_owned).collect();
        let (code, out, err) = run_case(args.clone()).unwrap().expect("no panic");
        let err = String::from_utf8(err).unwrap();
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?}");
        assert!(
            err.starts_with("error: ") && err.lines().count() == 1,
            "{args:?}: {err:?}"
        );
        assert!(
            err.contains("needs a command") && err.trim_end().ends_with(see),
            "{err:?}"
        );
    }
}

/// Regression: `--checkpoint-minutes` above `u64::MAX / 60` overflowed the
/// multiplication to seconds (a panic where overflow is checked, as in
/// `cargo test`; a wrong interval otherwise).
#[test]
fn a_huge_checkpoint_interval_is_no_overflow() {
    let tmp = std::env::temp_dir().join(format!("dalkon-fuzz-ckpt-{}", std::process::id()));
    let args = [
        "dalkon",
        "dakon",
        "openings",
        "--holes",
        "1",
        "--seeds",
        "1",
        "--checkpoint-minutes",
        "18446744073709551615",
        "--format",
        "json",
        "--work-dir",
    ];
    let mut args: Vec<String> = args.into_iter().map(str::to_owned).collect();
    args.push(tmp.join("work").display().to_string());
    let (code, out, err) = run_case(args).unwrap().expect("no panic");
    let _ = std::fs::remove_dir_all(&tmp);
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&err));
    assert!(!out.is_empty());
}
