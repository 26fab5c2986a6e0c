//! Benchmark: solve Dakon starts exactly (default rules) by search, check
//! the values (cross-checked against the retrograde databases where those
//! fit, and pinned in `data/dakon/initial_values.csv`), and report nodes per
//! second, distinct positions and the table hit rate.
//!
//!     RAYON_NUM_THREADS=1 cargo bench -p dalkon-dakon --bench search
//!
//! Each board is searched for both goals: `every-move` (every root move
//! solved exactly, what `dakon best` lists) and `best-moves` (the value and
//! every best move, what `dakon solve` and `prove` need). Like Stockfish's
//! `bench`, the work is pinned too: with one thread the node count and the
//! distinct positions are deterministic, so a change to the search
//! (ordering, table, first guess) that changes them fails here until the new
//! counts are accounted for and pinned. With more threads the values and
//! best moves are the same but the work counters depend on timing, so only
//! the values are checked. (`scripts/bench_search.sh` runs it with 2 threads
//! and 1 thread.) `SEARCH_BENCH_BIG=1` adds 7×4 for every move (its work not
//! pinned) and the traditional 7×7, 8×8 and 9×9 starts for the best moves.

use dalkon_dakon::search::{solve, Goal, Limits};
use dalkon_rules::dakon::{Position, Rules};

/// One benchmark board under the default rules.
#[derive(Clone, Copy)]
struct Board {
    holes: usize,
    seeds: u8,
    goal: Goal,
    value: i32,
    best: &'static [usize],
    /// (distinct positions, nodes) with one thread, when pinned.
    work_one_thread: Option<(u64, u64)>,
}

const fn board(
    holes: usize,
    seeds: u8,
    goal: Goal,
    value: i32,
    best: &'static [usize],
    work_one_thread: Option<(u64, u64)>,
) -> Board {
    Board {
        holes,
        seeds,
        goal,
        value,
        best,
        work_one_thread,
    }
}

const EVERY: Goal = Goal::EveryMove;
const BEST: Goal = Goal::BestMoves;

const BOARDS: [Board; 6] = [
    board(5, 5, EVERY, 48, &[1], Some((28_020, 44_651))),
    board(7, 3, EVERY, 36, &[1], Some((1_015_336, 1_857_773))),
    board(6, 4, EVERY, 48, &[6], Some((405_013, 685_045))),
    board(5, 5, BEST, 48, &[1], Some((2_119, 3_693))),
    board(7, 3, BEST, 36, &[1], Some((33_629, 70_044))),
    board(6, 4, BEST, 48, &[6], Some((7_591, 13_078))),
];
const BIG: [Board; 4] = [
    board(7, 4, EVERY, 20, &[3], None),
    board(7, 7, BEST, 98, &[1], None),
    board(8, 8, BEST, 128, &[1], None),
    board(9, 9, BEST, 162, &[1], None),
];

fn main() {
    let rules = Rules::default();
    let threads = rayon::current_num_threads();
    let limits = Limits {
        tt_bytes: 2 << 30,
        max_nodes: None,
        time: None,
    };
    let mut boards = BOARDS.to_vec();
    if std::env::var_os("SEARCH_BENCH_BIG").is_some() {
        boards.extend(BIG);
    }
    for b in boards {
        let (n, m) = (b.holes, b.seeds);
        let pos = Position::start(n, m).unwrap();
        let r = solve(&pos, &rules, &limits, None, None, b.goal).unwrap();
        let goal = match b.goal {
            Goal::EveryMove => "every-move",
            Goal::BestMoves => "best-moves",
        };
        println!(
            "search {n}x{m} {goal}: value {:+}, best {:?}, {} positions, {} nodes in {:.3} s = {:.2} M nodes/s, table hits {:.1} % ({threads} threads)",
            r.value,
            r.best_moves,
            r.positions,
            r.nodes,
            r.seconds,
            r.nodes as f64 / r.seconds / 1e6,
            100.0 * r.tt_hits as f64 / r.tt_probes.max(1) as f64
        );
        assert_eq!(r.value, b.value, "{n}x{m} value");
        assert_eq!(r.best_moves, b.best, "{n}x{m} best moves");
        match b.work_one_thread {
            Some(work) if threads == 1 => {
                assert_eq!(
                    (r.positions, r.nodes),
                    work,
                    "{n}x{m} {goal} (positions, nodes) with 1 thread"
                );
            }
            Some(_) => println!("  (work pinned for 1 thread only: RAYON_NUM_THREADS=1)"),
            None => {}
        }
    }
}
