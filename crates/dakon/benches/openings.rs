//! Benchmark: count the winning first-turn chains of the 6×6 and 7×6 Dakon
//! starts (default rules), check the counts (pinned in
//! `data/dakon/openings.csv`) and report distinct positions per second
//! (each position is expanded twice, once per pass).
//!
//!     cargo bench -p dalkon-dakon --bench openings
//!
//! (`scripts/bench_openings.sh` runs it with 2 threads and 1 thread.)

use std::time::Instant;

use dalkon_dakon::openings::{openings, OpeningLimits};
use dalkon_rules::dakon::{Position, Rules};

/// (holes, seeds, winning chains, distinct positions, best margin).
const BOARDS: [(usize, u8, u64, u64, i32); 2] =
    [(6, 6, 3_132, 2_158_162, 66), (7, 6, 39_691, 62_608_833, 78)];

fn main() {
    let rules = Rules::default();
    let threads = rayon::current_num_threads();
    let limits = OpeningLimits {
        memory_bytes: 4 << 30,
        ..OpeningLimits::default()
    };
    for (n, m, chains, positions, margin) in BOARDS {
        let pos = Position::start(n, m).unwrap();
        let t0 = Instant::now();
        let o = openings(&pos, &rules, &limits).unwrap();
        let secs = t0.elapsed().as_secs_f64();
        println!(
            "openings {n}x{m}: {} winning chains, {} positions ({} can still win) in {secs:.2} s = {:.2} M positions/s, peak {:.0} MiB ({threads} threads)",
            o.winning_chains,
            o.positions,
            o.winning_positions,
            o.positions as f64 / secs / 1e6,
            o.peak_bytes as f64 / f64::from(1u32 << 20),
        );
        assert_eq!(o.winning_chains, chains, "{n}x{m} winning chains");
        assert_eq!(o.positions, positions, "{n}x{m} positions");
        assert_eq!(o.best_margin, Some(margin), "{n}x{m} best margin");
    }
}
