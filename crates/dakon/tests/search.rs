//! The exact search (`dalkon_dakon::search`) against an independent plain
//! recursive negamax (no table, no pruning), on start positions and random
//! positions, with 1 and 2 threads, and the pinned golden start values.

use dalkon_dakon::openings::{first_winning_chain, openings, OpeningLimits, OpeningsError};
use dalkon_dakon::search::{solve, tt_bytes_for, Goal, Limits, SolveResult};
use dalkon_dakon::{Databases, NoProgress};
use dalkon_rules::dakon::{Mikul, Nembak, Origin, Position, Rules, Side};
use proptest::prelude::*;

/// Plain negamax on the final store difference for the side to move: no
/// table, no pruning, no factoring of stores. A bonus move keeps the side,
/// so its value is not negated.
fn negamax(pos: &Position, rules: &Rules) -> i32 {
    if let Some(v) = pos.terminal_value() {
        return v;
    }
    let me = pos.side_to_move();
    pos.moves()
        .map(|h| {
            let child = pos.play(h, rules).expect("legal move");
            let v = negamax(&child, rules);
            if child.side_to_move() == me {
                v
            } else {
                -v
            }
        })
        .max()
        .expect("a position not over has a move")
}

fn negamax_root(pos: &Position, rules: &Rules) -> Vec<(usize, i32)> {
    let me = pos.side_to_move();
    pos.moves()
        .map(|h| {
            let child = pos.play(h, rules).expect("legal move");
            let v = negamax(&child, rules);
            (h, if child.side_to_move() == me { v } else { -v })
        })
        .collect()
}

fn all_rules() -> Vec<Rules> {
    let mut v = Vec::new();
    for origin in [Origin::Sow, Origin::Skip] {
        for mikul in [Mikul::On, Mikul::Off] {
            for nembak in [Nembak::Keep, Nembak::Take] {
                v.push(Rules {
                    origin,
                    mikul,
                    nembak,
                });
            }
        }
    }
    v
}

fn small_limits() -> Limits {
    Limits {
        tt_bytes: 16 << 20,
        max_nodes: None,
        time: None,
    }
}

#[test]
fn start_values_match_plain_negamax_on_tiny_boards() {
    for rules in all_rules() {
        for (n, m) in [
            (1, 1),
            (1, 5),
            (2, 1),
            (2, 2),
            (2, 3),
            (3, 1),
            (3, 2),
            (4, 1),
        ] {
            let pos = Position::start(n, m).unwrap();
            let r = solve(&pos, &rules, &small_limits(), None, None, Goal::EveryMove).unwrap();
            let expect = negamax_root(&pos, &rules);
            assert_eq!(r.moves, expect, "{n}x{m} {rules:?}");
            assert_eq!(r.value, expect.iter().map(|m| m.1).max().unwrap());
        }
    }
}

fn solve_with_threads(
    pos: &Position,
    rules: &Rules,
    limits: &Limits,
    threads: usize,
) -> SolveResult {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| solve(pos, rules, limits, None, None, Goal::EveryMove).unwrap())
}

#[test]
fn same_values_with_one_and_two_threads() {
    for rules in [Rules::default(), all_rules()[7]] {
        for (n, m) in [(4, 4), (5, 3), (3, 6), (6, 2)] {
            let pos = Position::start(n, m).unwrap();
            let one = solve_with_threads(&pos, &rules, &small_limits(), 1);
            let two = solve_with_threads(&pos, &rules, &small_limits(), 2);
            assert_eq!(one.value, two.value, "{n}x{m}");
            assert_eq!(one.moves, two.moves, "{n}x{m}");
            assert_eq!(one.best_moves, two.best_moves, "{n}x{m}");
        }
    }
}

