//! Position notation (docs/rules.md §1.6): round trips and error messages.

use dalkon_rules::daldos::{
    Board, Cell, NotationError, Position, PositionError, Row, Side, Throw, ThrowError,
};

use super::util::pos;

const START: &str = "AAAAAAAAAAAAAAAA/................./BBBBBBBBBBBBBBBB a";

#[test]
fn start_positions() {
    assert_eq!(Position::start(Board::DANISH).to_string(), START);
    assert_eq!(pos(START), Position::start(Board::DANISH));
    assert_eq!(
        Position::start(Board::NORWEGIAN).to_string(),
        "AAAAAAAAAAAA/............./BBBBBBBBBBBB a"
    );
    let p = Position::start(Board::DANISH);
    assert_eq!(p.count(Side::A), 16);
    assert_eq!(p.count(Side::B), 16);
    assert_eq!(p.side_to_move(), Side::A);
    assert_eq!(
        p.cell(Board::DANISH.parse_hole("A5").unwrap()),
        Cell::Undalt(Side::A)
    );
    assert_eq!(p.cell(Board::DANISH.parse_hole("M5").unwrap()), Cell::Empty);
}

#[test]
fn round_trips() {
    for s in [
        "a.A./b...a/B..b b",
        "......../a.......b/.......B a",
        "A.A.A.A.a.a.a.a./a.a.a.a.a.a.a.a.b/b.b.b.b.B.B.B.B. b",
        "..../...../...b a",
    ] {
        assert_eq!(pos(s).to_string(), s);
    }
    // Spaces around are accepted, the output is canonical.
    assert_eq!(
        pos("  ..../..a../....   b ").to_string(),
        "..../..a../.... b"
    );
}

#[test]
fn builder_matches_parser() {
    let b = Board::new(4).unwrap();
    let h = |s: &str| b.parse_hole(s).unwrap();
    let p = Position::empty(b, Side::B)
        .with_cell(h("A2"), Cell::Undalt(Side::A))
        .unwrap()
        .with_cell(h("M0"), Cell::Dalt(Side::A))
        .unwrap()
        .with_cell(h("A4"), Cell::Dalt(Side::B))
        .unwrap()
        .with_cell(h("B1"), Cell::Undalt(Side::B))
        .unwrap();
    assert_eq!(p.to_string(), ".A.b/a..../B... b");
    assert_eq!(
        p.pieces(Side::A)
            .map(|x| b.hole_name(x))
            .collect::<Vec<_>>(),
        ["A2", "M0"]
    );
    assert_eq!(
        p.with_side_to_move(Side::A).to_string(),
        ".A.b/a..../B... a"
    );
    assert_eq!(
        p.with_cell(h("M1"), Cell::Undalt(Side::B)),
        Err(PositionError::UndaltOutsideStartRow {
            side: Side::B,
            hole: "M1".into()
        })
    );
    let full = pos("AAAA/...../.... a");
    assert_eq!(
        full.with_cell(h("M2"), Cell::Dalt(Side::A)),
        Err(PositionError::TooManyPieces {
            side: Side::A,
            max: 4
        })
    );
    assert!(full
        .with_cell(dalkon_rules::daldos::Hole(13), Cell::Empty)
        .is_err());
}

fn err(s: &str) -> String {
    s.parse::<Position>().unwrap_err().to_string()
}

#[test]
fn errors_name_problem_and_column() {
    // Neither side has a piece: no game reaches it, and no side has won.
    assert_eq!(
        err("..../...../.... a"),
        "no pieces on the board: a position needs at least one piece of either side"
    );
    assert_eq!(
        err(""),
        "empty position: expected <row A>/<row M>/<row B> <side>"
    );
    assert_eq!(
        err("..../..... a"),
        "column 11: expected 3 rows separated by '/', found 2"
    );
    assert_eq!(
        err("..../...../..../. a"),
        "column 16: expected 3 rows separated by '/', found 4"
    );
    assert_eq!(
        err(".../..../... a"),
        "column 1: row A has 3 holes: board length 3 is too short: the rules need L >= 4"
    );
    assert_eq!(
        err("..../..../.... a"),
        "column 6: row M has 4 holes, expected 5 (row A has 4)"
    );
    assert_eq!(
        err("..../...../..... a"),
        "column 12: row B has 5 holes, expected 4 (row A has 4)"
    );
    assert_eq!(
        err("..x./...../.... a"),
        "column 3: unknown character 'x' at hole A3 (expected '.', 'A', 'a', 'B' or 'b')"
    );
    assert_eq!(
        err("..../..A../.... a"),
        "column 8: undalt piece 'A' at hole M2: undalt pieces may only stand on their own start row"
    );
    assert_eq!(
        err("B.../...../.... a"),
        "column 1: undalt piece 'B' at hole A1: undalt pieces may only stand on their own start row"
    );
    assert_eq!(
        err("AAAA/a..../.... a"),
        "column 6: side a has more than 4 pieces"
    );
    assert_eq!(
        err("..../...../...."),
        "column 16: missing side to move ('a' or 'b') after the rows"
    );
    assert_eq!(
        err("..../...../.... c"),
        "column 17: side to move must be 'a' or 'b', found \"c\""
    );
    assert_eq!(
        err("..../...../.... a b"),
        "column 19: unexpected text \"b\" after the side to move"
    );
    assert!(matches!(
        "..x./...../.... a".parse::<Position>(),
        Err(NotationError::UnknownChar { column: 3, .. })
    ));
    assert!(matches!(
        "..../..../.... a".parse::<Position>(),
        Err(NotationError::RowLength { row: Row::M, .. })
    ));
}

#[test]
fn throws() {
    assert_eq!(Throw::ALL.len(), 16);
    assert_eq!(Throw::ALL.iter().filter(|t| t.is_daldal()).count(), 1);
    let mut all: Vec<(u8, u8)> = Throw::ALL.iter().map(|t| (t.first, t.second)).collect();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 16);
    assert_eq!(Throw::DISTINCT.iter().map(|x| x.1).sum::<u32>(), 16);
    for (t, w) in Throw::DISTINCT {
        let n = Throw::ALL.iter().filter(|u| u.sorted() == t).count() as u32;
        assert_eq!(n, w, "{t}");
    }
    assert_eq!(
        "3,1".parse::<Throw>(),
        Ok(Throw {
            first: 3,
            second: 1
        })
    );
    assert_eq!(
        " 4 , 4".parse::<Throw>(),
        Ok(Throw {
            first: 4,
            second: 4
        })
    );
    assert_eq!(
        Throw {
            first: 3,
            second: 1
        }
        .to_string(),
        "3,1"
    );
    assert!(matches!(
        "5,1".parse::<Throw>(),
        Err(ThrowError::Face { .. })
    ));
    assert!(matches!(
        "0,1".parse::<Throw>(),
        Err(ThrowError::Face { .. })
    ));
    assert!(matches!("3".parse::<Throw>(), Err(ThrowError::Format(_))));
    assert!(matches!(
        "3,1,2".parse::<Throw>(),
        Err(ThrowError::Format(_))
    ));
    assert!(matches!("a,1".parse::<Throw>(), Err(ThrowError::Format(_))));
    assert_eq!(
        "5,1".parse::<Throw>().unwrap_err().to_string(),
        "dice \"5,1\": face 5 is not on a four-sided long die (1..=4)"
    );
    assert!(Throw::new(2, 5).is_err());
}
