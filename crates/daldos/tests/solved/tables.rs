//! The value tables (`dalkon_daldos::solved`): solved values pinned, every
//! entry checked against one recomputed sweep of the equations, files
//! checked for damage, builds the same for any thread count.

use std::path::Path;
use std::sync::OnceLock;

use dalkon_daldos::solved::{
    check_layer, plan, LayerIndex, LayerKey, NoProgress, TableError, Tables, EPS,
};
use dalkon_rules::daldos::{Board, EndRule, Position, Variants};

fn board4() -> Board {
    Board::new(4).unwrap()
}

/// The whole game on L = 4 under the default rules, built once.
pub fn whole_game() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        let v = Variants::default();
        let p = plan(board4(), &v, (4, 4)).unwrap();
        let mut t = Tables::new(board4(), v, None);
        t.build(&p, EPS, &mut NoProgress).unwrap();
        t
    })
}

#[test]
fn first_player_advantage_on_board_4() {
    let t = whole_game();
    let b = t.bounds(&Position::start(board4())).unwrap();
    assert!(b.gap() <= EPS, "{b:?}");
    // The exact first-player advantage of the L = 4 game, to 1e-12.
    assert!((b.value() - 0.543_902_893_954).abs() < 1e-12, "{b:?}");
    // B to throw at the start (A passed): the mirror of A to throw.
    let b_first = Position::start(board4()).with_side_to_move(dalkon_rules::daldos::Side::B);
    assert_eq!(t.bounds(&b_first), Some(b));
}

#[test]
fn every_layer_of_board_4_is_closed_to_eps_with_pinned_sizes() {
    let t = whole_game();
    let stats = t.stats();
    assert_eq!(stats.len(), 16);
    let size = |a, b| {
        stats
            .iter()
            .find(|s| (s.key.a, s.key.b) == (a, b))
            .unwrap()
            .positions
    };
    assert_eq!(size(1, 1), 237);
    assert_eq!(size(2, 2), 9_759);
    assert_eq!(size(4, 4), 439_908);
    assert_eq!(stats.iter().map(|s| s.positions).sum::<u64>(), 1_343_653);
    for s in &stats {
        assert!(s.gap <= EPS && !s.stalled, "{s:?}");
        assert!(s.mean_w > 0.0 && s.mean_w < 1.0);
    }
    // More pieces than the opponent is worth more: 4 v 1 against 1 v 4.
    let mean = |a, b| {
        stats
            .iter()
            .find(|s| (s.key.a, s.key.b) == (a, b))
            .unwrap()
            .mean_w
    };
    assert!(mean(4, 1) > 0.99 && mean(1, 4) < 0.01);
}

#[test]
fn every_entry_satisfies_one_recomputed_sweep() {
    let t = whole_game();
    for s in t.stats() {
        let c = check_layer(t, s.key).unwrap();
        assert_eq!(c.positions, s.positions);
        // Bounds closed under the equations (up to rounding) ...
        assert!(c.violation <= 1e-15, "{:?}: {c:?}", s.key);
        // ... so the midpoint satisfies them within the gap.
        assert!(c.residual <= EPS && c.gap <= EPS, "{:?}: {c:?}", s.key);
        assert!(c.passes(EPS), "{:?}: {c:?}", s.key);
    }
}

fn build_in(dir: &Path, pieces: (u8, u8), v: Variants) -> Tables {
    let p = plan(board4(), &v, pieces).unwrap();
    let mut t = Tables::new(board4(), v, Some(dir));
    t.build(&p, EPS, &mut NoProgress).unwrap();
    t
}

fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

fn temp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("dalkon-solved-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn the_same_bytes_for_any_thread_count() {
    let mut sets = Vec::new();
    for threads in [1, 2] {
        let dir = temp(&format!("threads{threads}"));
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| build_in(&dir, (3, 3), Variants::default()));
        sets.push(files(&dir));
        std::fs::remove_dir_all(&dir).unwrap();
    }
    assert_eq!(sets[0].len(), 9);
    assert!(sets[0] == sets[1], "files differ between 1 and 2 threads");
}

