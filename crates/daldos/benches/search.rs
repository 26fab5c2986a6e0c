//! Engine benchmark (not a test): `cargo bench -p dalkon-daldos --bench search`.
//!
//! For the 16-against-16 middle game of the tests, with each evaluation
//! (the learned default, then the hand-fitted `hand:N`), searches the throw
//! 3,1 at depths 1, 2 and 3, with and without pruning, as `best` does (root-parallel,
//! every play exact) and as the match engine does (serial, only the best
//! play exact); prints nodes, nodes per second and milliseconds, and asserts
//! that pruning changed no value. Then times whole engine moves over a few
//! positions (the match player's cost per move).

use std::time::Instant;

use dalkon_daldos::engine::Daldos;
use dalkon_daldos::engine::Rng;
use dalkon_daldos::engine::{analyse_throw, Game, RootMode, SearchOptions, Searcher};
use dalkon_daldos::engine::{EnginePlayer, Player};
use dalkon_rules::daldos::{Board, Position, Throw};

/// Value and node count of the default search (Star1 + Star2, only the
/// best play exact) at depths 1, 2, 3, with the learned evaluation.
const PINNED: [(f64, u64); 3] = [
    (0.6556854248046875, 52),
    (0.6389923095703125, 1199),
    (0.6765377521514893, 97_339),
];

/// The same with the hand-fitted evaluation (`Daldos::hand`).
const PINNED_HAND: [(f64, u64); 3] = [
    (0.65338134765625, 52),
    (0.620366096496582, 1532),
    (0.7149704098701477, 102_489),
];

const MIDDLE: &str = "AAAAAAA.a.a...ba/ba..b..a.ab..a.bb/BBBBBBB.b.b.aab. a";

/// Engine against itself from the Danish start, one thread: mean time per
/// engine decision (throws with a single play are not decisions).
fn per_move(game: &Daldos, depth: u32, games: u64) {
    let engine = EnginePlayer::new(depth);
    let (mut moves, mut secs, mut throws) = (0u64, 0.0f64, 0u64);
    for g in 0..games {
        let mut rng = Rng::for_index(99, g);
        let mut pos = Position::start(Board::DANISH);
        while game.winner(&pos).is_none() && throws < 100_000 {
            let i = rng.below(16) as usize;
            let throw = Throw::ALL[i];
            let mut plays = game.plays(&pos, throw);
            let k = if plays.len() > 1 {
                let t = Instant::now();
                let k = engine.choose(game, &pos, &plays, &mut rng);
                secs += t.elapsed().as_secs_f64();
                moves += 1;
                k
            } else {
                0
            };
            pos = plays.swap_remove(k).1;
            throws += 1;
        }
    }
    println!(
        "engine:{depth} self-play, {games} games: {moves} decisions, {:.2} ms per decision, {:.1} throws per game",
        secs * 1e3 / moves.max(1) as f64,
        throws as f64 / games as f64
    );
}

fn main() {
    for (name, game, pinned) in [
        ("learned", Daldos::default(), PINNED),
        ("hand", Daldos::default().hand(), PINNED_HAND),
    ] {
        println!("evaluation: {name}");
        search(&game, pinned);
        per_move(&game, 1, 20);
        per_move(&game, 2, 20);
        per_move(&game, 3, 2);
    }
}

fn search(game: &Daldos, pinned: [(f64, u64); 3]) {
    let p: Position = MIDDLE.parse().unwrap();
    let throw: Throw = "3,1".parse().unwrap();
    println!(
        "position {MIDDLE}, throw 3,1, {} threads",
        rayon::current_num_threads()
    );
    for depth in [1, 2, 3] {
        let mut values = Vec::new();
        for (prune, probe, mode) in [
            (false, false, RootMode::AllExact),
            (true, false, RootMode::AllExact),
            (true, true, RootMode::AllExact),
            (true, false, RootMode::BestOnly),
            (true, true, RootMode::BestOnly),
        ] {
            let o = SearchOptions {
                depth,
                prune,
                probe,
                ..SearchOptions::default()
            };
            let t = Instant::now();
            let a = analyse_throw(game, &p, throw, o, mode).unwrap();
            let s = t.elapsed().as_secs_f64();
            println!(
                "best  depth {depth} prune {prune:5} probe {probe:5} {mode:?}: value {:.6} best {} nodes {} leaves {} cutoffs {} time {:.1} ms, {:.0} nodes/s",
                a.value,
                a.plays[0].play.notation(p.board()),
                a.stats.nodes(),
                a.stats.leaves,
                a.stats.cutoffs,
                s * 1e3,
                a.stats.nodes() as f64 / s
            );
            values.push((a.value, a.plays[0].play.clone()));
            if prune && probe && mode == RootMode::BestOnly {
                // The bench signature: any change to the search or the
                // evaluation must account for these.
                let want = pinned[depth as usize - 1];
                assert_eq!((a.value, a.stats.nodes()), want, "depth {depth}");
            }
        }
        assert!(
            values.windows(2).all(|w| w[0] == w[1]),
            "pruning changed the result"
        );
        // The serial match engine, one move.
        for (prune, probe) in [(false, false), (true, false), (true, true)] {
            let o = SearchOptions {
                depth,
                prune,
                probe,
                ..SearchOptions::default()
            };
            let plays = game.plays(&p, throw);
            let t = Instant::now();
            let mut s = Searcher::new(game, o);
            let (i, v) = s.best_play(&p, &plays, depth);
            let secs = t.elapsed().as_secs_f64();
            println!(
                "match depth {depth} prune {prune:5} probe {probe:5} serial: value {v:.6} best {} nodes {} time {:.1} ms, {:.0} nodes/s",
                plays[i].0.notation(p.board()),
                s.stats.nodes(),
                secs * 1e3,
                s.stats.nodes() as f64 / secs
            );
            assert_eq!(v, values[0].0);
        }
    }
}
