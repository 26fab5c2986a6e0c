//! `daldos analyse` on whole games (request::analyse): on the L = 4 board
//! with the tables of the whole game every value is exact, so the luck
//! identity holds to 1e-9, each decision agrees with `daldos value`'s
//! ranking of its throw, forced throws are not counted, a hand-worked
//! blunder is marked; an illegal play is refused with its turn.
//!
//! The L = 4 tables are built once per run (some 15 s) into a folder under
//! the target directory, so a later run maps them.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use dalkon_daldos::engine::{
    match_game_moves, Daldos, EnginePlayer, GreedyPlayer, MatchConfig, Player, RandomPlayer,
};
use dalkon_daldos::request::{AnalyseError, AnalyseRequest, Analyst, Mark, ValueRequest};
use dalkon_daldos::solved::{plan, NoProgress, Tables, EPS};
use dalkon_rules::daldos::{plays, Board, Play, Position, Side, Throw, Variants};

fn l4() -> Board {
    Board::new(4).unwrap()
}

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("analyse-tables")
}

/// The tables of the whole L = 4 game.
fn full() -> Arc<Tables> {
    static FULL: OnceLock<Arc<Tables>> = OnceLock::new();
    Arc::clone(FULL.get_or_init(|| {
        let v = Variants::default();
        let p = plan(l4(), &v, (4, 4)).unwrap();
        let mut t = Tables::new(l4(), v, Some(&dir()));
        if t.build(&p, EPS, &mut NoProgress).is_err() {
            let _ = std::fs::remove_dir_all(dir());
            t = Tables::new(l4(), v, Some(&dir()));
            t.build(&p, EPS, &mut NoProgress).unwrap();
        }
        Arc::new(t)
    }))
}

fn analyst() -> Analyst {
    Analyst::with_tables(full())
}

/// Game `index` of a seeded match between `a` and `b` on L = 4.
fn game(
    a: &dyn Player<Daldos>,
    b: &dyn Player<Daldos>,
    seed: u64,
    index: u32,
) -> Vec<(Throw, Play)> {
    let g = Daldos::new(Variants::default());
    let cfg = MatchConfig {
        games: 1,
        seed,
        turn_cap: 400,
    };
    match_game_moves(&g, &Position::start(l4()), a, b, cfg, index)
}

fn games() -> Vec<Vec<(Throw, Play)>> {
    let (r, e, g) = (RandomPlayer, EnginePlayer::new(1), GreedyPlayer);
    vec![
        game(&r, &r, 1, 0),
        game(&r, &e, 2, 1),
        game(&e, &g, 3, 0),
        game(&g, &r, 4, 1),
        game(&e, &e, 5, 0),
        game(&r, &g, 6, 0),
    ]
}

/// result − W_A(start) = Σ_A (luck − loss) − Σ_B (luck − loss), with every
/// value exact from the tables.
#[test]
fn the_luck_identity_holds_on_whole_l4_games() {
    let analyst = analyst();
    let start = Position::start(l4());
    let mut blunders = 0;
    for (i, turns) in games().iter().enumerate() {
        let r = AnalyseRequest::new()
            .run(&analyst, &start, turns, &(), None)
            .unwrap();
        assert_eq!(r.decisions.len(), turns.len());
        assert!(r.decisions.iter().all(|d| d.exact && d.source == "tables"));
        assert!(r.winner.is_some(), "game {i} is played to its end");
        let result = r.result.unwrap();
        let start_value = r.start_value.unwrap();
        let lhs = result - start_value;
        let rhs = r.luck_minus_loss_a();
        assert!((lhs - rhs).abs() < 1e-9, "game {i}: {lhs} v {rhs}");
        // The luck-adjusted result is the start value less own losses plus
        // the opponent's.
        let loss = |s: Side| -> f64 {
            r.decisions
                .iter()
                .filter(|d| d.side == s)
                .map(|d| d.loss)
                .sum()
        };
        let adj = r.summary.a.luck_adjusted.unwrap();
        assert!((adj - (start_value - loss(Side::A) + loss(Side::B))).abs() < 1e-9);
        assert!((adj + r.summary.b.luck_adjusted.unwrap() - 1.0).abs() < 1e-12);
        // Each side's luck is the sum over its throws, forced ones too.
        for s in [Side::A, Side::B] {
            let sum: f64 = r
                .decisions
                .iter()
                .filter(|d| d.side == s)
                .map(|d| d.luck)
                .sum();
            assert!((r.summary.side(s).luck - sum).abs() < 1e-12);
        }
        blunders += r.summary.a.marks.blunder + r.summary.b.marks.blunder;
    }
    assert!(blunders > 0, "random play blunders somewhere");
}

