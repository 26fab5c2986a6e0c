//! Property tests: on random positions and along random playouts, the
//! fast generator agrees with the reference generator, every play replays
//! step by step to its result (never landing on an own piece), results are
//! distinct, pieces never increase, undalt pieces stay on their start row.

use std::collections::BTreeSet;

use dalkon_rules::daldos::{
    play_results, plays, Board, CaptureRule, Cell, DalRule, EndRule, Play, Position, Side, Throw,
    Variants,
};
use proptest::prelude::*;

use super::reference::reference_results;

/// Apply `play` step by step to `p`, checking each step against the board
/// as it stands: the mover's piece is on `from`, `to` holds no own piece,
/// and the capture flag matches an enemy piece on `to`. An added move's
/// first step may pass an enemy piece without capturing it.
fn replay(p: &Position, play: &Play, next: Side) -> Position {
    let side = p.side_to_move();
    let own = |q: &Position, h| q.cell(h).side() == Some(side);
    let enemy = |q: &Position, h| q.cell(h).side() == Some(side.other());
    let mut q = *p;
    if play.is_added() {
        let (s1, s2) = (play.steps[0], play.steps[1]);
        assert!(own(&q, s1.from), "{play:?} from {p}");
        assert!(
            !own(&q, s1.to) && !own(&q, s2.to),
            "{play:?} lands on own piece in {p}"
        );
        assert!(
            !s1.capture || enemy(&q, s1.to),
            "{play:?} capture flag in {p}"
        );
        q = q.with_cell(s1.from, Cell::Empty).unwrap();
        if s1.capture {
            q = q.with_cell(s1.to, Cell::Empty).unwrap();
        }
        assert_eq!(s2.capture, enemy(&q, s2.to), "{play:?} capture flag in {p}");
        q = q.with_cell(s2.to, Cell::Dalt(side)).unwrap();
    } else {
        for st in &play.steps {
            assert!(own(&q, st.from), "{play:?} from {p}");
            assert!(!own(&q, st.to), "{play:?} lands on own piece in {p}");
            assert_eq!(st.capture, enemy(&q, st.to), "{play:?} capture flag in {p}");
            q = q
                .with_cell(st.from, Cell::Empty)
                .unwrap()
                .with_cell(st.to, Cell::Dalt(side))
                .unwrap();
        }
    }
    q.with_side_to_move(next)
}

fn check_position(p: &Position, v: &Variants, t: Throw) {
    let outs = plays(p, v, t);
    let next = if t.is_daldal() {
        p.side_to_move()
    } else {
        p.side_to_move().other()
    };
    if p.is_over(v) {
        assert!(outs.is_empty());
        return;
    }
    assert!(!outs.is_empty());
    let set: BTreeSet<String> = outs.iter().map(|o| o.result.to_string()).collect();
    assert_eq!(set.len(), outs.len(), "results not distinct for {p} {t}");
    assert_eq!(set, reference_results(p, v, t), "{p} {t} {v}");
    let mut fast = Vec::new();
    play_results(p, v, t, &mut fast);
    let fast: BTreeSet<String> = fast.iter().map(|r| r.to_string()).collect();
    assert_eq!(fast, set);
    if t.is_daldal() {
        // Some piece can always use a dal (docs/rules.md §1.3; see cases.rs).
        assert!(!outs[0].play.is_pass(), "{p}");
    }
    let board = p.board();
    for o in &outs {
        let r = o.result;
        assert_eq!(r.side_to_move(), next);
        assert_eq!(
            replay(p, &o.play, next),
            r,
            "{} in {p}",
            o.play.notation(board)
        );
        let mover = p.side_to_move();
        assert_eq!(r.count(mover), p.count(mover));
        assert_eq!(
            r.count(mover.other()) + o.play.captures(),
            p.count(mover.other())
        );
        for s in Side::BOTH {
            for h in r.pieces(s) {
                if r.cell(h) == Cell::Undalt(s) {
                    assert!(board.on_start_row(s, h));
                    assert_eq!(p.cell(h), Cell::Undalt(s), "undalt pieces never move");
                }
            }
        }
        // The notation parses back.
        assert_eq!(r.to_string().parse::<Position>().unwrap(), r);
    }
}

fn variants_strategy() -> impl Strategy<Value = Variants> {
    (0usize..8).prop_map(|i| Variants {
        dal: [DalRule::Any, DalRule::Sternmost][i >> 2],
        capture: [CaptureRule::Final, CaptureRule::Path][(i >> 1) & 1],
        end: [EndRule::Last, EndRule::One][i & 1],
    })
}

