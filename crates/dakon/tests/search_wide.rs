//! Boards wider than 16 holes a row (up to the 32 a position holds): the
//! exact search (keys of 64 bytes, move lists of 32) against the
//! independent memoised negamax of `dalkon_dakon::reference`, and the
//! limits that stay (33 holes, databases above 16 holes) refused with their
//! reasons.

use std::collections::HashMap;

use dalkon_dakon::best::analyse;
use dalkon_dakon::reference::negamax_future;
use dalkon_dakon::search::{min_tt_bytes, solve, tt_bytes_for, Goal, Limits, SearchError};
use dalkon_dakon::solve::{choose, start_position, Method, MethodChoice};
use dalkon_dakon::{Databases, DbError, NoProgress, SolveError};
use dalkon_rules::dakon::{Position, Rules, Side, MAX_HOLES};
use proptest::prelude::*;

fn limits() -> Limits {
    Limits {
        tt_bytes: 16 << 20,
        max_nodes: None,
        time: None,
    }
}

/// Every move's value by the reference: store difference now, plus the
/// move's gain, plus (or minus, when the turn passes) the child's future.
fn reference_moves(pos: &Position, rules: &Rules) -> Vec<(usize, i32)> {
    let me = pos.side_to_move();
    let mut memo = HashMap::new();
    pos.moves()
        .map(|h| {
            let child = pos.play(h, rules).unwrap();
            let gain = (i32::from(child.store(me)) - i32::from(pos.store(me)))
                - (i32::from(child.store(me.other())) - i32::from(pos.store(me.other())));
            let f = negamax_future(child, rules, &mut memo);
            let f = if child.side_to_move() == me { f } else { -f };
            (h, pos.store_diff() + gain + f)
        })
        .collect()
}

fn check_against_reference(pos: &Position, rules: &Rules) {
    let r = solve(pos, rules, &limits(), None, None, Goal::EveryMove).unwrap();
    let mut memo = HashMap::new();
    let value = pos.store_diff() + negamax_future(*pos, rules, &mut memo);
    assert_eq!(r.value, value, "{pos} {rules}");
    assert_eq!(r.moves, reference_moves(pos, rules), "{pos} {rules}");
}

/// A 20-hole row: `seeds` at 1-based hole `hole`, the rest empty.
fn row(n: usize, holes: &[(usize, u8)]) -> Vec<u8> {
    let mut r = vec![0u8; n];
    for &(h, s) in holes {
        r[h - 1] = s;
    }
    r
}

#[test]
fn sparse_20_hole_positions_solve_exactly_and_agree_with_the_reference() {
    let rules = Rules::default();
    // Few seeds, so that the reference (which walks the whole game tree)
    // stays fast; `search/job.rs` also checks the wide key and move list
    // against the narrow ones on longer games.
    let cases = [
        (
            row(20, &[(1, 1), (7, 2), (20, 1)]),
            row(20, &[(3, 1), (19, 2)]),
        ),
        (
            row(20, &[(1, 1), (7, 1), (20, 1)]),
            row(20, &[(3, 1), (19, 1)]),
        ),
        (row(20, &[(10, 2), (11, 1)]), row(20, &[(1, 1), (11, 2)])),
    ];
    for (south, north) in cases {
        for side in Side::BOTH {
            let pos = Position::new(&south, &north, [3, 1], side).unwrap();
            for rules in [rules, Rules::from_code(7).unwrap()] {
                check_against_reference(&pos, &rules);
            }
        }
    }
}

#[test]
fn a_32_hole_position_solves_exactly() {
    let rules = Rules::default();
    let south = row(32, &[(1, 1), (16, 1), (17, 2), (32, 1)]);
    let north = row(32, &[(5, 1), (31, 1)]);
    let pos = Position::new(&south, &north, [0, 0], Side::North).unwrap();
    check_against_reference(&pos, &rules);
}

/// The 20×1 start is a legal game but far too big to solve exactly (the
/// n×1 starts grow about 20-fold every two holes: 12×1 already takes 14.5
/// million nodes). Under a node limit the search stops cleanly and `best`
/// answers with one move, bounds on all 20 and no exact value.
#[test]
fn the_20x1_start_stops_at_its_node_limit_and_gives_an_estimate() {
    let rules = Rules::default();
    let pos = Position::start(20, 1).unwrap();
    let capped = Limits {
        max_nodes: Some(20_000),
        time: None,
        ..limits()
    };
    match solve(&pos, &rules, &capped, None, None, Goal::EveryMove) {
        Err(SearchError::NodeLimit { nodes }) => assert!(nodes >= 20_000),
        other => panic!("expected the node limit, got {other:?}"),
    }
    let a = analyse(&pos, &rules, &capped, 3, None).unwrap();
    assert!(!a.exact);
    assert!(
        a.moves.is_empty(),
        "no move's value is proved: {:?}",
        a.moves
    );
    assert_eq!(a.move_bounds.len(), 20);
    assert_eq!(a.best_moves.len(), 1);
    assert!(a.lower <= a.value && a.value <= a.upper);
    assert!(a
        .move_bounds
        .iter()
        .all(|m| m.lower <= m.upper && m.upper <= a.upper));
}

