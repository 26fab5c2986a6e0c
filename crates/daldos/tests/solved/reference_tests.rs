//! The reference solver (`reference.rs`) on real positions of the 4-hole
//! board (docs/rules.md §1.8): the 1-against-1 and a 2-against-1 closure
//! solved exactly and in floats, checked against each other, against the
//! exact equation, against the mirror symmetry of the rules, against
//! positions worked out by hand, and against pinned golden fractions.
//!
//! These values are meant as the oracle for the fast table builder, so
//! nothing here uses the builder or its code: only the rules crate and the
//! reference solver, which is deliberately independent of it.

use std::collections::{HashMap, HashSet};

use dalkon_rules::daldos::{
    play_results, Board, Cell, EndRule, Hole, Position, Side, Throw, Variants,
};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

use super::reference::{
    bellman_exact, closure, exact_values, float_values, is_prime, mirror, EPSILON, PRIMES,
};

/// Slack for comparing an exact value with float bounds: the bounds are
/// iterated in `f64`, so each may be off by rounding (far below the `1e-13`
/// the bounds close to).
const ROUNDING: f64 = 1e-14;

fn pos(s: &str) -> Position {
    s.parse().expect("test positions are valid notation")
}

fn board4() -> Board {
    Board::new(4).expect("4 is a supported row length")
}

fn ratio(s: &str) -> BigRational {
    s.parse().expect("golden values are fractions")
}

fn to_f64(r: &BigRational) -> f64 {
    r.to_f64().unwrap_or(f64::NAN)
}

/// Whether the side to move at `p` has a winning play on every throw.
fn wins_at_once_on_every_throw(p: &Position, v: &Variants) -> bool {
    let mover = p.side_to_move();
    let mut out = Vec::new();
    Throw::ALL.iter().all(|&t| {
        play_results(p, v, t, &mut out);
        out.iter().any(|r| r.winner(v) == Some(mover))
    })
}

/// Every position of `board` with exactly one piece a side (dalt anywhere,
/// or undalt on its owner's start row), either side to move: 536 on the
/// 4-hole board, the unreachable ones (a dalt piece on its first hole)
/// included. Captures leave one side without pieces, so this set is closed
/// under play.
pub fn all_one_against_one(board: Board) -> Vec<Position> {
    let placements = |side: Side| -> Vec<(Hole, Cell)> {
        board
            .holes()
            .flat_map(|h| {
                let mut cells = vec![(h, Cell::Dalt(side))];
                if board.on_start_row(side, h) {
                    cells.push((h, Cell::Undalt(side)));
                }
                cells
            })
            .collect()
    };
    let mut out = Vec::new();
    for to_move in Side::BOTH {
        for &(ha, ca) in &placements(Side::A) {
            for &(hb, cb) in &placements(Side::B) {
                if ha == hb {
                    continue;
                }
                let p = Position::empty(board, to_move)
                    .with_cell(ha, ca)
                    .and_then(|p| p.with_cell(hb, cb))
                    .expect("one piece a side on distinct holes is valid");
                out.push(p);
            }
        }
    }
    out
}

/// The checks every solved set must pass: the exact values are a fixed
/// point of the exact equation, and the float bounds have closed to
/// `EPSILON` around them.
fn check_solution(
    states: &[Position],
    v: &Variants,
    exact: &HashMap<Position, BigRational>,
    float: &HashMap<Position, (f64, f64)>,
) {
    assert_eq!(exact.len(), float.len());
    let again = bellman_exact(states, v, exact).expect("every successor has a value");
    assert_eq!(&again, exact, "the exact values are a fixed point");
    for (p, w) in exact {
        let (lo, hi) = float[p];
        assert!(hi - lo <= EPSILON, "{p}: bounds [{lo}, {hi}] not closed");
        let x = to_f64(w);
        assert!(
            lo - ROUNDING <= x && x <= hi + ROUNDING,
            "{p}: exact {x} outside [{lo}, {hi}]"
        );
    }
}

/// Every value strictly between 0 and 1, unless the mover wins at once on
/// every throw (then exactly 1): no position of a 1- or 2-against-1
/// closure is decided before the dice are thrown.
fn check_undecided(v: &Variants, exact: &HashMap<Position, BigRational>) {
    for (p, w) in exact {
        if wins_at_once_on_every_throw(p, v) {
            assert!(w.is_one(), "{p}: wins on every throw but W = {w}");
        } else {
            assert!(
                !w.is_zero() && w < &BigRational::one(),
                "{p}: W = {w} not strictly between 0 and 1"
            );
        }
    }
}

