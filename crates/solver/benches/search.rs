//! Benchmark: solve the 5×5, 7×3 and 6×4 Dakon starts exactly (default
//! rules) by search, check the values (cross-checked against the retrograde
//! databases where those fit, and pinned in `data/dakon/initial_values.csv`),
//! and report nodes per second, distinct positions and the table hit rate.
//!
//!     RAYON_NUM_THREADS=1 cargo bench -p dalkon-solver --bench search
//!
//! Like Stockfish's `bench`, the work is pinned too: with one thread the
//! node count and the distinct positions of each board are deterministic,
//! so a change to the search (ordering, table, first guess) that changes
//! them fails here until the new counts are accounted for and pinned. With
//! more threads the values and best moves are the same but the work
//! counters depend on timing, so only the values are checked.
//! (`scripts/bench_search.sh` runs it with 2 threads and 1 thread.)
//! Targets: 5×5 well under 60 s; 7×3 reported. `SEARCH_BENCH_BIG=1` adds
//! 7×4 (its work not pinned).

use dalkon_rules::dakon::{Position, Rules};
use dalkon_solver::search::{solve, Limits};

/// One benchmark board under the default rules.
#[derive(Clone, Copy)]
struct Board {
    holes: usize,
    seeds: u8,
    value: i32,
    best: &'static [usize],
    /// (distinct positions, nodes) with one thread, when pinned.
    work_one_thread: Option<(u64, u64)>,
}

const BOARDS: [Board; 3] = [
    Board {
        holes: 5,
        seeds: 5,
        value: 48,
        best: &[1],
        work_one_thread: Some((38_834, 64_923)),
    },
    Board {
        holes: 7,
        seeds: 3,
        value: 36,
        best: &[1],
        work_one_thread: Some((3_316_895, 7_120_207)),
    },
    Board {
        holes: 6,
        seeds: 4,
        value: 48,
        best: &[6],
        work_one_thread: Some((560_940, 1_057_705)),
    },
];
const BIG: Board = Board {
    holes: 7,
    seeds: 4,
    value: 20,
    best: &[3],
    work_one_thread: None,
};

fn main() {
    let rules = Rules::default();
    let threads = rayon::current_num_threads();
    let limits = Limits {
        tt_bytes: 2 << 30,
        max_nodes: None,
    };
    let mut boards = BOARDS.to_vec();
    if std::env::var_os("SEARCH_BENCH_BIG").is_some() {
        boards.push(BIG);
    }
    for b in boards {
        let (n, m) = (b.holes, b.seeds);
        let pos = Position::start(n, m).unwrap();
        let r = solve(&pos, &rules, &limits, None, None).unwrap();
        println!(
            "search {n}x{m}: value {:+}, best {:?}, {} positions, {} nodes in {:.3} s = {:.2} M nodes/s, table hits {:.1} % ({threads} threads)",
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
                    "{n}x{m} (positions, nodes) with 1 thread"
                );
            }
            Some(_) => println!("  (work pinned for 1 thread only: RAYON_NUM_THREADS=1)"),
            None => {}
        }
    }
}
