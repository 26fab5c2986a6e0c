//! `verify`: the worked example, hand-checked values, every way a strategy
//! can fail (with its message), and agreement with a brute-force minimax.

use dalkon_rules::dakon::{Position, Rules, Side};
use dalkon_strategy::{verify, Failure, FailureKind, Verdict};

use super::{brute, parse, pos, south_with, NORTH, SOUTH};

/// The failure of `text`'s strategy, checked to be consistent: the path
/// replays from the root under the rules.
fn failure(text: &str) -> (Verdict, Failure, String) {
    let s = parse(text);
    let v = verify(&s);
    assert!(!v.valid, "{v:?}");
    let f = v
        .failure
        .clone()
        .expect("an invalid verdict names its failure");
    let mut p = s.root;
    for &h in &f.path {
        p = p.play(h, &s.rules).expect("the failure path is legal");
    }
    match f.kind {
        FailureKind::MissingLine { position } | FailureKind::IllegalMove { position, .. } => {
            assert_eq!(position, p);
            assert_eq!(position.side_to_move(), s.player);
        }
        FailureKind::BelowGuarantee { proved, .. } => {
            // Played to its end (a root typed in may still need its sweep).
            let mover = p
                .terminal_value()
                .expect("a worst game is played to its end");
            let final_diff = if p.side_to_move() == s.player {
                mover
            } else {
                -mover
            };
            assert_eq!(final_diff, proved);
        }
    }
    let message = f.to_string();
    (v, f, message)
}

#[test]
fn the_worked_example_holds_for_both_sides_and_they_meet_at_the_value() {
    assert_eq!(
        verify(&parse(SOUTH)),
        Verdict {
            valid: true,
            proved: 2,
            positions_checked: 5,
            unused_lines: 0,
            failure: None,
        }
    );
    assert_eq!(
        verify(&parse(NORTH)),
        Verdict {
            valid: true,
            proved: -2,
            positions_checked: 7,
            unused_lines: 0,
            failure: None,
        }
    );
    assert_eq!(brute::value(&pos("1,1/0,2/0,0 0"), &Rules::default()), 2);
}

#[test]
fn the_two_by_two_start_is_won_whole_in_the_first_turn() {
    // By hand: S1 ends in South's store (bonus); S2's three seeds end in
    // N2, whose three are sown on into South's store (bonus); S2 again
    // (bonus); S1 into the empty S2 captures N1's three. North has no
    // seed: South's last seed is South's too. 8 to 0, the most there is.
    let text = "dalkon-strategy 1\ngame dakon\nrules origin=sow mikul=on nembak=keep\n\
                root 2,2/2,2/0,0 0\nplayer 0\nguarantees 8\nlines 4\n\
                0,3/2,2 2\n1,0/3,0 1\n1,1/3,0 2\n2,2/2,2 1\n";
    assert_eq!(
        verify(&parse(text)),
        Verdict {
            valid: true,
            proved: 8,
            positions_checked: 4,
            unused_lines: 0,
            failure: None,
        }
    );
    let rules = Rules::default();
    let end = [1, 2, 2, 1]
        .iter()
        .fold(pos("2,2/2,2/0,0 0"), |p, &h| p.play(h, &rules).unwrap());
    assert_eq!(end.to_string(), "0,0/0,0/8,0 1");
    assert_eq!(brute::value(&pos("2,2/2,2/0,0 0"), &rules), 8);

    // North can claim only the trivial −8, which needs no line at all.
    let north = "dalkon-strategy 1\ngame dakon\nrules origin=sow mikul=on nembak=keep\n\
                 root 2,2/2,2/0,0 0\nplayer 1\nguarantees -8\nlines 0\n";
    assert_eq!(
        verify(&parse(north)),
        Verdict {
            valid: true,
            proved: -8,
            positions_checked: 0,
            unused_lines: 0,
            failure: None,
        }
    );
    let (v, f, message) = failure(&north.replace("guarantees -8", "guarantees -7"));
    assert_eq!(v.proved, -8);
    assert!(matches!(f.kind, FailureKind::MissingLine { .. }));
    assert_eq!(
        message,
        "after moves 1 2 1 1 the position 0,0/1,1/6,0 1 has no line"
    );
}

