//! Value-table benchmark (criterion): `cargo bench -p dalkon-daldos --bench solved`.
//!
//! - `board4_whole_game`: every layer of the L = 4 game (1,343,653
//!   positions, A to throw), built in memory; asserts W at the start
//!   (0.543902893954 to 1e-12) and prints positions per second and
//!   position updates (positions × sweeps) per second.
//! - `norwegian_2v2`: the Norwegian board's layers up to 2 v 2 (1,225,090
//!   positions), asserting the 2 v 2 layer's size and that every gap closed.
//!
//! The large builds (L = 5, Norwegian up to 3 v 3, Danish a + b ≤ 4) take
//! minutes to an hour: `scripts/bench_solved.sh` times them through the CLI
//! and reports memory.

use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion};
use dalkon_daldos::solved::{plan, NoProgress, Tables, EPS};
use dalkon_rules::daldos::{Board, Position, Variants};

fn build(board: Board, pieces: (u8, u8)) -> (Tables, u64, u64) {
    let v = Variants::default();
    let p = plan(board, &v, pieces).unwrap();
    let mut t = Tables::new(board, v, None);
    let reports = t.build(&p, EPS, &mut NoProgress).unwrap();
    let updates = reports.iter().map(|r| r.stats.updates).sum();
    assert!(reports
        .iter()
        .all(|r| r.stats.gap <= EPS && !r.stats.stalled));
    (t, p.positions, updates)
}

fn solved(c: &mut Criterion) {
    let mut g = c.benchmark_group("solved");
    g.sample_size(10);
    let b4 = Board::new(4).unwrap();
    let t0 = Instant::now();
    let (_, positions, updates) = build(b4, (4, 4));
    let s = t0.elapsed().as_secs_f64();
    eprintln!(
        "board4_whole_game: {positions} positions in {s:.1} s: {:.0} positions/s, {:.2e} updates/s ({updates} updates)",
        positions as f64 / s,
        updates as f64 / s
    );
    g.bench_function("board4_whole_game", |bench| {
        bench.iter(|| {
            let (t, positions, _) = build(b4, (4, 4));
            assert_eq!(positions, 1_343_653);
            let w = t.bounds(&Position::start(b4)).unwrap();
            assert!((w.value() - 0.543_902_893_954).abs() < 1e-12);
            t
        })
    });
    g.bench_function("norwegian_2v2", |bench| {
        bench.iter(|| {
            let (t, positions, _) = build(Board::NORWEGIAN, (2, 2));
            assert_eq!(positions, 1_225_090);
            t
        })
    });
    g.finish();
}

criterion_group!(benches, solved);
criterion_main!(benches);
