//! Property-based fuzzing of every parser of the rules crate, and of the
//! move generators on what the parsers accept.
//!
//! Inputs: random bytes (read as lossy UTF-8), random strings over the
//! notation's alphabet with unicode look-alikes, and mutations of valid
//! notation (characters swapped, dropped, duplicated or inserted, numbers
//! made huge, a segment repeated). Properties: parsing never panics; what
//! parses prints back to text that parses to the same value; an error is one
//! line of bounded length; on a Dakon position every legal move conserves
//! the seeds and gives a valid position; on a Daldøs position every play of
//! every throw is legal step by step and conserves the pieces up to its
//! captures.
//!
//! Reproducible: each kind runs from a fixed seed. `DALKON_FUZZ_CASES` sets
//! the cases of every kind (`DALKON_FUZZ_CASES_<KIND>` one kind's);
//! `scripts/fuzz.sh` runs millions. Each kind prints one summary line
//! `fuzz <kind>: cases … ok … refused … seconds …`.

use std::cell::Cell as Counter;
use std::time::Instant;

use dalkon_rules::dakon;
use dalkon_rules::daldos::{self, plays, Board, Cell, Hole, Row, Side, Throw, Variants};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseResult, TestRng, TestRunner};

// ---------------------------------------------------------------------------
// Harness

/// Cases for `kind`: `DALKON_FUZZ_CASES_<KIND>`, else `DALKON_FUZZ_CASES`,
/// else `default` (small, for `cargo test`).
fn cases(kind: &str, default: u32) -> u32 {
    let own = format!("DALKON_FUZZ_CASES_{}", kind.to_ascii_uppercase());
    [own.as_str(), "DALKON_FUZZ_CASES"]
        .iter()
        .find_map(|k| std::env::var(k).ok())
        .map(|v| {
            v.trim()
                .parse()
                .unwrap_or_else(|_| panic!("bad case count {v:?}"))
        })
        .unwrap_or(default)
}

/// A runner with a fixed seed per kind (`DALKON_FUZZ_SEED` varies all of
/// them) and no failure files written into the source tree.
fn runner(kind: &str, cases: u32) -> TestRunner {
    let salt: u64 = std::env::var("DALKON_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut seed = [0u8; 32];
    // FNV-1a of the kind name: a stable, distinct stream per kind.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ salt;
    for b in kind.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    seed[..8].copy_from_slice(&h.to_le_bytes());
    seed[8..16].copy_from_slice(&salt.to_le_bytes());
    let config = Config {
        cases,
        failure_persistence: None,
        rng_algorithm: RngAlgorithm::ChaCha,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed))
}

/// Tally of one kind: inputs answered and inputs refused.
#[derive(Debug, Default)]
struct Tally {
    ok: Counter<u64>,
    refused: Counter<u64>,
}

impl Tally {
    fn note<T, E>(&self, r: &Result<T, E>) {
        let c = if r.is_ok() { &self.ok } else { &self.refused };
        c.set(c.get() + 1);
    }
}

/// Run `test` on `cases` inputs of `strategy`, fail on the first failing
/// (shrunk) input, and print the kind's summary line.
fn fuzz<S: Strategy>(
    kind: &str,
    default: u32,
    strategy: S,
    test: impl Fn(S::Value, &Tally) -> TestCaseResult,
) where
    S::Value: std::fmt::Debug,
{
    let n = cases(kind, default);
    let tally = Tally::default();
    let t0 = Instant::now();
    let result = runner(kind, n).run(&strategy, |v| test(v, &tally));
    let seconds = t0.elapsed().as_secs_f64();
    if let Err(e) = result {
        panic!("fuzz {kind}: {e}");
    }
    println!(
        "fuzz {kind}: cases {n} ok {} refused {} seconds {seconds:.1}",
        tally.ok.get(),
        tally.refused.get()
    );
}

/// An error message: one line, and short whatever the input's size. A
/// message quotes at most [`dalkon_rules::EXCERPT_MAX`] characters of the
/// input, at most twice (a throw quotes the text and the face), each char
/// escaped as `Debug` escapes it: `200` characters of prose around that.
fn check_message(e: &impl std::fmt::Display, input: &str) -> TestCaseResult {
    let m = e.to_string();
    prop_assert!(!m.contains('\n') && !m.contains('\r'), "two lines: {m:?}");
    let widest = input
        .chars()
        .map(|c| c.escape_debug().count())
        .max()
        .unwrap_or(1);
    let max = 200 + 2 * (dalkon_rules::EXCERPT_MAX + 1) * widest;
    prop_assert!(
        m.chars().count() <= max,
        "{} chars (at most {max}): {:?}",
        m.chars().count(),
        m.chars().take(400).collect::<String>()
    );
    Ok(())
}

