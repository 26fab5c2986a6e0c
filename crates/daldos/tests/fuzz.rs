//! Property-based fuzzing of the player names of `daldos match`
//! (`PlayerSpec: FromStr`): never a panic, what parses prints back to the
//! same player, an error is one short line. Fixed seed; `DALKON_FUZZ_CASES`
//! (or `DALKON_FUZZ_CASES_PLAYER`) sets the cases.

use std::cell::Cell;
use std::time::Instant;

use dalkon_daldos::engine::{PlayerSpec, MAX_DEPTH};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

fn cases(default: u32) -> u32 {
    ["DALKON_FUZZ_CASES_PLAYER", "DALKON_FUZZ_CASES"]
        .iter()
        .find_map(|k| std::env::var(k).ok())
        .map(|v| v.trim().parse().expect("a case count"))
        .unwrap_or(default)
}

/// A player name: valid, mutated (characters dropped, duplicated, inserted,
/// the depth made huge or negative), random bytes.
fn input() -> impl Strategy<Value = String> {
    let valid = prop_oneof![
        Just("random".to_owned()),
        Just("greedy".to_owned()),
        (0..=12u32).prop_map(|d| format!("engine:{d}")),
    ];
    let odd = prop::sample::select(vec![
        "７",
        "ø",
        "\u{0}",
        "-1",
        "+2",
        "99999999999999999999",
        " ",
        ":",
        "engine",
        "E",
    ]);
    let edit = (any::<u8>(), any::<usize>(), odd.clone());
    prop_oneof![
        4 => (valid, prop::collection::vec(edit, 0..4)).prop_map(|(t, edits)| {
            let mut v: Vec<char> = t.chars().collect();
            for (kind, i, s) in edits {
                let n = v.len();
                match kind % 4 {
                    0 if n > 0 => {
                        v.remove(i % n);
                    }
                    1 if n > 0 => v.insert(i % n, v[i % n]),
                    2 => {
                        let i = i % (n + 1);
                        v.splice(i..i, s.chars());
                    }
                    _ => v.truncate(i % (n + 1)),
                }
            }
            v.into_iter().collect()
        }),
        1 => prop::collection::vec(any::<u8>(), 0..24)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        1 => (odd, 0..3usize).prop_map(|(s, k)| format!("engine:{}", s.repeat(k))),
    ]
}

#[test]
fn fuzz_player_spec() {
    let n = cases(5000);
    let config = Config {
        cases: n,
        failure_persistence: None,
        rng_algorithm: RngAlgorithm::ChaCha,
        ..Config::default()
    };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &[3; 32]));
    let (ok, refused) = (Cell::new(0u64), Cell::new(0u64));
    let t0 = Instant::now();
    let result = runner.run(&input(), |text| {
        match text.parse::<PlayerSpec>() {
            Ok(p) => {
                ok.set(ok.get() + 1);
                prop_assert_eq!(p.to_string().parse::<PlayerSpec>(), Ok(p));
                if let PlayerSpec::Engine(d) = p {
                    prop_assert!((1..=MAX_DEPTH).contains(&d));
                }
            }
            Err(e) => {
                refused.set(refused.get() + 1);
                let m = e.to_string();
                prop_assert!(!m.contains('\n'), "{m:?}");
                let widest = text
                    .chars()
                    .map(|c| c.escape_debug().count())
                    .max()
                    .unwrap_or(1);
                prop_assert!(m.chars().count() <= 200 + 81 * widest, "{m:?}");
            }
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("fuzz player: {e}");
    }
    println!(
        "fuzz player: cases {n} ok {} refused {} seconds {:.1}",
        ok.get(),
        refused.get(),
        t0.elapsed().as_secs_f64()
    );
}

/// A megabyte name is refused in one short line.
#[test]
fn megabyte_player_names_give_short_errors() {
    for text in [
        "x".repeat(1 << 20),
        format!("engine:{}", "9".repeat(1 << 20)),
    ] {
        let m = text.parse::<PlayerSpec>().unwrap_err().to_string();
        assert!(m.chars().count() <= 200, "{}", m.len());
    }
}
