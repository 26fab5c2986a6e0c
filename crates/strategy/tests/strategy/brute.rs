//! A brute-force Dakon minimax written from the rules alone, to check the
//! verifier against: tiny boards only (plain recursion, a table of
//! positions with stores factored out).

use std::collections::HashMap;

use dalkon_rules::dakon::{Position, Rules, Side};
use dalkon_strategy::Strategy;

/// The best future margin for the side to move in `pos` (stores ignored).
pub fn future(pos: Position, rules: &Rules, memo: &mut HashMap<Position, i32>) -> i32 {
    let pos = pos.without_stores();
    if let Some(v) = pos.terminal_value() {
        return v;
    }
    if let Some(&v) = memo.get(&pos) {
        return v;
    }
    let best = pos
        .moves()
        .map(|h| move_value(&pos, h, rules, memo))
        .max()
        .expect("an unfinished position has a move");
    memo.insert(pos, best);
    best
}

/// The future margin for the side to move in `pos` (stores empty) after
/// playing `hole`, both sides playing best afterwards.
pub fn move_value(
    pos: &Position,
    hole: usize,
    rules: &Rules,
    memo: &mut HashMap<Position, i32>,
) -> i32 {
    let me = pos.side_to_move();
    let child = pos.without_stores().play(hole, rules).unwrap();
    let gain = i32::from(child.store(me)) - i32::from(child.store(me.other()));
    let rest = future(child, rules, memo);
    gain + if child.side_to_move() == me {
        rest
    } else {
        -rest
    }
}

/// The value of `pos` (docs/rules.md §2.3) for the side to move.
pub fn value(pos: &Position, rules: &Rules) -> i32 {
    pos.store_diff() + future(*pos, rules, &mut HashMap::new())
}

/// The value of `pos` for `player`.
pub fn value_for(pos: &Position, rules: &Rules, player: Side) -> i32 {
    let v = value(pos, rules);
    if pos.side_to_move() == player {
        v
    } else {
        -v
    }
}

/// An optimal strategy for `player` from `root`: the lowest best hole in
/// every position reachable when `player` plays it and the opponent plays
/// anything, claiming the value; and the number of distinct unfinished
/// positions (rows and side) those games reach.
pub fn optimal(root: &Position, rules: &Rules, player: Side) -> (Strategy, u64) {
    let mut memo = HashMap::new();
    let mut moves = hashbrown::HashMap::new();
    let mut seen = std::collections::HashSet::new();
    let mut todo = vec![root.without_stores()];
    while let Some(pos) = todo.pop() {
        if pos.is_over() || !seen.insert(pos) {
            continue;
        }
        let holes: Vec<usize> = if pos.side_to_move() == player {
            let best = pos
                .moves()
                .max_by_key(|&h| (move_value(&pos, h, rules, &mut memo), std::cmp::Reverse(h)))
                .unwrap();
            moves.insert(Strategy::key(&pos, player), best as u8);
            vec![best]
        } else {
            pos.moves().collect()
        };
        for h in holes {
            todo.push(pos.play(h, rules).unwrap().without_stores());
        }
    }
    let strategy = Strategy {
        rules: *rules,
        root: *root,
        player,
        guarantees: value_for(root, rules, player),
        moves,
    };
    (strategy, seen.len() as u64)
}
