//! Capture-odds benchmark (criterion): `cargo bench -p dalkon-daldos --bench odds`.
//!
//! - `middle_game_exact`: a 16-against-16 Danish middle game, B to move, the
//!   odds of every A piece within 1e-12 (default limits: every target
//!   settled by the relaxed-model certificate, 9 rethrows);
//! - `middle_game_a_exact`: the same for the engine's middle game, A to
//!   move, where two roads (A's start row and the loop) meet before some
//!   targets and own pieces just past A15 block jumps over it;
//! - the 16-against-16 middle game of the engine's tests, A to move, by the
//!   full search alone with 1 and 2 dal-dal rethrows followed (bounds 16^-2
//!   and 16^-3), and the one-throw `f64` risk the engine can use;
//! - both published tables to d = 12 on the Danish board (closed form
//!   beside the board, 78 positions).
//!
//! Every benchmark asserts the values it computed, so a faster wrong answer
//! fails.

use criterion::{criterion_group, criterion_main, Criterion};
use dalkon_daldos::capture::{capture_odds, capture_odds_with, capture_risk_f64, OddsLimits};
use dalkon_daldos::ratio::{ratio, sixteenth_pow, Ratio};
use dalkon_daldos::tables::capture_table;
use dalkon_rules::daldos::{Board, Position, Variants};

const MIDDLE: &str = "AAAAAAA.a.a...ba/ba..b..a.ab..a.bb/BBBBBBB.b.b.aab. a";
const MIDDLE_B: &str = "AAAAAAAA.b.A..b./a..b.a.b.b.ba.b.a/BBBBBBB.a.BB.a.a b";

fn middle() -> Position {
    MIDDLE.parse().unwrap()
}

fn prob(p: &Position, o: &dalkon_daldos::CaptureOdds, hole: &str) -> Ratio {
    let h = p.board().parse_hole(hole).unwrap();
    o.targets
        .iter()
        .find(|t| t.hole == h)
        .unwrap()
        .probability
        .clone()
}

fn odds(c: &mut Criterion) {
    let p = middle();
    let v = Variants::default();
    assert_eq!(p.count(dalkon_rules::daldos::Side::A), 16);
    assert_eq!(p.count(dalkon_rules::daldos::Side::B), 16);
    let mut g = c.benchmark_group("odds");
    g.sample_size(20);
    let q: Position = MIDDLE_B.parse().unwrap();
    g.bench_function("middle_game_exact", |bench| {
        bench.iter(|| {
            let o = capture_odds(&q, &v);
            assert_eq!(o.targets.len(), 16);
            assert_eq!(o.certified, 16);
            assert_eq!(o.bound, sixteenth_pow(10));
            assert_eq!(prob(&q, &o, "A1"), ratio(174_763, 262_144));
            assert_eq!(prob(&q, &o, "M0"), ratio(2459, 4096));
            assert_eq!(prob(&q, &o, "A12"), ratio(1, 2));
            assert_eq!(o.any, ratio(1, 1));
            o
        })
    });
    g.bench_function("middle_game_a_exact", |bench| {
        bench.iter(|| {
            let o = capture_odds(&p, &v);
            assert_eq!(o.targets.len(), 16);
            assert_eq!(o.certified, 16);
            assert_eq!(o.bound, sixteenth_pow(10));
            assert_eq!(prob(&p, &o, "A15"), ratio(43_691, 65_536));
            assert_eq!(prob(&p, &o, "M10"), ratio(629_419, 1_048_576));
            assert_eq!(prob(&p, &o, "B1"), ratio(1, 2));
            assert_eq!(o.any, ratio(1, 1));
            o
        })
    });
    for (k, b3, b4) in [
        (1u32, ratio(85, 128), ratio(37, 128)),
        (2, ratio(1365, 2048), ratio(597, 2048)),
    ] {
        let limits = OddsLimits {
            max_daldals: k,
            max_nodes: usize::MAX,
            certify: false,
        };
        g.bench_function(format!("middle_game_all_pieces_daldals_{k}"), |bench| {
            bench.iter(|| {
                let o = capture_odds_with(&p, &v, limits);
                assert_eq!(o.targets.len(), 16);
                assert_eq!(o.daldals, k);
                assert_eq!(prob(&p, &o, "B3"), b3);
                assert_eq!(prob(&p, &o, "B4"), b4);
                assert_eq!(o.any, ratio(1, 1));
                o
            })
        });
    }
    g.bench_function("middle_game_risk_f64", |bench| {
        bench.iter(|| {
            let r = capture_risk_f64(&p, &v);
            assert_eq!(r.len(), 16);
            assert_eq!(r.iter().map(|x| x.1).sum::<f64>(), 112.0 / 16.0);
            r
        })
    });
    g.finish();
    let mut g = c.benchmark_group("tables");
    g.sample_size(10);
    g.bench_function("danish_default_to_12", |bench| {
        bench.iter(|| {
            let t = capture_table(Board::DANISH, &v, 12).unwrap();
            assert_eq!(t.single[2].probability, ratio(3, 5));
            assert_eq!(t.pair[12].probability, ratio(11, 16));
            assert!(t
                .single
                .iter()
                .chain(&t.pair)
                .all(|r| r.board_probability == r.probability_cut));
            t
        })
    });
    g.finish();
}

criterion_group!(benches, odds);
criterion_main!(benches);
