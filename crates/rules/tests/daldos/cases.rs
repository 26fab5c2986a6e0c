//! Hand-worked play cases, one (or more) per clause of docs/rules.md §1.3.
//! Boards are mostly L = 8: row A `A1..A8`, row M `M0..M8`, row B `B1..B8`;
//! A's path on the loop is M8 M7 … M0 B1 … B8 M8 …

use dalkon_rules::daldos::{
    plays, Board, CaptureRule, DalRule, EndRule, Position, Side, Throw, Variants,
};

use super::util::{play_list, play_names, pos, results};

const DEF: Variants = Variants {
    dal: DalRule::Any,
    capture: CaptureRule::Final,
    end: EndRule::Last,
};
const PATH: Variants = Variants {
    capture: CaptureRule::Path,
    ..DEF
};
const STERN: Variants = Variants {
    dal: DalRule::Sternmost,
    ..DEF
};
const ONE: Variants = Variants {
    end: EndRule::One,
    ..DEF
};

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

/// A lone dalt piece on M5 with 2,1 can only add the dice (one piece):
/// M5 → M2, capturing the b there on landing.
#[test]
fn capture_on_landing() {
    assert_eq!(
        play_list("......../..b..a.../.......b a", DEF, "2,1"),
        pairs(&[("M5-M3 M3-M2x", "......../..a....../.......b b")])
    );
    // An undalt enemy is captured too: M0 → B1 → B2 takes B's undalt B2.
    // 1,1 is a dal-dal, so A throws again.
    assert_eq!(
        play_list("......../a......../.B.....b a", DEF, "1,1"),
        pairs(&[("M0-B1 B1-B2x", "......../........./.a.....b a")])
    );
}

/// Enemy pieces on the way are passed over without effect (capture=final),
/// but under capture=path the hole after the first die captures, and the
/// player picks which die comes first for a dalt piece.
#[test]
fn pass_over_enemy_and_capture_path() {
    let p = "......../...bba.../.......b a";
    assert_eq!(
        play_list(p, DEF, "2,1"),
        pairs(&[("M5-M3 M3-M2", "......../..abb..../.......b b")])
    );
    assert_eq!(
        play_list(p, PATH, "2,1"),
        pairs(&[
            ("M5-M3x M3-M2", "......../..a.b..../.......b b"),
            ("M5-M4x M4-M2", "......../..ab...../.......b b"),
        ])
    );
}

/// A piece may not land on or pass over its own piece; the second die sees
/// the board left by the first.
#[test]
fn blocked_by_own_piece() {
    // 4,4: M5+4 passes M3 (blocked) until M3 has moved away.
    assert_eq!(
        play_list("......../...a.a.../.......b a", DEF, "4,4"),
        pairs(&[
            ("M3-B1 M5-M1", "......../.a......./a......b b"),
            ("M3-B1 B1-B5", "......../.....a.../....a..b b"),
        ])
    );
    // 2,2: M5+2 would land on M3 (blocked) until M3 has moved away.
    assert_eq!(
        play_names("......../...a.a.../.......b a", DEF, "2,2"),
        ["M3-M1 M1-B1", "M3-M1 M5-M3"]
    );
}

/// An undalt piece moves only with a dal.
#[test]
fn dal_activation_only_with_a_dal() {
    let p = "A......./........a/.......b a";
    assert_eq!(play_names(p, DEF, "2,3"), ["M8-M6 M6-M3"]);
    // The throw's order only decides which die is written first.
    assert_eq!(play_names(p, DEF, "3,2"), ["M8-M5 M5-M3"]);
    assert_eq!(
        play_names(p, DEF, "1,3"),
        ["A1-A2 A2-A5", "A1-A2 M8-M5", "M8-M7 M7-M4"]
    );
}