/// A random valid position: each hole empty or holding a piece (density
/// from crowded to nearly empty, so that game ends are common), undalt only
/// on its owner's start row, at most L pieces a side.
fn position_strategy() -> impl Strategy<Value = Position> {
    (
        4u8..=12,
        5u16..=40,
        prop::collection::vec(any::<u16>(), 97),
        any::<bool>(),
    )
        .prop_map(|(len, density, cells, b_to_move)| {
            let board = Board::new(len).unwrap();
            let side = if b_to_move { Side::B } else { Side::A };
            let mut p = Position::empty(board, side);
            for h in board.holes() {
                let c = match cells[h.index()] % density {
                    0 => Cell::Undalt(Side::A),
                    1 => Cell::Dalt(Side::A),
                    2 => Cell::Undalt(Side::B),
                    3 => Cell::Dalt(Side::B),
                    _ => Cell::Empty,
                };
                let c = match c {
                    Cell::Undalt(s) if !board.on_start_row(s, h) => Cell::Dalt(s),
                    c => c,
                };
                if let Ok(q) = p.with_cell(h, c) {
                    p = q;
                }
            }
            p
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_positions_agree_with_reference(
        p in position_strategy(),
        v in variants_strategy(),
        t in 0usize..16,
    ) {
        check_position(&p, &v, Throw::ALL[t]);
    }
}

/// The mirror of a position (rows A and B and the sides exchanged) has
/// the mirrored plays: the same number, with mirrored results.
fn check_mirror(p: &Position, v: &Variants, t: Throw) {
    let m = p.mirror();
    assert_eq!(m.mirror(), *p, "mirror twice of {p}");
    assert_eq!(m.side_to_move(), p.side_to_move().other());
    for s in Side::BOTH {
        assert_eq!(m.count(s.other()), p.count(s), "{p}");
    }
    let mut want: Vec<Position> = plays(p, v, t).iter().map(|o| o.result.mirror()).collect();
    let mut got: Vec<Position> = plays(&m, v, t).iter().map(|o| o.result).collect();
    want.sort();
    got.sort();
    assert_eq!(got, want, "plays of the mirror of {p} for {t}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mirror_has_mirrored_plays(
        p in position_strategy(),
        v in variants_strategy(),
        t in 0usize..16,
    ) {
        check_mirror(&p, &v, Throw::ALL[t]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, failure_persistence: None, ..ProptestConfig::default() })]

    /// Random games from the start: random throws, random plays.
    #[test]
    fn random_playouts(
        len in prop::sample::select(vec![4u8, 6, 12, 16]),
        v in variants_strategy(),
        choices in prop::collection::vec((0usize..16, any::<u32>()), 150),
    ) {
        let mut p = Position::start(Board::new(len).unwrap());
        let mut counts = [p.count(Side::A), p.count(Side::B)];
        for (t, pick) in choices {
            let t = Throw::ALL[t];
            check_position(&p, &v, t);
            if p.is_over(&v) {
                prop_assert!(p.winner(&v).is_some());
                break;
            }
            let outs = plays(&p, &v, t);
            p = outs[pick as usize % outs.len()].result;
            let now = [p.count(Side::A), p.count(Side::B)];
            prop_assert!(now[0] <= counts[0] && now[1] <= counts[1]);
            counts = now;
        }
    }
}

/// A hand-worked mirror: row A's `Aa.b` becomes row B's `Bb.a`, the middle
/// row swaps letters in place, and the side to move changes.
#[test]
fn mirror_by_hand() {
    let p: Position = "Aa.b/.a..b/B..a a".parse().unwrap();
    assert_eq!(p.mirror().to_string(), "A..b/.b..a/Bb.a b");
}

/// `from_masks` rebuilds a position from its masks, and names what is wrong
/// with masks that are not a position.
#[test]
fn from_masks_round_trip_and_errors() {
    use dalkon_rules::daldos::PositionError;
    let p: Position = "Aa.b/.a..b/B..a b".parse().unwrap();
    let masks = [p.mask(Side::A), p.mask(Side::B)];
    let q = Position::from_masks(p.board(), masks, p.undalt_mask(), Side::B).unwrap();
    assert_eq!(q, p);
    let board = p.board();
    let err = |pieces, undalt| Position::from_masks(board, pieces, undalt, Side::A).unwrap_err();
    assert_eq!(
        err([1, 1], 0),
        PositionError::SharedHole { hole: "A1".into() }
    );
    assert_eq!(
        err([0, 0], 1 << 4),
        PositionError::UndaltWithoutPiece { hole: "M0".into() }
    );
    assert_eq!(
        err([1 << 4, 0], 1 << 4),
        PositionError::UndaltOutsideStartRow {
            side: Side::A,
            hole: "M0".into()
        }
    );
    assert_eq!(
        err([1 << 13, 0], 0),
        PositionError::OffBoard {
            hole: 13,
            cells: 13
        }
    );
    assert_eq!(
        err([0b1_1111_0000, 0], 0),
        PositionError::TooManyPieces {
            side: Side::A,
            max: 4
        }
    );
}
