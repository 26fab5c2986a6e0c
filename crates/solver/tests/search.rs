//! The exact search (`dalkon_solver::search`) against an independent plain
//! recursive negamax (no table, no pruning), on start positions and random
//! positions, with 1 and 2 threads, and the pinned golden start values.

use dalkon_rules::dakon::{Mikul, Nembak, Origin, Position, Rules, Side};
use dalkon_solver::search::{solve, Limits};
use proptest::prelude::*;

/// Plain negamax on the final store difference for the side to move: no
/// table, no pruning, no factoring of stores. A bonus move keeps the side,
/// so its value is not negated.
fn negamax(pos: &Position, rules: &Rules) -> i32 {
    if let Some(v) = pos.terminal_value() {
        return v;
    }
    let me = pos.side_to_move();
    pos.moves()
        .map(|h| {
            let child = pos.play(h, rules).expect("legal move");
            let v = negamax(&child, rules);
            if child.side_to_move() == me {
                v
            } else {
                -v
            }
        })
        .max()
        .expect("a position not over has a move")
}

fn negamax_root(pos: &Position, rules: &Rules) -> Vec<(usize, i32)> {
    let me = pos.side_to_move();
    pos.moves()
        .map(|h| {
            let child = pos.play(h, rules).expect("legal move");
            let v = negamax(&child, rules);
            (h, if child.side_to_move() == me { v } else { -v })
        })
        .collect()
}

fn all_rules() -> Vec<Rules> {
    let mut v = Vec::new();
    for origin in [Origin::Sow, Origin::Skip] {
        for mikul in [Mikul::On, Mikul::Off] {
            for nembak in [Nembak::Keep, Nembak::Take] {
                v.push(Rules {
                    origin,
                    mikul,
                    nembak,
                });
            }
        }
    }
    v
}

fn small_limits() -> Limits {
    Limits {
        tt_bytes: 16 << 20,
        max_nodes: None,
    }
}

#[test]
fn start_values_match_plain_negamax_on_tiny_boards() {
    for rules in all_rules() {
        for (n, m) in [(1, 1), (1, 5), (2, 1), (2, 2), (2, 3), (3, 1), (3, 2), (4, 1)] {
            let pos = Position::start(n, m).unwrap();
            let r = solve(&pos, &rules, &small_limits(), None, None).unwrap();
            let expect = negamax_root(&pos, &rules);
            assert_eq!(r.moves, expect, "{n}x{m} {rules:?}");
            assert_eq!(r.value, expect.iter().map(|m| m.1).max().unwrap());
        }
    }
}