#[test]
fn a_missing_position_is_named_with_the_moves_that_reach_it() {
    let text = south_with("1,0/1,0 1\n", "").replace("lines 4", "lines 3");
    let (v, f, message) = failure(&text);
    assert_eq!(
        message,
        "after moves 1 2 the position 1,0/1,0/1,1 0 has no line"
    );
    assert_eq!(f.path, [1, 2]);
    // Nothing is proved beyond minus the game's four seeds; the check
    // stopped after the root, North's position and N1's two.
    assert_eq!((v.proved, v.positions_checked, v.unused_lines), (-4, 4, 0));
}

#[test]
fn an_empty_hole_is_an_illegal_move() {
    let (v, f, message) = failure(&south_with("1,0/0,0 1", "1,0/0,0 2"));
    assert_eq!(
        message,
        "after moves 1 1 2 the strategy plays hole 2 in the position 1,0/0,0/2,1 0, an empty hole"
    );
    assert_eq!(
        f.kind,
        FailureKind::IllegalMove {
            position: pos("1,0/0,0/2,1 0"),
            hole: 2
        }
    );
    assert_eq!(v.proved, -4);
}

#[test]
fn a_hole_beyond_the_board_is_an_illegal_move() {
    // The reader refuses such a line; a strategy built in memory can hold one.
    let mut s = parse(SOUTH);
    s.moves.insert(pos("1,1/0,2/0,0 0"), 3);
    let v = verify(&s);
    assert_eq!(
        v.failure.unwrap().to_string(),
        "at the root the strategy plays hole 3 in the position 1,1/0,2/0,0 0, not a hole (1 to 2)"
    );
}

#[test]
fn a_raised_guarantee_is_refused_with_a_worst_game() {
    let (v, f, message) = failure(&south_with("guarantees 2", "guarantees 3"));
    assert_eq!(
        message,
        "it secures only 2, not the 3 it claims: a worst game is 1 1 2 1"
    );
    assert_eq!(
        f.kind,
        FailureKind::BelowGuarantee {
            proved: 2,
            guarantees: 3
        }
    );
    assert_eq!((v.proved, v.positions_checked, v.unused_lines), (2, 5, 0));
}

#[test]
fn a_worse_move_where_it_matters_loses_the_guarantee() {
    let (v, _, message) = failure(&south_with("1,1/0,0 2", "1,1/0,0 1"));
    assert_eq!(
        message,
        "it secures only 0, not the 2 it claims: a worst game is 1 1 1 1"
    );
    // `1,0/0,0` is no longer reached; North's `0,0/1,0` is.
    assert_eq!((v.proved, v.positions_checked, v.unused_lines), (0, 5, 1));
}

#[test]
fn lines_never_reached_are_allowed_and_counted() {
    // The last two are finished games: never a position to play in.
    let text = south_with("lines 4", "lines 8") + "0,1/1,0 1\n2,0/0,0 1\n0,0/0,0 1\n0,0/2,0 2\n";
    let v = verify(&parse(&text));
    assert!(v.valid);
    assert_eq!((v.proved, v.positions_checked, v.unused_lines), (2, 5, 4));
}

#[test]
fn root_stores_count_and_a_finished_root_needs_no_line() {
    let text = south_with("root 1,1/0,2/0,0 0", "root 1,1/0,2/3,1 0");
    let v = verify(&parse(&text.replace("guarantees 2", "guarantees 4")));
    assert_eq!((v.valid, v.proved), (true, 4));
    let (v, _, message) = failure(&text.replace("guarantees 2", "guarantees 5"));
    assert_eq!(v.proved, 4);
    assert_eq!(
        message,
        "it secures only 4, not the 5 it claims: a worst game is 1 1 2 1"
    );

    // South to move with an empty row: North takes its three seeds, 3 to 3.
    let over = "dalkon-strategy 1\ngame dakon\nrules origin=sow mikul=on nembak=keep\n\
                root 0,0/1,2/3,0 0\nplayer 0\nguarantees 0\nlines 0\n";
    let v = verify(&parse(over));
    assert_eq!((v.valid, v.proved, v.positions_checked), (true, 0, 0));
    let (_, f, message) = failure(&over.replace("guarantees 0", "guarantees 1"));
    assert_eq!(
        message,
        "it secures only 0, not the 1 it claims (the root is a finished game)"
    );
    assert!(f.path.is_empty());
}

#[test]
fn the_trivial_bound_holds_without_lines_and_without_a_look() {
    let text = "dalkon-strategy 1\ngame dakon\nrules origin=sow mikul=on nembak=keep\n\
                root 1,1/0,2/0,0 0\nplayer 0\nguarantees -4\nlines 1\n1,1/0,2 2\n";
    assert_eq!(
        verify(&parse(text)),
        Verdict {
            valid: true,
            proved: -4,
            positions_checked: 0,
            unused_lines: 1,
            failure: None,
        }
    );
    // One more than the bound, and every line is needed.
    let (_, _, message) = failure(&text.replace("guarantees -4", "guarantees -3"));
    assert_eq!(
        message,
        "after move 2 the position 1,0/0,2/1,0 0 has no line"
    );
}