#[test]
fn files_resume_a_build_and_refuse_damage() {
    let dir = temp("files");
    let v = Variants::default();
    build_in(&dir, (2, 2), v);
    // A larger scope loads the finished layers and builds the rest.
    let p = plan(board4(), &v, (3, 2)).unwrap();
    let mut t = Tables::new(board4(), v, Some(&dir));
    let reports = t.build(&p, EPS, &mut NoProgress).unwrap();
    let loaded: Vec<_> = reports
        .iter()
        .filter(|r| r.loaded)
        .map(|r| (r.stats.key.a, r.stats.key.b))
        .collect();
    assert_eq!(loaded, vec![(1, 1), (2, 1), (1, 2), (2, 2)]);
    // Loaded bounds are the built ones.
    let built = whole_game();
    let key = LayerKey {
        board: board4(),
        a: 2,
        b: 2,
    };
    let index = LayerIndex::new(key);
    for r in (0..index.size()).step_by(97) {
        let pos = index.unrank(r);
        assert_eq!(t.bounds(&pos), built.bounds(&pos));
    }
    // One flipped byte in the data.
    let path = dir.join("daldos-L4-any-final-last-2v2.tbl");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[500] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let mut t = Tables::new(board4(), v, Some(&dir));
    let err = t.load(key).unwrap_err();
    assert!(matches!(err, TableError::BadFile { .. }), "{err}");
    assert!(err.to_string().contains("checksum"), "{err}");
    // A table of other rules under this name.
    let other = dir.join("daldos-L4-any-final-one-2v2.tbl");
    bytes[500] ^= 1;
    std::fs::write(&other, &bytes).unwrap();
    let v_one = Variants {
        end: EndRule::One,
        ..v
    };
    let err = Tables::new(board4(), v_one, Some(&dir))
        .load(key)
        .unwrap_err();
    assert!(err.to_string().contains("rules field"), "{err}");
    // Cut short.
    std::fs::write(&path, &bytes[..1000]).unwrap();
    let err = Tables::new(board4(), v, Some(&dir)).load(key).unwrap_err();
    assert!(err.to_string().contains("cut short"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn end_one_whole_game_on_board_4() {
    let v = Variants {
        end: EndRule::One,
        ..Variants::default()
    };
    let p = plan(board4(), &v, (4, 4)).unwrap();
    // Layers need at least two pieces a side under end=one.
    assert!(p.pairs.iter().all(|k| k.a >= 2 && k.b >= 2));
    let mut t = Tables::new(board4(), v, None);
    t.build(&p, EPS, &mut NoProgress).unwrap();
    let b = t.bounds(&Position::start(board4())).unwrap();
    assert!(b.gap() <= EPS);
    assert!((b.value() - END_ONE_START).abs() < 1e-12, "{b:?}");
}

/// W at the start of the L = 4 game under `end=one` (pinned from the
/// build; see data/daldos/solved.csv).
const END_ONE_START: f64 = 0.547_056_960_062;

#[test]
fn memory_is_checked_before_a_build() {
    let v = Variants::default();
    let p = plan(Board::new(6).unwrap(), &v, (6, 6)).unwrap();
    // The whole L = 6 game: 2,537,117,465 positions of 16 bytes.
    assert_eq!(p.positions, 2_537_117_465);
    let t = Tables::new(Board::new(6).unwrap(), v, None);
    let err = t.check_memory(&p, Some(20 << 30)).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("board 6 up to 6 v 6"), "{text}");
    assert!(text.contains("largest layer, 6 v 6"), "{text}");
    let small = plan(board4(), &v, (4, 4)).unwrap();
    assert!(t.check_memory(&small, Some(20 << 30)).is_ok());
    let err = plan(board4(), &v, (5, 1)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "5 pieces a side do not fit board 4: each side has at most L = 4"
    );
}

#[test]
fn activation_summary_of_board_4() {
    let t = whole_game();
    for (a, b) in [(1, 1), (2, 2), (4, 4)] {
        let key = LayerKey {
            board: board4(),
            a,
            b,
        };
        let rows = dalkon_daldos::solved::activation_summary(t, key).unwrap();
        let n: u64 = rows.iter().map(|r| r.positions).sum();
        assert_eq!(n, LayerIndex::new(key).size());
        let mean = |u| rows.iter().find(|r| r.undalt == u).unwrap().mean_w;
        // Activating first is worth a lot: with both pieces of 1 v 1 the
        // side whose piece is dalt while the other's is not wins 74 % on
        // average; the other way round 37 %.
        if (a, b) == (1, 1) {
            assert!((mean((0, 1)) - 0.739_847).abs() < 1e-6);
            assert!((mean((1, 0)) - 0.372_364).abs() < 1e-6);
        }
        // The layer's one position with every piece undalt is the start.
        if (a, b) == (4, 4) {
            let start = rows.iter().find(|r| r.undalt == (4, 4)).unwrap();
            assert_eq!(start.positions, 1);
            let w = t.bounds(&Position::start(board4())).unwrap();
            assert!((start.mean_w - w.value()).abs() < 1e-15);
        }
    }
}

#[test]
fn a_scope_beyond_64_bits_is_refused_not_wrapped() {
    let v = Variants::default();
    let p = plan(Board::DANISH, &v, (16, 16)).unwrap();
    // Some layers of the whole Danish game have more than 2^64 positions:
    // counted as u64::MAX, never wrapped round to a small number.
    assert_eq!(p.positions, u64::MAX);
    assert_eq!(p.largest.1, u64::MAX);
    // The largest layer is the real one (saturated counts named the first
    // to saturate, 14 v 1), with its size in floating point.
    assert_eq!((p.largest.0.a, p.largest.0.b), (16, 16));
    assert!(
        p.approx.1 > 1.4e25 && p.approx.1 < 1.42e25,
        "{}",
        p.approx.1
    );
    let t = Tables::new(Board::DANISH, v, None);
    let err = t.check_memory(&p, Some(20 << 30)).unwrap_err().to_string();
    assert!(
        err.contains("needs about 1.37e27 bytes (1.28e18 GiB)"),
        "{err}"
    );
    assert!(
        err.contains("the largest layer, 16 v 16, has about 1.41e25 positions"),
        "{err}"
    );
    assert!(!err.contains("18446744073709551615"), "{err}");
}

/// A raised stop flag ends the build with `Interrupted` before the pair in
/// progress is written; the layers finished before it stay, and a build
/// after it resumes from them.
#[test]
fn a_stopped_build_keeps_finished_layers_and_resumes() {
    use std::sync::atomic::AtomicBool;
    let dir = std::env::temp_dir().join(format!("dalkon-stop-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let v = Variants::default();
    // Raised from the start: nothing is solved, nothing written.
    let p = plan(board4(), &v, (2, 2)).unwrap();
    let mut t = Tables::new(board4(), v, Some(&dir));
    let e = t
        .build_until(&p, EPS, &mut NoProgress, &AtomicBool::new(true))
        .unwrap_err();
    assert!(matches!(e, TableError::Interrupted { a: 1, b: 1 }), "{e}");
    assert!(
        e.to_string()
            .contains("interrupted while solving layer 1 v 1"),
        "{e}"
    );
    let files = |d: &Path| std::fs::read_dir(d).unwrap().count();
    assert_eq!(files(&dir), 0);
    // 1 v 1 finished, then stopped: the resumed build loads it.
    build_in(&dir, (1, 1), v);
    let mut t = Tables::new(board4(), v, Some(&dir));
    let e = t
        .build_until(&p, EPS, &mut NoProgress, &AtomicBool::new(true))
        .unwrap_err();
    assert!(matches!(e, TableError::Interrupted { a: 2, b: 1 }), "{e}");
    assert_eq!(files(&dir), 1);
    let mut t = Tables::new(board4(), v, Some(&dir));
    let reports = t.build(&p, EPS, &mut NoProgress).unwrap();
    let loaded: Vec<bool> = reports.iter().map(|r| r.loaded).collect();
    assert_eq!(loaded, [true, false, false, false]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The tables of layers up to 2 v 1 on L = 4 as written by format version
/// 1 before the header code moved to `dalkon-store`: they must still load
/// (nothing rebuilt), and a build today must write the same bytes.
#[test]
fn files_written_by_earlier_builds_load_and_are_written_the_same() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/solved-v1");
    let copy = temp("fixtures");
    for (name, bytes) in files(&fixtures) {
        std::fs::write(copy.join(name), bytes).unwrap();
    }
    let v = Variants::default();
    let p = plan(board4(), &v, (2, 1)).unwrap();
    let mut t = Tables::new(board4(), v, Some(&copy));
    let reports = t.build(&p, EPS, &mut NoProgress).unwrap();
    assert!(!reports.is_empty() && reports.iter().all(|r| r.loaded));
    let built = whole_game();
    for (a, b) in [(1, 1), (2, 1), (1, 2)] {
        let index = LayerIndex::new(LayerKey {
            board: board4(),
            a,
            b,
        });
        for r in 0..index.size() {
            let pos = index.unrank(r);
            assert_eq!(t.bounds(&pos), built.bounds(&pos));
        }
    }
    let fresh = temp("fixtures-fresh");
    build_in(&fresh, (2, 1), v);
    assert!(
        files(&fresh) == files(&fixtures),
        "fresh tables differ from the fixtures"
    );
    std::fs::remove_dir_all(&copy).unwrap();
    std::fs::remove_dir_all(&fresh).unwrap();
}
