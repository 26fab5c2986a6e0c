//! An independent reference for checking the engines: plain recursive
//! negamax over real positions with the rules engine, memoised on the
//! position without its stores. It knows nothing of ranks, levels,
//! potentials or tables, which is why tests and benchmarks compare the
//! retrograde databases with it.

use std::collections::HashMap;

use dalkon_rules::dakon::{Position, Rules};

/// The future margin of `pos` for the side to move (its future store
/// gains minus the opponent's under perfect play). `memo` may be shared
/// between calls with the same rules.
pub fn negamax_future(pos: Position, rules: &Rules, memo: &mut HashMap<Position, i32>) -> i32 {
    let pos = pos.without_stores();
    if let Some(&v) = memo.get(&pos) {
        return v;
    }
    let v = if pos.is_over() {
        pos.terminal_value().expect("a finished game has a value")
    } else {
        let me = pos.side_to_move();
        pos.moves()
            .map(|h| {
                let next = pos.play(h, rules).expect("legal move");
                let gain = i32::from(next.store(me)) - i32::from(next.store(me.other()));
                let f = negamax_future(next, rules, memo);
                gain + if next.side_to_move() == me { f } else { -f }
            })
            .max()
            .expect("a position not over has a move")
    };
    memo.insert(pos, v);
    v
}
