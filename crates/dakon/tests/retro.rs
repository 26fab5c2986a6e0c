//! Retrograde databases: values against an independent brute-force negamax
//! and hand-worked positions, thread-count independence, the file format
//! (resume, corruption, wrong board or rules) and refusals.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use dalkon_dakon::rank::Ranker;
use dalkon_dakon::reference::negamax_future;
use dalkon_dakon::retro::file::{LevelKey, HEADER_LEN};
use dalkon_dakon::{solve_retrograde, Databases, DbError, NoProgress};
use dalkon_rules::dakon::{Position, Rules, Side};
use dalkon_store::checksum::fnv1a64;

fn all_rules() -> Vec<Rules> {
    (0..8).map(|c| Rules::from_code(c).unwrap()).collect()
}

fn position(south: &[u8], north: &[u8]) -> Position {
    Position::new(south, north, [0, 0], Side::South).unwrap()
}

/// Every entry of every level agrees with the brute force, for boards of 1
/// to 4 holes and every rule set.
#[test]
fn every_entry_matches_brute_force() {
    for (holes, max_k) in [(1, 12), (2, 9), (3, 7), (4, 5)] {
        for rules in all_rules() {
            let db = Databases::build(holes, rules, max_k, &NoProgress).unwrap();
            let ranker = Ranker::new(holes, max_k);
            let mut memo = HashMap::new();
            let mut checked = 0u64;
            for k in 0..=max_k {
                let level = db.level(k).unwrap();
                assert_eq!(level.len() as u64, ranker.level_count(k));
                for (i, &e) in level.iter().enumerate() {
                    let cells = ranker.unrank(i as u64, k).unwrap();
                    let pos = position(&cells[..holes], &cells[holes..]);
                    let want = negamax_future(pos, &rules, &mut memo);
                    assert_eq!(i32::from(e as i8), want, "{rules}: {pos}");
                    // The same position with North to move probes the same.
                    assert_eq!(db.probe(&pos.flipped()), Some(want), "{rules}: {pos}");
                    checked += 1;
                }
            }
            assert_eq!(checked, db.positions());
        }
    }
}

/// Whole-board solves (value and best moves) agree with the brute force.
#[test]
fn start_positions_match_brute_force() {
    for (holes, seeds) in [(1, 1), (1, 5), (2, 1), (2, 2), (3, 1), (3, 2), (4, 1)] {
        for rules in all_rules() {
            let start = Position::start(holes, seeds).unwrap();
            let sol = solve_retrograde(&start, rules, None, &NoProgress).unwrap();
            let mut memo = HashMap::new();
            assert_eq!(
                sol.value,
                negamax_future(start, &rules, &mut memo),
                "{rules} {start}"
            );
            let me = start.side_to_move();
            let mut want_best = Vec::new();
            for h in start.moves() {
                let next = start.play(h, &rules).unwrap();
                let f = negamax_future(next, &rules, &mut memo);
                let v = i32::from(next.store(me)) - i32::from(next.store(me.other()))
                    + if next.side_to_move() == me { f } else { -f };
                assert!(sol.moves.contains(&(h, v)), "{rules} {start} move {h}");
                if v == sol.value {
                    want_best.push(h);
                }
            }
            assert_eq!(sol.best_moves, want_best);
            assert_eq!(
                sol.positions,
                (0..=2 * holes as u64 * u64::from(seeds))
                    .map(|k| Ranker::new(holes, 127).level_count(k as u32))
                    .sum::<u64>()
            );
        }
    }
}

