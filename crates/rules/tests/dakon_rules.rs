//! Hand-worked Dakon examples, one per rule and variant (docs/rules.md §2).
//! Each expected position was sown by hand; the comments show the sowing.

use dalkon_rules::dakon::{
    Event, Mikul, MoveError, Nembak, Origin, ParseError, Position, PositionError, Rules, Side,
    MAX_HOLES,
};

fn pos(s: &str) -> Position {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn play(s: &str, hole: usize, rules: Rules) -> (String, Vec<Event>) {
    let (p, events) = pos(s).play_logged(hole, &rules).unwrap();
    assert_eq!(p.total_seeds(), pos(s).total_seeds(), "seeds not conserved");
    (p.to_string(), events)
}

const DEFAULT: Rules = Rules {
    origin: Origin::Sow,
    mikul: Mikul::On,
    nembak: Nembak::Keep,
};

#[test]
fn start_positions_and_notation() {
    let p = Position::start(7, 7).unwrap();
    assert_eq!(p.to_string(), "7,7,7,7,7,7,7/7,7,7,7,7,7,7/0,0 0");
    assert_eq!(pos("7,7,7,7,7,7,7/7,7,7,7,7,7,7/0,0 0"), p);
    assert_eq!(p.total_seeds(), 98);
    assert_eq!(p.moves().collect::<Vec<_>>(), vec![1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(pos(" 1,0/0,2/3,4   1 ").to_string(), "1,0/0,2/3,4 1");
}

#[test]
fn bonus_when_last_seed_reaches_own_store() {
    // S3 holds 1: it goes straight into store 0; South moves again.
    let (p, ev) = play("1,1,1/1,1,1/0,0 0", 3, DEFAULT);
    assert_eq!(p, "1,1,0/1,1,1/1,0 0");
    assert_eq!(
        ev,
        vec![
            Event::Lap {
                side: Side::South,
                hole: 3,
                seeds: 1
            },
            Event::Bonus
        ]
    );
}

#[test]
fn relay_on_own_side_then_bonus() {
    // S1 (1) -> S2, which held 1: lift 2, sow S3, store 0: bonus.
    let (p, ev) = play("1,1,0/2,0,3/0,0 0", 1, DEFAULT);
    assert_eq!(p, "0,0,1/2,0,3/1,0 0");
    assert_eq!(
        ev,
        vec![
            Event::Lap {
                side: Side::South,
                hole: 1,
                seeds: 1
            },
            Event::Relay {
                side: Side::South,
                hole: 2,
                seeds: 2
            },
            Event::Bonus
        ]
    );
}

#[test]
fn relay_on_opponent_side_then_empty_edge_hole_captures_nothing() {
    // S3 (2) -> store 0, N1 (held 1): relay 2 -> N2, N3; N3 is empty and at
    // the edge of its row, so no mikul.
    let (p, ev) = play("0,0,2/1,0,0/0,0 0", 3, DEFAULT);
    assert_eq!(p, "0,0,0/0,1,1/1,0 1");
    assert_eq!(
        ev,
        vec![
            Event::Lap {
                side: Side::South,
                hole: 3,
                seeds: 2
            },
            Event::Relay {
                side: Side::North,
                hole: 1,
                seeds: 2
            },
            Event::Mikul {
                side: Side::North,
                hole: 3,
                captured: 0
            }
        ]
    );
}

#[test]
fn nembak_with_seeds_opposite_keep_and_take() {
    // S1 (1) -> S2, empty: the opposite hole of S2 is N2 (4 seeds).
    let (p, ev) = play("1,0,0/5,4,3/0,0 0", 1, DEFAULT);
    assert_eq!(p, "0,1,0/5,0,3/4,0 1");
    assert_eq!(
        ev[1],
        Event::Nembak {
            side: Side::South,
            hole: 2,
            captured: 4,
            landing_taken: false
        }
    );
    let take = Rules {
        nembak: Nembak::Take,
        ..DEFAULT
    };
    let (p, ev) = play("1,0,0/5,4,3/0,0 0", 1, take);
    assert_eq!(p, "0,0,0/5,0,3/5,0 1");
    assert_eq!(
        ev[1],
        Event::Nembak {
            side: Side::South,
            hole: 2,
            captured: 4,
            landing_taken: true
        }
    );
}

#[test]
fn nembak_opposite_hole_pairs_hole_i_with_n_plus_1_minus_i() {
    // n = 4: S1 (1) -> S2; opposite of hole 2 is N3 (n + 1 - 2).
    let (p, _) = play("1,0,0,0/1,2,3,4/0,0 0", 1, DEFAULT);
    assert_eq!(p, "0,1,0,0/1,2,0,4/3,0 1");
}

#[test]
fn nembak_with_empty_opposite_captures_nothing_and_seed_stays() {
    for rules in [
        DEFAULT,
        Rules {
            nembak: Nembak::Take,
            ..DEFAULT
        },
    ] {
        let (p, ev) = play("1,0,0/5,0,3/0,0 0", 1, rules);
        assert_eq!(p, "0,1,0/5,0,3/0,0 1");
        assert_eq!(
            ev[1],
            Event::Nembak {
                side: Side::South,
                hole: 2,
                captured: 0,
                landing_taken: false
            }
        );
    }
}

#[test]
fn mikul_equal_neighbours_capture() {
    // S5 (3) -> store 0, N1 (1 -> 2), N2 (empty). Neighbours N1 = 2, N3 = 2:
    // both and the landing seed, 5 seeds, go to store 0.
    let (p, ev) = play("0,0,0,0,3/1,0,2,0,4/0,0 0", 5, DEFAULT);
    assert_eq!(p, "0,0,0,0,0/0,0,0,0,4/6,0 1");
    assert_eq!(
        ev[1],
        Event::Mikul {
            side: Side::North,
            hole: 2,
            captured: 5
        }
    );
    // mikul=off: nothing is taken.
    let off = Rules {
        mikul: Mikul::Off,
        ..DEFAULT
    };
    let (p, ev) = play("0,0,0,0,3/1,0,2,0,4/0,0 0", 5, off);
    assert_eq!(p, "0,0,0,0,0/2,1,2,0,4/1,0 1");
    assert_eq!(
        ev[1],
        Event::Mikul {
            side: Side::North,
            hole: 2,
            captured: 0
        }
    );
}

#[test]
fn mikul_unequal_or_empty_neighbours_capture_nothing() {
    let (p, _) = play("0,0,0,0,3/1,0,3,0,4/0,0 0", 5, DEFAULT);
    assert_eq!(p, "0,0,0,0,0/2,1,3,0,4/1,0 1");
    // Both neighbours empty (0 = 0) is not a capture: N1 empty before, so the
    // lap ends at N1 itself. Use S5 (2) -> store, N1 (empty, edge).
    let (p, _) = play("0,0,0,0,2/0,0,0,0,4/0,0 0", 5, DEFAULT);
    assert_eq!(p, "0,0,0,0,0/1,0,0,0,4/1,0 1");
    // Landing in N3 with N2 = N4 = 0: no capture.
    let (p, ev) = play("0,0,0,0,4/1,0,0,0,4/0,0 0", 5, DEFAULT);
    // store, N1 (1 -> 2, but not last), N2 (0 -> 1), N3 (0 -> 1, last).
    assert_eq!(p, "0,0,0,0,0/2,1,1,0,4/1,0 1");
    assert_eq!(
        ev[1],
        Event::Mikul {
            side: Side::North,
            hole: 3,
            captured: 0
        }
    );
}

#[test]
fn origin_sow_and_skip() {
    // sow: S1 (5) -> S2, store 0, N1, N2, S1 (the emptied origin, last):
    // nembak takes N2 (1).
    let (p, _) = play("5,0/0,0/0,0 0", 1, DEFAULT);
    assert_eq!(p, "1,1/1,0/2,0 1");
    // skip: S2, store, N1, N2, (skip S1) S2 (held 1): relay 2 -> store, N1
    // (held 1): relay 2 -> N2, (skip store 1) S1 empty: nembak takes N2 (2).
    // North then has no seeds: the sweep gives South's last seed to South.
    let skip = Rules {
        origin: Origin::Skip,
        ..DEFAULT
    };
    let (p, ev) = play("5,0/0,0/0,0 0", 1, skip);
    assert_eq!(p, "0,0/0,0/5,0 1");
    assert_eq!(
        ev,
        vec![
            Event::Lap {
                side: Side::South,
                hole: 1,
                seeds: 5
            },
            Event::Relay {
                side: Side::South,
                hole: 2,
                seeds: 2
            },
            Event::Relay {
                side: Side::North,
                hole: 1,
                seeds: 2
            },
            Event::Nembak {
                side: Side::South,
                hole: 1,
                captured: 2,
                landing_taken: false
            },
            Event::Sweep {
                to: Side::South,
                seeds: 1
            }
        ]
    );
}

#[test]
fn opponent_store_is_skipped() {
    // North plays N2 (4): store 1, S1, S2, (skip store 0) N1 empty: nembak
    // takes the opposite S2 (1).
    let (p, _) = play("0,0/0,4/0,0 1", 2, DEFAULT);
    assert_eq!(p, "1,0/1,0/0,2 0");
}

#[test]
fn end_sweep_after_a_bonus() {
    // S2 (1) -> store 0: bonus, but South has no seeds left: game over, the
    // three seeds in North's row go to North's store.
    let (p, ev) = play("0,1/3,0/0,0 0", 2, DEFAULT);
    assert_eq!(p, "0,0/0,0/1,3 0");
    assert_eq!(
        ev.last(),
        Some(&Event::Sweep {
            to: Side::North,
            seeds: 3
        })
    );
    assert!(pos(&p).is_over());
    assert_eq!(pos(&p).terminal_value(), Some(-2));
}

#[test]
fn multi_lap_circuit_feeds_own_store_every_round() {
    // n = 1: S1 (5) -> store 0, N1, (skip store 1) S1, store 0, N1: N1 held
    // a seed from this lap, so relay 2 -> (skip store 1) S1, store 0: bonus.
    let (p, ev) = play("5/0/0,0 0", 1, DEFAULT);
    assert_eq!(p, "2/0/3,0 0");
    assert_eq!(ev.len(), 3);
    assert_eq!(ev[2], Event::Bonus);
}

#[test]
fn terminal_value_counts_opponent_seeds_not_yet_swept() {
    let p = pos("0,0/2,1/4,1 0");
    assert!(p.is_over());
    assert_eq!(p.moves().count(), 0);
    assert_eq!(p.terminal_value(), Some(4 - 1 - 3));
    assert_eq!(p.play(1, &DEFAULT), Err(MoveError::GameOver));
}

#[test]
fn illegal_moves_are_refused() {
    let p = pos("0,2/1,1/0,0 0");
    assert_eq!(p.play(1, &DEFAULT), Err(MoveError::EmptyHole { hole: 1 }));
    assert_eq!(
        p.play(3, &DEFAULT),
        Err(MoveError::NoSuchHole { hole: 3, holes: 2 })
    );
    assert_eq!(
        p.play(0, &DEFAULT),
        Err(MoveError::NoSuchHole { hole: 0, holes: 2 })
    );
}

#[test]
fn flipped_swaps_rows_stores_and_side() {
    let p = pos("1,2,3/4,5,6/7,8 0");
    assert_eq!(p.flipped().to_string(), "4,5,6/1,2,3/8,7 1");
    assert_eq!(p.flipped().flipped(), p);
    assert_eq!(p.flipped().store_diff(), p.store_diff());
}

#[test]
fn malformed_notation_is_refused_with_a_reason() {
    let err = |s: &str| s.parse::<Position>().unwrap_err();
    assert_eq!(
        err("1,2/3/0,0 0"),
        ParseError::Position(PositionError::UnequalRows { row0: 2, row1: 1 })
    );
    assert!(matches!(
        err("1,-2/3,4/0,0 0"),
        ParseError::Negative {
            field: "row 0",
            item: 2,
            ..
        }
    ));
    assert!(matches!(
        err("1,x/3,4/0,0 0"),
        ParseError::Count {
            field: "row 0",
            item: 2,
            ..
        }
    ));
    assert!(matches!(
        err("1,2/3,4/0,300 0"),
        ParseError::Count {
            field: "stores",
            item: 2,
            ..
        }
    ));
    assert_eq!(err("1,2/3,4/0,0 2"), ParseError::Side("2".into()));
    assert_eq!(err("1,2/3,4 0"), ParseError::Fields(2));
    assert_eq!(err("1,2/3,4/0 0"), ParseError::Stores(1));
    assert!(matches!(err("1,2/3,4/0,0"), ParseError::Shape(_)));
    assert!(matches!(err(""), ParseError::Shape(_)));
    assert!(matches!(err("/ /0,0 0"), ParseError::Shape(_)));
    assert!(matches!(
        err("200,200/0,0/0,0 0"),
        ParseError::Position(PositionError::TooManySeeds { total: 400, .. })
    ));
}

#[test]
fn relay_chain_on_the_traditional_board() {
    // 1: S1 (7) -> S2..S7, store 0: bonus.
    // 3: S3 (8) -> S4..S7, store, N1, N2, N3 (held 7): relay 8 -> N4..N7,
    // S1, S2, S3, S4 (held 9): relay 10 -> S5..S7, store, N1..N6 (N6 held
    // 8): relay 9 -> N7, S1..S7, store: bonus again.
    let start = Position::start(7, 7).unwrap();
    let p = start.play(1, &DEFAULT).unwrap();
    assert_eq!(p.to_string(), "0,8,8,8,8,8,8/7,7,7,7,7,7,7/1,0 0");
    let (q, ev) = p.play_logged(3, &DEFAULT).unwrap();
    assert_eq!(q.to_string(), "2,10,2,1,11,11,11/9,9,1,9,9,0,9/4,0 0");
    let relays: Vec<String> = ev.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        relays,
        vec![
            "lap: 8 seeds from S3",
            "relay: 8 seeds from N3",
            "relay: 10 seeds from S4",
            "relay: 9 seeds from N6",
            "bonus: last seed in own store, move again"
        ]
    );
}

#[test]
fn boards_up_to_32_holes_are_positions_and_33_is_refused_naming_the_limit() {
    assert_eq!(MAX_HOLES, 32);
    let wide = Position::start(32, 3).unwrap();
    assert_eq!(wide.holes(), 32);
    assert_eq!(wide.to_string().parse::<Position>().unwrap(), wide);
    let twenty = Position::start(20, 1).unwrap();
    assert_eq!(twenty.moves().count(), 20);
    // Hole 20 of a 20-hole row sows into the store: a bonus move.
    let p = twenty.play(20, &DEFAULT).unwrap();
    assert_eq!((p.store(Side::South), p.side_to_move()), (1, Side::South));

    let e = Position::start(33, 1).unwrap_err();
    assert_eq!(e, PositionError::TooManyHoles { holes: 33, max: 32 });
    assert_eq!(
        e.to_string(),
        "33 holes per row is more than the 32 a Dakon position can hold \
         (each row is a fixed array of 32 one-byte counts)"
    );
    let ones = vec!["1"; 33].join(",");
    let text = format!("{ones}/{ones}/0,0 0");
    assert_eq!(
        text.parse::<Position>().unwrap_err(),
        ParseError::Position(PositionError::TooManyHoles { holes: 33, max: 32 })
    );
}

#[test]
fn more_than_255_seeds_is_refused_naming_the_limit() {
    let e = Position::start(32, 4).unwrap_err();
    assert_eq!(
        e,
        PositionError::TooManySeeds {
            total: 256,
            max: 255
        }
    );
    assert_eq!(
        e.to_string(),
        "256 seeds in all (holes and stores) is more than the 255 a Dakon position can hold \
         (every count is one byte, and a store may end up with all the seeds)"
    );
    assert!(Position::new(&[200], &[0], [55, 0], Side::South).is_ok());
    assert!(Position::new(&[200], &[0], [55, 1], Side::South).is_err());
}

/// The final score, worked by hand (rules.md §2.3: the side to move has no
/// seeds, so every seed left goes to the other side's store).
#[test]
fn final_score_sweeps_leftover_seeds_to_the_side_not_to_move() {
    // South to move, row empty: North's 5 join North's store: 3 against 5.
    let s = pos("0,0/5,0/3,0 0").final_score().unwrap();
    assert_eq!((s.store(Side::South), s.store(Side::North)), (3, 5));
    assert_eq!((s.winner(), s.margin()), (Some(Side::North), 2));
    assert_eq!(
        (s.difference(Side::South), s.difference(Side::North)),
        (-2, 2)
    );
    assert_eq!(pos("0,0/5,0/3,0 0").terminal_value(), Some(-2));
    // Empty stores, North's 1 + 1: 0 against 2, not a draw.
    let s = pos("0,0/1,1/0,0 0").final_score().unwrap();
    assert_eq!((s.store(Side::South), s.store(Side::North)), (0, 2));
    assert_eq!((s.winner(), s.margin()), (Some(Side::North), 2));
    // North to move, row empty: South's 2 are South's: 2 against 2.
    let s = pos("1,1/0,0/0,2 1").final_score().unwrap();
    assert_eq!((s.winner(), s.margin()), (None, 0));
    assert_eq!(pos("1,1/0,0/0,2 1").terminal_value(), Some(0));
    // Swept already: the stores as they are.
    let s = pos("0,0/0,0/7,1 1").final_score().unwrap();
    assert_eq!((s.winner(), s.margin()), (Some(Side::South), 6));
    // Not over: no score.
    assert_eq!(pos("1,0/0,1/0,0 0").final_score(), None);
}
