//! The engine on real Daldøs positions: hand-worked capture endgames,
//! agreement with a plain expectiminimax through the full rules, thread-count
//! independence, and replayable matches.

use dalkon_daldos::engine::Daldos;
use dalkon_daldos::engine::{
    analyse_position, analyse_throw, quantize, Game, RootMode, SearchOptions, Searcher,
};
use dalkon_daldos::engine::{play_match, MatchConfig};
use dalkon_daldos::engine::{EnginePlayer, GreedyPlayer, Player, RandomPlayer};
use dalkon_rules::daldos::{Position, Throw, Variants};

/// A 16-against-16 middle game (no captures yet, pieces spread out).
const MIDDLE: &str = "AAAAAAA.a.a...ba/ba..b..a.ab..a.bb/BBBBBBB.b.b.aab. a";

fn pos(s: &str) -> Position {
    s.parse().unwrap()
}

fn opts(depth: u32) -> SearchOptions {
    SearchOptions {
        depth,
        ..SearchOptions::default()
    }
}

/// B to move with a dalt b `d` holes behind A's last piece (on M8) and a
/// free b on A1 to spend the other die: B wins at once exactly on the throws
/// offering the distance with one die or both added (7, 8, 9, 10, 4, 3, 2, 1
/// out of 16 for d = 1..=8, no rethrow needed since the capture ends the
/// game). Every other throw leaves a game that is not over, worth less
/// than 1 at any depth.
#[test]
fn last_piece_capture_throws_at_depth_one_and_two() {
    let game = Daldos::default();
    let want = [7, 8, 9, 10, 4, 3, 2, 1];
    for d in 1..=8usize {
        let mut m: Vec<char> = ".................".chars().collect();
        m[8] = 'a';
        m[8 + d] = 'b';
        let m: String = m.into_iter().collect();
        let p = pos(&format!("b.............../{m}/................ b"));
        for depth in [1, 2] {
            let a = analyse_position(&game, &p, opts(depth), RootMode::BestOnly).unwrap();
            let winning: u32 = a
                .throws
                .iter()
                .filter(|(t, _)| t.value == 1.0)
                .map(|&(_, w)| w)
                .sum();
            assert_eq!(winning, want[d - 1], "d = {d}, depth {depth}");
            for (t, _) in &a.throws {
                assert!((0.0..=1.0).contains(&t.value));
                if t.value == 1.0 {
                    assert_eq!(t.plays[0].play.captures(), 1);
                    assert!(t.plays[0].result.is_over(&game.variants));
                }
            }
        }
    }
}

/// Plain expectiminimax through the full rules: the definition.
fn reference(game: &Daldos, p: &Position, depth: u32) -> f64 {
    if let Some(w) = game.winner(p) {
        return if w == game.to_move(p) { 1.0 } else { 0.0 };
    }
    if depth == 0 {
        return quantize(game.evaluate(p));
    }
    let mut v = 0.0;
    for &(t, w) in &Throw::DISTINCT {
        let best = game
            .plays(p, t)
            .iter()
            .map(|(_, r)| {
                let x = reference(game, r, depth - 1);
                if r.side_to_move() == p.side_to_move() {
                    x
                } else {
                    1.0 - x
                }
            })
            .fold(0.0, f64::max);
        v += f64::from(w) / 16.0 * best;
    }
    v
}

#[test]
fn engine_matches_reference_on_real_positions() {
    let game = Daldos::default();
    let positions = [
        "....../.a...b./.b.... a",
        "AAA./..a.b/BB.B b",
        "A.aA/b...a/B..b a",
        "AAAA.a/b..a..b/BBB..b b",
    ];
    for s in positions {
        let p = pos(s);
        for depth in 1..=3 {
            let want = reference(&game, &p, depth);
            for (prune, probe) in [(false, false), (true, false), (true, true)] {
                let o = SearchOptions {
                    depth,
                    prune,
                    probe,
                    ..SearchOptions::default()
                };
                let got = Searcher::new(&game, o).value(&p, depth, 0.0, 1.0);
                assert_eq!(got, want, "{s} depth {depth} prune {prune}");
                let a = analyse_position(&game, &p, o, RootMode::BestOnly).unwrap();
                assert_eq!(a.value, want, "{s} depth {depth} prune {prune}");
            }
        }
    }
}