/// The same exact value `fill` for every state: a stand-in for "any values
/// at all" when a hand derivation does not depend on them.
fn uniform(states: &[Position], fill: i64) -> HashMap<Position, BigRational> {
    states
        .iter()
        .map(|&p| (p, BigRational::from_integer(BigInt::from(fill))))
        .collect()
}

#[test]
fn modular_primes_are_prime() {
    for p in PRIMES {
        assert!(is_prime(p), "{p}");
        assert!(p < 1 << 31, "{p} must stay below 2^31");
    }
    assert!(!is_prime(2_147_483_649));
    assert!(!is_prime(1));
    assert!(is_prime(2));
}

/// The mirror, checked against its definition in notation: rows A and B
/// swapped, owners swapped (case kept), the other side to move.
#[test]
fn mirror_swaps_rows_owners_and_side() {
    let swap = |s: &str| -> String {
        let (rows, side) = s.split_once(' ').expect("rows and side");
        let flip = |row: &str| -> String {
            row.chars()
                .map(|c| match c {
                    'a' => 'b',
                    'b' => 'a',
                    'A' => 'B',
                    'B' => 'A',
                    other => other,
                })
                .collect()
        };
        let parts: Vec<&str> = rows.split('/').collect();
        let side = if side == "a" { "b" } else { "a" };
        format!(
            "{}/{}/{} {side}",
            flip(parts[2]),
            flip(parts[1]),
            flip(parts[0])
        )
    };
    for s in [
        "...A/...../...B a",
        "a.../....b/.aa. a",
        "AA../.b.a./B..b b",
        "AAAAAAAAAAAAAAAA/................./BBBBBBBBBBBBBBBB a",
    ] {
        let p = pos(s);
        assert_eq!(mirror(&p), pos(&swap(s)), "{s}");
        assert_eq!(mirror(&mirror(&p)), p, "{s}");
    }
}

/// Closures of 1-against-1 roots: sizes pinned, the order deterministic,
/// every state unfinished and inside the set of all 1-against-1 positions.
#[test]
fn one_against_one_closures() {
    let v = Variants::default();
    let all: HashSet<Position> = all_one_against_one(board4()).into_iter().collect();
    assert_eq!(all.len(), 536);
    for (root, size) in [
        ("...A/...../...B a", 186),
        ("A.../...../B... a", 242),
        ("..../..a../...B b", 168),
        ("..../a..../b... a", 188),
    ] {
        let c = closure(pos(root), &v);
        assert_eq!(c.len(), size, "{root}");
        assert_eq!(c[0], pos(root));
        assert_eq!(closure(pos(root), &v), c, "{root}: same order every time");
        let distinct: HashSet<Position> = c.iter().copied().collect();
        assert_eq!(distinct.len(), c.len(), "{root}: listed once each");
        assert!(
            c.iter().all(|p| !p.is_over(&v) && all.contains(p)),
            "{root}"
        );
    }
}

/// Every 1-against-1 position solved exactly and in floats, with the common
/// checks; each root's closure solved on its own gives the same values; and
/// the mirror of every position has exactly the same value.
#[test]
fn one_against_one_exact_values() {
    let v = Variants::default();
    let states = all_one_against_one(board4());
    let exact = exact_values(&states, &v).expect("the 1-against-1 system is solvable");
    let float = float_values(&states, &v);
    assert_eq!(exact.len(), states.len());
    check_solution(&states, &v, &exact, &float);
    check_undecided(&v, &exact);
    for p in &states {
        assert_eq!(exact[&mirror(p)], exact[p], "{p}");
    }
    for root in ["...A/...../...B a", "A.../...../B... a"] {
        let c = closure(pos(root), &v);
        let own = exact_values(&c, &v).expect("solvable");
        assert_eq!(own.len(), c.len());
        assert!(c.iter().all(|p| own[p] == exact[p]), "{root}");
    }
}