/// Every decision agrees with `daldos value`'s ranking of its throw: the
/// best value is the first play's, the played value is its play's, the
/// loss their difference, the value before the throw the position's, and
/// the luck the best value less that.
#[test]
fn decisions_agree_with_the_value_request() {
    let analyst = analyst();
    let start = Position::start(l4());
    let v = Variants::default();
    let turns = game(&RandomPlayer, &EnginePlayer::new(1), 7, 0);
    let r = AnalyseRequest::new()
        .run(&analyst, &start, &turns, &(), None)
        .unwrap();
    for d in &r.decisions {
        let vr = ValueRequest {
            pos: d.position,
            variants: v,
        }
        .run(analyst.tables())
        .unwrap();
        let t = vr
            .throws
            .iter()
            .find(|t| t.throw == d.dice.sorted())
            .unwrap();
        let played = t.plays.iter().find(|p| p.step == d.play).unwrap();
        assert_eq!(d.best_value, t.plays[0].value, "ply {}", d.ply);
        assert_eq!(d.played_value, played.value, "ply {}", d.ply);
        assert_eq!(d.loss, (t.plays[0].value - played.value).max(0.0));
        assert_eq!(d.value_before, vr.value);
        assert_eq!(d.luck, t.plays[0].value - vr.value);
        assert_eq!(d.best[0], t.best);
        assert_eq!(d.forced, t.plays.len() == 1);
        assert_eq!(
            d.mark,
            if d.forced {
                None
            } else {
                Mark::of_loss(d.loss)
            }
        );
        assert_eq!(d.played, d.play.notation(l4()));
    }
}

/// Forced throws (one distinct play, passes included) are listed, count
/// for luck, and are left out of the decisions and the mean loss.
#[test]
fn forced_throws_are_not_counted() {
    let analyst = analyst();
    let start = Position::start(l4());
    let turns = game(&RandomPlayer, &RandomPlayer, 11, 0);
    let r = AnalyseRequest::new()
        .run(&analyst, &start, &turns, &(), None)
        .unwrap();
    let forced = r.decisions.iter().filter(|d| d.forced).count();
    assert!(
        forced > 0,
        "a game from the start has forced throws (no dal: pass)"
    );
    // B's first throw without a dal has no play: a forced pass.
    let t1: Throw = "1,3".parse().unwrap();
    let p1 = plays(&start, &Variants::default(), t1)[0].play.clone();
    let two = [(t1, p1), ("4,4".parse().unwrap(), Play::pass())];
    let short = AnalyseRequest::new()
        .run(&analyst, &start, &two, &(), None)
        .unwrap();
    let pass = &short.decisions[1];
    assert!(pass.forced && pass.played == "pass" && pass.side == Side::B);
    assert_eq!(short.summary.b.decisions, 0);
    assert_eq!(short.summary.b.throws, 1);
    assert!((short.summary.b.luck - pass.luck).abs() < 1e-15 && pass.luck < 0.0);
    for s in [Side::A, Side::B] {
        let mine: Vec<_> = r.decisions.iter().filter(|d| d.side == s).collect();
        let chosen: Vec<_> = mine.iter().filter(|d| !d.forced).collect();
        let sum = r.summary.side(s);
        assert_eq!(sum.throws, mine.len());
        assert_eq!(sum.decisions, chosen.len());
        let mean = chosen.iter().map(|d| d.loss).sum::<f64>() / chosen.len() as f64;
        assert!((sum.mean_loss - mean).abs() < 1e-15);
    }
    for d in r.decisions.iter().filter(|d| d.forced) {
        assert_eq!((d.loss, d.mark), (0.0, None));
        assert_eq!(d.best, vec![d.played.clone()]);
    }
}

/// A blunder: of the first throw of a game whose plays differ by 10
/// points or more, the side makes the worst play; the tables'
/// ranking gives the loss, and the analysis marks it.
#[test]
fn a_blunder_is_marked() {
    let analyst = analyst();
    let v = Variants::default();
    // The first position of a random game where some throw's plays differ
    // by 10 points or more.
    let mut pos = Position::start(l4());
    let mut found = None;
    for (throw, play) in game(&RandomPlayer, &RandomPlayer, 1, 0) {
        let vr = ValueRequest { pos, variants: v }
            .run(analyst.tables())
            .unwrap();
        if let Some(t) = vr
            .throws
            .iter()
            .find(|t| t.plays[0].value - t.plays.last().unwrap().value >= 0.10)
        {
            found = Some((pos, t.clone()));
            break;
        }
        pos = plays(&pos, &v, throw)
            .into_iter()
            .find(|o| o.play == play)
            .unwrap()
            .result;
    }
    let (pos, t) = found.expect("some throw has a blunder");
    let throw = t.throw;
    let (best, worst) = (&t.plays[0], t.plays.last().unwrap());
    assert!(best.value - worst.value >= 0.10, "{:?}", t.plays);
    let r = AnalyseRequest::new()
        .run(&analyst, &pos, &[(throw, worst.step.clone())], &(), None)
        .unwrap();
    let d = &r.decisions[0];
    assert_eq!(d.mark, Some(Mark::Blunder));
    assert_eq!(d.best[0], best.play);
    assert!((d.loss - (best.value - worst.value)).abs() < 1e-15);
    let me = r.summary.side(pos.side_to_move());
    assert_eq!((me.marks.blunder, me.decisions), (1, 1));
    // The game is not over: the result is A's W at the end, exact.
    assert!(r.winner.is_none() && r.result_exact);
    let end_w = for_a(&r.end, analyst.tables());
    assert!((r.result.unwrap() - end_w).abs() < 1e-12);
    assert!((r.result.unwrap() - r.start_value.unwrap() - r.luck_minus_loss_a()).abs() < 1e-9);
}