// ---------------------------------------------------------------------------
// Input generators

/// Characters that are not in any notation but look or behave like it.
const ODD: &[&str] = &[
    "７", "ø", "Ø", "\u{0}", "\u{feff}", "\u{200b}", "\u{a0}", "\t", "\n", "\r", "é", "∞", "−",
    "٣", "½", "¹", "ａ", "Ａ", "𝟕", "🎲", "\u{301}", "\u{ff0c}", "\u{ff0f}",
];

/// Numbers that do not fit a byte, a `u32` or a `u64`, signs and odd forms.
const NUMBERS: &[&str] = &[
    "0",
    "00",
    "007",
    "+7",
    "-1",
    "-0",
    "255",
    "256",
    "65536",
    "4294967296",
    "99999999999999999999",
    "18446744073709551616",
    "1e3",
    "0x10",
    "1_000",
    "",
];

fn odd_char() -> impl Strategy<Value = String> {
    prop::sample::select(ODD).prop_map(str::to_owned)
}

/// One random string: lossy bytes, or characters of `alphabet` with odd
/// characters mixed in.
fn random_text(alphabet: &'static str) -> impl Strategy<Value = String> {
    let chars: Vec<char> = alphabet.chars().collect();
    let piece = prop_oneof![
        8 => prop::sample::select(chars).prop_map(String::from),
        1 => odd_char(),
        1 => prop::sample::select(NUMBERS).prop_map(str::to_owned),
    ];
    prop_oneof![
        1 => prop::collection::vec(any::<u8>(), 0..48)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        3 => prop::collection::vec(piece, 0..48).prop_map(|v| v.concat()),
    ]
}

/// One edit of a text.
#[derive(Debug, Clone)]
enum Edit {
    Swap(usize),
    Drop(usize),
    Duplicate(usize),
    Insert(usize, String),
    Replace(usize, String),
    /// Repeat the characters `at..at + len` `times` times.
    Repeat(usize, usize, usize),
    /// Replace the `k`-th run of digits by a number from `NUMBERS`.
    Number(usize, &'static str),
}

fn edit(alphabet: &'static str) -> impl Strategy<Value = Edit> {
    let chars: Vec<char> = alphabet.chars().collect();
    let insert = prop_oneof![
        3 => prop::sample::select(chars).prop_map(String::from),
        1 => odd_char(),
    ];
    prop_oneof![
        2 => any::<usize>().prop_map(Edit::Swap),
        2 => any::<usize>().prop_map(Edit::Drop),
        2 => any::<usize>().prop_map(Edit::Duplicate),
        2 => (any::<usize>(), insert.clone()).prop_map(|(i, s)| Edit::Insert(i, s)),
        2 => (any::<usize>(), insert).prop_map(|(i, s)| Edit::Replace(i, s)),
        1 => (any::<usize>(), 1..8usize, 2..40usize).prop_map(|(i, l, t)| Edit::Repeat(i, l, t)),
        2 => (any::<usize>(), prop::sample::select(NUMBERS)).prop_map(|(k, n)| Edit::Number(k, n)),
    ]
}

/// Apply `edits` to `text` (positions taken modulo the current length).
fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut v: Vec<char> = text.chars().collect();
    for e in edits {
        let n = v.len();
        match e {
            Edit::Swap(i) if n >= 2 => {
                let i = i % (n - 1);
                v.swap(i, i + 1);
            }
            Edit::Drop(i) if n >= 1 => {
                v.remove(i % n);
            }
            Edit::Duplicate(i) if n >= 1 => {
                let i = i % n;
                v.insert(i, v[i]);
            }
            Edit::Insert(i, s) => {
                let i = i % (n + 1);
                v.splice(i..i, s.chars());
            }
            Edit::Replace(i, s) if n >= 1 => {
                let i = i % n;
                v.splice(i..=i, s.chars());
            }
            Edit::Repeat(i, len, times) if n >= 1 => {
                let i = i % n;
                let seg: Vec<char> = v[i..(i + len).min(n)].to_vec();
                let rep: Vec<char> = seg
                    .iter()
                    .copied()
                    .cycle()
                    .take(seg.len() * times)
                    .collect();
                v.splice(i..i + seg.len(), rep);
            }
            Edit::Number(k, num) => {
                let runs = digit_runs(&v);
                if !runs.is_empty() {
                    let (a, b) = runs[k % runs.len()];
                    v.splice(a..b, num.chars());
                }
            }
            _ => {}
        }
    }
    v.into_iter().collect()
}