#[test]
fn a_tiny_table_that_must_replace_gives_the_same_values() {
    let pos = Position::start(5, 4).unwrap();
    let rules = Rules::default();
    let big = solve(&pos, &rules, &small_limits(), None, None, Goal::EveryMove).unwrap();
    let tiny = Limits {
        tt_bytes: dalkon_dakon::search::min_tt_bytes(5),
        max_nodes: None,
        time: None,
    };
    let small = solve(&pos, &rules, &tiny, None, None, Goal::EveryMove).unwrap();
    assert!(
        small.tt_replaced > 0,
        "the tiny table must have replaced entries"
    );
    assert!(
        small.tt_replaced > 10 * big.tt_replaced.max(1),
        "{small:?} vs {big:?}"
    );
    assert!(
        small.positions > small.tt_capacity,
        "more positions than slots"
    );
    assert_eq!(big.moves, small.moves);
}

#[test]
fn the_node_limit_stops_the_search() {
    let pos = Position::start(6, 4).unwrap();
    let limits = Limits {
        tt_bytes: tt_bytes_for(6, 1 << 16),
        max_nodes: Some(10_000),
        time: None,
    };
    let err = solve(
        &pos,
        &Rules::default(),
        &limits,
        None,
        None,
        Goal::EveryMove,
    )
    .unwrap_err();
    assert!(matches!(
        err,
        dalkon_dakon::search::SearchError::NodeLimit { .. }
    ));
}

/// The caller's stop flag (what the Python bindings set on Ctrl-C) ends a
/// search that would run for hours within moments, like a time limit: set
/// before the search, nothing is proved; set during it, the answer comes
/// back with the bounds proved so far.
#[test]
fn the_stop_flag_ends_a_long_search_promptly() {
    use dalkon_dakon::search::answer::answer;
    use dalkon_dakon::search::SearchProgress;
    use std::sync::atomic::Ordering;
    use std::time::{Duration, Instant};

    let pos = Position::start(12, 10).unwrap();
    let rules = Rules::default();
    let stopped = SearchProgress::default();
    stopped.stop.store(true, Ordering::Relaxed);
    let a = answer(&pos, &rules, &small_limits(), None, Some(&stopped), false).unwrap();
    assert!(!a.exact);
    assert_eq!(a.best_moves.len(), 1);

    let progress = SearchProgress::default();
    let t0 = Instant::now();
    let a = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(300));
            progress.stop.store(true, Ordering::Relaxed);
        });
        answer(&pos, &rules, &small_limits(), None, Some(&progress), false).unwrap()
    });
    assert!(!a.exact);
    assert!(a.lower <= a.upper);
    assert!(
        t0.elapsed() < Duration::from_secs(5),
        "stopped after {:?}",
        t0.elapsed()
    );
}

#[test]
fn a_finished_game_is_its_terminal_value() {
    let pos = Position::new(&[0, 0], &[1, 2], [3, 4], Side::South).unwrap();
    let r = solve(
        &pos,
        &Rules::default(),
        &small_limits(),
        None,
        None,
        Goal::EveryMove,
    )
    .unwrap();
    assert_eq!(r.value, 3 - 4 - 3);
    assert!(r.moves.is_empty() && r.best_moves.is_empty());
}

/// Search (with and without database probes) agrees with whole-board
/// retrograde analysis on every start position whose databases are small.
#[test]
fn search_agrees_with_retrograde_databases() {
    let mut probe_hits = 0;
    for rules in [Rules::default(), all_rules()[5], all_rules()[6]] {
        for (n, m, probe_k) in [(1, 6, 4), (2, 4, 6), (3, 3, 8), (2, 6, 10), (3, 4, 8)] {
            let pos = Position::start(n, m).unwrap();
            let k = pos.seeds_on_board();
            let db = Databases::build(n, rules, k, &NoProgress).unwrap();
            let retro = db.solve(&pos).unwrap();
            let plain = solve(&pos, &rules, &small_limits(), None, None, Goal::EveryMove).unwrap();
            assert_eq!(plain.value, retro.value, "{n}x{m} {rules:?}");
            assert_eq!(plain.moves, retro.moves, "{n}x{m} {rules:?}");
            let low = Databases::build(n, rules, probe_k, &NoProgress).unwrap();
            let probed = solve(
                &pos,
                &rules,
                &small_limits(),
                Some(&low),
                None,
                Goal::EveryMove,
            )
            .unwrap();
            probe_hits += probed.probe_hits;
            assert_eq!(probed.moves, retro.moves, "{n}x{m} {rules:?} probed");
        }
    }
    assert!(
        probe_hits > 0,
        "the probes must have answered some positions"
    );
}