/// `W(...A/...../...B a)` ≈ 0.5336463.
const START_STERN: &str = "525985056566758833888909938432890608689787210603358385411487715002410333681060184744327473446563821/985643504875987710561470302741163303651500630861738424862327788400333921668488324822570824598697175";

/// `W(A.../...../B... a)` ≈ 0.5364629.
const START_BOW: &str = "3548455846772981644141620943232054455282240734365292488779978174764658806557078950624450654543354229996851/6614541592120599613374107418669555534653925923241460675766017427517878670383723607610572959836182329425920";

/// Pinned golden values: the 1-against-1 start-like positions, both pieces
/// undalt on the stern holes (`A4`, `B4`) or on the bow holes (`A1`, `B1`).
/// No hand derivation: these are the reference solver's exact fractions,
/// pinned so that any change to the rules or the solver shows, and so that
/// the table builder can be checked against them digit for digit.
#[test]
fn one_against_one_golden_values() {
    let v = Variants::default();
    for (root, value) in [
        ("...A/...../...B a", START_STERN),
        ("A.../...../B... a", START_BOW),
    ] {
        let exact = exact_values(&[pos(root)], &v).expect("solvable");
        assert_eq!(exact[&pos(root)], ratio(value), "{root}");
    }
}

/// Hand-worked: the start-like 1 against 1, `s = ...A/...../...B a`.
///
/// A's only piece is undalt, so the 9 throws without a dal are lost
/// (§1.3) and B throws at the same pieces, `...A/...../...B b`, which is
/// `mirror(s)`: its value for B is `W(s)`. On a throw with a dal the one
/// legal play is the added move: dal `A4` onto `M4`, then on by the other
/// die. `1,1` ends on `M3` and A throws again (`t1 = ..../...a./...B a`);
/// `1,2` ends on `M2`, `1,3` on `M1`, `1,4` on `M0`, each twice among the
/// 16 ordered throws, with B to move (`t2, t3, t4`). So
/// `16·W(s) = 9·(1 − W(s)) + W(t1) + 2·Σ_{k=2..4} (1 − W(t_k))`, i.e.
/// `W(s) = (15 + W(t1) − 2·(W(t2) + W(t3) + W(t4))) / 25`.
#[test]
fn hand_worked_start_like_one_against_one() {
    let v = Variants::default();
    let s = pos("...A/...../...B a");
    let exact = exact_values(&[s], &v).expect("solvable");
    let w = |t: &str| exact[&pos(t)].clone();
    let two = BigRational::from_integer(BigInt::from(2));
    let want = (BigRational::from_integer(BigInt::from(15)) + w("..../...a./...B a")
        - two * (w("..../..a../...B b") + w("..../.a.../...B b") + w("..../a..../...B b")))
        / BigRational::from_integer(BigInt::from(25));
    assert_eq!(exact[&s], want);
    assert_eq!(exact[&s], w("...A/...../...B b"));
}

/// Hand-worked: `a.../....b/.aa. a` (3 against 1, default rules) is won at
/// once on every throw, so `W = 1` and nothing else is reachable.
///
/// B's last piece stands on `M4`. A's pieces: `A1` is 4 holes behind it
/// (`A2 A3 A4 M4`), `B3` 2 holes (`B4 M4`), `B2` 3 holes but it must pass
/// `B3`, its own piece, unless `B3` moves first. Throw by throw (unordered):
/// `1,1`: `B3` adds 1 + 1 onto `M4`; `2,2`, `1,2`, `2,3`, `2,4`: `B3` moves
/// 2 (the game ends there); `4,4`, `1,4`, `3,4`: `A1` moves 4; `1,3`: `A1`
/// adds 1 + 3; `3,3`: `B3` moves 3 to `M3`, clearing the way, then `B2`
/// moves 3 onto `M4`.
///
/// Checked with the solver: one application of the exact equation gives 1
/// at this position whatever values the others have (all 0 or all 1; the
/// whole closure has 4533 positions, beyond what the exact solver does
/// quickly), and the float bounds are exactly 1.
#[test]
fn hand_worked_won_on_every_throw() {
    let v = Variants::default();
    let p = pos("a.../....b/.aa. a");
    assert!(wins_at_once_on_every_throw(&p, &v));
    let states = closure(p, &v);
    assert_eq!(states.len(), 4533);
    for fill in [0, 1] {
        let once = bellman_exact(&states, &v, &uniform(&states, fill)).expect("all valued");
        assert!(once[&p].is_one(), "from {fill}: {}", once[&p]);
    }
    assert_eq!(float_values(&states, &v)[&p], (1.0, 1.0));
    let m = mirror(&p);
    assert_eq!(float_values(&[m], &v)[&m], (1.0, 1.0));
}