/// `(start, end)` of every maximal run of ASCII digits.
fn digit_runs(v: &[char]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < v.len() {
        if v[i].is_ascii_digit() {
            let a = i;
            while i < v.len() && v[i].is_ascii_digit() {
                i += 1;
            }
            out.push((a, i));
        } else {
            i += 1;
        }
    }
    out
}

/// Text for a parser: a third random, two thirds a valid text mutated 0 to
/// 4 times (0: the valid text itself, so good input is covered too).
fn parser_input(
    valid: impl Strategy<Value = String> + 'static,
    alphabet: &'static str,
) -> impl Strategy<Value = String> {
    prop_oneof![
        1 => random_text(alphabet),
        2 => (valid, prop::collection::vec(edit(alphabet), 0..5))
            .prop_map(|(t, e)| mutate(&t, &e)),
    ]
}

/// A valid Dakon position: up to 8 holes with up to 15 seeds, or up to 16
/// holes with up to 7 (never more than 255 seeds in all).
fn dakon_position() -> impl Strategy<Value = dakon::Position> {
    let small = (1..=8usize, 0..=15u8, 0..=7u8);
    let wide = (1..=16usize.min(dakon::MAX_HOLES), 0..=7u8, 0..=15u8);
    prop_oneof![3 => small, 1 => wide]
        .prop_flat_map(|(n, per_hole, store)| {
            (
                prop::collection::vec(0..=per_hole, n),
                prop::collection::vec(0..=per_hole, n),
                [0..=store, 0..=store],
                any::<bool>(),
            )
        })
        .prop_map(|(south, north, stores, north_to_move)| {
            let side = if north_to_move {
                dakon::Side::North
            } else {
                dakon::Side::South
            };
            dakon::Position::new(&south, &north, stores, side).expect("within the limits")
        })
}

/// A valid Daldøs position on a board of 4 to 16 holes a row (sometimes
/// 32): each hole empty or holding a piece, undalt only on its start row,
/// at most L pieces a side, at least one piece.
fn daldos_position() -> impl Strategy<Value = daldos::Position> {
    let len = prop_oneof![6 => 4..=8u8, 3 => 9..=16u8, 1 => Just(32u8)];
    (len, 0..=10u32, any::<bool>())
        .prop_flat_map(|(len, density, b_to_move)| {
            let cells = 3 * usize::from(len) + 1;
            (
                Just(len),
                prop::collection::vec((0..20u32, 0..4u8), cells),
                Just(density),
                Just(b_to_move),
            )
        })
        .prop_map(|(len, cells, density, b_to_move)| {
            let board = Board::new(len).expect("4..=32");
            let side = if b_to_move { Side::B } else { Side::A };
            let mut pos = daldos::Position::empty(board, side);
            for (i, (roll, kind)) in cells.into_iter().enumerate() {
                if roll >= density {
                    continue;
                }
                let cell = match kind {
                    0 => Cell::Undalt(Side::A),
                    1 => Cell::Undalt(Side::B),
                    2 => Cell::Dalt(Side::A),
                    _ => Cell::Dalt(Side::B),
                };
                // A piece the rules do not allow here is left out.
                if let Ok(p) = pos.with_cell(Hole(i as u8), cell) {
                    pos = p;
                }
            }
            if pos.count(Side::A) + pos.count(Side::B) == 0 {
                let last = Hole(board.cells() as u8 - 1);
                pos = pos.with_cell(last, Cell::Dalt(Side::A)).expect("one piece");
            }
            pos
        })
}

// ---------------------------------------------------------------------------
// Dakon

const DAKON_ALPHABET: &str = "0123456789,/ 0123456789,,//  -";