/// An added move of an undalt piece: the dal comes first, so under
/// capture=path the intermediate hole is the one it is dalled onto.
#[test]
fn added_move_of_undalt_piece_dals_first() {
    // b on M7: with 2,1 the piece goes A8 → M8 (dal) → M6, passing M7.
    // Had the 2 come first it would have stopped on M7 and captured.
    let p = ".......A/.......b./.......b a";
    for v in [DEF, PATH] {
        assert_eq!(
            play_list(p, v, "2,1"),
            pairs(&[("A8-M8 M8-M6", "......../......ab./.......b b")])
        );
    }
    // b on M8, the hole the dal leads to: captured only under capture=path.
    let p = ".......A/........b/.......b a";
    assert_eq!(
        play_list(p, DEF, "2,1"),
        pairs(&[("A8-M8 M8-M6", "......../......a.b/.......b b")])
    );
    assert_eq!(
        play_list(p, PATH, "2,1"),
        pairs(&[("A8-M8x M8-M6", "......../......a../.......b b")])
    );
}

/// dal=sternmost: only the undalt piece with the highest column may be
/// dalled; when its next hole holds an own piece nothing can be dalled
/// (no fall-back), also inside added moves.
#[test]
fn sternmost_rule_without_fall_back() {
    // A8 is sternmost but M8 holds an own piece; M5..M8 are jammed
    // behind M4, which can move.
    let p = ".A.....A/....aaaaa/.......b a";
    assert_eq!(play_names(p, STERN, "1,1"), ["M4-M3 M3-M2", "M4-M3 M5-M4"]);
    // Under dal=any the dal may go to A2 instead.
    assert_eq!(
        play_names(p, DEF, "1,1"),
        ["A2-A3 A3-A4", "A2-A3 M4-M3", "M4-M3 M3-M2", "M4-M3 M5-M4"]
    );
    // Once the sternmost piece is dalled, the next one becomes sternmost.
    let start = Position::start(Board::DANISH).to_string();
    assert_eq!(
        play_names(&start, STERN, "1,1"),
        ["A16-M16 A15-A16", "A16-M16 M16-M15"]
    );
    // The sternmost piece whose next hole is free, with the dal on it
    // inside an added move: A8 → M8 → M5 is fine, A2 is never dalled.
    let p = ".A.....A/........./a......b a";
    assert_eq!(
        play_names(p, STERN, "1,3"),
        ["A8-M8 B1-B4", "A8-M8 M8-M5", "B1-B2 B2-B5"]
    );
    assert_eq!(play_names(p, DEF, "1,3").len(), 5);
}

/// Both dice must be used when possible: the one-die play M1-B3 is not
/// offered because M1-B3 then M5-M1 uses both.
#[test]
fn must_use_both_dice() {
    let out = play_list("......../.a...a.../.......b a", DEF, "4,4");
    assert_eq!(
        out,
        pairs(&[
            ("M1-B3 M5-M1", "......../.a......./..a....b b"),
            ("M1-B3 B3-B7", "......../.....a.../......ab b"),
        ])
    );
}

/// Only one die can be used (the sum is blocked, the undalt piece cannot
/// move without a dal): the player chooses either die.
#[test]
fn one_die_only_either_die() {
    let p = ".a....A./........./.......b a";
    assert_eq!(play_names(p, DEF, "2,3"), ["A2-A4", "A2-A5"]);
    assert_eq!(play_names(p, DEF, "3,2"), ["A2-A4", "A2-A5"]);
    // 4,4: A2+4 = A6 is free; A2+8 passes the own A7, so one die only.
    assert_eq!(play_names(p, DEF, "4,4"), ["A2-A6"]);
}

/// No die usable: the throw is lost, the board unchanged, the turn passes.
#[test]
fn lost_throw() {
    let start = Position::start(Board::DANISH);
    for t in ["2,2", "2,3", "3,4", "4,2"] {
        let out = plays(&start, &DEF, t.parse().unwrap());
        assert_eq!(out.len(), 1);
        assert!(out[0].play.is_pass());
        assert_eq!(out[0].play.notation(Board::DANISH), "pass");
        assert_eq!(out[0].result, start.with_side_to_move(Side::B));
    }
    // A dalt piece jammed behind undalt pieces cannot use 2 or 3.
    assert_eq!(
        play_list("aAAA..../........./.......b a", DEF, "2,3"),
        pairs(&[("pass", "aAAA..../........./.......b b")])
    );
}

/// After a dal-dal the same side throws again.
#[test]
fn daldal_keeps_side() {
    for (_, r) in play_list(&Position::start(Board::DANISH).to_string(), DEF, "1,1") {
        assert!(r.ends(" a"), "{r}");
    }
    for (_, r) in play_list("......../...a.a.../.......b b", DEF, "1,1") {
        assert!(r.ends(" b"), "{r}");
    }
    for (_, r) in play_list("......../...a.a.../.......b a", DEF, "1,2") {
        assert!(r.ends(" b"), "{r}");
    }
}

