//! The generic expectiminimax search on toy dice games: hand-worked values,
//! pruning and the transposition table never change a value (compared with a
//! plain reference expectiminimax, bit for bit), values called exact are
//! the game's values, and thread-count independence.

use dalkon_daldos::engine::{
    analyse_position, analyse_position_keeping, analyse_throw, quantize, Game, KeptTable, RootMode,
    SearchError, SearchOptions, Searcher, Stats,
};
use proptest::prelude::*;

/// A race: each side needs `need[side]` steps to finish. Throws: `1`
/// (weight 1), `2` (weight 2) and a bonus `1` after which the same side
/// throws again (weight 1), out of 4. With a throw of `k` the mover chooses
/// to move any `1..=min(k, need)` steps; reaching 0 wins. Static value: 1/2.
#[derive(Debug)]
struct Race;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct RacePos {
    need: [u8; 2],
    side: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RaceThrow {
    One,
    Two,
    Bonus,
}

impl Game for Race {
    type Pos = RacePos;
    type Throw = RaceThrow;
    type Play = u8;

    fn throws(&self) -> &[(RaceThrow, u32)] {
        &[
            (RaceThrow::One, 1),
            (RaceThrow::Two, 2),
            (RaceThrow::Bonus, 1),
        ]
    }
    fn to_move(&self, pos: &RacePos) -> u8 {
        pos.side
    }
    fn winner(&self, pos: &RacePos) -> Option<u8> {
        (0..2).find(|&s| pos.need[s as usize] == 0)
    }
    fn plays(&self, pos: &RacePos, throw: RaceThrow) -> Vec<(u8, RacePos)> {
        let s = pos.side as usize;
        let k = if throw == RaceThrow::Two { 2 } else { 1 };
        (1..=k.min(pos.need[s]))
            .map(|m| {
                let mut r = *pos;
                r.need[s] -= m;
                if throw != RaceThrow::Bonus && r.need[s] > 0 {
                    r.side = 1 - pos.side;
                }
                (m, r)
            })
            .collect()
    }
    fn evaluate(&self, _pos: &RacePos) -> f64 {
        0.5
    }
}

fn race(me: u8, opp: u8) -> RacePos {
    RacePos {
        need: [me, opp],
        side: 0,
    }
}

fn opts(depth: u32) -> SearchOptions {
    SearchOptions {
        depth,
        ..SearchOptions::default()
    }
}

#[test]
fn race_hand_values() {
    let g = Race;
    let mut s = Searcher::new(&g, opts(1));
    // Needing one step, every throw wins.
    assert_eq!(s.value(&race(1, 5), 1, 0.0, 1.0), 1.0);
    assert_eq!(s.value(&race(1, 5), 0, 0.0, 1.0), 0.5);
    // Needing two against one: `2` wins (1/2); `1` hands the opponent a
    // position worth 1/2 statically (1/4 * 1/2); the bonus `1` leaves us to
    // throw again, worth 1/2 statically (1/4 * 1/2). Depth 1: 3/4.
    assert_eq!(s.value(&race(2, 1), 1, 0.0, 1.0), 0.75);
    // Depth 2: after `1` the opponent wins surely (0), after the bonus we
    // do (1/4): 1/2 + 1/4 = 3/4 again, now exact for the game.
    assert_eq!(s.value(&race(2, 1), 2, 0.0, 1.0), 0.75);
    // Two against two, depth 2: `2` wins (1/2). `1`: opponent needs 2 with
    // us needing 1, worth 3/4 to them at depth 1, 1/4 to us (1/4 * 1/4).
    // Bonus: we need 1 and throw again, worth 1 (1/4). Total 13/16.
    assert_eq!(s.value(&race(2, 2), 2, 0.0, 1.0), 13.0 / 16.0);
}

#[test]
fn race_root_ranks_plays() {
    let g = Race;
    // Throw 2 needing 2: moving 2 wins; moving 1 gives the opponent (needing
    // 1) the throw: worth 0 at depth 2, 1 - 1/2 at depth 1.
    let a = analyse_throw(&g, &race(2, 1), RaceThrow::Two, opts(2), RootMode::AllExact).unwrap();
    let ranked: Vec<(u8, f64)> = a.plays.iter().map(|p| (p.play, p.value)).collect();
    assert_eq!(ranked, vec![(2, 1.0), (1, 0.0)]);
    assert_eq!(a.value, 1.0);
    let a1 = analyse_throw(&g, &race(2, 1), RaceThrow::Two, opts(1), RootMode::AllExact).unwrap();
    assert_eq!(a1.plays[1].value, 0.5);
    let p = analyse_position(&g, &race(2, 2), opts(2), RootMode::AllExact).unwrap();
    assert_eq!(p.value, 13.0 / 16.0);
    assert_eq!(p.throws.len(), 3);
    assert_eq!(p.throws[1].0.plays[0].play, 2);
}

#[test]
fn root_errors() {
    let g = Race;
    let done = race(0, 3);
    assert_eq!(
        analyse_throw(&g, &done, RaceThrow::One, opts(2), RootMode::AllExact).unwrap_err(),
        SearchError::GameOver
    );
    assert_eq!(
        analyse_position(&g, &race(2, 2), opts(0), RootMode::AllExact).unwrap_err(),
        SearchError::Depth(0)
    );
    assert!(analyse_position(&g, &race(2, 2), opts(9), RootMode::AllExact).is_err());
}

/// A random game with transpositions: positions are numbers below
/// `modulus`; plays, side changes, game ends and evaluations all come from a
/// hash of the position. Ten throws weighted 1 or 2 out of 16, like Daldøs.
#[derive(Debug)]
struct Random {
    seed: u64,
    modulus: u64,
    throws: Vec<(u8, u32)>,
    /// One position in `ends` is a finished game.
    ends: u64,
    /// Every static evaluation is this, if given (the same game otherwise).
    eval: Option<f64>,
}

impl Random {
    fn new(seed: u64, modulus: u64) -> Random {
        let throws = (0..10u8).map(|t| (t, if t < 4 { 1 } else { 2 })).collect();
        Random {
            seed,
            modulus,
            throws,
            ends: 11,
            eval: None,
        }
    }
    fn h(&self, a: u64, b: u64) -> u64 {
        let mut s = self.seed ^ a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.rotate_left(29);
        dalkon_daldos::engine::splitmix64(&mut s)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct RPos {
    id: u64,
    side: u8,
}

impl Game for Random {
    type Pos = RPos;
    type Throw = u8;
    type Play = u32;

    fn throws(&self) -> &[(u8, u32)] {
        &self.throws
    }
    fn to_move(&self, pos: &RPos) -> u8 {
        pos.side
    }
    fn winner(&self, pos: &RPos) -> Option<u8> {
        let h = self.h(pos.id, 1_000_003);
        (h % self.ends == 0).then_some((h >> 20) as u8 & 1)
    }
    fn plays(&self, pos: &RPos, throw: u8) -> Vec<(u32, RPos)> {
        let n = 1 + self.h(pos.id, throw as u64) % 5;
        (0..n as u32)
            .map(|j| {
                let h = self.h(pos.id * 31 + throw as u64, j as u64 + 7);
                let same = h % 7 == 0;
                let side = if same { pos.side } else { 1 - pos.side };
                (
                    j,
                    RPos {
                        id: (h >> 8) % self.modulus,
                        side,
                    },
                )
            })
            .collect()
    }
    fn evaluate(&self, pos: &RPos) -> f64 {
        if let Some(e) = self.eval {
            return e;
        }
        // Deliberately off the 2^-16 grid: the search must round it.
        (self.h(pos.id, pos.side as u64 + 99) % 1_000_001) as f64 / 1_000_000.0
    }
}

/// Plain expectiminimax, the definition the engine must match.
fn reference<G: Game>(g: &G, pos: &G::Pos, depth: u32) -> f64 {
    if let Some(w) = g.winner(pos) {
        return if w == g.to_move(pos) { 1.0 } else { 0.0 };
    }
    if depth == 0 {
        return quantize(g.evaluate(pos));
    }
    let total: u32 = g.throws().iter().map(|&(_, w)| w).sum();
    let mut v = 0.0;
    for &(t, w) in g.throws() {
        let best = g
            .plays(pos, t)
            .iter()
            .map(|(_, r)| reference_child(g, g.to_move(pos), r, depth - 1))
            .fold(0.0, f64::max);
        v += w as f64 / total as f64 * best;
    }
    v
}

fn reference_child<G: Game>(g: &G, mover: u8, r: &G::Pos, depth: u32) -> f64 {
    let v = reference(g, r, depth);
    if g.to_move(r) == mover {
        v
    } else {
        1.0 - v
    }
}

fn all_option_sets(depth: u32) -> Vec<SearchOptions> {
    let mut v = Vec::new();
    for (prune, probe) in [(false, false), (true, false), (true, true)] {
        for ordering in [false, true] {
            for tt_capacity in [0, 3, 1 << 16] {
                v.push(SearchOptions {
                    depth,
                    prune,
                    probe,
                    ordering,
                    tt_capacity,
                    max_nodes: None,
                });
            }
        }
    }
    v
}

#[test]
fn race_matches_reference() {
    let g = Race;
    for me in 1..6 {
        for opp in 1..6 {
            for depth in 0..6 {
                let want = reference(&g, &race(me, opp), depth);
                for o in all_option_sets(depth) {
                    let mut s = Searcher::new(&g, o);
                    assert_eq!(s.value(&race(me, opp), depth, 0.0, 1.0), want);
                }
            }
        }
    }
}

fn random_root_checks(seed: u64, modulus: u64, depth: u32) {
    let g = Random::new(seed, modulus);
    let root = RPos { id: 1, side: 0 };
    if g.winner(&root).is_some() {
        return;
    }
    let want = reference(&g, &root, depth);
    for o in all_option_sets(depth) {
        let mut s = Searcher::new(&g, o);
        assert_eq!(s.value(&root, depth, 0.0, 1.0), want, "{o:?}");
        let p = analyse_position(&g, &root, o, RootMode::BestOnly).unwrap();
        assert_eq!(p.value, want, "{o:?}");
        // The root value can be computed several ways; all must agree.
        for (ta, _) in &p.throws {
            let exact = analyse_throw(&g, &root, ta.throw, o, RootMode::AllExact).unwrap();
            assert_eq!(exact.value, ta.value);
            assert_eq!(exact.plays[0].play, ta.plays[0].play);
            for pv in &exact.plays {
                assert!(!pv.bound);
                assert_eq!(pv.value, reference_child(&g, 0, &pv.result, depth - 1));
            }
            // Bounds in BestOnly mode really bound the exact values.
            for pv in &ta.plays {
                let e = exact.plays.iter().find(|q| q.play == pv.play).unwrap();
                if !pv.bound {
                    assert_eq!(pv.value, e.value);
                } else {
                    assert!(e.value <= pv.value && pv.value <= ta.value);
                }
            }
            let plays = g.plays(&root, ta.throw);
            let (i, v) = Searcher::new(&g, o).best_play(&root, &plays, depth);
            assert_eq!((plays[i].0, v), (ta.plays[0].play, ta.value));
        }
        // A table kept across searches (large, and small enough to
        // overflow) never changes a value either: the same root twice (the
        // second search reads what the first learnt) and other positions
        // in between, at this depth and the one below.
        for capacity in [1 << 16, 8] {
            let mut kept = KeptTable::new(capacity);
            let others = [RPos { id: 2, side: 1 }, root, RPos { id: 5, side: 0 }];
            for (k, r) in std::iter::once(root).chain(others).enumerate() {
                if g.winner(&r).is_some() {
                    continue;
                }
                let d = if k % 2 == 0 { depth } else { depth.max(2) - 1 };
                let o = SearchOptions { depth: d, ..o };
                for mode in [RootMode::AllExact, RootMode::BestOnly] {
                    let p =
                        analyse_position_keeping(&g, &r, o, mode, &|| {}, None, &mut kept).unwrap();
                    assert_eq!(p.value, reference(&g, &r, d), "{o:?} {capacity}");
                }
            }
        }
    }
}

#[test]
fn a_kept_table_saves_work_on_a_position_searched_before() {
    let g = Random::new(42, 1 << 40);
    let root = RPos { id: 1, side: 0 };
    let mut kept = KeptTable::new(1 << 20);
    let first = analyse_position_keeping(
        &g,
        &root,
        opts(3),
        RootMode::AllExact,
        &|| {},
        None,
        &mut kept,
    )
    .unwrap();
    assert!(!kept.is_empty());
    let again = analyse_position_keeping(
        &g,
        &root,
        opts(3),
        RootMode::AllExact,
        &|| {},
        None,
        &mut kept,
    )
    .unwrap();
    let fresh = analyse_position(&g, &root, opts(3), RootMode::AllExact).unwrap();
    assert_eq!(first.stats, fresh.stats);
    assert_eq!((again.value, first.value), (fresh.value, fresh.value));
    // Every root play's result is now a finished game or known at its
    // depth: one node each.
    let root_plays: usize = first.throws.iter().map(|(t, _)| t.plays.len()).sum();
    let s = again.stats;
    assert_eq!(s.tt_hits + s.terminals, root_plays as u64);
    assert_eq!(s.nodes(), root_plays as u64);
    assert!(first.stats.nodes() > 10 * s.nodes(), "{:?}", first.stats);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Pruning, ordering and the table never change a value.
    #[test]
    fn pruning_never_changes_values(seed in any::<u64>(), modulus in 5u64..400, depth in 1u32..4) {
        random_root_checks(seed, modulus, depth);
    }
}

#[test]
fn pruning_cuts_nodes_on_a_fixed_game() {
    let g = Random::new(42, 1 << 40);
    let root = RPos { id: 1, side: 0 };
    let count = |prune, probe| {
        let o = SearchOptions {
            depth: 4,
            prune,
            probe,
            ordering: true,
            tt_capacity: 0,
            max_nodes: None,
        };
        let mut s = Searcher::new(&g, o);
        let v = s.value(&root, 4, 0.0, 1.0);
        (v, s.stats)
    };
    let (v_full, full) = count(false, false);
    let (v_pruned, pruned) = count(true, false);
    let (v_probed, _) = count(true, true);
    assert_eq!(v_full, v_probed);
    assert_eq!(v_full, v_pruned);
    assert_eq!(v_full, reference(&g, &root, 4));
    assert!(
        pruned.nodes() < full.nodes(),
        "pruned {} vs full {}",
        pruned.nodes(),
        full.nodes()
    );
}

fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

#[test]
fn thread_count_does_not_change_anything() {
    let g = Random::new(7, 300);
    let root = RPos { id: 3, side: 1 };
    let run = || {
        let p = analyse_position(&g, &root, opts(3), RootMode::BestOnly).unwrap();
        let best: Vec<(u32, f64, bool, bool)> = p
            .throws
            .iter()
            .flat_map(|(t, _)| t.plays.iter().map(|q| (q.play, q.value, q.bound, q.exact)))
            .collect();
        (p.value, p.exact, best, p.stats)
    };
    type Outcome = (f64, bool, Vec<(u32, f64, bool, bool)>, Stats);
    let one: Outcome = in_pool(1, run);
    let two = in_pool(2, run);
    let four = in_pool(4, run);
    assert_eq!(one, two);
    assert_eq!(one, four);
    assert!(one.3.nodes() > 0);
    // With a table kept across a sequence of searches too.
    let kept_run = || {
        let mut kept = KeptTable::new(4096);
        let mut out = Vec::new();
        for id in [3, 4, 3, 8, 3] {
            let r = RPos {
                id,
                side: (id % 2) as u8,
            };
            if g.winner(&r).is_none() {
                let p = analyse_position_keeping(
                    &g,
                    &r,
                    opts(3),
                    RootMode::BestOnly,
                    &|| {},
                    None,
                    &mut kept,
                )
                .unwrap();
                out.push((p.value, p.stats));
            }
        }
        (out, kept.len(), kept.emptied())
    };
    let one = in_pool(1, kept_run);
    assert_eq!(one, in_pool(2, kept_run));
    assert_eq!(one, in_pool(4, kept_run));
    assert!(one.0.len() >= 3);
}

/// Whether every line of the plain expectiminimax of `pos` to `depth` ends
/// in a finished game (no static evaluation at all).
fn reference_ends<G: Game>(g: &G, pos: &G::Pos, depth: u32) -> bool {
    if g.winner(pos).is_some() {
        return true;
    }
    depth > 0
        && g.throws().iter().all(|&(t, _)| {
            g.plays(pos, t)
                .iter()
                .all(|(_, r)| reference_ends(g, r, depth - 1))
        })
}

/// `exact` on plays, throws and positions: where the search says so, the
/// value is the same whatever the static evaluation (every evaluation 0,
/// every evaluation 1), so it is the game's value; and where the whole tree
/// ends in finished games, the search says so.
fn exact_checks(seed: u64, modulus: u64, ends: u64, depth: u32) {
    let with = |eval| Random {
        ends,
        eval,
        ..Random::new(seed, modulus)
    };
    let (g, low, high) = (with(None), with(Some(0.0)), with(Some(1.0)));
    let root = RPos { id: 1, side: 0 };
    if g.winner(&root).is_some() {
        return;
    }
    for o in all_option_sets(depth) {
        for mode in [RootMode::AllExact, RootMode::BestOnly] {
            let p = analyse_position(&g, &root, o, mode).unwrap();
            if p.exact {
                assert_eq!(p.value, reference(&low, &root, depth), "{o:?}");
                assert_eq!(p.value, reference(&high, &root, depth), "{o:?}");
            }
            if reference_ends(&g, &root, depth) {
                assert!(p.exact, "{o:?}");
            }
            for (ta, _) in &p.throws {
                for pv in &ta.plays {
                    if pv.exact {
                        for other in [&low, &high] {
                            assert_eq!(pv.value, reference_child(other, 0, &pv.result, depth - 1));
                        }
                    }
                    if mode == RootMode::AllExact && reference_ends(&g, &pv.result, depth - 1) {
                        assert!(pv.exact, "{o:?}");
                    }
                    assert!(!(pv.exact && pv.bound));
                }
                if ta.exact {
                    for other in [&low, &high] {
                        let best = other
                            .plays(&root, ta.throw)
                            .iter()
                            .map(|(_, r)| reference_child(other, 0, r, depth - 1))
                            .fold(0.0, f64::max);
                        assert_eq!(ta.value, best, "{o:?}");
                    }
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// A value called exact does not depend on the static evaluation.
    #[test]
    fn exact_values_do_not_depend_on_the_evaluation(
        seed in any::<u64>(),
        modulus in 5u64..200,
        ends in prop::sample::select(vec![2u64, 3, 5, 11]),
        depth in 1u32..4,
    ) {
        exact_checks(seed, modulus, ends, depth);
    }
}

#[test]
fn race_values_are_exact_where_the_game_ends() {
    let g = Race;
    // Needing one step, every throw wins: exact at depth 1.
    let p = analyse_position(&g, &race(1, 5), opts(1), RootMode::AllExact).unwrap();
    assert!(p.exact && p.value == 1.0);
    // Two against one at depth 1: a play that does not win leaves a static
    // value; the throw `2` still wins outright.
    let p = analyse_position(&g, &race(2, 1), opts(1), RootMode::AllExact).unwrap();
    assert!(!p.exact);
    let two = &p.throws[1].0;
    assert!(two.exact && two.value == 1.0);
    assert!(two.plays[0].exact && !two.plays[1].exact);
    // Depth 2 reaches the end of every line (rules out above): exact 3/4.
    let p = analyse_position(&g, &race(2, 1), opts(2), RootMode::AllExact).unwrap();
    assert!(p.exact && p.value == 0.75);
}