/// Seeds conserved, stores never lowered, a valid result that round-trips,
/// a finished game with both rows empty; illegal moves refused.
fn check_dakon_moves(pos: &dakon::Position) -> TestCaseResult {
    use dakon::{MoveError, Side as S};
    let n = pos.holes();
    let moves: Vec<usize> = pos.moves().collect();
    if pos.is_over() {
        prop_assert!(moves.is_empty());
    }
    for rules in dakon::Rules::ALL {
        for hole in 0..=n + 1 {
            let r = pos.play(hole, &rules);
            if !moves.contains(&hole) {
                prop_assert!(r.is_err(), "hole {hole} of {pos} is not a legal move");
                if let Err(e) = &r {
                    check_message(e, "")?;
                    if pos.is_over() {
                        prop_assert_eq!(e, &MoveError::GameOver);
                    }
                }
                continue;
            }
            let next = r.map_err(|e| TestCaseError::fail(format!("{pos} {hole}: {e}")))?;
            let (logged, events) = pos
                .play_logged(hole, &rules)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(next, logged);
            prop_assert!(!events.is_empty());
            prop_assert_eq!(
                next.total_seeds(),
                pos.total_seeds(),
                "{} {} {}",
                pos,
                hole,
                rules
            );
            prop_assert_eq!(next.holes(), n);
            for s in S::BOTH {
                prop_assert!(next.store(s) >= pos.store(s), "{} {} {}", pos, hole, rules);
            }
            let again = dakon::Position::new(
                next.pits(S::South),
                next.pits(S::North),
                [next.store(S::South), next.store(S::North)],
                next.side_to_move(),
            );
            prop_assert_eq!(again, Ok(next));
            prop_assert_eq!(next.to_string().parse::<dakon::Position>(), Ok(next));
            if next.is_over() {
                prop_assert_eq!(next.seeds_on_board(), 0, "{} {} -> {}", pos, hole, next);
            }
            // The move was the mover's: the other side moves next unless
            // the move earned a bonus (and then it ended in the store).
            if next.side_to_move() == pos.side_to_move() && !next.is_over() {
                prop_assert!(events.contains(&dakon::Event::Bonus));
            }
        }
    }
    Ok(())
}

#[test]
fn fuzz_dakon_position_parser() {
    let valid = dakon_position().prop_map(|p| p.to_string());
    fuzz(
        "dakon_position",
        3000,
        parser_input(valid, DAKON_ALPHABET),
        |text, tally| {
            let r = text.parse::<dakon::Position>();
            tally.note(&r);
            match r {
                Ok(p) => {
                    prop_assert_eq!(p.to_string().parse::<dakon::Position>(), Ok(p));
                    prop_assert!(p.total_seeds() <= dakon::MAX_SEEDS);
                    check_dakon_moves(&p)
                }
                Err(e) => check_message(&e, &text),
            }
        },
    );
}

#[test]
fn fuzz_dakon_moves() {
    fuzz("dakon_moves", 2000, dakon_position(), |pos, tally| {
        tally.note::<_, ()>(&Ok(()));
        check_dakon_moves(&pos)?;
        // A random game from here: every position on the way stays valid.
        let rules = dakon::Rules::ALL[pos.total_seeds() as usize % 8];
        let mut p = pos;
        let mut plies = 0;
        loop {
            let Some(h) = p.moves().nth(plies % 3).or_else(|| p.moves().next()) else {
                break;
            };
            let q = p
                .play(h, &rules)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(q.total_seeds(), pos.total_seeds());
            p = q;
            plies += 1;
            prop_assert!(plies < 10_000, "a game of {pos} does not end");
        }
        prop_assert!(p.terminal_value().is_some());
        Ok(())
    });
}

#[test]
fn fuzz_dakon_rules_parser() {
    let valid = prop::sample::select(dakon::Rules::ALL.to_vec()).prop_map(|r| r.to_string());
    fuzz(
        "dakon_rules",
        3000,
        parser_input(valid, "originmkulnbatswpfe= "),
        |text, tally| {
            let r = text.parse::<dakon::Rules>();
            tally.note(&r);
            match r {
                Ok(rules) => prop_assert_eq!(rules.to_string().parse::<dakon::Rules>(), Ok(rules)),
                Err(e) => check_message(&e, &text)?,
            }
            for r in [
                text.parse::<dakon::Origin>().map(|_| ()),
                text.parse::<dakon::Mikul>().map(|_| ()),
                text.parse::<dakon::Nembak>().map(|_| ()),
            ] {
                if let Err(e) = r {
                    check_message(&e, &text)?;
                }
            }
            Ok(())
        },
    );
}