/// The capture of the last enemy piece ends the play at once, even after
/// the first die (end=last); the same with the second-last under end=one.
#[test]
fn game_end_mid_throw() {
    let p = "......../...b.a.../a....... a";
    assert_eq!(
        play_list(p, DEF, "2,3"),
        pairs(&[
            ("M5-M3x", "......../...a...../a....... b"),
            ("B1-B3 M5-M2", "......../..ab...../..a..... b"),
            ("B1-B4 M5-M3x", "......../...a...../...a.... b"),
            ("M5-M3 M3-M0", "......../a..b...../a....... b"),
            ("B1-B3 B3-B6", "......../...b.a.../.....a.. b"),
        ])
    );
    // capture=path: the added move M5 → M3 → M0 captures on M3 and stops
    // there, which is the same position as the one-die M5-M3x; the other
    // order (3 first, M2 empty) still reaches M0, written from M2.
    assert_eq!(results(p, PATH, "2,3"), results(p, DEF, "2,3"));
    assert!(play_names(p, PATH, "2,3").contains(&"M5-M2 M2-M0".to_string()));
    let won = pos("......../...a...../a....... b");
    assert_eq!(won.winner(&DEF), Some(Side::A));
    assert!(plays(
        &won,
        &DEF,
        Throw {
            first: 1,
            second: 2
        }
    )
    .is_empty());

    // L = 4, A: M1 M2 B1, B: M4 only. B1+4 = M4x wins. No play uses both
    // dice (M1 and M2 are jammed behind B1 and each other, and B1+2 then
    // M1+4 lands on B3), so the one-die B1-B3 is legal beside the win.
    assert_eq!(
        play_names("..../.aa.b/a... a", DEF, "2,4"),
        ["B1-B3", "B1-M4x"]
    );

    // end=one: B has two pieces; taking one ends the game after one die.
    let p = "......../...b.a.../a......b a";
    let one = play_names(p, ONE, "2,3");
    assert!(one.contains(&"M5-M3x".to_string()), "{one:?}");
    let last = play_names(p, DEF, "2,3");
    assert!(!last.contains(&"M5-M3x".to_string()), "{last:?}");
    assert!(last.contains(&"M5-M3x B1-B4".to_string()), "{last:?}");
    assert_eq!(
        pos("......../...a...../a......b b").winner(&ONE),
        Some(Side::A)
    );
    assert_eq!(pos("......../...a...../a......b b").winner(&DEF), None);
}

/// From the start every row-A hole is full, so under either dal rule the
/// first dal can only activate AL, into ML (docs/rules.md §1.5 note).
#[test]
fn first_dal_from_start_is_al_into_ml() {
    for board in [Board::DANISH, Board::NORWEGIAN, Board::new(4).unwrap()] {
        let start = Position::start(board);
        let l = board.len();
        for v in [DEF, STERN] {
            for t in Throw::ALL.iter().filter(|t| t.has_dal()) {
                let out = plays(&start, &v, *t);
                for o in &out {
                    assert_eq!(o.play.steps[0].notation(board), format!("A{l}-M{l}"), "{t}");
                }
                if !t.is_daldal() {
                    let other = t.first + t.second - 1;
                    assert_eq!(out.len(), 1, "{t}");
                    assert_eq!(
                        out[0].play.notation(board),
                        format!("A{l}-M{l} M{l}-M{}", l - other)
                    );
                }
            }
        }
    }
}

/// Two plays leading to the same position are one play.
#[test]
fn same_result_is_one_play() {
    // 3,1 with M8 and A1: "A1-A2 M8-M5" and "M8-M5 A1-A2" are one play.
    let r = results("A......./........a/.......b a", DEF, "3,1");
    let mut d = r.clone();
    d.dedup();
    assert_eq!(r, d);
    assert_eq!(r.len(), 3);
}

trait Ends {
    fn ends(&self, s: &str) -> bool;
}
impl Ends for String {
    fn ends(&self, s: &str) -> bool {
        self.ends_with(s)
    }
}
