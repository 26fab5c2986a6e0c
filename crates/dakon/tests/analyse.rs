//! `analyse` on small boards, where every search finishes: each decision
//! agrees with a fresh `best --every-move` of its position, hand-worked
//! games get their marks, forced moves are left out of the summary, an
//! illegal move is refused with its ply, and the answer does not depend on
//! the number of threads.

use dalkon_dakon::request::{
    AnalyseReport, AnalyseRequest, BestRequest, Mark, Marks, BLUNDER_SEEDS, MISTAKE_SEEDS,
};
use dalkon_dakon::SolveError;
use dalkon_rules::dakon::{Position, Rules};

/// Every search exact: no time limit.
fn exact() -> AnalyseRequest {
    AnalyseRequest::new(Rules::default()).time(None).unwrap()
}

fn holes(text: &str) -> Vec<usize> {
    text.split_whitespace()
        .map(|h| h.parse().unwrap())
        .collect()
}

/// 4 × 4 games of the engine with random moves mixed in (made with the
/// engine of `dalkon_dakon::game` and a seeded random pick): blunders,
/// mistakes, bonus moves and forced moves.
const GAMES_4X4: [&str; 3] = [
    "1 4 2 4 1 4 1 4 3 2 2 1 1 2 4",
    "1 4 2 4 2 4 3 4 2 1 4 1 3 4 1 4 1 3 4",
    "2 2 3 4 4 1 3 2 1 3 4 3 2 4",
];

fn analyse(start: &Position, game: &str) -> AnalyseReport {
    exact().run(start, &holes(game), None, None).unwrap()
}

/// On a fully exact analysis each decision's numbers are those of `dakon
/// best --every-move` at its position, searched afresh.
#[test]
fn every_decision_agrees_with_a_fresh_best_every_move() {
    let start = Position::start(4, 4).unwrap();
    let rules = Rules::default();
    let best = BestRequest {
        every_move: true,
        ..BestRequest::new(rules)
    };
    for game in GAMES_4X4 {
        let moves = holes(game);
        let r = analyse(&start, game);
        assert_eq!(r.decisions.len(), moves.len());
        let mut p = start;
        for (i, d) in r.decisions.iter().enumerate() {
            let fresh = best.run(&p, None).unwrap();
            let played = fresh
                .moves
                .iter()
                .find(|m| m.hole == moves[i])
                .unwrap()
                .value
                .unwrap();
            assert_eq!(d.ply, i + 1);
            assert_eq!(d.position, p);
            assert_eq!(d.side, p.side_to_move().index());
            assert_eq!(d.played, moves[i]);
            assert!(d.exact, "{game}: ply {}", d.ply);
            assert_eq!(
                (d.best_value, d.played_value, d.loss),
                (fresh.value, played, fresh.value - played),
                "{game}: ply {}",
                d.ply
            );
            assert_eq!(d.forced, fresh.moves.len() == 1);
            if !d.forced {
                assert_eq!(d.best, fresh.best_moves, "{game}: ply {}", d.ply);
            }
            assert_eq!(d.mark, Mark::of_loss(d.loss));
            assert_eq!((d.lower, d.loss_lower, d.estimate), (None, None, None));
            p = p.play(moves[i], &rules).unwrap();
        }
        assert_eq!(r.end, p);
        assert!(!r.stopped);
    }
}

/// The first game in full: its blunder at ply 8 (South 4, 22 seeds of
/// margin lost), North's mistake at ply 9, two forced moves, and the
/// summary that counts the rest.
#[test]
fn the_summary_counts_the_decisions_with_a_choice() {
    let r = analyse(&Position::start(4, 4).unwrap(), GAMES_4X4[0]);
    let losses: Vec<(usize, i32, bool)> = r
        .decisions
        .iter()
        .filter(|d| d.loss > 0 || d.forced)
        .map(|d| (d.ply, d.loss, d.forced))
        .collect();
    assert_eq!(
        losses,
        vec![(8, 22, false), (9, 8, false), (13, 0, true), (15, 0, true)]
    );
    let d = &r.decisions[7];
    assert_eq!((d.best_value, d.played_value, &d.best), (32, 10, &vec![3]));
    assert_eq!(d.mark, Some(Mark::Blunder));
    assert_eq!(r.decisions[8].mark, Some(Mark::Mistake));
    // South moved at plies 1-8, 10, 12, 14; North at 9, 11, 13 (forced)
    // and 15 (forced).
    let south = &r.summary.south;
    assert_eq!((south.decisions, south.exact), (11, 11));
    assert_eq!(south.mean_loss, 22.0 / 11.0);
    let blunder = Marks {
        blunder: 1,
        ..Marks::default()
    };
    assert_eq!(south.marks, blunder);
    let north = &r.summary.north;
    assert_eq!((north.decisions, north.mean_loss), (2, 4.0));
    let mistake = Marks {
        mistake: 1,
        ..Marks::default()
    };
    assert_eq!(north.marks, mistake);
}

