//! The engine with solved tables (docs/cli.md, "Daldøs solved"): the
//! search takes their exact values, the `perfect` player plays their best
//! play and refuses games they do not cover, and the error rates measured
//! against them (`engine::loss`) are sound and thread-independent.
//!
//! The tables of the whole L = 4 game are built once per run (some 15 s)
//! into a folder under the target directory, so a later run maps them.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use dalkon_daldos::engine::loss::{decisions, losses, Contender, Source};
use dalkon_daldos::engine::{
    analyse_position, analyse_throw, best_by_tables, play_value, study, Daldos, Game, GreedyPlayer,
    Player, PlayerSpec, Rng, RootMode, SearchOptions, StudyConfig, StudySet,
};
use dalkon_daldos::solved::{plan, value_report, LayerKey, NoProgress, Tables, EPS};
use dalkon_rules::daldos::{Board, Position, Side, Throw, Variants};

fn l4() -> Board {
    Board::new(4).unwrap()
}

/// The folder of the L = 4 tables of these tests.
fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("perfect-tables")
}

/// Build (or map) the L = 4 tables up to `pieces`; a folder left by an
/// older format is cleared and rebuilt.
fn build(pieces: (u8, u8)) -> Tables {
    let v = Variants::default();
    let p = plan(l4(), &v, pieces).unwrap();
    let mut t = Tables::new(l4(), v, Some(&dir()));
    if t.build(&p, EPS, &mut NoProgress).is_err() {
        let _ = std::fs::remove_dir_all(dir());
        t = Tables::new(l4(), v, Some(&dir()));
        t.build(&p, EPS, &mut NoProgress).unwrap();
    }
    t
}

/// The whole L = 4 game.
fn full() -> Arc<Tables> {
    static FULL: OnceLock<Arc<Tables>> = OnceLock::new();
    Arc::clone(FULL.get_or_init(|| Arc::new(build((4, 4)))))
}

/// Only the layers with at most `pieces`, mapped from the files of
/// [`full`].
fn up_to(a: u8, b: u8) -> Arc<Tables> {
    let _ = full();
    let mut t = Tables::new(l4(), Variants::default(), Some(&dir()));
    for x in 1..=4 {
        for y in 1..=4 {
            if (x <= a && y <= b) || (x <= b && y <= a) {
                assert!(t
                    .load(LayerKey {
                        board: l4(),
                        a: x,
                        b: y
                    })
                    .unwrap());
            }
        }
    }
    Arc::new(t)
}

fn pos(s: &str) -> Position {
    s.parse().unwrap()
}

fn opts(depth: u32) -> SearchOptions {
    SearchOptions {
        depth,
        ..SearchOptions::default()
    }
}

/// A 1 v 1 position the tables cover is answered with the tables' value at
/// any depth, exact, and each throw's best play is theirs.
#[test]
fn best_with_tables_is_the_tables_value_and_exact() {
    let t = full();
    let game = Daldos::with_tables(Arc::clone(&t));
    let p = pos("..a./...../.b.. a");
    let want = t.bounds(&p).unwrap();
    assert!(want.gap() <= EPS);
    let report = value_report(&t, &p).unwrap();
    for depth in [1, 2, 3] {
        let a = analyse_position(&game, &p, opts(depth), RootMode::AllExact).unwrap();
        assert!(a.exact, "depth {depth}");
        assert!(
            (a.value - want.value()).abs() <= 1e-12,
            "{} {want:?}",
            a.value
        );
        // Every node past the root is a table hit (or a finished game).
        assert_eq!(a.stats.chance_nodes, 0);
        assert!(a.stats.table_hits > 0);
        for ((ta, w), tv) in a.throws.iter().zip(&report.throws) {
            assert_eq!(*w, tv.weight);
            assert!(ta.exact);
            let best = tv.plays[0].bounds.value();
            assert!((ta.value - best).abs() <= 1e-12);
            for pv in &ta.plays {
                assert!(pv.exact);
            }
        }
    }
    // Without tables the same position is an estimate.
    let plain = analyse_position(&Daldos::default(), &p, opts(2), RootMode::AllExact).unwrap();
    assert!(!plain.exact);
}

