//! Which Dakon boards `reproduce` solves, proves and counts: the default
//! run's lists, and what only `--full` adds.

use dalkon_rules::dakon::{Mikul, Nembak, Origin, Rules};

use crate::csv::{CsvError, Row};

/// One board to solve in `reproduce`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Job {
    pub(super) holes: usize,
    pub(super) seeds: u32,
    pub(super) rules: Rules,
}

/// The rule set whose CLI names are `(origin, mikul, nembak)`.
pub(super) fn rules_named(names: (&str, &str, &str)) -> Option<Rules> {
    (0..8)
        .filter_map(Rules::from_code)
        .find(|r| r.names() == names)
}

/// The rule set named by a CSV row's `origin`, `mikul` and `nembak` cells.
pub(super) fn rules_of(row: &Row) -> Result<Rules, CsvError> {
    let names = (row.text("origin")?, row.text("mikul")?, row.text("nembak")?);
    rules_named(names).ok_or_else(|| {
        row.error(
            "origin",
            format!(
                "no rule set is named origin={} mikul={} nembak={}",
                names.0, names.1, names.2
            ),
        )
    })
}

fn variant(origin: Origin, mikul: Mikul, nembak: Nembak) -> Rules {
    Rules {
        origin,
        mikul,
        nembak,
    }
}

/// Whether `initial_values.csv` holds `holes` × `seeds` under the default
/// rules: n = 1..5 with m = 1..10, 6 and 7 with m = 1..9, 8 with m = 2, 3,
/// 5..9 and 9 with m = 2, 5..9 (so every traditional board, 5..9 × 5..9).
fn default_board(holes: usize, seeds: u32) -> bool {
    match holes {
        1..=5 => (1..=10).contains(&seeds),
        6 | 7 => (1..=9).contains(&seeds),
        8 => seeds == 2 || seeds == 3 || (5..=9).contains(&seeds),
        9 => seeds == 2 || (5..=9).contains(&seeds),
        _ => false,
    }
}

/// The boards of `initial_values.csv` (docs/cli.md, "Data files"), in the
/// order of its rows: [`default_board`] under the default rules, then
/// under each one-option variant the boards n <= 4, m <= 6 and 7×7. Every
/// one is solved in seconds at most, so the default run and `--full`
/// solve the same list.
pub(super) fn value_jobs() -> Vec<Job> {
    let mut jobs = Vec::new();
    let mut push = |holes: usize, seeds: u32, rules: Rules| {
        jobs.push(Job {
            holes,
            seeds,
            rules,
        })
    };
    for n in 1..=9 {
        for m in (1..=10).filter(|&m| default_board(n, m)) {
            push(n, m, Rules::default());
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
        push(7, 7, rules);
    }
    jobs
}

/// Boards (default rules) whose proofs only `reproduce --full` writes: the
/// ones too large to commit (their two files together over
/// `proofs::COMMIT_LIMIT` bytes: millions of strategy lines, a minute or
/// more to read off the search each), and the ones whose strategies take
/// more than a few seconds to read off (the 8- and 9-hole boards: small
/// files, committed, but a few minutes for all of them). The default run
/// keeps their rows of `proofs/manifest.csv` (and leaves their files).
pub(super) const FULL_PROOFS: [(usize, u32); 14] = [
    (5, 9),
    (6, 5),
    (7, 3),
    (7, 4),
    (8, 2),
    (8, 6),
    (8, 8),
    (8, 9),
    (9, 2),
    (9, 5),
    (9, 6),
    (9, 7),
    (9, 8),
    (9, 9),
];

/// Whether only `--full` proves this board (see [`FULL_PROOFS`]).
pub(super) fn full_proof(holes: usize, seeds: u32, rules: Rules) -> bool {
    rules == Rules::default() && FULL_PROOFS.contains(&(holes, seeds))
}

/// Boards (default rules) whose proof is out of reach on a 24 GiB
/// machine, so neither run tries: on each, the side that loses must answer
/// every reply. On 5×10 (the first player loses by 72) reading the
/// strategies off the search held 12.8 GB after 5 minutes of CPU and was
/// still growing; on 8×3 (the second player loses by 36) it was killed
/// for want of memory at 23.4 GB after 10 minutes of CPU. (5×9, of the
/// same kind, takes 5.4 million lines and 15 MB.) `proofs.md` lists them
/// without files.
pub(super) const UNPROVED: [(usize, u32); 2] = [(5, 10), (8, 3)];

/// Whether no run proves this board (see [`UNPROVED`]).
pub(super) fn unproved(holes: usize, seeds: u32, rules: Rules) -> bool {
    rules == Rules::default() && UNPROVED.contains(&(holes, seeds))
}

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
/// 10, 5 × m <= 10, 6 × 7, 7 × m <= 6 and 8..10 × m <= 4, except that
/// the default run leaves to `full` the four of them holding more than 20
/// million first-turn positions (6×7, 7×6, 9×4 and 10×4: 25 million to 63
/// million each, three quarters of the default run's time) and the m = n
/// boards 7×7 (about an hour), 8×8 and 9×9 (the last two under
/// [`OPENINGS_BUDGET`]); see [`FULL_OPENINGS`].
pub(super) fn opening_boards(full: bool) -> Vec<(usize, u32)> {
    let max_m = |n: usize| match n {
        1..=5 => 10,
        6 => 7,
        7 => 6,
        _ => 4,
    };
    let grid = (1..=10).flat_map(|n| (1..=max_m(n)).map(move |m| (n, m)));
    let mut v: Vec<(usize, u32)> = grid
        .filter(|b| full || !FULL_OPENINGS.contains(b))
        .collect();
    if full {
        v.extend([(7, 7), (8, 8), (9, 9)]);
    }
    v
}

/// Openings boards only `--full` counts (the default run keeps their rows).
pub(super) const FULL_OPENINGS: [(usize, u32); 7] =
    [(6, 7), (7, 6), (9, 4), (10, 4), (7, 7), (8, 8), (9, 9)];