// ---------------------------------------------------------------------------
// Daldøs

const DALDOS_ALPHABET: &str = "..........AaBb/ ab";

/// Undalt pieces only on their owner's start row, at most L a side, no hole
/// of both sides.
fn check_daldos_invariants(pos: &daldos::Position) -> TestCaseResult {
    let board = pos.board();
    let l = usize::from(board.len());
    prop_assert_eq!(pos.mask(Side::A) & pos.mask(Side::B), 0);
    for s in Side::BOTH {
        prop_assert!(pos.count(s) <= l, "{:?}", pos);
        for h in pos.pieces(s) {
            prop_assert!(board.contains(h));
            if matches!(pos.cell(h), Cell::Undalt(_)) {
                prop_assert!(board.on_start_row(s, h), "{:?}", pos);
            }
        }
    }
    Ok(())
}

/// The holes `side` passes (and lands on) going `d` steps from `from`.
fn walk(board: Board, side: Side, from: Hole, d: u32) -> Vec<Hole> {
    (1..=d)
        .map(|k| board.step(side, from, k).expect("a hole of the board"))
        .collect()
}

/// Every play of `throw` is legal, replayed step by step against the
/// rules (docs/rules.md §1.3), and leads to the position it claims.
fn check_daldos_plays(pos: &daldos::Position, v: &Variants, throw: Throw) -> TestCaseResult {
    let out = plays(pos, v, throw);
    if pos.is_over(v) {
        prop_assert!(out.is_empty(), "{:?} is over but has plays", pos);
        return Ok(());
    }
    prop_assert!(!out.is_empty(), "{:?} {}: no play at all", pos, throw);
    let board = pos.board();
    let me = pos.side_to_move();
    let them = me.other();
    let most_steps = out.iter().map(|o| o.play.steps.len()).max().unwrap_or(0);
    let mut results = std::collections::HashSet::new();
    for o in &out {
        let ctx = || format!("{pos:?} {throw} {v}: {}", o.play.notation(board));
        prop_assert!(results.insert(o.result), "{}: result twice", ctx());
        let r = &o.result;
        prop_assert_eq!(r.board(), board);
        check_daldos_invariants(r)?;
        prop_assert_eq!(
            r.to_string().parse::<daldos::Position>(),
            Ok(*r),
            "{}",
            ctx()
        );
        prop_assert_eq!(r.count(me), pos.count(me), "{}", ctx());
        prop_assert_eq!(
            r.count(them) + o.play.captures(),
            pos.count(them),
            "{}",
            ctx()
        );
        let next = if throw.is_daldal() { me } else { them };
        prop_assert_eq!(r.side_to_move(), next, "{}", ctx());
        let steps = &o.play.steps;
        prop_assert!(steps.len() <= 2);
        if steps.is_empty() {
            prop_assert_eq!(out.len(), 1, "{}: pass beside other plays", ctx());
            prop_assert_eq!(r.with_side_to_move(me), *pos, "{}", ctx());
            continue;
        }
        // One die only when no play uses both, or when the game ended.
        if steps.len() < most_steps {
            prop_assert!(r.is_over(v), "{}: one die where both could be used", ctx());
        }
        // Replay the steps on a copy.
        let mut q = *pos;
        let mut dice = vec![throw.first, throw.second];
        let added = o.play.is_added();
        for (k, s) in steps.iter().enumerate() {
            prop_assert!(
                q.mask(me) & (1u128 << s.from.0) != 0,
                "{}: step {} from a hole without an own piece",
                ctx(),
                k + 1
            );
            let undalt = matches!(q.cell(s.from), Cell::Undalt(_));
            let d = board
                .path_distance(me, s.from, s.to)
                .ok_or_else(|| TestCaseError::fail(format!("{}: unreachable step", ctx())))?;
            prop_assert!(d >= 1);
            if undalt {
                prop_assert_eq!(d, 1, "{}: an undalt piece moves one hole", ctx());
            }
            let die = if undalt { 1 } else { d as u8 };
            let Some(i) = dice.iter().position(|&x| x == die) else {
                return Err(TestCaseError::fail(format!(
                    "{}: step {} uses no die of the throw",
                    ctx(),
                    k + 1
                )));
            };
            dice.remove(i);
            for h in walk(board, me, s.from, d) {
                prop_assert!(
                    q.mask(me) & (1u128 << h.0) == 0,
                    "{}: passes over or lands on an own piece",
                    ctx()
                );
            }
            let enemy_there = q.mask(them) & (1u128 << s.to.0) != 0;
            let intermediate = added && k == 0;
            if s.capture {
                prop_assert!(enemy_there, "{}: a capture on an empty hole", ctx());
            } else if enemy_there {
                prop_assert!(
                    intermediate && v.capture == daldos::CaptureRule::Final,
                    "{}: lands on an enemy without capturing",
                    ctx()
                );
            }
            let mut nq = daldos::Position::empty(board, me);
            for s2 in Side::BOTH {
                for h in q.pieces(s2) {
                    if h == s.from || (s.capture && h == s.to) {
                        continue;
                    }
                    nq = nq
                        .with_cell(h, q.cell(h))
                        .map_err(|e| TestCaseError::fail(e.to_string()))?;
                }
            }
            // A piece passed over stays; the moving piece lands dalt
            // (over an enemy piece it passes, for an intermediate hole).
            if !enemy_there || s.capture {
                nq = nq
                    .with_cell(s.to, Cell::Dalt(me))
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                q = nq;
            } else {
                // Intermediate hole of an added move holding an enemy: the
                // piece goes straight on with the second step from here.
                q = nq;
                let next = &steps[1];
                prop_assert_eq!(next.from, s.to);
                // Put the moving piece "in hand" on the far side: replay the
                // second step from s.to without an own piece on it.
                let d2 = board
                    .path_distance(me, next.from, next.to)
                    .ok_or_else(|| TestCaseError::fail(format!("{}: unreachable", ctx())))?;
                let Some(i) = dice.iter().position(|&x| u32::from(x) == d2) else {
                    return Err(TestCaseError::fail(format!("{}: second die", ctx())));
                };
                dice.remove(i);
                for h in walk(board, me, next.from, d2) {
                    prop_assert!(q.mask(me) & (1u128 << h.0) == 0, "{}", ctx());
                }
                let enemy_end = q.mask(them) & (1u128 << next.to.0) != 0;
                prop_assert_eq!(enemy_end, next.capture, "{}", ctx());
                let mut nq = daldos::Position::empty(board, me);
                for s2 in Side::BOTH {
                    for h in q.pieces(s2) {
                        if next.capture && h == next.to {
                            continue;
                        }
                        nq = nq
                            .with_cell(h, q.cell(h))
                            .map_err(|e| TestCaseError::fail(e.to_string()))?;
                    }
                }
                q = nq
                    .with_cell(next.to, Cell::Dalt(me))
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                break;
            }
        }
        prop_assert_eq!(
            q.with_side_to_move(next),
            *r,
            "{}: the steps lead elsewhere",
            ctx()
        );
    }
    Ok(())
}

