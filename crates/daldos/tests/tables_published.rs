//! The published capture tables (docs/rules.md §1.7): the closed form and the
//! board evaluation give the exact fractions, which round to the published
//! percentages.

use dalkon_daldos::closed_form::{pair, single};
use dalkon_daldos::ratio::{percent_string, ratio, sixteenth_pow};
use dalkon_daldos::tables::{capture_table, published, published_daldal_use, table_row, TableKind};
use dalkon_rules::daldos::{Board, CaptureRule, Variants};
use num_traits::Zero;

const SINGLE: [(u64, u64, u32); 9] = [
    (7, 16, 1),
    (1, 2, 2),
    (3, 5, 0),
    (2, 3, 0),
    (7, 24, 1),
    (11, 48, 2),
    (55, 384, 2),
    (59, 768, 2),
    (55, 6144, 2),
];

const PAIR: [(u32, u32, u64, u64, u32); 6] = [
    (1, 2, 3, 4, 1),
    (1, 3, 3, 4, 1),
    (1, 4, 3, 4, 1),
    (2, 3, 11, 16, 2),
    (2, 4, 11, 16, 2),
    (3, 4, 43, 64, 2),
];

#[test]
fn closed_form_single_table() {
    for (i, &(n, d, used)) in SINGLE.iter().enumerate() {
        let dist = i as u32 + 1;
        let got = single(dist, CaptureRule::Final).unwrap();
        assert_eq!(got.probability, ratio(n, d), "d={dist}");
        assert_eq!(got.daldal_use, used, "d={dist}");
        assert_eq!(
            Some(percent_string(&got.probability).as_str()),
            published(TableKind::Single, dist, None),
            "d={dist}"
        );
        assert_eq!(
            published_daldal_use(TableKind::Single, dist, None),
            Some(used)
        );
    }
}

#[test]
fn closed_form_pair_table() {
    for &(d1, d2, n, d, used) in &PAIR {
        let got = pair(d1, d2, CaptureRule::Final).unwrap();
        assert_eq!(got.probability, ratio(n, d), "d1={d1} d2={d2}");
        assert_eq!(got.daldal_use, used, "d1={d1} d2={d2}");
        assert_eq!(
            Some(percent_string(&got.probability).as_str()),
            published(TableKind::Pair, d1, Some(d2))
        );
    }
}

#[test]
fn board_single_table_matches_closed_form() {
    for board in [Board::DANISH, Board::NORWEGIAN] {
        for (i, &(n, d, _)) in SINGLE.iter().enumerate() {
            let dist = i as u32 + 1;
            let row = table_row(board, &Variants::default(), dist, None).unwrap();
            assert_eq!(row.probability, ratio(n, d));
            if dist <= 2 {
                // The dal-dal itself captures: nothing is cut, exact.
                assert!(row.board_bound.is_zero());
                assert_eq!(row.board_probability, row.probability);
            } else {
                assert_eq!(row.board_daldals, 9);
                assert_eq!(row.board_bound, sixteenth_pow(10));
            }
            assert_eq!(
                row.board_probability, row.probability_cut,
                "{board} d={dist}"
            );
            assert!(row.board_probability <= row.probability);
            assert!(row.probability <= &row.board_probability + &row.board_bound);
        }
    }
}

#[test]
fn board_pair_table_matches_closed_form() {
    for board in [Board::DANISH, Board::NORWEGIAN] {
        for &(d1, d2, n, d, _) in &PAIR {
            let row = table_row(board, &Variants::default(), d1, Some(d2)).unwrap();
            assert_eq!(row.probability, ratio(n, d));
            assert_eq!(
                row.board_probability, row.probability_cut,
                "{board} {d1},{d2}"
            );
        }
    }
}

fn variants() -> Vec<Variants> {
    use dalkon_rules::daldos::{DalRule, EndRule};
    let mut out = Vec::new();
    for dal in [DalRule::Any, DalRule::Sternmost] {
        for capture in [CaptureRule::Final, CaptureRule::Path] {
            for end in [EndRule::Last, EndRule::One] {
                out.push(Variants { dal, capture, end });
            }
        }
    }
    out
}

/// Both tables to d = 12, both boards, every variant: the board value is
/// the closed form cut at the same depth, exactly, and the closed form lies
/// within the board's bound. None of these variants changes a number here
/// (all pieces are dalt; an added move capturing on its first die can be
/// replaced by that die alone): pinned, so a change would be noticed.
#[test]
fn extended_tables_agree_on_both_boards_and_all_variants() {
    for board in [Board::DANISH, Board::NORWEGIAN] {
        let default = capture_table(board, &Variants::default(), 12).unwrap();
        assert_eq!(default.single.len(), 12);
        assert_eq!(default.pair.len(), 66);
        for v in variants() {
            let t = capture_table(board, &v, 12).unwrap();
            for (r, d) in t
                .single
                .iter()
                .chain(&t.pair)
                .zip(default.single.iter().chain(&default.pair))
            {
                let at = format!("{board} {v} d1={} d2={:?}", r.d1, r.d2);
                assert_eq!(r.board_probability, r.probability_cut, "{at}");
                assert!(r.board_probability <= r.probability, "{at}");
                assert!(
                    r.probability <= &r.board_probability + &r.board_bound,
                    "{at}"
                );
                assert_eq!(r.probability, d.probability, "{at}");
                assert_eq!(r.daldal_use, d.daldal_use, "{at}");
                assert_eq!(
                    r.published.is_some(),
                    v == Variants::default() && d.published.is_some()
                );
            }
        }
    }
}

/// Rows are computed in parallel; one thread gives the same tables.
#[test]
fn tables_do_not_depend_on_the_thread_count() {
    let many = capture_table(Board::NORWEGIAN, &Variants::default(), 8).unwrap();
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| capture_table(Board::NORWEGIAN, &Variants::default(), 8).unwrap());
    assert_eq!(many, one);
}

/// A distance the board cannot host with enough road is refused.
#[test]
fn too_far_for_the_board_is_an_error() {
    use dalkon_daldos::tables::{max_distance, table_position, TableError};
    assert_eq!(max_distance(Board::NORWEGIAN), 12);
    assert_eq!(max_distance(Board::DANISH), 24);
    let err = table_position(Board::NORWEGIAN, &Variants::default(), 13, None).unwrap_err();
    assert!(
        matches!(
            err,
            TableError::TooFar {
                distance: 13,
                max: 12,
                ..
            }
        ),
        "{err}"
    );
    let err = table_position(Board::DANISH, &Variants::default(), 3, Some(2)).unwrap_err();
    assert!(matches!(err, TableError::Order { d1: 3, d2: 2 }), "{err}");
}