/// The rule set whose option names, as the rules crate spells them
/// (`Rules::names`), are exactly these; `None` for anything else, so a
/// misspelt golden line fails instead of reading as the default.
fn rules_named(origin: &str, mikul: &str, nembak: &str) -> Option<Rules> {
    (0..8)
        .filter_map(Rules::from_code)
        .find(|r| r.names() == (origin, mikul, nembak))
}

#[test]
fn golden_rule_names_are_exact() {
    assert_eq!(rules_named("sow", "on", "keep"), Some(Rules::default()));
    assert_eq!(rules_named("skip", "off", "take").map(Rules::code), Some(7));
    for (o, m, n) in [
        ("skp", "on", "keep"),
        ("sow", "of", "keep"),
        ("sow", "on", "Take"),
    ] {
        assert_eq!(rules_named(o, m, n), None, "{o} {m} {n}");
    }
}

/// Pinned start values (cross-checked: plain negamax for the tiny boards,
/// the retrograde databases for the others).
#[test]
fn golden_start_values() {
    let text = include_str!("golden/dakon_values.txt");
    let mut checked = 0;
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f.len(), 7, "seven fields: {line}");
        let (n, m): (usize, u8) = (f[0].parse().unwrap(), f[1].parse().unwrap());
        let rules =
            rules_named(f[2], f[3], f[4]).unwrap_or_else(|| panic!("unknown rules: {line}"));
        let value: i32 = f[5].parse().unwrap();
        let best: Vec<usize> = f[6].split(',').map(|h| h.parse().unwrap()).collect();
        for goal in [Goal::EveryMove, Goal::BestMoves] {
            let r = solve(
                &Position::start(n, m).unwrap(),
                &rules,
                &small_limits(),
                None,
                None,
                goal,
            )
            .unwrap();
            assert_eq!((r.value, &r.best_moves), (value, &best), "{line} {goal:?}");
            if goal == Goal::BestMoves {
                assert_eq!(r.moves.len(), best.len(), "{line}");
                assert!(
                    r.refuted
                        .iter()
                        .all(|&(h, u)| u < value && !best.contains(&h)),
                    "{line}"
                );
                assert_eq!(
                    r.moves.len() + r.refuted.len(),
                    Position::start(n, m).unwrap().moves().count()
                );
            }
        }
        checked += 1;
    }
    assert!(checked >= 10);
}