#[test]
fn fuzz_daldos_position_parser() {
    let valid = daldos_position().prop_map(|p| p.to_string());
    fuzz(
        "daldos_position",
        3000,
        parser_input(valid, DALDOS_ALPHABET),
        |text, tally| {
            let r = text.parse::<daldos::Position>();
            tally.note(&r);
            match r {
                Ok(p) => {
                    prop_assert_eq!(p.to_string().parse::<daldos::Position>(), Ok(p));
                    check_daldos_invariants(&p)?;
                    prop_assert!(p.count(Side::A) + p.count(Side::B) > 0);
                    let v = Variants::ALL[text.len() % 8];
                    for t in Throw::ALL {
                        check_daldos_plays(&p, &v, t)?;
                    }
                    Ok(())
                }
                Err(e) => check_message(&e, &text),
            }
        },
    );
}

#[test]
fn fuzz_daldos_plays() {
    let strategy = (
        daldos_position(),
        prop::sample::select(Variants::ALL.to_vec()),
    );
    fuzz("daldos_plays", 1500, strategy, |(pos, v), tally| {
        tally.note::<_, ()>(&Ok(()));
        for t in Throw::ALL {
            check_daldos_plays(&pos, &v, t)?;
        }
        Ok(())
    });
}

#[test]
fn fuzz_throw_parser() {
    let valid = prop::sample::select(Throw::ALL.to_vec()).prop_map(|t| t.to_string());
    fuzz(
        "throw",
        5000,
        parser_input(valid, "1234,, 05"),
        |text, tally| {
            let r = text.parse::<Throw>();
            tally.note(&r);
            match r {
                Ok(t) => {
                    prop_assert!(Throw::ALL.contains(&t));
                    prop_assert_eq!(t.to_string().parse::<Throw>(), Ok(t));
                }
                Err(e) => check_message(&e, &text)?,
            }
            Ok(())
        },
    );
}