/// Positions worked by hand (the comments give the play).
#[test]
fn hand_worked_values() {
    let default = Rules::default();
    let skip = Rules::from_code(1).unwrap();
    let take = Rules::from_code(4).unwrap();
    let one = Databases::build(1, default, 4, &NoProgress).unwrap();
    // 1/0: the seed goes to the store (bonus), South has nothing left.
    assert_eq!(one.probe(&position(&[1], &[0])), Some(1));
    // 1/1: the same, then North's seed is swept to North.
    assert_eq!(one.probe(&position(&[1], &[1])), Some(0));
    // 2/0: store, then North 1 (no mikul on an end hole); North sows its seed
    // into its store and the game ends: 1 each.
    assert_eq!(one.probe(&position(&[2], &[0])), Some(0));
    // 3/0: store, North 1, back into the emptied origin: nembak takes North 1
    // (2 in store), North cannot move, South's landing seed is swept to
    // South: +3.
    assert_eq!(one.probe(&position(&[3], &[0])), Some(3));
    // 0/4: South cannot move, North sweeps 4.
    assert_eq!(one.probe(&position(&[0], &[4])), Some(-4));
    // origin=skip, 3/0: store, North 1, store (skipping the origin) = bonus
    // with 2 in store, then South is empty and North sweeps 1: +1.
    let one_skip = Databases::build(1, skip, 3, &NoProgress).unwrap();
    assert_eq!(one_skip.probe(&position(&[3], &[0])), Some(1));
    // nembak=take, 3/0: the landing seed is captured too; still +3.
    let one_take = Databases::build(1, take, 3, &NoProgress).unwrap();
    assert_eq!(one_take.probe(&position(&[3], &[0])), Some(3));

    let two = Databases::build(2, default, 3, &NoProgress).unwrap();
    // 2,0/1,0: S1 -> S2, store (bonus); S2 -> store (bonus); South is empty,
    // North sweeps its 1: 2 - 1.
    assert_eq!(two.probe(&position(&[2, 0], &[1, 0])), Some(1));
    // 1,0/0,0: S1 -> S2 (empty, opposite N1 empty: nothing), North cannot
    // move, South's seed is swept to South.
    assert_eq!(two.probe(&position(&[1, 0], &[0, 0])), Some(1));
    // 1,1/0,1: move 1 relays S2's 2 seeds to the store and N1, and North then
    // plays 2 (bonus) and 1 and sweeps: 1 - 2 = -1. Move 2 is a bonus, then
    // S1 -> S2, North plays 2 (bonus) and the game ends with South's seed
    // swept to South: 2 - 1 = +1.
    let p = position(&[1, 1], &[0, 1]);
    assert_eq!(two.probe(&p), Some(1));
    let sol = two.solve(&p).unwrap();
    assert_eq!(sol.moves, vec![(1, -1), (2, 1)]);
    assert_eq!(sol.best_moves, vec![2]);
    // Stores count in the value but not in the probe.
    let banked = Position::new(&[1, 1], &[0, 1], [5, 2], Side::South).unwrap();
    assert_eq!(two.probe(&banked), Some(1));
    assert_eq!(two.value(&banked), Some(4));
    // North to move sees the same game from the other side.
    let north = Position::new(&[0, 1], &[1, 1], [2, 5], Side::North).unwrap();
    assert_eq!(two.value(&north), Some(4));
}

/// The bytes do not depend on the number of threads.
#[test]
fn same_bytes_with_one_and_two_threads() {
    let build = |threads| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| Databases::build(4, Rules::default(), 13, &NoProgress).unwrap())
    };
    let (a, b) = (build(1), build(2));
    for k in 0..=13 {
        assert_eq!(a.checksum(k), b.checksum(k), "level {k}");
        assert_eq!(a.level(k), b.level(k));
    }
    // Pinned so a change in the values (not only in determinism) shows.
    let start = Position::start(4, 1).unwrap();
    assert_eq!(a.value(&start), Some(6));
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!("dalkon-retro-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn key(holes: u32, rules: Rules, level: u32) -> LevelKey {
    LevelKey {
        holes,
        rules: rules.code(),
        level,
    }
}

fn read(dir: &Path, k: LevelKey) -> Vec<u8> {
    std::fs::read(k.path(dir)).unwrap()
}