#[test]
fn table_sizes_follow_the_key_width() {
    // u128 keys up to 8 holes, [u128; 2] up to 16, [u64; 8] up to 32.
    assert!(tt_bytes_for(8, 1000) < tt_bytes_for(9, 1000));
    assert_eq!(tt_bytes_for(9, 1000), tt_bytes_for(16, 1000));
    assert!(tt_bytes_for(16, 1000) < tt_bytes_for(17, 1000));
    assert_eq!(tt_bytes_for(17, 1000), tt_bytes_for(32, 1000));
    // 64-byte key + a data word + a sequence word, in a fixed-size slot.
    assert_eq!(tt_bytes_for(20, 7), 7 * 80);
    assert_eq!(tt_bytes_for(8, 7), 7 * 32);
    assert_eq!(tt_bytes_for(16, 7), 7 * 48);
    let min = min_tt_bytes(20);
    assert!(min < 1 << 20, "the smallest table stays small: {min}");
    let pos = Position::start(20, 1).unwrap();
    let tiny = Limits {
        tt_bytes: min - 1,
        max_nodes: None,
        time: None,
    };
    assert_eq!(
        solve(&pos, &Rules::default(), &tiny, None, None, Goal::EveryMove).unwrap_err(),
        SearchError::TableTooSmall {
            bytes: min - 1,
            min
        }
    );
}

#[test]
fn boards_over_32_holes_are_refused_naming_the_limit() {
    assert_eq!(MAX_HOLES, 32);
    let e = start_position(33, 1).unwrap_err();
    assert!(matches!(e, SolveError::Setup { holes: 33, .. }), "{e:?}");
    assert!(e.is_bad_input());
    let source = std::error::Error::source(&e).unwrap().to_string();
    assert_eq!(
        source,
        "33 holes per row is more than the 32 a Dakon position can hold \
         (each row is a fixed array of 32 one-byte counts)"
    );
    assert!(start_position(32, 3).is_ok());
    assert!(start_position(32, 4).is_err(), "256 seeds");
}

#[test]
fn databases_stay_at_16_holes_and_say_why() {
    let e = Databases::build(17, Rules::default(), 2, &NoProgress).unwrap_err();
    assert!(matches!(e, DbError::Holes { holes: 17, max: 16 }), "{e:?}");
    assert!(e.is_bad_input());
    assert_eq!(
        e.to_string(),
        "a database needs 1 to 16 holes per side, not 17 (the database builder is sized for \
         at most 16 holes a row; wider boards are solved by search, without databases)"
    );
    assert!(Databases::build(16, Rules::default(), 2, &NoProgress).is_ok());
    // So `solve` never picks databases for a wide board on its own.
    assert_eq!(choose(MethodChoice::Auto, 20, 1), Method::Search);
}

fn sparse_wide() -> impl Strategy<Value = (Position, Rules)> {
    (
        17usize..=32,
        prop::collection::vec((0usize..64, 1u8..=2), 1..=3),
        0u8..4,
        0u8..4,
        any::<bool>(),
        0u8..8,
    )
        .prop_map(|(n, seeds, s0, s1, north, code)| {
            let mut rows = [vec![0u8; n], vec![0u8; n]];
            for (cell, s) in seeds {
                let cell = cell % (2 * n);
                rows[cell / n][cell % n] += s;
            }
            let side = if north { Side::North } else { Side::South };
            let pos = Position::new(&rows[0], &rows[1], [s0, s1], side).unwrap();
            (pos, Rules::from_code(code).unwrap())
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random sparse positions of 17 to 32 holes: the search equals the
    /// reference move by move.
    #[test]
    fn wide_search_equals_the_reference((pos, rules) in sparse_wide()) {
        let r = solve(&pos, &rules, &limits(), None, None, Goal::EveryMove).unwrap();
        let mut memo = HashMap::new();
        prop_assert_eq!(r.value, pos.store_diff() + negamax_future(pos, &rules, &mut memo));
        if pos.terminal_value().is_none() {
            prop_assert_eq!(r.moves, reference_moves(&pos, &rules));
        }
    }
}
