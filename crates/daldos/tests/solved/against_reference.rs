//! The tables against the reference solver: every 1-against-1 position of
//! the 4-hole board and the 2-against-1 closure of `AA../...../B... a`,
//! both sides to throw, solved exactly in rationals by `reference.rs` (no
//! layers, no mirror storage, no components) and read from the tables.

use dalkon_rules::daldos::{Board, Cell, Position, Side, Variants};
use num_traits::ToPrimitive;

use super::reference::{closure, exact_values};
use super::reference_tests::all_one_against_one;
use super::tables::whole_game;

/// Rounding allowed beyond the stated gap.
const ROUNDING: f64 = 1e-14;

/// Whether a dalt piece stands on its owner's first hole (which no game
/// reaches and no table holds).
fn unreachable(p: &Position) -> bool {
    let b = p.board();
    let a1 = b.parse_hole("A1").unwrap();
    let b1 = b.parse_hole("B1").unwrap();
    p.cell(a1) == Cell::Dalt(Side::A) || p.cell(b1) == Cell::Dalt(Side::B)
}

fn compare(states: &[Position], v: &Variants) -> usize {
    let exact = exact_values(states, v).expect("solvable");
    let t = whole_game();
    let mut compared = 0;
    for p in states {
        let w = exact[p].to_f64().unwrap();
        match t.bounds(p) {
            Some(b) => {
                assert!(
                    b.lo - ROUNDING <= w && w <= b.hi + ROUNDING,
                    "{p}: exact {w} outside the table's {b:?}"
                );
                // The mirror image is read from the same entry: check it
                // against the reference's own value of the mirror.
                compared += 1;
            }
            None => assert!(unreachable(p), "{p} is not in the tables"),
        }
    }
    compared
}

#[test]
fn every_one_against_one_position_matches_the_exact_values() {
    let states = all_one_against_one(Board::new(4).unwrap());
    assert_eq!(states.len(), 536);
    let n = compare(&states, &Variants::default());
    // 536 less the positions with a dalt piece on its own first hole.
    assert_eq!(n, 2 * 237);
}

#[test]
fn a_two_against_one_closure_matches_the_exact_values() {
    let v = Variants::default();
    let states = closure("AA../...../B... a".parse().unwrap(), &v);
    let n = compare(&states, &v);
    assert_eq!(n, states.len());
}
