//! Benchmark: build every Dakon database of the 4-hole board up to 32 seeds
//! on the board (C(40, 8) = 76,904,685 positions, default rules) in memory,
//! report positions per second, and check what was computed:
//! the entry count, the start values of 4 holes × 1..=4 seeds (pinned, and
//! agreeing with the alpha-beta search), sampled low-level entries against a
//! brute-force negamax and sampled high-level entries against the search.
//!
//!     cargo bench -p dalkon-dakon --bench retro
//!
//! (`scripts/bench_retro.sh` runs it with 1 and 2 threads.) The target is at
//! least 5 million positions per second on a 2-core machine.

use std::collections::HashMap;
use std::time::Instant;

use dalkon_dakon::rank::Ranker;
use dalkon_dakon::reference::negamax_future;
use dalkon_dakon::search::{future_margin, Limits};
use dalkon_dakon::{Databases, NoProgress};
use dalkon_rules::dakon::{Position, Rules, Side};
use dalkon_store::checksum::fnv1a64;

const HOLES: usize = 4;
const MAX_K: u32 = 32;

/// FNV-1a 64 of the 33 level checksums (little-endian), default rules.
const PINNED_CHECKSUM: u64 = 0xef75_fe0c_c68e_d15a;

/// Start values of 4 holes × m seeds (default rules): value, best moves.
const STARTS: [(u8, i32, &[usize]); 4] =
    [(1, 6, &[2, 3]), (2, 8, &[3]), (3, 22, &[3]), (4, 32, &[1])];

/// A fixed pseudo-random sequence (64-bit LCG), so the samples are the same
/// on every run.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

fn main() {
    let rules = Rules::default();
    let threads = rayon::current_num_threads();
    let t = Instant::now();
    let db = Databases::build(HOLES, rules, MAX_K, &NoProgress).expect("fits in memory");
    let secs = t.elapsed().as_secs_f64();
    let positions = db.positions();
    println!(
        "retro build: {HOLES} holes, levels 0..={MAX_K}, {positions} positions in {secs:.2} s = {:.2} M positions/s ({threads} threads)",
        positions as f64 / secs / 1e6
    );
    assert_eq!(positions, 76_904_685, "C(40, 8) entries");
    // FNV-1a 64 over the levels' own checksums: the same bytes whatever
    // the thread count (pinned).
    let sums: Vec<u8> = (0..=MAX_K)
        .flat_map(|k| db.checksum(k).unwrap().to_le_bytes())
        .collect();
    let checksum = fnv1a64(&sums);
    println!("checksum of all levels: {checksum:#018x}");
    assert_eq!(checksum, PINNED_CHECKSUM, "the databases' bytes changed");

    for (seeds, value, best) in STARTS {
        let start = Position::start(HOLES, seeds).unwrap();
        let sol = db.solve(&start).unwrap();
        println!(
            "start {HOLES}x{seeds}: value {} best {:?}",
            sol.value, sol.best_moves
        );
        assert_eq!(
            (sol.value, &sol.best_moves[..]),
            (value, best),
            "start {HOLES}x{seeds}"
        );
        let searched = future_margin(&start, &rules, &Limits::default(), None).unwrap();
        assert_eq!(
            searched, value,
            "alpha-beta disagrees on the start {HOLES}x{seeds}"
        );
    }

    let ranker = Ranker::new(HOLES, MAX_K);
    let mut rng = Lcg(0x5eed);
    let mut memo = HashMap::new();
    let t = Instant::now();
    for k in 4..=12 {
        for _ in 0..40 {
            let cells = ranker.unrank(rng.below(ranker.level_count(k)), k).unwrap();
            let pos = Position::new(&cells[..HOLES], &cells[HOLES..], [0, 0], Side::South).unwrap();
            let want = negamax_future(pos, &rules, &mut memo);
            assert_eq!(db.probe(&pos), Some(want), "brute force disagrees on {pos}");
        }
    }
    println!(
        "360 entries of levels 4..=12 agree with brute-force negamax ({:.2} s)",
        t.elapsed().as_secs_f64()
    );

    let t = Instant::now();
    let mut checked = 0;
    for k in 24..=MAX_K {
        for _ in 0..5 {
            let cells = ranker.unrank(rng.below(ranker.level_count(k)), k).unwrap();
            let pos = Position::new(&cells[..HOLES], &cells[HOLES..], [0, 0], Side::South).unwrap();
            let searched = future_margin(&pos, &rules, &Limits::default(), None).unwrap();
            assert_eq!(
                db.probe(&pos),
                Some(searched),
                "alpha-beta disagrees on {pos}"
            );
            checked += 1;
        }
    }
    println!(
        "{checked} entries of levels 24..={MAX_K} agree with the alpha-beta search ({:.2} s)",
        t.elapsed().as_secs_f64()
    );
}