/// Hand-worked, `end=one` (two pieces left lose): `a.../..b.b/.a.. a` is
/// worth exactly 1, although the dal-dal wins nothing at once.
///
/// B's pieces stand on `M2` and `M4`; capturing either wins. `A1` is 4
/// holes behind `M4` (6 behind `M2`), `B2` 3 holes behind `M4` (5 behind
/// `M2`). Every throw but `1,1` offers a 3 or a 4 (a die or the sum): `1,2`,
/// `1,3`, `2,3`, `3,3`, `3,4` give `B2` 3; `1,4`, `2,2` (added), `2,4`,
/// `4,4` give `A1` 4. On `1,1` no capture is possible, but moving `A1` and
/// `B2` one hole each leaves `.a../..b.b/..a. a` with A to throw again,
/// where `A2` is 3 behind `M4` (5 behind `M2`) and `B3` 2 behind `M4` (4
/// behind `M2`): `1,1` (sum), `2,2`, `1,2`, `2,3`, `2,4` give 2; `3,3`,
/// `1,3`, `3,4` give 3; `4,4` and `1,4` give `B3` 4 onto `M2` (passing B's
/// piece on `M4`). So that position is won on every throw and
/// `W = 15/16 + 1/16 · 1 = 1`.
///
/// Checked with the solver the same way: from any values (all 0, all 1),
/// one application of the exact equation gives 1 at the position after the
/// dal-dal, and a second gives 1 here; from all 0 the first gives exactly
/// 15/16 here (the dal-dal alone still unknown).
#[test]
fn hand_worked_won_after_daldal() {
    let v = Variants {
        end: EndRule::One,
        ..Variants::default()
    };
    let p = pos("a.../..b.b/.a.. a");
    let after = pos(".a../..b.b/..a. a");
    assert!(!wins_at_once_on_every_throw(&p, &v));
    assert!(wins_at_once_on_every_throw(&after, &v));
    let mut out = Vec::new();
    play_results(&p, &v, Throw::new(1, 1).expect("a throw"), &mut out);
    assert!(out.contains(&after));
    let states = closure(p, &v);
    assert_eq!(states.len(), 3708);
    for fill in [0, 1] {
        let once = bellman_exact(&states, &v, &uniform(&states, fill)).expect("all valued");
        assert!(once[&after].is_one());
        if fill == 0 {
            assert_eq!(once[&p], ratio("15/16"));
        }
        let twice = bellman_exact(&states, &v, &once).expect("all valued");
        assert!(twice[&p].is_one(), "from {fill}: {}", twice[&p]);
    }
    let float = float_values(&states, &v);
    assert_eq!(float[&p], (1.0, 1.0));
    assert_eq!(float[&after], (1.0, 1.0));
}

/// A 2-against-1 closure (both of A's pieces undalt on the bow holes, B's
/// undalt on `B1`), with the 1-against-1 positions it reaches: solved
/// exactly with the common checks, and its mirror image solved separately
/// to exactly the same values. The root's exact value has some 1280
/// digits, so it is pinned as a float: `W ≈ 0.83161033122260`.
#[test]
fn two_against_one_exact_values() {
    let v = Variants::default();
    let root = pos("AA../...../B... a");
    let states = closure(root, &v);
    assert_eq!(states.len(), 1699);
    let exact = exact_values(&states, &v).expect("the 2-against-1 system is solvable");
    let float = float_values(&states, &v);
    check_solution(&states, &v, &exact, &float);
    check_undecided(&v, &exact);
    assert!((to_f64(&exact[&root]) - 0.831_610_331_222_60).abs() < 1e-13);
    let mirrored = closure(mirror(&root), &v);
    assert_eq!(mirrored.len(), states.len());
    let exact_m = exact_values(&mirrored, &v).expect("solvable");
    for p in &states {
        assert_eq!(exact_m[&mirror(p)], exact[p], "{p}");
    }
}