fn position_strategy() -> impl Strategy<Value = (Position, Rules)> {
    (1usize..=4, 0usize..8, any::<bool>(), 0u8..4, 0u8..4)
        .prop_flat_map(|(n, r, north, s0, s1)| {
            (
                proptest::collection::vec(0u8..4, n),
                proptest::collection::vec(0u8..4, n),
                Just((r, north, s0, s1)),
            )
        })
        .prop_map(|(a, b, (r, north, s0, s1))| {
            let side = if north { Side::North } else { Side::South };
            (
                Position::new(&a, &b, [s0, s1], side).unwrap(),
                all_rules()[r],
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// MTD(f) with the table equals plain negamax on random positions,
    /// move by move.
    #[test]
    fn search_equals_plain_negamax((pos, rules) in position_strategy()) {
        let r = solve(&pos, &rules, &small_limits(), None, None, Goal::EveryMove).unwrap();
        if let Some(v) = pos.terminal_value() {
            prop_assert_eq!(r.value, v);
        } else {
            prop_assert_eq!(&r.moves, &negamax_root(&pos, &rules));
            prop_assert_eq!(r.value, negamax(&pos, &rules));
        }
    }
}

/// Every chain of the first turn, enumerated without memo: (winning
/// chains, shortest length, best margin).
fn brute_chains(
    pos: &Position,
    rules: &Rules,
    prefix: &mut Vec<usize>,
    out: &mut Vec<(Vec<usize>, i32)>,
) {
    let me = pos.side_to_move();
    for h in pos.moves() {
        let child = pos.play(h, rules).unwrap();
        prefix.push(h);
        if let Some(tv) = child.terminal_value() {
            let margin = if child.side_to_move() == me { tv } else { -tv };
            if margin > 0 {
                out.push((prefix.clone(), margin));
            }
        } else if child.side_to_move() == me {
            brute_chains(&child, rules, prefix, out);
        }
        prefix.pop();
    }
}

#[test]
fn openings_match_brute_force() {
    let mut seen_some = false;
    for rules in all_rules() {
        for (n, m) in [
            (1, 1),
            (1, 3),
            (2, 2),
            (2, 3),
            (3, 2),
            (3, 3),
            (4, 2),
            (4, 4),
            (5, 2),
            (5, 5),
            (6, 3),
        ] {
            let pos = Position::start(n, m).unwrap();
            let mut all = Vec::new();
            brute_chains(&pos, &rules, &mut Vec::new(), &mut all);
            let o = openings(&pos, &rules, &OpeningLimits::default()).unwrap();
            assert_eq!(o.winning_chains, all.len() as u64, "{n}x{m} {rules:?}");
            let first = first_winning_chain(&pos, &rules, u64::MAX, 1 << 30).unwrap();
            let lexicographic_first = all.iter().min_by(|a, b| a.0.cmp(&b.0));
            assert_eq!(first.chain.as_ref(), lexicographic_first.map(|c| &c.0));
            assert_eq!(first.margin, lexicographic_first.map(|c| c.1));
            if all.is_empty() {
                assert!(o.shortest.is_empty() && o.best.is_empty() && o.best_margin.is_none());
                continue;
            }
            seen_some = true;
            let min_len = all.iter().map(|c| c.0.len()).min().unwrap();
            let shortest = all
                .iter()
                .filter(|c| c.0.len() == min_len)
                .map(|c| c.0.clone())
                .min()
                .unwrap();
            assert_eq!(o.shortest, shortest, "{n}x{m} {rules:?}");
            let max_margin = all.iter().map(|c| c.1).max().unwrap();
            let best = all
                .iter()
                .filter(|c| c.1 == max_margin)
                .map(|c| c.0.clone())
                .min()
                .unwrap();
            assert_eq!(o.best, best, "{n}x{m} {rules:?}");
            assert_eq!(o.best_margin, Some(max_margin));
        }
    }
    assert!(seen_some, "some tiny board must have a winning opening");
    // 2x2 under the default rules: the one winning chain, worked by hand
    // with `dalkon dakon play`: 1, 2, 2, 1 takes all 8 seeds.
    let o = openings(
        &Position::start(2, 2).unwrap(),
        &Rules::default(),
        &OpeningLimits::default(),
    )
    .unwrap();
    assert_eq!(
        (o.winning_chains, o.shortest.clone(), o.best_margin),
        (1, vec![1, 2, 2, 1], Some(8))
    );
}

#[test]
fn openings_are_the_same_from_files_and_on_any_thread_count() {
    let pos = Position::start(6, 6).unwrap();
    let rules = Rules::default();
    let in_memory = openings(&pos, &rules, &OpeningLimits::default()).unwrap();
    // 6x6: 3,132 winning chains among 2,158,162 positions of the turn
    // (the layered count and the old memoised search agree on both).
    assert_eq!(in_memory.winning_chains, 3132);
    assert_eq!(in_memory.positions, 2_158_162);
    assert_eq!(in_memory.shortest.len(), 20);
    assert_eq!(in_memory.best_margin, Some(66));
    assert_eq!(in_memory.disk_bytes, 0);

    let dir = std::env::temp_dir().join(format!("dalkon-openings-test-{}", std::process::id()));
    let spilled = OpeningLimits {
        work_dir: Some(dir.clone()),
        layers_in_memory: 0,
        ..OpeningLimits::default()
    };
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let from_files = one_thread.install(|| openings(&pos, &rules, &spilled).unwrap());
    assert!(from_files.disk_bytes > 0);
    assert!(!dir.exists(), "the working folder is removed at the end");
    assert_eq!(from_files.winning_chains, in_memory.winning_chains);
    assert_eq!(from_files.shortest, in_memory.shortest);
    assert_eq!(from_files.best, in_memory.best);
    assert_eq!(from_files.positions, in_memory.positions);
    assert_eq!(from_files.winning_positions, in_memory.winning_positions);
}

#[test]
fn an_interrupted_openings_count_resumes_to_the_same_result() {
    // 5x6: 148 winning chains. Checkpoint after every layer; stop after the
    // 10th checkpoint (forward pass), resume and stop again 60 checkpoints
    // later (by then in the backward pass), then resume to the end.
    let pos = Position::start(5, 6).unwrap();
    let rules = Rules::default();
    let whole = openings(&pos, &rules, &OpeningLimits::default()).unwrap();
    assert_eq!(whole.winning_chains, 148);
    let dir = std::env::temp_dir().join(format!("dalkon-openings-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let limits = |stop: Option<u32>| OpeningLimits {
        work_dir: Some(dir.clone()),
        layers_in_memory: 1 << 20,
        checkpoint_every: Some(std::time::Duration::ZERO),
        stop_after_checkpoints: stop,
        ..OpeningLimits::default()
    };
    assert!(matches!(
        openings(&pos, &rules, &limits(Some(10))),
        Err(OpeningsError::Stopped(10))
    ));
    let state = std::fs::read_to_string(dir.join("state")).unwrap();
    assert!(state.contains("pass forward"), "{state}");
    assert!(matches!(
        openings(&pos, &rules, &limits(Some(60))),
        Err(OpeningsError::Stopped(60))
    ));
    let state = std::fs::read_to_string(dir.join("state")).unwrap();
    assert!(state.contains("pass backward"), "{state}");
    let resumed = openings(&pos, &rules, &limits(None)).unwrap();
    assert!(!dir.exists(), "a complete count removes its folder");
    assert_eq!(resumed.winning_chains, whole.winning_chains);
    assert_eq!(resumed.shortest, whole.shortest);
    assert_eq!(resumed.best, whole.best);
    assert_eq!(resumed.best_margin, whole.best_margin);
    assert_eq!(resumed.positions, whole.positions);
    assert_eq!(resumed.winning_positions, whole.winning_positions);

    // A folder that is not a checkpoint of this count is refused.
    std::fs::create_dir_all(&dir).unwrap();
    assert!(matches!(
        openings(&pos, &rules, &limits(None)),
        Err(OpeningsError::NotACheckpoint { .. })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn openings_stop_cleanly_over_their_limits() {
    let pos = Position::start(6, 6).unwrap();
    let rules = Rules::default();
    let few = OpeningLimits {
        max_positions: 1000,
        ..OpeningLimits::default()
    };
    // 6x6: the layers up to store 16 hold fewer than 1000 positions, with
    // store 17 the total passes it.
    assert!(matches!(
        openings(&pos, &rules, &few),
        Err(OpeningsError::TooManyPositions { limit: 1000, layer, .. }) if layer > 10
    ));
    let small = OpeningLimits {
        memory_bytes: 1 << 20,
        ..OpeningLimits::default()
    };
    assert!(matches!(
        openings(&pos, &rules, &small),
        Err(OpeningsError::TooMuchMemory { .. })
    ));
}