/// A's W in `pos` from the tables.
fn for_a(pos: &Position, tables: &Tables) -> f64 {
    tables.bounds_for(pos, Side::A).unwrap().value()
}

/// A play that is not legal for its throw is refused naming its turn (from
/// 1); so is a throw after the end of the game.
#[test]
fn an_illegal_play_is_refused_with_its_turn() {
    let analyst = Analyst::without_tables(l4(), Variants::default());
    let start = Position::start(l4());
    let v = Variants::default();
    let t1: Throw = "1,3".parse().unwrap();
    let p1 = plays(&start, &v, t1)[0].play.clone();
    let t2: Throw = "4,4".parse().unwrap();
    // B has no dalt piece and no dal: only the pass is legal.
    let bad = p1.clone();
    let e = AnalyseRequest::new()
        .run(&analyst, &start, &[(t1, p1.clone()), (t2, bad)], &(), None)
        .unwrap_err();
    let AnalyseError::Illegal { turn, .. } = &e else {
        panic!("{e:?}")
    };
    assert_eq!(*turn, 2);
    assert_eq!(
        e.to_string(),
        "turn 2: A4-M4 M4-M1 is not a play of the throw 4,4 in AAA./.a.../BBBB b"
    );
    let e = AnalyseRequest::new()
        .run(&analyst, &start, &[(t1, Play::pass())], &(), None)
        .unwrap_err();
    assert!(matches!(e, AnalyseError::Illegal { turn: 1, .. }), "{e:?}");
    let wrong_board = Position::start(Board::NORWEGIAN);
    let e = AnalyseRequest::new()
        .run(&analyst, &wrong_board, &[], &(), None)
        .unwrap_err();
    assert!(matches!(e, AnalyseError::Board { .. }), "{e:?}");
}

/// Without tables the values are the search's: estimates labelled
/// `exact: false`, within [0, 1], the loss never negative.
#[test]
fn without_tables_values_are_estimates() {
    let analyst = Analyst::without_tables(l4(), Variants::default());
    let start = Position::start(l4());
    let turns = game(&RandomPlayer, &RandomPlayer, 3, 0);
    let turns = &turns[..turns.len().min(12)];
    let r = AnalyseRequest::new()
        .time(None)
        .unwrap()
        .max_nodes(Some(20_000))
        .run(&analyst, &start, turns, &(), None)
        .unwrap();
    assert!(r
        .decisions
        .iter()
        .all(|d| d.source == "search" && d.depth.is_some()));
    assert!(r.decisions.iter().any(|d| !d.exact));
    for d in &r.decisions {
        assert!(d.loss >= 0.0 && (0.0..=1.0).contains(&d.best_value));
        assert!(d.played_value <= d.best_value);
    }
    let j = serde_json::to_value(&r).unwrap();
    assert_eq!(j["game"], "daldos");
    let d0 = &j["decisions"][0];
    for k in [
        "ply",
        "side",
        "position",
        "dice",
        "played",
        "best",
        "best_value",
        "played_value",
        "loss",
        "exact",
        "luck",
        "mark",
        "forced",
    ] {
        assert!(d0.get(k).is_some(), "{k} in {d0}");
    }
    assert_eq!(d0["side"], "a");
    assert!(j["summary"]["a"]["marks"]["blunder"].is_u64());
    assert!(j["summary"]["b"]["luck"].is_f64());
}

