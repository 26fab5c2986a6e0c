//! The published capture tables (RULES.md §1.7): the closed form and the
//! board evaluation give the exact fractions, which round to the published
//! percentages.

use dalkon_odds::closed_form::{pair, single};
use dalkon_odds::ratio::{percent_string, ratio, sixteenth_pow};
use dalkon_odds::tables::{published, published_daldal_use, table_row, TableKind};
use dalkon_rules::daldos::{Board, CaptureRule, Variants};

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
            assert_eq!(row.board_daldals, 9);
            assert_eq!(row.board_bound, sixteenth_pow(10));
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
