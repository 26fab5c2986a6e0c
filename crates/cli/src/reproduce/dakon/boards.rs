//! Which Dakon boards `reproduce` solves and counts: the default run's
//! lists, and the larger boards only `--full` adds.

use dalkon_rules::dakon::{Mikul, Nembak, Origin, Rules};

/// One board to solve in `reproduce`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Job {
    pub(super) holes: usize,
    pub(super) seeds: u32,
    pub(super) rules: Rules,
}

fn variant(origin: Origin, mikul: Mikul, nembak: Nembak) -> Rules {
    Rules {
        origin,
        mikul,
        nembak,
    }
}

/// The boards of `initial_values.csv` (docs/cli.md, "Data files"): default rules
/// on n = 1..4 × m = 1..10, 5 × m <= 6, 6 × m <= 4, 7 × m <= 3, then (with
/// `full`) further toward 7×7; one-option variants on n <= 4, m <= 6.
pub(super) fn value_jobs(full: bool) -> Vec<Job> {
    let d = Rules::default();
    let mut jobs = Vec::new();
    let mut push = |holes: usize, seeds: u32, rules: Rules| {
        jobs.push(Job {
            holes,
            seeds,
            rules,
        })
    };
    for n in 1..=4 {
        for m in 1..=10 {
            push(n, m, d);
        }
    }
    for (n, max_m) in [(5, 6), (6, 4), (7, 3)] {
        for m in 1..=max_m {
            push(n, m, d);
        }
    }
    if full {
        for (n, m) in FULL_EXTRA {
            push(n, m, d);
        }
    }
    let variants = [
        variant(Origin::Skip, Mikul::On, Nembak::Keep),
        variant(Origin::Sow, Mikul::Off, Nembak::Keep),
        variant(Origin::Sow, Mikul::On, Nembak::Take),
    ];
    for rules in variants {
        for n in 1..=4 {
            for m in 1..=6 {
                push(n, m, rules);
            }
        }
    }
    jobs
}

/// Boards beyond the default list solved by `reproduce --full` (default
/// rules, by search).
pub(super) const FULL_EXTRA: [(usize, u32); 13] = [
    (5, 7),
    (5, 8),
    (5, 9),
    (5, 10),
    (6, 5),
    (6, 6),
    (7, 4),
    (7, 5),
    (8, 2),
    (8, 3),
    (9, 2),
    (7, 6),
    (7, 7),
];

/// Distinct positions the openings count of 8×8 and 9×9 may hold. Their
/// first turns grow far beyond what this machine can count (7×7 alone holds
/// billions of positions, and each extra seed a hole multiplies the late
/// layers), so `--full` stops them here and lists them as not finished in
/// `openings.md`, with the layer reached.
pub(super) const OPENINGS_BUDGET: u64 = 2_000_000_000;

/// Memory, in MiB, the counts under [`OPENINGS_BUDGET`] may hold: a fixed
/// figure rather than what the machine has free, so that where such a count
/// stops (and what `openings_first.csv` says of it) is the same on every
/// machine that has this much.
pub(super) const OPENINGS_MEMORY_MB: u64 = 16 * 1024;

/// Boards of `openings.csv`: every board up to 6×6, n <= 4 with m up to
/// 10, 5 × m <= 10, 6 × 7, 7 × m <= 6 and 8..10 × m <= 4 (7×6, 6×7, 9×4
/// and 10×4 take half a minute each, the others seconds at most); with
/// `full` also the m = n boards 7×7 (about an hour), 8×8 and 9×9 (the last
/// two under [`OPENINGS_BUDGET`]).
pub(super) fn opening_boards(full: bool) -> Vec<(usize, u32)> {
    let max_m = |n: usize| match n {
        1..=5 => 10,
        6 => 7,
        7 => 6,
        _ => 4,
    };
    let mut v: Vec<(usize, u32)> = (1..=10)
        .flat_map(|n| (1..=max_m(n)).map(move |m| (n, m)))
        .collect();
    v.extend(FULL_OPENINGS.iter().filter(|_| full));
    v
}

/// Openings boards only `--full` counts.
pub(super) const FULL_OPENINGS: [(usize, u32); 3] = [(7, 7), (8, 8), (9, 9)];