#[test]
fn fuzz_board_parser() {
    let valid = prop_oneof![
        Just("danish".to_owned()),
        Just("norwegian".to_owned()),
        Just("Danish".to_owned()),
        (4..=32u8).prop_map(|l| l.to_string()),
    ];
    fuzz(
        "board",
        5000,
        parser_input(valid, "danishorwegDN0123456789 "),
        |text, tally| {
            let r = Board::from_name(&text);
            tally.note(&r);
            match r {
                Ok(b) => {
                    prop_assert!((daldos::MIN_LEN..=daldos::MAX_LEN).contains(&b.len()));
                    prop_assert_eq!(Board::from_name(&b.name()), Ok(b));
                    prop_assert_eq!(b.to_string().parse::<Board>(), Ok(b));
                }
                Err(e) => check_message(&e, &text)?,
            }
            Ok(())
        },
    );
}

#[test]
fn fuzz_hole_parser() {
    let strategy = (4..=32u8).prop_flat_map(|len| {
        let board = Board::new(len).expect("4..=32");
        let valid = (0..board.cells() as u8).prop_map(move |i| board.hole_name(Hole(i)));
        (Just(board), parser_input(valid, "AMBamb0123456789 "))
    });
    fuzz("hole", 5000, strategy, |(board, text), tally| {
        let r = board.parse_hole(&text);
        tally.note(&r);
        match r {
            Ok(h) => {
                prop_assert!(board.contains(h));
                prop_assert_eq!(board.parse_hole(&board.hole_name(h)), Ok(h));
                let (row, col) = board.row_col(h);
                prop_assert_eq!(board.hole(row, col), Some(h));
                prop_assert!(row != Row::M || col <= board.len());
            }
            Err(e) => check_message(&e, &text)?,
        }
        Ok(())
    });
}

/// A megabyte of input comes back as a short error line, for every parser.
#[test]
fn megabyte_inputs_give_short_errors() {
    let mb = 1 << 20;
    let inputs = [
        "7,".repeat(mb / 2),
        "ø".repeat(mb / 2),
        format!("{}/{}/0,0 0", "1,".repeat(mb / 4), "1"),
        format!("{} 0", "7".repeat(mb)),
        format!("1/1/0,0 {}", "x".repeat(mb)),
        "A".repeat(mb),
        format!("{}/{}/{} a", "A".repeat(16), ".".repeat(17), "B".repeat(mb)),
        format!("AAAA/...../BBBB {}", "b".repeat(mb)),
        format!("AAAA/...../BBBB a {}", "z".repeat(mb)),
        format!("{},1", "9".repeat(mb)),
        format!("1,{}", "x".repeat(mb)),
        format!("A{}", "9".repeat(mb)),
        "\u{0}".repeat(mb),
    ];
    for text in &inputs {
        let errors: Vec<String> = [
            text.parse::<dakon::Position>().err().map(|e| e.to_string()),
            text.parse::<dakon::Rules>().err().map(|e| e.to_string()),
            text.parse::<dakon::Origin>().err().map(|e| e.to_string()),
            text.parse::<daldos::Position>()
                .err()
                .map(|e| e.to_string()),
            text.parse::<Throw>().err().map(|e| e.to_string()),
            Board::from_name(text).err().map(|e| e.to_string()),
            Board::DANISH.parse_hole(text).err().map(|e| e.to_string()),
        ]
        .into_iter()
        .flatten()
        .collect();
        assert_eq!(errors.len(), 7, "a megabyte was accepted");
        for e in errors {
            check_message(&e, text).unwrap();
        }
    }
}