#[test]
fn files_resume_and_match_memory() {
    let tmp = TempDir::new("resume");
    let rules = Rules::default();
    let first = Databases::open_or_build(&tmp.0, 3, rules, 8, &NoProgress).unwrap();
    assert_eq!(first.loaded(), 0);
    assert_eq!(first.built(), 3003); // C(14, 6)
    let memory = Databases::build(3, rules, 8, &NoProgress).unwrap();
    let files: Vec<Vec<u8>> = (0..=8).map(|k| read(&tmp.0, key(3, rules, k))).collect();
    for k in 0..=8 {
        assert_eq!(&files[k as usize][HEADER_LEN..], memory.level(k).unwrap());
        assert_eq!(first.checksum(k), memory.checksum(k));
    }
    drop(first);

    // An interrupted build: the last level is missing. Reopening builds only
    // that level and writes the same bytes.
    std::fs::remove_file(key(3, rules, 8).path(&tmp.0)).unwrap();
    let again = Databases::open_or_build(&tmp.0, 3, rules, 8, &NoProgress).unwrap();
    assert_eq!(again.built(), Ranker::new(3, 8).level_count(8));
    assert_eq!(again.loaded() + again.built(), 3003);
    for k in 0..=8 {
        assert_eq!(read(&tmp.0, key(3, rules, k)), files[k as usize]);
        assert_eq!(again.level(k), memory.level(k));
    }
    // Everything on disk now: nothing is built, probes come from the files.
    let loaded = Databases::open_or_build(&tmp.0, 3, rules, 8, &NoProgress).unwrap();
    assert_eq!((loaded.built(), loaded.loaded()), (0, 3003));
    let p = Position::start(3, 1).unwrap();
    assert_eq!(loaded.solve(&p).unwrap(), memory.solve(&p).unwrap());
    // A higher level on top of loaded ones.
    let more = Databases::open_or_build(&tmp.0, 3, rules, 9, &NoProgress).unwrap();
    let more_memory = Databases::build(3, rules, 9, &NoProgress).unwrap();
    assert_eq!(more.level(9), more_memory.level(9));
    // No temporary file is left behind.
    for entry in std::fs::read_dir(&tmp.0).unwrap() {
        let name = entry.unwrap().file_name();
        assert!(name.to_string_lossy().ends_with(".db"), "{name:?}");
    }
}

#[test]
fn damaged_or_foreign_files_are_refused() {
    let tmp = TempDir::new("refuse");
    let rules = Rules::default();
    Databases::open_or_build(&tmp.0, 2, rules, 6, &NoProgress).unwrap();
    let level5 = key(2, rules, 5).path(&tmp.0);
    let good = std::fs::read(&level5).unwrap();

    // One flipped bit in the payload: checksum refusal.
    let mut bad = good.clone();
    bad[HEADER_LEN + 3] ^= 1;
    std::fs::write(&level5, &bad).unwrap();
    let err = Databases::open_or_build(&tmp.0, 2, rules, 6, &NoProgress).unwrap_err();
    assert!(matches!(err, DbError::Checksum { .. }), "{err}");
    assert!(err.to_string().contains("checksum mismatch"), "{err}");

    // Truncated.
    std::fs::write(&level5, &good[..good.len() - 1]).unwrap();
    let err = Databases::open_or_build(&tmp.0, 2, rules, 6, &NoProgress).unwrap_err();
    assert!(matches!(err, DbError::Truncated { .. }), "{err}");
    std::fs::write(&level5, &good).unwrap();

    // A file of these rules under the name of other rules.
    let skip = Rules::from_code(1).unwrap();
    Databases::open_or_build(&tmp.0, 2, skip, 4, &NoProgress).unwrap();
    std::fs::copy(&level5, key(2, skip, 5).path(&tmp.0)).unwrap();
    let err = Databases::open_or_build(&tmp.0, 2, skip, 5, &NoProgress).unwrap_err();
    assert!(
        matches!(
            err,
            DbError::WrongRules {
                expected: 1,
                found: 0,
                ..
            }
        ),
        "{err}"
    );

    // A file of this board under the name of another board size.
    std::fs::copy(&level5, key(3, rules, 5).path(&tmp.0)).unwrap();
    let err = Databases::open_or_build(&tmp.0, 3, rules, 5, &NoProgress).unwrap_err();
    assert!(
        matches!(
            err,
            DbError::WrongBoard {
                expected: 3,
                found: 2,
                ..
            }
        ),
        "{err}"
    );

    // The untouched set still opens and checks.
    let ok = Databases::open_or_build(&tmp.0, 2, rules, 6, &NoProgress).unwrap();
    assert_eq!(ok.checksum(5), Some(fnv1a64(&good[HEADER_LEN..])));
}

/// Temporaries a killed build left (its pid gone) are removed when the
/// folder is opened for a build; another board's are left alone.
#[test]
fn stale_temporaries_are_removed_on_open() {
    let tmp = TempDir::new("stale");
    let rules = Rules::default();
    // No process has this id: Linux pids stop at 2^22.
    let ours = tmp.0.join("dakon-n2-r0-k003.db.999999999.tmp");
    let other_board = tmp.0.join("dakon-n3-r0-k003.db.999999999.tmp");
    std::fs::write(&ours, b"half a level").unwrap();
    std::fs::write(&other_board, b"half a level").unwrap();
    Databases::open_or_build(&tmp.0, 2, rules, 4, &NoProgress).unwrap();
    assert!(!ours.exists(), "a dead build's temporary is removed");
    assert!(
        other_board.exists(),
        "another board's files are not touched"
    );
}

