//! The stop flag of the `*_with_stop` root functions and of match play:
//! a flag never raised changes nothing (same answer, same counts); one
//! raised before the search gives `SearchError::Interrupted` at once; one
//! raised by another thread during a deep search stops it promptly.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use dalkon_daldos::engine::{
    analyse_position, analyse_position_with_stop, analyse_throw, analyse_throw_with_stop,
    play_match, play_match_with_stop, Daldos, GreedyPlayer, MatchConfig, RandomPlayer, RootMode,
    SearchError, SearchOptions,
};
use dalkon_rules::daldos::{Board, Position, Throw};

/// The 16-against-16 middle game of the benchmark.
const MIDDLE: &str = "AAAAAAA.a.a...ba/ba..b..a.ab..a.bb/BBBBBBB.b.b.aab. a";

fn opts(depth: u32) -> SearchOptions {
    SearchOptions {
        depth,
        ..SearchOptions::default()
    }
}

#[test]
fn a_flag_never_raised_changes_nothing() {
    let game = Daldos::default();
    let p: Position = MIDDLE.parse().unwrap();
    let throw: Throw = "3,1".parse().unwrap();
    let stop = AtomicBool::new(false);
    let plain = analyse_throw(&game, &p, throw, opts(2), RootMode::AllExact).unwrap();
    let stoppable =
        analyse_throw_with_stop(&game, &p, throw, opts(2), RootMode::AllExact, &|| {}, &stop)
            .unwrap();
    assert_eq!(plain.value, stoppable.value);
    assert_eq!(plain.stats, stoppable.stats);
    let plain = analyse_position(&game, &p, opts(1), RootMode::AllExact).unwrap();
    let stoppable =
        analyse_position_with_stop(&game, &p, opts(1), RootMode::AllExact, &|| {}, &stop).unwrap();
    assert_eq!(plain.value, stoppable.value);
    assert_eq!(plain.stats, stoppable.stats);
}

#[test]
fn a_raised_flag_interrupts() {
    let game = Daldos::default();
    let p: Position = MIDDLE.parse().unwrap();
    let stop = AtomicBool::new(true);
    let throw: Throw = "3,1".parse().unwrap();
    let e = analyse_throw_with_stop(&game, &p, throw, opts(3), RootMode::AllExact, &|| {}, &stop)
        .unwrap_err();
    assert!(matches!(e, SearchError::Interrupted { .. }), "{e:?}");
    let e = analyse_position_with_stop(&game, &p, opts(3), RootMode::AllExact, &|| {}, &stop)
        .unwrap_err();
    let SearchError::Interrupted { nodes } = e else {
        panic!("{e:?}");
    };
    // Every root play stops at its first node.
    assert_eq!(nodes, 0);
    assert_eq!(
        e.to_string(),
        "the search was interrupted after 0 nodes",
        "the message"
    );
}

#[test]
fn a_flag_raised_during_a_deep_search_stops_it_promptly() {
    let game = Daldos::default();
    let p: Position = MIDDLE.parse().unwrap();
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let out = std::thread::scope(|s| {
        let h = s.spawn(|| {
            analyse_position_with_stop(&game, &p, opts(6), RootMode::AllExact, &|| {}, &stop)
        });
        std::thread::sleep(Duration::from_millis(200));
        stop.store(true, Ordering::Relaxed);
        h.join().unwrap()
    });
    // Depth 6 of the middle game takes minutes; stopped, it returns at once.
    assert!(
        matches!(out, Err(SearchError::Interrupted { .. })),
        "{out:?}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn matches_stop_and_otherwise_agree() {
    let game = Daldos::default();
    let start = Position::start(Board::new(6).unwrap());
    let cfg = MatchConfig {
        games: 20,
        seed: 7,
        turn_cap: 5000,
    };
    let plain = play_match(&game, &start, &GreedyPlayer, &RandomPlayer, cfg, &|| {});
    let never = AtomicBool::new(false);
    let stoppable = play_match_with_stop(
        &game,
        &start,
        &GreedyPlayer,
        &RandomPlayer,
        cfg,
        &|| {},
        &never,
    );
    assert_eq!(stoppable.as_ref(), Some(&plain));
    let raised = AtomicBool::new(true);
    let stopped = play_match_with_stop(
        &game,
        &start,
        &GreedyPlayer,
        &RandomPlayer,
        cfg,
        &|| {},
        &raised,
    );
    assert_eq!(stopped, None);
}
