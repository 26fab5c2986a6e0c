//! Iterative deepening within a node budget (`engine::deepen`): a budget
//! that lets depth 2 finish but not depth 3 answers with depth 2 and the
//! nodes of all three depths; without a budget only the depth asked is
//! searched; a raised stop flag interrupts; a finished game is refused.
//! The node counts are those `dalkon daldos best` prints for the same
//! questions (its integration tests pin them too).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use dalkon_daldos::engine::{
    analyse_position, analyse_throw, deepen, Analysis, Daldos, DeepenError, DeepenOptions,
    DeepenProgress, Deepened, RootMode, SearchError, SearchOptions, ThrowAnalysis,
};
use dalkon_rules::daldos::{Position, Throw};

/// The 16-against-16 middle game of the benchmark.
const MIDDLE: &str = "AAAAAAA.a.a...ba/ba..b..a.ab..a.bb/BBBBBBB.b.b.aab. a";

fn middle() -> Position {
    MIDDLE.parse().unwrap()
}

fn three_one() -> Throw {
    "3,1".parse().unwrap()
}

fn asked(depth: u32, max_nodes: Option<u64>) -> DeepenOptions {
    DeepenOptions {
        depth,
        max_nodes,
        prune: true,
        mode: RootMode::AllExact,
    }
}

fn search(depth: u32, max_nodes: Option<u64>) -> SearchOptions {
    SearchOptions {
        depth,
        max_nodes,
        ..SearchOptions::default()
    }
}

/// The plays of a throw's analysis with their values, in a comparable form.
fn plays(a: &ThrowAnalysis<Daldos>) -> Vec<(String, f64, bool, bool)> {
    a.plays
        .iter()
        .map(|p| (p.play.notation(middle().board()), p.value, p.exact, p.bound))
        .collect()
}

fn throw_of(d: &Deepened) -> &ThrowAnalysis<Daldos> {
    match &d.analysis {
        Analysis::Throw(a) => a,
        other => panic!("expected a throw's analysis, got {other:?}"),
    }
}

/// Records what `deepen` reports.
#[derive(Default)]
struct Recorder {
    depths: Mutex<Vec<(u32, u32, usize)>>,
    root_plays: AtomicUsize,
}

impl DeepenProgress for Recorder {
    fn depth_started(&self, depth: u32, depth_asked: u32, root_plays: usize) {
        self.depths
            .lock()
            .unwrap()
            .push((depth, depth_asked, root_plays));
    }

    fn root_play_done(&self) {
        self.root_plays.fetch_add(1, Ordering::Relaxed);
    }
}

#[test]
fn a_budget_that_stops_depth_3_answers_with_depth_2() {
    let game = Daldos::default();
    let p = middle();
    let d = deepen(
        &game,
        &p,
        Some(three_one()),
        asked(3, Some(100_000)),
        &(),
        None,
    )
    .unwrap();
    // Pinned: `dalkon daldos best --dice 3,1 --depth 3 --max-nodes 100000`.
    assert_eq!((d.depth, d.complete), (2, false));
    assert_eq!((d.nodes(), d.nodes_total), (12_623, 99_983));
    // The answer is depth 2's own, as without a budget.
    let two = analyse_throw(&game, &p, three_one(), search(2, None), RootMode::AllExact).unwrap();
    let a = throw_of(&d);
    assert_eq!(
        (a.value, plays(a), a.stats),
        (two.value, plays(&two), two.stats)
    );
    // The total is depth 1, depth 2, and what depth 3 spent of the rest
    // before it ran out.
    let one = analyse_throw(&game, &p, three_one(), search(1, None), RootMode::AllExact).unwrap();
    let rest = 100_000 - one.stats.nodes() - two.stats.nodes();
    let three = analyse_throw(
        &game,
        &p,
        three_one(),
        search(3, Some(rest)),
        RootMode::AllExact,
    );
    let Err(SearchError::NodeLimit { nodes }) = three else {
        panic!("depth 3 should run out: {three:?}");
    };
    assert_eq!(d.nodes_total, one.stats.nodes() + two.stats.nodes() + nodes);
    assert!(d.nodes_total <= 100_000);
}

#[test]
fn a_budget_cuts_the_position_short_too() {
    let game = Daldos::default();
    let p = middle();
    let d = deepen(&game, &p, None, asked(3, Some(300_000)), &(), None).unwrap();
    // Pinned: `dalkon daldos best --depth 3 --max-nodes 300000`.
    assert_eq!((d.depth, d.complete), (2, false));
    assert_eq!((d.nodes(), d.nodes_total), (85_874, 299_700));
    let two = analyse_position(&game, &p, search(2, None), RootMode::AllExact).unwrap();
    let Analysis::Position(a) = &d.analysis else {
        panic!("expected a position's analysis");
    };
    assert_eq!(
        (a.value, a.exact, a.stats),
        (two.value, two.exact, two.stats)
    );
    assert_eq!(a.throws.len(), 10);
}

