//! Benchmark: solve the 5×5 and 7×3 Dakon starts exactly (default rules)
//! by search, check the values (cross-checked against the retrograde
//! databases where those fit, and pinned in `data/dakon/initial_values.csv`),
//! and report nodes per second, distinct positions and the table hit rate.
//!
//!     cargo bench -p dalkon-solver --bench search
//!
//! (`scripts/bench_search.sh` runs it with 2 threads and 1 thread.) Targets:
//! 5×5 well under 60 s; 7×3 reported. `SEARCH_BENCH_BIG=1` adds 7×4.

use dalkon_rules::dakon::{Position, Rules};
use dalkon_solver::search::{solve, Limits};

/// (holes, seeds, value, best moves) under the default rules.
const BOARDS: [(usize, u8, i32, &[usize]); 3] =
    [(5, 5, 48, &[1]), (7, 3, 36, &[1]), (6, 4, 48, &[6])];
const BIG: (usize, u8, i32, &[usize]) = (7, 4, 20, &[3]);

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
    for (n, m, value, best) in boards {
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
        assert_eq!(r.value, value, "{n}x{m} value");
        assert_eq!(r.best_moves, best, "{n}x{m} best moves");
    }
}