/// The measurement behind `DEFAULT_ANALYSE_SECONDS` (run with
/// `cargo test --release -p dalkon-daldos --test analyse -- --ignored
/// --nocapture`): a game of 200 throws (capped) between random players on the Norwegian
/// board with full pieces, no tables, the default budget.
#[test]
#[ignore]
fn norwegian_200_throws_timing() {
    let board = Board::NORWEGIAN;
    let g = Daldos::new(Variants::default());
    let cfg = MatchConfig {
        games: 1,
        seed: 19,
        turn_cap: 200,
    };
    let turns = match_game_moves(
        &g,
        &Position::start(board),
        &RandomPlayer,
        &RandomPlayer,
        cfg,
        0,
    );
    let analyst = Analyst::without_tables(board, Variants::default());
    let r = AnalyseRequest::new()
        .run(&analyst, &Position::start(board), &turns, &(), None)
        .unwrap();
    let depths: Vec<u32> = r.decisions.iter().filter_map(|d| d.depth).collect();
    let mut hist = [0usize; 9];
    for d in &depths {
        hist[*d as usize] += 1;
    }
    println!(
        "{} throws, {:.1} s, {} nodes, depths {:?}, exact {}",
        r.decisions.len(),
        r.seconds,
        r.nodes,
        hist,
        r.decisions.iter().filter(|d| d.exact).count()
    );
}

/// The order of the dice changes nothing: the game with every throw's
/// dice swapped is valued the same, and the plays are named as written.
#[test]
fn the_order_of_the_dice_changes_nothing() {
    let analyst = analyst();
    let start = Position::start(l4());
    let v = Variants::default();
    let turns = game(&RandomPlayer, &GreedyPlayer, 8, 0);
    // The same game with the dice swapped and each play as the generator
    // writes it for the swapped throw (same result).
    let mut pos = start;
    let mut swapped = Vec::new();
    for (t, p) in &turns {
        let after = plays(&pos, &v, *t)
            .into_iter()
            .find(|o| o.play == *p)
            .unwrap()
            .result;
        let s = Throw::new(t.second, t.first).unwrap();
        let o = plays(&pos, &v, s)
            .into_iter()
            .find(|o| o.result == after)
            .unwrap();
        swapped.push((s, o.play));
        pos = after;
    }
    let run = |t: &[(Throw, Play)]| {
        AnalyseRequest::new()
            .run(&analyst, &start, t, &(), None)
            .unwrap()
    };
    let (a, b) = (run(&turns), run(&swapped));
    for ((x, y), (_, p)) in a.decisions.iter().zip(&b.decisions).zip(&swapped) {
        assert_eq!(
            (x.best_value, x.played_value, x.luck, x.mark),
            (y.best_value, y.played_value, y.luck, y.mark)
        );
        assert_eq!(y.played, p.notation(l4()));
        if y.loss == 0.0 {
            assert!(y.best.contains(&y.played), "{y:?}");
        }
    }
}

/// A stop raised before the analysis ends it at once: nothing analysed,
/// no result, `stopped` set.
#[test]
fn a_stop_ends_the_analysis_early() {
    use std::sync::atomic::AtomicBool;
    let analyst = analyst();
    let start = Position::start(l4());
    let turns = game(&RandomPlayer, &RandomPlayer, 5, 0);
    let stop = AtomicBool::new(true);
    let r = AnalyseRequest::new()
        .run(&analyst, &start, &turns, &(), Some(&stop))
        .unwrap();
    assert!(r.stopped && r.decisions.is_empty() && r.result.is_none());
    assert_eq!(r.summary.a.luck_adjusted, None);
    let j = serde_json::to_value(&r).unwrap();
    assert_eq!(j["stopped"], true);
}

/// With the search's table kept across the decisions of the game, the
/// analysis (values, depths, node counts) is the same for any thread count.
#[test]
fn the_analysis_does_not_depend_on_the_thread_count() {
    let board = Board::NORWEGIAN;
    let v = Variants::default();
    let analyst = Analyst::without_tables(board, v);
    let g = Daldos::new(v);
    let cfg = MatchConfig {
        games: 1,
        seed: 9,
        turn_cap: 400,
    };
    let start = Position::start(board);
    let e = EnginePlayer::new(1);
    let turns = match_game_moves(&g, &start, &e, &RandomPlayer, cfg, 0);
    let turns = &turns[..turns.len().min(16)];
    let run = || {
        let r = AnalyseRequest::new()
            .time(None)
            .unwrap()
            .max_nodes(Some(60_000))
            .run(&analyst, &start, turns, &(), None)
            .unwrap();
        let per: Vec<_> = r
            .decisions
            .iter()
            .map(|d| {
                (
                    d.best_value.to_bits(),
                    d.played_value.to_bits(),
                    d.depth,
                    d.nodes,
                )
            })
            .collect();
        (per, r.nodes)
    };
    let pool = |n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap()
    };
    let one = pool(1).install(run);
    assert_eq!(one, pool(2).install(run));
    assert!(one.0.iter().any(|&(_, _, d, _)| d >= Some(2)), "{one:?}");
}
