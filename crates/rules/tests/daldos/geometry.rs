//! Board geometry and paths (docs/rules.md §1.1–1.2).

use dalkon_rules::daldos::{Board, BoardError, Hole, Row, Side};

#[test]
fn board_sizes_and_names() {
    assert_eq!(Board::DANISH.len(), 16);
    assert_eq!(Board::DANISH.cells(), 49);
    assert_eq!(Board::DANISH.path_len_loop(), 33);
    assert_eq!(Board::NORWEGIAN.len(), 12);
    assert_eq!(Board::NORWEGIAN.cells(), 37);
    assert_eq!(Board::NORWEGIAN.path_len_loop(), 25);
    assert_eq!(Board::from_name("danish"), Ok(Board::DANISH));
    assert_eq!(Board::from_name("Norwegian"), Ok(Board::NORWEGIAN));
    assert_eq!(Board::from_name("7").map(|b| b.len()), Ok(7));
    assert_eq!(Board::from_name("3"), Err(BoardError::TooShort(3)));
    assert_eq!(Board::from_name("33"), Err(BoardError::TooLong(33)));
    assert_eq!(Board::new(2), Err(BoardError::TooShort(2)));
    assert!(matches!(
        Board::from_name("swedish"),
        Err(BoardError::Unknown(_))
    ));
    assert_eq!(
        Board::from_name("1").unwrap_err().to_string(),
        "board length 1 is too short: the rules need L >= 4"
    );
}

#[test]
fn hole_names_round_trip() {
    for len in [4u8, 12, 16, 32] {
        let b = Board::new(len).unwrap();
        let names: Vec<String> = b.holes().map(|h| b.hole_name(h)).collect();
        assert_eq!(names.len(), 3 * usize::from(len) + 1);
        assert_eq!(names[0], "A1");
        assert_eq!(names[usize::from(len)], "M0");
        assert_eq!(names[3 * usize::from(len)], format!("B{len}"));
        for h in b.holes() {
            assert_eq!(b.parse_hole(&b.hole_name(h)), Ok(h));
        }
    }
    let b = Board::DANISH;
    assert_eq!(b.parse_hole("m0"), Ok(Hole(16)));
    assert_eq!(b.hole(Row::B, 1), Some(Hole(33)));
    assert_eq!(b.hole(Row::A, 0), None);
    assert_eq!(b.hole(Row::M, 17), None);
    assert_eq!(
        b.parse_hole("A17").unwrap_err().to_string(),
        "hole \"A17\": column 17 is outside row A (columns 1..=16)"
    );
    assert!(b.parse_hole("C3").is_err());
    assert!(b.parse_hole("M").is_err());
    assert!(b.parse_hole("Mx").is_err());
}

/// Walk each side's whole path on L = 4 and compare with docs/rules.md §1.2
/// written out by hand.
#[test]
fn paths_by_hand_on_l4() {
    let b = Board::new(4).unwrap();
    let names = |side: Side, from: &str, n: u32| -> Vec<String> {
        let h = b.parse_hole(from).unwrap();
        (1..=n)
            .map(|d| b.hole_name(b.step(side, h, d).unwrap()))
            .collect()
    };
    assert_eq!(
        names(Side::A, "A1", 21).join(" "),
        "A2 A3 A4 M4 M3 M2 M1 M0 B1 B2 B3 B4 M4 M3 M2 M1 M0 B1 B2 B3 B4"
    );
    assert_eq!(
        names(Side::B, "B1", 21).join(" "),
        "B2 B3 B4 M4 M3 M2 M1 M0 A1 A2 A3 A4 M4 M3 M2 M1 M0 A1 A2 A3 A4"
    );
    // Wrapping round the loop with a big step.
    assert_eq!(names(Side::A, "B4", 1), ["M4"]);
    assert_eq!(b.step(Side::A, Hole(13), 1), None, "off the board");
}

#[test]
fn path_distance() {
    let b = Board::DANISH;
    let h = |s: &str| b.parse_hole(s).unwrap();
    // A piece on M5 is 6 positions behind B1 for A (M4 M3 M2 M1 M0 B1).
    assert_eq!(b.path_distance(Side::A, h("M5"), h("B1")), Some(6));
    // For B, A1 follows M0.
    assert_eq!(b.path_distance(Side::B, h("M1"), h("A1")), Some(2));
    // Round the loop: from B16 to M16 is one step for A, from M16 to B16 is 32.
    assert_eq!(b.path_distance(Side::A, h("B16"), h("M16")), Some(1));
    assert_eq!(b.path_distance(Side::A, h("M16"), h("B16")), Some(32));
    // From the start row onto the loop, and never back.
    assert_eq!(b.path_distance(Side::A, h("A16"), h("M16")), Some(1));
    assert_eq!(b.path_distance(Side::A, h("A1"), h("A3")), Some(2));
    assert_eq!(b.path_distance(Side::A, h("A3"), h("A1")), None);
    assert_eq!(b.path_distance(Side::A, h("M3"), h("A3")), None);
    assert_eq!(b.path_distance(Side::A, h("M3"), h("M3")), Some(0));
    // Every step agrees with the distance.
    for side in Side::BOTH {
        for from in b.holes() {
            for d in 0..=40u32 {
                let to = b.step(side, from, d).unwrap();
                let back = b.path_distance(side, from, to).unwrap();
                assert!(back <= d && (d - back) % 33 == 0, "{side} {from:?} {d}");
            }
        }
    }
}