/// `1,1,0/6,0,0/0,0 0` (3 holes; South S1 = S2 = 1, North N1 = 6): S2
/// sows into the empty S3, whose opposite hole N1 holds 6 — a nembak
/// captures them, North's row is empty and South's 2 seeds go to South:
/// +8, every seed. S1 instead relays S2's 2 seeds into S3 and the store (a
/// bonus), then S3, South's only move, ends in the store again: South's
/// row is empty with South to move, and North keeps its 6: 2 - 6 = -4.
/// Playing S1 loses 12 seeds of margin, a blunder; the forced S3 after it
/// is not counted.
#[test]
fn a_hand_worked_blunder_is_marked() {
    let start: Position = "1,1,0/6,0,0/0,0 0".parse().unwrap();
    let r = exact().run(&start, &[1, 3], None, None).unwrap();
    let d = &r.decisions[0];
    assert_eq!(
        (d.best.as_slice(), d.best_value, d.played_value, d.loss),
        ([2].as_slice(), 8, -4, 12)
    );
    assert_eq!(BLUNDER_SEEDS, 12);
    assert_eq!(d.mark, Some(Mark::Blunder));
    let forced = &r.decisions[1];
    assert!(forced.forced);
    assert_eq!(
        (
            forced.best_value,
            forced.played_value,
            forced.loss,
            forced.mark
        ),
        (-4, -4, 0, None)
    );
    assert_eq!(r.summary.south.decisions, 1);
    assert_eq!(r.summary.south.mean_loss, 12.0);
    assert_eq!(r.summary.south.marks.blunder, 1);
    assert_eq!(r.summary.north.decisions, 0);
    assert!(r.end.is_over());
    let j = serde_json::to_value(&r).unwrap();
    assert_eq!(j["summary"]["0"]["marks"]["blunder"], 1);
    assert_eq!(j["summary"]["1"]["decisions"], 0);
    assert_eq!(j["decisions"][0]["mark"], "blunder");
    assert_eq!(j["decisions"][1]["mark"], serde_json::Value::Null);
}

/// `0,1,2/1,0,1/0,0 0` (3 holes): S3 relays through N1, N3 and S2 and ends
/// in South's store; S1 then captures N2's seed by a nembak at S2 and
/// North's row is empty: South gets all 5 seeds, +5. S2 instead relays
/// S3's 3 seeds into the store, N1 and the empty N2 (no mikul: its
/// neighbours hold 2 and 1) and leaves South's row empty: South has 1,
/// North keeps its 4 (N3 into the store, a bonus, then N2 into the empty
/// N3, and South cannot move): -3. A loss of 8, a mistake.
#[test]
fn a_hand_worked_mistake_is_marked() {
    let start: Position = "0,1,2/1,0,1/0,0 0".parse().unwrap();
    let r = exact().run(&start, &[2, 3, 2], None, None).unwrap();
    let d = &r.decisions[0];
    assert_eq!(
        (d.best.as_slice(), d.best_value, d.played_value, d.loss),
        ([3].as_slice(), 5, -3, 8)
    );
    assert!((MISTAKE_SEEDS..BLUNDER_SEEDS).contains(&8));
    assert_eq!(d.mark, Some(Mark::Mistake));
    // North's two moves keep all 4 of its seeds: best play.
    for d in &r.decisions[1..] {
        assert_eq!((d.side, d.best_value, d.loss, d.mark), (1, 3, 0, None));
    }
    assert_eq!(r.summary.north.decisions, 2);
    assert_eq!(r.summary.south.marks.mistake, 1);
}

#[test]
fn an_illegal_move_is_refused_with_its_ply() {
    let start = Position::start(4, 4).unwrap();
    // Ply 2 is South's again after the bonus of S1, which is empty.
    let e = exact().run(&start, &[1, 1], None, None).unwrap_err();
    match &e {
        SolveError::Move { index, hole, .. } => assert_eq!((*index, *hole), (2, 1)),
        other => panic!("{other:?}"),
    }
    assert!(e.is_bad_input());
    assert_eq!(e.to_string(), "move 2 (hole 1) in 0,5,5,5/4,4,4,4/1,0 0");
    let e = exact().run(&start, &[9], None, None).unwrap_err();
    assert!(
        matches!(
            e,
            SolveError::Move {
                index: 1,
                hole: 9,
                ..
            }
        ),
        "{e:?}"
    );
    // A move after the end of the game.
    let over: Position = "1,1,0/6,0,0/0,0 0".parse().unwrap();
    let e = exact().run(&over, &[2, 1], None, None).unwrap_err();
    assert!(
        matches!(
            e,
            SolveError::Move {
                index: 2,
                hole: 1,
                ..
            }
        ),
        "{e:?}"
    );
}

/// The same answer with one thread as with two (nodes and times aside).
#[test]
fn the_analysis_does_not_depend_on_the_threads() {
    let start = Position::start(4, 4).unwrap();
    let with = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| analyse(&start, GAMES_4X4[1]))
    };
    let strip = |r: AnalyseReport| {
        let mut j = serde_json::to_value(&r).unwrap();
        j["nodes"] = 0.into();
        j["seconds"] = 0.into();
        for d in j["decisions"].as_array_mut().unwrap() {
            d["nodes"] = 0.into();
            d["seconds"] = 0.into();
        }
        j
    };
    assert_eq!(strip(with(1)), strip(with(2)));
}

/// Progress hears each search; a stop before the first search gives an
/// empty report marked stopped.
#[test]
fn progress_and_stop() {
    let start = Position::start(4, 4).unwrap();
    let moves = holes(GAMES_4X4[0]);
    let seen = std::sync::Mutex::new(Vec::new());
    let hear = |done: usize, total: usize| seen.lock().unwrap().push((done, total));
    exact().run(&start, &moves, Some(&hear), None).unwrap();
    // 15 plies, 2 of them forced; the game is over at the end.
    let seen = seen.into_inner().unwrap();
    assert_eq!(seen, (1..=13).map(|d| (d, 13)).collect::<Vec<_>>());
    let search = dalkon_dakon::search::SearchProgress::default();
    search
        .stop
        .store(true, std::sync::atomic::Ordering::Relaxed);
    let r = exact().run(&start, &moves, None, Some(&search)).unwrap();
    assert!(r.stopped && r.decisions.is_empty());
    assert_eq!(serde_json::to_value(&r).unwrap()["stopped"], true);
}