#[test]
fn middle_game_depth_two_pruning_keeps_values_and_saves_nodes() {
    let game = Daldos::default();
    let p = pos(MIDDLE);
    let throw: Throw = "3,1".parse().unwrap();
    let run = |prune, mode| {
        let o = SearchOptions {
            depth: 2,
            prune,
            ..SearchOptions::default()
        };
        analyse_throw(&game, &p, throw, o, mode).unwrap()
    };
    let full = run(false, RootMode::AllExact);
    let pruned = run(true, RootMode::BestOnly);
    let exact = run(true, RootMode::AllExact);
    assert_eq!(full.value, pruned.value);
    assert_eq!(full.plays[0].play, pruned.plays[0].play);
    for (x, y) in full.plays.iter().zip(&exact.plays) {
        assert_eq!((&x.play, x.value), (&y.play, y.value));
    }
    // Every root play's exact value agrees with the plain definition.
    for pv in full.plays.iter().take(5) {
        let v = reference(&game, &pv.result, 1);
        let v = if pv.result.side_to_move() == p.side_to_move() {
            v
        } else {
            1.0 - v
        };
        assert_eq!(pv.value, v);
    }
    assert!(pruned.stats.nodes() < full.stats.nodes());
    // Star2 probing on top of Star1: same choice, far fewer nodes.
    let star1_only = analyse_throw(
        &game,
        &p,
        throw,
        SearchOptions {
            depth: 2,
            probe: false,
            ..SearchOptions::default()
        },
        RootMode::BestOnly,
    )
    .unwrap();
    assert_eq!(star1_only.value, pruned.value);
    assert_eq!(star1_only.plays[0].play, pruned.plays[0].play);
    assert!(2 * pruned.stats.nodes() < star1_only.stats.nodes());
}

fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

#[test]
fn search_is_independent_of_thread_count() {
    let game = Daldos::default();
    let p = pos(MIDDLE);
    let run = || {
        let a = analyse_position(&game, &p, opts(2), RootMode::BestOnly).unwrap();
        let best: Vec<(String, f64)> = a
            .throws
            .iter()
            .map(|(t, _)| (t.plays[0].play.notation(p.board()), t.value))
            .collect();
        (a.value, best, a.stats)
    };
    let one = in_pool(1, run);
    let two = in_pool(2, run);
    assert_eq!(one, two);
}

#[test]
fn matches_replay_exactly_for_any_thread_count() {
    let game = Daldos::new(Variants::default());
    let start = pos("AAAAAA/......./BBBBBB a");
    let cfg = MatchConfig {
        games: 24,
        seed: 11,
        turn_cap: 3000,
    };
    let engine = EnginePlayer::new(1);
    let run = |a: &dyn Player<Daldos>, b: &dyn Player<Daldos>| {
        play_match(&game, &start, a, b, cfg, &|| {})
    };
    let one = in_pool(1, || run(&engine, &RandomPlayer));
    let two = in_pool(2, || run(&engine, &RandomPlayer));
    assert_eq!(one, two);
    assert_eq!(one.a_wins + one.b_wins + one.capped, 24);
    assert!(one
        .records
        .iter()
        .enumerate()
        .all(|(i, r)| r.a_first == (i % 2 == 0)));
    let other_seed = in_pool(2, || {
        play_match(
            &game,
            &start,
            &engine,
            &RandomPlayer,
            MatchConfig { seed: 12, ..cfg },
            &|| {},
        )
    });
    assert_ne!(one.records, other_seed.records);
    // Greedy against itself: whoever starts, the record is a pure function
    // of the seed.
    let g1 = in_pool(1, || run(&GreedyPlayer, &GreedyPlayer));
    let g2 = in_pool(2, || run(&GreedyPlayer, &GreedyPlayer));
    assert_eq!(g1, g2);
}

#[test]
fn engine_beats_random_on_a_small_board() {
    // Not a strength benchmark (scripts/daldos_matches.sh is): a sanity
    // check that the engine plays for captures at all.
    let game = Daldos::default();
    let start = pos("AAAAAA/......./BBBBBB a");
    let cfg = MatchConfig {
        games: 40,
        seed: 3,
        turn_cap: 3000,
    };
    let r = play_match(
        &game,
        &start,
        &EnginePlayer::new(1),
        &RandomPlayer,
        cfg,
        &|| {},
    );
    assert!(r.a_wins >= 30, "{r:?}");
}

#[test]
fn turn_cap_stops_games_and_counts_them() {
    let game = Daldos::default();
    let start = Position::start(dalkon_rules::daldos::Board::DANISH);
    let cfg = MatchConfig {
        games: 6,
        seed: 1,
        turn_cap: 3,
    };
    let r = play_match(&game, &start, &RandomPlayer, &RandomPlayer, cfg, &|| {});
    // Nobody can capture within three throws of the start.
    assert_eq!((r.a_wins, r.b_wins, r.capped), (0, 0, 6));
    assert_eq!(r.mean_turns, 3.0);
    assert_eq!(r.first_player_win_rate, 0.0);
    assert!(r.records.iter().all(|g| g.winner.is_none() && g.turns == 3));
}