#[test]
fn keys_not_in_normal_form_are_never_reached() {
    let mut s = parse(SOUTH);
    let hole = s.moves.remove(&pos("1,1/0,0/0,0 0")).unwrap();
    // With stores, or with the other side to move: not a key.
    s.moves.insert(pos("1,1/0,0/1,1 0"), hole);
    s.moves.insert(pos("1,1/0,0/0,0 1"), hole);
    let v = verify(&s);
    assert_eq!(
        v.failure.unwrap().to_string(),
        "after moves 1 1 the position 1,1/0,0/1,1 0 has no line"
    );
    // The two ignored keys, and the two lines not reached before the check
    // stopped.
    assert_eq!(v.unused_lines, 4);
}

/// Positions of `holes` holes a row with at most `max` seeds on the board,
/// at most 3 in a hole, South to move and empty stores.
fn small_positions(holes: usize, max: u32) -> Vec<Position> {
    let cells = 2 * holes;
    let mut out = Vec::new();
    for code in 0..4u32.pow(cells as u32) {
        let counts: Vec<u8> = (0..cells).map(|i| (code >> (2 * i) & 3) as u8).collect();
        let p = Position::new(&counts[..holes], &counts[holes..], [0, 0], Side::South).unwrap();
        if p.seeds_on_board() <= max && !p.is_over() {
            out.push(p);
        }
    }
    out
}

/// `verify` of optimal strategies equals the brute-force value, checks
/// exactly the positions the strategy reaches, and refuses one more.
fn agrees_on(roots: &[Position]) -> usize {
    let mut checked = 0;
    for rules in Rules::ALL {
        for root in roots {
            for player in Side::BOTH {
                let (mut s, reached) = brute::optimal(root, &rules, player);
                let value = s.guarantees;
                let v = verify(&s);
                let context = format!("{root} {rules} player {}", player.index());
                if value > s.trivial_bound() {
                    assert_eq!(
                        v,
                        Verdict {
                            valid: true,
                            proved: value,
                            positions_checked: reached,
                            unused_lines: 0,
                            failure: None,
                        },
                        "{context}"
                    );
                } else {
                    assert!(v.valid, "{context}");
                }
                s.guarantees = value + 1;
                let v = verify(&s);
                assert_eq!(v.proved, value, "{context}");
                assert!(
                    matches!(
                        v.failure,
                        Some(Failure {
                            kind: FailureKind::BelowGuarantee { .. },
                            ..
                        })
                    ),
                    "{context}"
                );
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn verify_agrees_with_brute_force_on_small_boards() {
    let mut roots = small_positions(2, 6);
    roots.extend(small_positions(3, 4));
    roots.push(pos("1,1,1,1/1,1,1,1/0,0 0"));
    roots.push(pos("2,2,2/2,2,2/0,0 1"));
    let checked = agrees_on(&roots);
    assert!(checked > 4000, "{checked}");
}

#[test]
fn wide_boards_use_wider_keys_and_agree_too() {
    let nine = "1,0,0,0,0,0,0,1,2/0,2,0,0,0,0,0,1,1/0,0 0";
    let seventeen = "2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,1/0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,0,2/0,0 1";
    let thirty_two = format!(
        "{},1,2/1,{},1/0,0 0",
        ["0"; 30].join(","),
        ["0"; 30].join(",")
    );
    agrees_on(&[pos(nine), pos(seventeen), pos(&thirty_two)]);
}

/// A check stopped by its caller gives no verdict (nothing is known);
/// the flag left down changes nothing.
#[test]
fn a_stopped_check_gives_no_verdict() {
    use dalkon_strategy::verify_until;
    use std::sync::atomic::AtomicBool;

    let rules = Rules::default();
    let (s, reached) = brute::optimal(&pos("3,3,3/3,3,3/0,0 0"), &rules, Side::North);
    assert!(reached > 0 && s.guarantees > s.trivial_bound());
    assert_eq!(verify_until(&s, &AtomicBool::new(true)), None);
    assert_eq!(verify_until(&s, &AtomicBool::new(false)), Some(verify(&s)));
    assert!(verify(&s).valid);
}
