//! How fast `verify` checks a big strategy, in positions a second.
//!
//! The strategy is synthetic: on an `n × m` start (default 6 × 4), South
//! plays the move that puts the most seeds into its store at once (the
//! lowest such hole), North every move. It is built here by a plain
//! depth-first walk that counts the positions it reaches, and the check
//! must count the same (a faster wrong check fails). The claim is one
//! above the trivial bound, so that the check cannot skip the walk.
//! Reading and writing the file are timed too.
//!
//!     cargo bench -p dalkon-strategy --bench verify [-- HOLES SEEDS]

use std::time::Instant;

use dalkon_rules::dakon::{Position, Rules, Side};
use dalkon_strategy::{verify, FailureKind, Strategy};

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (holes, seeds) = match args[..] {
        [h, s, ..] => (h, s),
        _ => (6, 4),
    };
    let rules = Rules::default();
    let root = Position::start(holes, seeds as u8).expect("a start position");

    let t = Instant::now();
    let (strategy, reached) = greedy(root, &rules);
    println!(
        "{holes}x{seeds}: built a greedy strategy of {} lines ({reached} positions) in {:.2} s",
        strategy.lines(),
        t.elapsed().as_secs_f64()
    );

    let t = Instant::now();
    let gz = strategy.to_gzip().expect("gzip in memory");
    let text = strategy.to_text();
    let write = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let read = Strategy::parse(&gz).expect("the written file reads");
    let parse = t.elapsed().as_secs_f64();
    assert_eq!(read, strategy);
    println!(
        "write text + gzip {:.2} s ({} bytes, {} gzip); parse gzip {:.2} s ({:.1} million lines/s)",
        write,
        text.len(),
        gz.len(),
        parse,
        strategy.lines() as f64 / parse / 1e6
    );

    // The best of three runs, in wall time and in time on the processor
    // (the machine may be busy with other work).
    let mut seconds = f64::MAX;
    let mut cpu_seconds = f64::MAX;
    let mut v = verify(&strategy);
    for _ in 0..3 {
        let (t, cpu) = (Instant::now(), cpu_time());
        v = verify(&strategy);
        seconds = seconds.min(t.elapsed().as_secs_f64());
        if let (Some(a), Some(b)) = (cpu, cpu_time()) {
            cpu_seconds = cpu_seconds.min(b - a);
        }
    }
    assert_eq!(
        v.positions_checked, reached,
        "the check reaches what the walk reached"
    );
    assert_eq!(v.unused_lines, 0);
    assert!(
        v.valid
            || matches!(
                v.failure.as_ref().map(|f| &f.kind),
                Some(FailureKind::BelowGuarantee { .. })
            ),
        "{v:?}"
    );
    println!(
        "verify: {} positions in {seconds:.2} s: {:.2} million positions/s (proved {})",
        v.positions_checked,
        v.positions_checked as f64 / seconds / 1e6,
        v.proved
    );
    if cpu_seconds < f64::MAX {
        println!(
            "        on the processor {cpu_seconds:.2} s: {:.2} million positions/s",
            v.positions_checked as f64 / cpu_seconds / 1e6
        );
    }
}

/// South's greedy strategy from `root` and the number of distinct
/// unfinished positions its games reach.
fn greedy(root: Position, rules: &Rules) -> (Strategy, u64) {
    let player = Side::South;
    let mut moves = hashbrown::HashMap::new();
    let mut seen = hashbrown::HashSet::new();
    let mut todo = vec![root.without_stores()];
    while let Some(pos) = todo.pop() {
        if pos.is_over() || !seen.insert(pos) {
            continue;
        }
        if pos.side_to_move() == player {
            let hole = pos
                .moves()
                .max_by_key(|&h| {
                    let after = pos.play_unchecked(h, rules);
                    (after.store(player), std::cmp::Reverse(h))
                })
                .expect("an unfinished position has a move");
            moves.insert(Strategy::key(&pos, player), hole as u8);
            todo.push(pos.play_unchecked(hole, rules).without_stores());
        } else {
            todo.extend(
                pos.moves()
                    .map(|h| pos.play_unchecked(h, rules).without_stores()),
            );
        }
    }
    let strategy = Strategy {
        rules: *rules,
        root,
        player,
        guarantees: -(root.total_seeds() as i32) + 1,
        moves,
    };
    (strategy, seen.len() as u64)
}

/// Time this thread has spent on a processor, in seconds (Linux: the first
/// field of `/proc/thread-self/schedstat`, in nanoseconds).
fn cpu_time() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}