/// Every header field forged in a real written file is refused, each by
/// the error that names it; an edit that makes the fields look right (a
/// level of other rules renamed, its rules field changed to match) is
/// refused by the checksum, which covers the header.
#[test]
fn every_forged_header_field_is_refused() {
    let tmp = TempDir::new("forge");
    let rules = Rules::default();
    Databases::open_or_build(&tmp.0, 2, rules, 5, &NoProgress).unwrap();
    let path = key(2, rules, 5).path(&tmp.0);
    let good = std::fs::read(&path).unwrap();
    let refusal = |bytes: &[u8]| {
        std::fs::write(&path, bytes).unwrap();
        Databases::open_or_build(&tmp.0, 2, rules, 5, &NoProgress).unwrap_err()
    };
    type Is = fn(&DbError) -> bool;
    let fields: [(usize, &str, Is); 11] = [
        (0, "magic", |e| matches!(e, DbError::NotADatabase { .. })),
        (8, "version", |e| {
            matches!(e, DbError::Version { found: 3, .. })
        }),
        (12, "game", |e| matches!(e, DbError::WrongGame { .. })),
        (20, "holes", |e| {
            matches!(e, DbError::WrongBoard { found: 3, .. })
        }),
        (24, "rules", |e| {
            matches!(e, DbError::WrongRules { found: 1, .. })
        }),
        (28, "level", |e| {
            matches!(e, DbError::WrongLevel { found: 4, .. })
        }),
        (32, "width", |e| {
            matches!(e, DbError::EntryWidth { found: 0, .. })
        }),
        (36, "count", |e| matches!(e, DbError::WrongCount { .. })),
        (44, "checksum", |e| matches!(e, DbError::Checksum { .. })),
        (52, "first reserved byte", |e| {
            matches!(e, DbError::Reserved { .. })
        }),
        (63, "last reserved byte", |e| {
            matches!(e, DbError::Reserved { .. })
        }),
    ];
    for (at, field, is_its_error) in fields {
        let mut forged = good.clone();
        forged[at] ^= 1;
        let err = refusal(&forged);
        assert!(is_its_error(&err), "{field}: {err}");
    }

    // A version-1 file (the old layout) says what to do.
    let mut old = good.clone();
    old[8..12].copy_from_slice(&1u32.to_le_bytes());
    let err = refusal(&old);
    assert!(
        matches!(
            err,
            DbError::Version {
                found: 1,
                expected: 2,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("delete"), "{err}");
    std::fs::write(&path, &good).unwrap();

    // This level under the name of the skip rules, its rules field edited
    // to say so: every field matches, the checksum does not.
    let skip = Rules::from_code(1).unwrap();
    Databases::open_or_build(&tmp.0, 2, skip, 4, &NoProgress).unwrap();
    let mut renamed = good.clone();
    renamed[24..28].copy_from_slice(&1u32.to_le_bytes());
    std::fs::write(key(2, skip, 5).path(&tmp.0), &renamed).unwrap();
    let err = Databases::open_or_build(&tmp.0, 2, skip, 5, &NoProgress).unwrap_err();
    assert!(matches!(err, DbError::Checksum { .. }), "{err}");

    // The untouched file still opens.
    Databases::open_or_build(&tmp.0, 2, rules, 5, &NoProgress).unwrap();
}

#[test]
fn impossible_builds_are_refused() {
    let rules = Rules::default();
    let err = Databases::build(7, rules, 98, &NoProgress).unwrap_err();
    assert!(matches!(err, DbError::OutOfMemory { .. }), "{err}");
    assert!(err.to_string().contains("needs"), "{err}");
    // Refused before anything touches the disk.
    let dir = std::env::temp_dir().join(format!("dalkon-retro-{}-refused", std::process::id()));
    let err = Databases::open_or_build(&dir, 7, rules, 98, &NoProgress).unwrap_err();
    assert!(matches!(err, DbError::OutOfMemory { .. }), "{err}");
    assert!(!dir.exists());
    let err = Databases::build(1, rules, 128, &NoProgress).unwrap_err();
    assert!(
        matches!(
            err,
            DbError::LevelTooLarge {
                level: 128,
                max: 127
            }
        ),
        "{err}"
    );
    let err = Databases::build(0, rules, 3, &NoProgress).unwrap_err();
    assert!(matches!(err, DbError::Holes { .. }), "{err}");
    let err = Databases::build(17, rules, 3, &NoProgress).unwrap_err();
    assert!(matches!(err, DbError::Holes { .. }), "{err}");
    // Out of range probes are None, not a panic.
    let db = Databases::build(2, rules, 4, &NoProgress).unwrap();
    assert!(db.probe(&Position::start(2, 1).unwrap()).is_some());
    assert_eq!(db.probe(&Position::start(2, 2).unwrap()), None);
    assert_eq!(db.probe(&Position::start(3, 1).unwrap()), None);
    let err = db.solve(&Position::start(2, 2).unwrap()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the databases hold 2 holes per side and up to 4 seeds on the board; \
         2,2/2,2/0,0 0 is not covered"
    );
}

/// Set entry `index` of the level file `path` to `value` and reseal the
/// checksum as docs/formats.md §1.3 describes: FNV-1a 64 of the payload,
/// then of header bytes 0..44 and 52..64, stored at offset 44.
fn forge_entry(path: &Path, index: usize, value: i8) {
    let mut raw = std::fs::read(path).unwrap();
    raw[HEADER_LEN + index] = value as u8;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let bytes = raw[HEADER_LEN..]
        .iter()
        .chain(&raw[..44])
        .chain(&raw[52..HEADER_LEN]);
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    raw[44..52].copy_from_slice(&h.to_le_bytes());
    std::fs::write(path, raw).unwrap();
}

/// Issue 24 item 2: a resealed entry of 100 with 18 seeds on the board
/// (3x3's start, rank 20466) was read as the value 100 with no best move.
#[test]
fn a_resealed_impossible_entry_is_refused() {
    let tmp = TempDir::new("forged-range");
    let rules = Rules::default();
    let start = Position::start(3, 3).unwrap();
    let good = solve_retrograde(&start, rules, Some(&tmp.0), &NoProgress).unwrap();
    assert_eq!((good.value, good.best_moves.clone()), (10, vec![1]));
    let path = key(3, rules, 18).path(&tmp.0);
    forge_entry(&path, 20466, 100);
    let err = solve_retrograde(&start, rules, Some(&tmp.0), &NoProgress).unwrap_err();
    assert!(
        matches!(
            err,
            DbError::OutOfRange {
                index: 20466,
                value: 100,
                level: 18,
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        format!(
            "{}: entry 20466 is 100, but no margin exceeds the 18 seeds on the board: \
             the file is damaged or forged; delete it to rebuild",
            path.display()
        )
    );
    // -18 is as far as a margin goes: accepted by the range check, but not
    // the best of the start's moves, so the solve is refused rather than
    // answered with no best move.
    forge_entry(&path, 20466, -18);
    let err = solve_retrograde(&start, rules, Some(&tmp.0), &NoProgress).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{}: the entry of 3,3,3/3,3,3/0,0 0 gives the value -18, but its best move gives \
             10: the databases are damaged or forged; delete the folder to rebuild",
            path.display()
        )
    );
}

/// The level files of 2 holes up to 4 seeds as written by format version 2
/// before the header code moved to `dalkon-store`: they must still load (no
/// level rebuilt), and a build today must write the same bytes.
#[test]
fn files_written_by_earlier_builds_load_and_are_written_the_same() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/retro-v2");
    let rules = Rules::default();
    let copy = TempDir::new("fixtures");
    for k in 0..=4 {
        let name = key(2, rules, k).file_name();
        std::fs::copy(fixtures.join(&name), copy.0.join(&name)).unwrap();
    }
    let loaded = Databases::open_or_build(&copy.0, 2, rules, 4, &NoProgress).unwrap();
    assert_eq!((loaded.built(), loaded.loaded()), (0, 70)); // C(8, 4)
    let memory = Databases::build(2, rules, 4, &NoProgress).unwrap();
    for k in 0..=4 {
        assert_eq!(loaded.level(k), memory.level(k));
    }
    let fresh = TempDir::new("fixtures-fresh");
    Databases::open_or_build(&fresh.0, 2, rules, 4, &NoProgress).unwrap();
    for k in 0..=4 {
        let name = key(2, rules, k).file_name();
        assert_eq!(
            std::fs::read(fresh.0.join(&name)).unwrap(),
            std::fs::read(fixtures.join(&name)).unwrap(),
            "{name}"
        );
    }
}
