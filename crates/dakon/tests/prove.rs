//! Proofs: every small board's two strategies verify with the rules-only
//! checker and meet exactly at the value the search and the databases give.

use dalkon_dakon::prove::{prove, ProveRequest};
use dalkon_rules::dakon::{Position, Rules, Side};
use dalkon_strategy::{verify, Strategy};

fn request(root: Position, rules: Rules) -> ProveRequest {
    ProveRequest {
        root,
        rules,
        tt_mb: Some(64),
        max_lines: None,
    }
}

/// Both strategies hold, each proves exactly its guarantee (so together
/// they prove the value), and the strategy file round-trips.
fn check(root: Position, rules: Rules, value: i32) {
    let p = prove(&request(root, rules), None).unwrap();
    assert_eq!(p.value, value, "{root} {rules}");
    let me = root.side_to_move();
    for (s, player, guarantees) in [(&p.mover, me, value), (&p.opponent, me.other(), -value)] {
        assert_eq!((s.player, s.guarantees), (player, guarantees), "{root}");
        let v = verify(s);
        assert!(v.valid, "{root} {rules} player {player:?}: {:?}", v.failure);
        assert_eq!(
            v.unused_lines, 0,
            "{root}: the prover keeps only reached lines"
        );
        if guarantees > s.trivial_bound() {
            assert_eq!(v.proved, guarantees, "{root} {rules} player {player:?}");
        } else {
            assert!(s.moves.is_empty(), "{root}: a trivial bound needs no lines");
        }
        assert_eq!(&Strategy::parse(&s.to_text()).unwrap(), s);
    }
}

/// The values of `data/dakon/initial_values.csv` for the boards small
/// enough to prove in a test, under every rule set listed there.
#[test]
fn small_boards_prove_their_pinned_values() {
    let csv = include_str!("../../../data/dakon/initial_values.csv");
    let mut checked = 0;
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let (n, m): (usize, u8) = (f[0].parse().unwrap(), f[1].parse().unwrap());
        if n * usize::from(m) > 12 {
            continue;
        }
        let rules: Rules = format!("origin={} mikul={} nembak={}", f[2], f[3], f[4])
            .parse()
            .unwrap();
        check(Position::start(n, m).unwrap(), rules, f[5].parse().unwrap());
        checked += 1;
    }
    assert!(checked >= 60, "{checked}");
}

/// The traditional boards whose value is every seed: the first player's
/// proof is a few dozen lines, the second player's has none.
#[test]
fn the_standard_board_proof_is_small() {
    let p = prove(
        &request(Position::start(7, 7).unwrap(), Rules::default()),
        None,
    )
    .unwrap();
    assert_eq!((p.value, &p.best_moves[..]), (98, &[1][..]));
    assert_eq!(p.mover.moves.len(), 40);
    assert!(p.opponent.moves.is_empty());
    assert!(verify(&p.mover).valid);
}

/// Any position, North to move, stores already banked.
#[test]
fn positions_with_stores_and_north_to_move() {
    let pos = Position::new(&[0, 3, 0, 1, 2], &[1, 0, 2, 0, 3], [6, 4], Side::North).unwrap();
    let value = dalkon_dakon::search::future_margin(
        &pos,
        &Rules::default(),
        &dalkon_dakon::search::Limits::default(),
        None,
    )
    .unwrap()
        + pos.store_diff();
    check(pos, Rules::default(), value);
    let over: Position = "0,0/1,2/3,4 0".parse().unwrap();
    check(over, Rules::default(), -1 - 3);
}

#[test]
fn a_proof_over_its_line_limit_is_refused() {
    let mut r = request(Position::start(5, 5).unwrap(), Rules::default());
    r.max_lines = Some(1000);
    let e = prove(&r, None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the proof's strategy needs more than 1000 lines, its limit"
    );
    assert!(!e.is_bad_input());
}

/// Positions already settled: where what a strategy still needs is at most
/// minus the seeds on the board, any play secures it, yet the file names a
/// move in each to the end of every game. South (2 in store against 1,
/// 10 seeds on the board) wins every seed left, so North's claim of
/// 1 − (2 + 10) = −11 is North's worst possible result from the root:
/// every position its games reach is settled, none of South's are.
#[test]
fn settled_positions_are_counted() {
    let pos: Position = "2,1,1,0/1,2,0,3/2,1 0".parse().unwrap();
    let p = prove(&request(pos, Rules::default()), None).unwrap();
    assert_eq!(p.value, 11);
    assert_eq!(p.reached, [2, 18]);
    assert_eq!(p.settled, [0, 18]);
    assert_eq!(p.opponent.moves.len(), 9, "a move in each of them still");
    assert!(verify(&p.opponent).valid);
    // Stores banked, North to move: a part of the opponent's games only.
    let pos: Position = "0,3,0,1,2/1,0,2,0,3/6,4 1".parse().unwrap();
    let p = prove(&request(pos, Rules::default()), None).unwrap();
    assert_eq!((p.value, p.reached, p.settled), (6, [8, 45], [0, 22]));
}