/// With tables of the smaller layers only, a 4 v 4 position mixes table
/// values and evaluations: plays are exact exactly where every line ended
/// in the tables or a finished game; pruning agrees with the full search
/// to rounding; and the answer is the same on any thread count.
#[test]
fn tables_at_the_leaves_keep_the_bookkeeping_honest() {
    let small = up_to(3, 3);
    let game = Daldos::with_tables(small);
    let p = pos("A.aa/..b.a/B.bb a");
    assert_eq!(game.known(&p), None);
    for depth in [1, 2] {
        for &(throw, _) in &Throw::DISTINCT {
            let pruned = analyse_throw(&game, &p, throw, opts(depth), RootMode::AllExact).unwrap();
            let full_search = SearchOptions {
                prune: false,
                ..opts(depth)
            };
            let plain = analyse_throw(&game, &p, throw, full_search, RootMode::AllExact).unwrap();
            assert!((pruned.value - plain.value).abs() <= 1e-12);
            for pv in &pruned.plays {
                let q = plain.plays.iter().find(|q| q.result == pv.result).unwrap();
                assert!((pv.value - q.value).abs() <= 1e-12);
                // Pruning looks at fewer estimates: it may prove more
                // values exact, never fewer.
                assert!(!q.exact || pv.exact, "{}", pv.result);
                // At depth 1 a play is exact iff its result is decided:
                // a finished game or a position of the tables.
                if depth == 1 {
                    let decided =
                        pv.result.is_over(&game.variants) || game.known(&pv.result).is_some();
                    assert_eq!(pv.exact, decided, "{}", pv.result);
                }
            }
            let one = rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .build()
                .unwrap();
            let again = one
                .install(|| analyse_throw(&game, &p, throw, opts(depth), RootMode::AllExact))
                .unwrap();
            assert_eq!(again.value.to_bits(), pruned.value.to_bits());
            assert_eq!(again.stats, pruned.stats);
        }
    }
}

/// `perfect` plays the tables' best play, loses nothing by them on any
/// decision, and every other player's loss is at least -1e-12.
#[test]
fn perfect_loses_nothing_and_no_loss_is_negative() {
    let t = full();
    for source in [Source::Games { every: 2 }, Source::Layer { a: 3, b: 3 }] {
        let ds = decisions(&t, source, 400, 11).unwrap();
        assert_eq!(ds.len(), 400);
        let perfect = losses(&t, &Contender::perfect(), &ds, 11).unwrap();
        assert!(perfect.iter().all(|&l| l == 0.0), "{source:?}");
        for c in [
            Contender::greedy(),
            Contender::engine(1),
            Contender::engine(2),
        ] {
            let l = losses(&t, &c, &ds, 11).unwrap();
            assert!(l.iter().all(|&x| x >= -1e-12), "{}", c.name);
            assert!(l.iter().any(|&x| x > 1e-3), "{} never errs?", c.name);
        }
    }
    // The player itself, through its spec, in a match position.
    let game = Daldos::default();
    let start = Position::start(l4());
    let player = PlayerSpec::Perfect.build(&game, &start, Some(&t)).unwrap();
    let throw: Throw = "2,1".parse().unwrap();
    let plays = game.plays(&start, throw);
    let i = player.choose(&game, &start, &plays, &mut Rng::new(0));
    assert_eq!(i, best_by_tables(&t, &start, &plays).0);
}

