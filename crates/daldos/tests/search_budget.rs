//! The node budget (`SearchOptions::max_nodes`): a budget too small gives
//! `SearchError::NodeLimit`, one large enough gives exactly the answer (and
//! the counts) of the search without a budget, and either outcome, with its
//! node count, is the same on any number of threads.

use dalkon_daldos::engine::Daldos;
use dalkon_daldos::engine::{
    analyse_position, analyse_throw, RootMode, SearchError, SearchOptions, Stats,
};
use dalkon_rules::daldos::{Position, Throw};

/// The 16-against-16 middle game of the benchmark.
const MIDDLE: &str = "AAAAAAA.a.a...ba/ba..b..a.ab..a.bb/BBBBBBB.b.b.aab. a";

fn middle() -> Position {
    MIDDLE.parse().unwrap()
}

fn opts(depth: u32, max_nodes: Option<u64>) -> SearchOptions {
    SearchOptions {
        depth,
        max_nodes,
        ..SearchOptions::default()
    }
}

/// What a throw's search answered, in a comparable form: the plays with
/// their values and exactness, and the counts; or the node limit.
type ThrowOutcome = Result<(f64, Vec<(String, f64, bool)>, Stats), SearchError>;

fn throw_outcome(depth: u32, max_nodes: Option<u64>, mode: RootMode) -> ThrowOutcome {
    let p = middle();
    let throw: Throw = "3,1".parse().unwrap();
    analyse_throw(&Daldos::default(), &p, throw, opts(depth, max_nodes), mode).map(|a| {
        let plays = a
            .plays
            .iter()
            .map(|q| (q.play.notation(p.board()), q.value, q.exact))
            .collect();
        (a.value, plays, a.stats)
    })
}

type PositionOutcome = Result<(f64, Vec<(f64, u32)>, Stats), SearchError>;

fn position_outcome(depth: u32, max_nodes: Option<u64>, mode: RootMode) -> PositionOutcome {
    analyse_position(&Daldos::default(), &middle(), opts(depth, max_nodes), mode).map(|a| {
        let throws = a.throws.iter().map(|(t, w)| (t.value, *w)).collect();
        (a.value, throws, a.stats)
    })
}

fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

#[test]
fn a_tiny_budget_stops_with_node_limit() {
    for mode in [RootMode::AllExact, RootMode::BestOnly] {
        match throw_outcome(3, Some(100), mode) {
            Err(SearchError::NodeLimit { nodes }) => assert!(nodes <= 100, "{nodes}"),
            other => panic!("{mode:?}: expected NodeLimit, got {other:?}"),
        }
        match position_outcome(3, Some(1000), mode) {
            Err(SearchError::NodeLimit { nodes }) => assert!(nodes <= 1000, "{nodes}"),
            other => panic!("{mode:?}: expected NodeLimit, got {other:?}"),
        }
    }
}

#[test]
fn depth_one_finishes_within_any_budget() {
    let free = throw_outcome(1, None, RootMode::AllExact).unwrap();
    assert_eq!(throw_outcome(1, Some(1), RootMode::AllExact).unwrap(), free);
    let free = position_outcome(1, None, RootMode::AllExact).unwrap();
    assert_eq!(
        position_outcome(1, Some(1), RootMode::AllExact).unwrap(),
        free
    );
}

#[test]
fn a_large_budget_changes_nothing() {
    for mode in [RootMode::AllExact, RootMode::BestOnly] {
        for depth in [1, 2, 3] {
            let free = throw_outcome(depth, None, mode).unwrap();
            let capped = throw_outcome(depth, Some(free.2.nodes() * 1000), mode).unwrap();
            assert_eq!(capped, free, "{mode:?} depth {depth}");
        }
        let free = position_outcome(2, None, mode).unwrap();
        let capped = position_outcome(2, Some(free.2.nodes() * 1000), mode).unwrap();
        assert_eq!(capped, free, "{mode:?}");
    }
}

#[test]
fn a_budget_of_exactly_the_nodes_needed_per_play_suffices() {
    // At depth 2 the plays need different counts; find the
    // smallest share that lets every play finish by bisection on the budget,
    // and check that one node less per play fails.
    let free = throw_outcome(2, None, RootMode::AllExact).unwrap();
    let plays = free.1.len() as u64;
    let (mut lo, mut hi) = (1u64, free.2.nodes());
    assert!(throw_outcome(2, Some(hi * plays), RootMode::AllExact).is_ok());
    while lo < hi {
        let mid = (lo + hi) / 2;
        if throw_outcome(2, Some(mid * plays), RootMode::AllExact).is_ok() {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    assert_eq!(
        throw_outcome(2, Some(lo * plays), RootMode::AllExact).unwrap(),
        free
    );
    match throw_outcome(2, Some((lo - 1) * plays), RootMode::AllExact) {
        Err(SearchError::NodeLimit { nodes }) => assert!(nodes <= (lo - 1) * plays),
        other => panic!("expected NodeLimit, got {other:?}"),
    }
}

#[test]
fn the_budget_does_not_depend_on_threads() {
    // Budgets from far too small to enough, so that both outcomes occur.
    let mut limits = 0;
    for mode in [RootMode::AllExact, RootMode::BestOnly] {
        for budget in [500, 5_000, 50_000, 500_000, 5_000_000] {
            let one = in_pool(1, || throw_outcome(3, Some(budget), mode));
            let two = in_pool(2, || throw_outcome(3, Some(budget), mode));
            assert_eq!(one, two, "throw, {mode:?}, budget {budget}");
            limits += usize::from(one.is_err());
        }
        for budget in [5_000, 50_000, 500_000] {
            let one = in_pool(1, || position_outcome(2, Some(budget), mode));
            let two = in_pool(2, || position_outcome(2, Some(budget), mode));
            assert_eq!(one, two, "position, {mode:?}, budget {budget}");
            limits += usize::from(one.is_err());
        }
    }
    assert!(limits > 0 && limits < 16, "{limits} of 16 ran out");
}