#[test]
fn without_a_budget_only_the_depth_asked_is_searched() {
    let game = Daldos::default();
    let p = middle();
    let rec = Recorder::default();
    let d = deepen(&game, &p, Some(three_one()), asked(3, None), &rec, None).unwrap();
    assert_eq!((d.depth, d.complete), (3, true));
    assert_eq!(d.nodes_total, d.nodes());
    let three = analyse_throw(&game, &p, three_one(), search(3, None), RootMode::AllExact).unwrap();
    let a = throw_of(&d);
    assert_eq!(
        (a.value, plays(a), a.stats),
        (three.value, plays(&three), three.stats)
    );
    let root_plays = three.plays.len();
    assert_eq!(*rec.depths.lock().unwrap(), vec![(3, 3, root_plays)]);
    assert_eq!(rec.root_plays.load(Ordering::Relaxed), root_plays);
}

#[test]
fn a_budget_large_enough_deepens_to_the_depth_asked() {
    let game = Daldos::default();
    let p = middle();
    let rec = Recorder::default();
    let d = deepen(
        &game,
        &p,
        Some(three_one()),
        asked(2, Some(30_000_000)),
        &rec,
        None,
    )
    .unwrap();
    // Pinned: `dalkon daldos best --dice 3,1` (depth 2, the default budget).
    assert_eq!((d.depth, d.complete), (2, true));
    assert_eq!((d.nodes(), d.nodes_total), (12_623, 12_675));
    let root_plays = throw_of(&d).plays.len();
    assert_eq!(
        *rec.depths.lock().unwrap(),
        vec![(1, 2, root_plays), (2, 2, root_plays)]
    );
    assert_eq!(rec.root_plays.load(Ordering::Relaxed), 2 * root_plays);
    // Without a throw, the root plays are those of every throw.
    let rec = Recorder::default();
    let d = deepen(&game, &p, None, asked(1, Some(1_000_000)), &rec, None).unwrap();
    let Analysis::Position(a) = &d.analysis else {
        panic!("expected a position's analysis");
    };
    let all: usize = a.throws.iter().map(|(t, _)| t.plays.len()).sum();
    assert_eq!(*rec.depths.lock().unwrap(), vec![(1, 1, all)]);
    assert_eq!((d.nodes(), d.nodes_total), (331, 331));
}

#[test]
fn a_flag_never_raised_changes_nothing() {
    let game = Daldos::default();
    let p = middle();
    let stop = AtomicBool::new(false);
    let opts = asked(3, Some(100_000));
    let plain = deepen(&game, &p, Some(three_one()), opts, &(), None).unwrap();
    let stoppable = deepen(&game, &p, Some(three_one()), opts, &(), Some(&stop)).unwrap();
    assert_eq!(
        (plain.depth, plain.nodes_total, plays(throw_of(&plain))),
        (
            stoppable.depth,
            stoppable.nodes_total,
            plays(throw_of(&stoppable))
        )
    );
}

#[test]
fn a_raised_flag_interrupts() {
    let game = Daldos::default();
    let p = middle();
    let stop = AtomicBool::new(true);
    for throw in [Some(three_one()), None] {
        for max_nodes in [None, Some(1_000_000)] {
            let e = deepen(&game, &p, throw, asked(3, max_nodes), &(), Some(&stop)).unwrap_err();
            assert!(
                matches!(e, DeepenError::Search(SearchError::Interrupted { .. })),
                "{throw:?} {max_nodes:?}: {e:?}"
            );
            assert_eq!(e.to_string(), "the search was interrupted after 0 nodes");
        }
    }
}

#[test]
fn a_finished_game_is_refused() {
    let p: Position = "..../...../BBB. a".parse().unwrap();
    let e = deepen(
        &Daldos::default(),
        &p,
        None,
        asked(2, Some(1000)),
        &(),
        None,
    )
    .unwrap_err();
    assert!(matches!(e, DeepenError::GameOver { .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        "the game is already over in this position (b has won under end=last)"
    );
}

#[test]
fn a_depth_out_of_range_is_refused() {
    for depth in [0, 9] {
        let e = deepen(
            &Daldos::default(),
            &middle(),
            None,
            asked(depth, Some(1000)),
            &(),
            None,
        )
        .unwrap_err();
        assert_eq!(e, DeepenError::Search(SearchError::Depth(depth)));
    }
    // The message of a budget too small for any depth (which cannot happen,
    // as depth 1 always finishes) is the CLI's.
    assert_eq!(
        DeepenError::NoAnswer { nodes: 0 }.to_string(),
        "the search found no answer within the node limit"
    );
}