/// A hand-checked decision (L = 4, A to throw 2,1): A has an undalt piece
/// on A3 and a dalt one on M3, B one dalt piece on B3. There are two
/// plays, both moving the M3 piece 2 to M1 first or last:
/// - `M3-M1 A3-A4` dals the A3 piece with the 1: pieces on A4 and M1;
/// - `M3-M1 M1-M0` runs the dalt piece on: pieces on A3 (undalt) and M0.
///
/// B's piece on B3 reaches M1 in 5 steps and M0 in 6 (B4, M4, M3, M2, M1,
/// M0), A3 and A4 only in 9 and 10. A dalt piece is hit from 5 holes by 4
/// throws in 16 and from 6 by 3, and from 9 or 10 by none, so greedy
/// (which lowers its own exposure) runs to M0, exposure 3/16 against
/// 4/16. But an undalt piece moves only on a dal: the tables value
/// dalling it now at 0.9094 for A and running on at 0.7450, so greedy
/// gives away 0.1644 of its win probability.
#[test]
fn greedy_runs_where_dalling_is_worth_sixteen_points() {
    let t = full();
    let game = Daldos::default();
    let p = pos("..A./...a./..b. a");
    let throw: Throw = "2,1".parse().unwrap();
    let plays = game.plays(&p, throw);
    let names: Vec<String> = plays.iter().map(|(pl, _)| pl.notation(l4())).collect();
    assert_eq!(names, ["M3-M1 A3-A4", "M3-M1 M1-M0"]);
    let exposure: Vec<f64> = plays
        .iter()
        .map(|(_, r)| GreedyPlayer::exposure(&game, Side::A, r))
        .collect();
    assert_eq!(exposure, [4.0 / 16.0, 3.0 / 16.0]);
    let g = GreedyPlayer.choose(&game, &p, &plays, &mut Rng::new(0));
    assert_eq!(g, 1);
    let (best, value) = best_by_tables(&t, &p, &plays);
    assert_eq!(best, 0);
    let chosen = play_value(&t, Side::A, &plays[g].1).unwrap();
    assert!((value.unwrap() - 0.909_411).abs() < 1e-6, "{value:?}");
    assert!((chosen - 0.744_993).abs() < 1e-6, "{chosen}");
    let loss = value.unwrap() - chosen;
    assert!((loss - 0.164_418).abs() < 1e-6, "{loss}");
    let ds = [dalkon_daldos::engine::Decision { pos: p, throw }];
    let l = losses(&t, &Contender::greedy(), &ds, 0).unwrap();
    assert_eq!(l, [loss]);
}

/// Tables that stop short of the game are refused with the layer missing
/// and the command that builds them all.
#[test]
fn perfect_refuses_games_the_tables_do_not_cover() {
    let game = Daldos::default();
    let start = Position::start(l4());
    let small = up_to(3, 3);
    let e = PlayerSpec::Perfect
        .build(&game, &start, Some(&small))
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.starts_with("perfect needs the tables of board 4 up to 4 v 4 (layer 4 v 1 is not in "),
        "{e}"
    );
    assert!(
        e.contains(": run dalkon daldos solve --board 4 --pieces 4,4 --db-dir "),
        "{e}"
    );
    let e = PlayerSpec::Perfect
        .build(&game, &start, None)
        .err()
        .unwrap()
        .to_string();
    assert_eq!(
        e,
        "perfect needs the tables of board 4 up to 4 v 4 (layer 1 v 1 is missing): \
         run dalkon daldos solve --board 4 --pieces 4,4"
    );
    // A 3 v 3 game is covered by them.
    let p = pos("AA.a/..b../BB.. a");
    assert!(PlayerSpec::Perfect.build(&game, &p, Some(&small)).is_ok());
    // Other rules are refused as such.
    let one = Daldos::new(Variants {
        end: dalkon_rules::daldos::EndRule::One,
        ..Variants::default()
    });
    let e = PlayerSpec::Perfect
        .build(&one, &p, Some(&small))
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("tables of the rules dal=any capture=final end=last"),
        "{e}"
    );
}

/// The error-rate rows (and the match against perfect) do not depend on
/// the thread count.
#[test]
fn error_rates_are_the_same_on_one_and_two_threads() {
    let t = full();
    let sets = [
        StudySet {
            tables: Arc::clone(&t),
            source: Source::Games { every: 3 },
        },
        StudySet {
            tables: Arc::clone(&t),
            source: Source::Layer { a: 3, b: 2 },
        },
    ];
    let cfg = StudyConfig {
        decisions: 300,
        games: 60,
        seed: 5,
        contenders: vec![
            Contender::greedy(),
            Contender::engine(2),
            Contender::engine_with_tables(2),
        ],
        match_contenders: vec![Contender::engine(1)],
    };
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| study(&sets, Some(&t), &cfg).unwrap())
    };
    let (one, two) = (run(1), run(2));
    assert_eq!(one, two);
    assert_eq!(one.csv(), two.csv());
    assert_eq!(one.losses.len(), 6);
    assert!(one
        .csv()
        .starts_with("board,layer,player,decisions,mean_loss,p99_loss"));
    assert!(one.csv().contains("\n4,game,engine:2,300,"));
    assert!(one.csv().contains("\n4,3v2,greedy,300,"));
    assert_eq!(one.matches.len(), 1);
    assert_eq!(one.matches[0].games, 60);
    assert!(one
        .markdown()
        .contains("| 4 | layer 3 v 2 | greedy | 300 |"));
    for r in &one.losses {
        assert!(r.mean_loss >= 0.0 && r.p99_loss >= 0.0, "{r:?}");
    }
}