/// Regression: a Dakon rules text (the `rules` line of a strategy file) was
/// quoted whole in its error, so a megabyte line gave a megabyte message.
#[test]
fn long_rules_text_is_quoted_short() {
    let long = format!("origin=sow mikul=on nembak=keep {}", "x".repeat(1000));
    let e = long.parse::<dakon::Rules>().unwrap_err().to_string();
    assert!(e.chars().count() <= 200, "{e}");
    let long = format!("origin={} mikul=on nembak=keep", "s".repeat(1000));
    let e = long.parse::<dakon::Rules>().unwrap_err().to_string();
    assert!(e.chars().count() <= 200, "{e}");
    let e = "k"
        .repeat(1000)
        .parse::<dakon::Nembak>()
        .unwrap_err()
        .to_string();
    assert!(e.chars().count() <= 200, "{e}");
}

/// Regression: `Position::start` built its rows before checking the hole
/// count, so `dakon solve --holes 18446744073709551615` panicked (capacity
/// overflow) and a trillion holes aborted the process (allocation failure).
#[test]
fn huge_hole_counts_are_refused_before_any_allocation() {
    for holes in [usize::MAX, 1 << 40, dakon::MAX_HOLES + 1] {
        assert_eq!(
            dakon::Position::start(holes, 1),
            Err(dakon::PositionError::TooManyHoles {
                holes,
                max: dakon::MAX_HOLES
            })
        );
    }
}

// ---------------------------------------------------------------------------
// Game records

const RECORD_ALPHABET: &str = "[]\"{}();\\ \n\t0123456789,-xX*/=ABMabmGameRulsHoSdtrNwhkp";

/// A legal Dakon game (the `k`-th legal move at each turn, `k` drawn) as
/// record text.
fn dakon_record() -> impl Strategy<Value = String> {
    (prop::collection::vec(any::<u8>(), 0..40), 3usize..6, 1u8..5).prop_map(|(picks, n, s)| {
        let rules = dakon::Rules::ALL[picks.len() % 8];
        let mut r = dakon::Record::new(dakon::Position::start(n, s).unwrap(), rules);
        let mut pos = r.start;
        for k in picks {
            let legal: Vec<usize> = pos.moves().collect();
            let Some(&h) = legal.get(usize::from(k) % legal.len().max(1)) else {
                break;
            };
            pos = pos.play(h, &rules).unwrap();
            r.moves.push(h);
        }
        r.to_string()
    })
}

/// A legal Daldøs game on a small board as record text.
fn daldos_record() -> impl Strategy<Value = String> {
    (prop::collection::vec(any::<(u8, u8)>(), 0..40), 4u8..7).prop_map(|(picks, len)| {
        let v = Variants::ALL[picks.len() % 8];
        let mut r = daldos::Record::new(daldos::Position::start(Board::new(len).unwrap()), v);
        let mut pos = r.start;
        for (t, k) in picks {
            if pos.is_over(&v) {
                break;
            }
            let throw = Throw::ALL[usize::from(t) % 16];
            let mut outs = plays(&pos, &v, throw);
            let i = usize::from(k) % outs.len();
            let o = outs.swap_remove(i);
            r.turns.push(daldos::Turn {
                throw,
                play: o.play,
            });
            pos = o.result;
        }
        r.to_string()
    })
}

#[test]
fn fuzz_dakon_record_parser() {
    fuzz(
        "dakon_record",
        2000,
        parser_input(dakon_record(), RECORD_ALPHABET),
        |text, tally| {
            let r = text.parse::<dakon::Record>();
            tally.note(&r);
            match r {
                Ok(rec) => {
                    let again = rec.to_string();
                    let back: dakon::Record = again.parse().expect("written text reads");
                    prop_assert_eq!(
                        (back.start, back.rules, &back.moves),
                        (rec.start, rec.rules, &rec.moves)
                    );
                    prop_assert_eq!(back.to_string(), again);
                    Ok(())
                }
                Err(e) => check_message(&e, &text),
            }
        },
    );
}

#[test]
fn fuzz_daldos_record_parser() {
    fuzz(
        "daldos_record",
        2000,
        parser_input(daldos_record(), RECORD_ALPHABET),
        |text, tally| {
            let r = text.parse::<daldos::Record>();
            tally.note(&r);
            match r {
                Ok(rec) => {
                    let again = rec.to_string();
                    let back: daldos::Record = again.parse().expect("written text reads");
                    prop_assert_eq!(
                        (back.start, back.variants, &back.turns),
                        (rec.start, rec.variants, &rec.turns)
                    );
                    prop_assert_eq!(back.to_string(), again);
                    Ok(())
                }
                Err(e) => check_message(&e, &text),
            }
        },
    );
}
