//! Property-based fuzzing of what dalkon reads back from disk and from long
//! input lines, run in-process through [`dalkon_cli::run`] (issue 24: no
//! forged or impossible value accepted, no panic on a damaged checkpoint, no
//! unbounded read). Four kinds, one test each:
//!
//! - `table_value`: Daldøs solved tables (board 4, up to 2 v 2) with forged
//!   entries (NaN, ±inf, negative, above 1, lower > upper, in-range values,
//!   random bytes), resealed with the checksum of docs/formats.md §4.1, read
//!   by `daldos value` and `daldos solve --check`;
//! - `database_value`: the Dakon 3×3 retrograde databases with forged value
//!   bytes (within and outside ±k), resealed as in docs/formats.md §1.3,
//!   read by `dakon solve` (retrograde, or search with database probes);
//! - `checkpoint`: a 6×4 openings working folder stopped after a checkpoint
//!   of the forward or the backward pass, its `state` or layer files edited
//!   (payload edits resealed, docs/formats.md §2.2), resumed by `dakon
//!   openings`;
//! - `endless_line`: batch mode (`dakon best`, `daldos moves` with
//!   `--position -`) fed lines of up to several MiB among good ones.
//!
//! A forger can reseal any checksum, so the checksums are recomputed here
//! from the documented formats. Properties: no panic and no hang (each run
//! on its own thread with a deadline); the exit codes of docs/cli.md; every
//! value printed possible (docs/formats.md §1.4 and §4); a resumed count
//! either refused or exact. Reproducible (fixed seeds; `DALKON_FUZZ_SEED`
//! explores others); `DALKON_FUZZ_CASES_<KIND>` (or `DALKON_FUZZ_CASES`)
//! sets the number of cases. Every file goes to a temporary folder, removed
//! at the end.

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use dalkon_dakon::openings::{plan_count, CountLimits, CountRequest, OpeningsProgress, Pass};
use dalkon_daldos::solved::{LayerIndex, LayerKey};
use dalkon_rules::daldos::{Board, Cell, Hole, Side};
use dalkon_rules::{dakon, daldos};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use serde_json::Value;

/// Longest a single case's run may take before it counts as a hang.
const DEADLINE: Duration = Duration::from_secs(60);

/// The longest batch line answered (docs/cli.md, batch mode): 1 MiB.
const MAX_LINE: usize = 1 << 20;

fn cases(kind: &str, default: u32) -> u32 {
    let own = format!("DALKON_FUZZ_CASES_{}", kind.to_ascii_uppercase());
    [own.as_str(), "DALKON_FUZZ_CASES"]
        .iter()
        .find_map(|k| std::env::var(k).ok())
        .map(|v| {
            v.trim()
                .parse()
                .unwrap_or_else(|_| panic!("bad case count {v:?}"))
        })
        .unwrap_or(default)
}

/// A runner with a seed of its own for `kind`.
fn runner(kind: &str, cases: u32) -> TestRunner {
    let salt: u64 = std::env::var("DALKON_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut seed = [0u8; 32];
    let mut h = fnv1a64(kind.as_bytes(), 0xcbf2_9ce4_8422_2325 ^ salt);
    h = h.wrapping_add(24);
    seed[..8].copy_from_slice(&h.to_le_bytes());
    seed[8..16].copy_from_slice(&salt.to_le_bytes());
    let config = Config {
        cases,
        failure_persistence: None,
        rng_algorithm: RngAlgorithm::ChaCha,
        max_shrink_iters: 200,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed))
}

/// FNV-1a 64 going on from `h` (docs/formats.md §1.3).
fn fnv1a64(bytes: &[u8], mut h: u64) -> u64 {
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    h
}

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// A temporary folder of one test, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(kind: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("dalkon-fuzz-files-{kind}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The files of a folder (no subfolders), by name.
type Files = Vec<(String, Vec<u8>)>;

fn read_folder(dir: &Path) -> Files {
    let mut files: Files = std::fs::read_dir(dir)
        .expect("a folder")
        .map(|e| {
            let e = e.expect("an entry");
            let name = e.file_name().into_string().expect("a UTF-8 name");
            (name, std::fs::read(e.path()).expect("a file"))
        })
        .collect();
    files.sort();
    files
}

/// Write `files` into a new folder `dir` (replacing any old one).
fn write_folder(dir: &Path, files: &Files) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).expect("a folder");
    for (name, bytes) in files {
        std::fs::write(dir.join(name), bytes).expect("a file written");
    }
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

/// Exit code and both streams of one in-process run.
struct Run {
    code: i32,
    out: String,
    err: String,
}

/// Run `dalkon args` on a thread of its own with `stdin`: a panic or a run
/// past the deadline is the case's failure (`what` says which case).
fn run(what: &str, args: Vec<String>, stdin: Vec<u8>) -> Result<Run, TestCaseError> {
    let (tx, rx) = mpsc::channel();
    let shown = format!(
        "{what}: {:?}",
        args.iter().map(|a| short(a)).collect::<Vec<_>>()
    );
    std::thread::spawn(move || {
        let r = std::panic::catch_unwind(move || {
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let mut stdin = Cursor::new(stdin);
            let code = dalkon_cli::run(
                std::iter::once("dalkon".to_owned()).chain(args),
                dalkon_cli::Streams {
                    stdin: &mut stdin,
                    stdout: &mut out,
                    stderr: &mut err,
                },
            );
            (code, out, err)
        });
        let _ = tx.send(r.ok());
    });
    match rx.recv_timeout(DEADLINE) {
        Err(_) => Err(TestCaseError::fail(format!(
            "{shown}: no answer within {DEADLINE:?}"
        ))),
        Ok(None) => Err(TestCaseError::fail(format!("{shown}: panicked"))),
        Ok(Some((code, out, err))) => Ok(Run {
            code,
            out: String::from_utf8(out)
                .map_err(|_| TestCaseError::fail(format!("{shown}: stdout not UTF-8")))?,
            err: String::from_utf8(err)
                .map_err(|_| TestCaseError::fail(format!("{shown}: stderr not UTF-8")))?,
        }),
    }
}

/// At most 200 characters of `s`, for messages.
fn short(s: &str) -> String {
    if s.chars().count() <= 200 {
        s.to_owned()
    } else {
        let head: String = s.chars().take(200).collect();
        format!("{head}… ({} bytes)", s.len())
    }
}

/// stderr is exactly one `error: ` line.
fn one_error_line(what: &str, r: &Run) -> Result<(), TestCaseError> {
    prop_assert!(
        r.err.starts_with("error: ") && r.err.ends_with('\n') && r.err.lines().count() == 1,
        "{what}: exit {} without one error line: {:?}",
        r.code,
        short(&r.err)
    );
    Ok(())
}

/// A refusal: exit 1, nothing on stdout, one error line.
fn refused(what: &str, r: &Run) -> Result<(), TestCaseError> {
    prop_assert!(
        r.out.is_empty(),
        "{what}: exit {} with stdout {:?}",
        r.code,
        short(&r.out)
    );
    one_error_line(what, r)
}

/// Counts of exit codes over the commands run (a case may run several),
/// for the summary line: exit 1 is a damaged file refused, as it must be.
#[derive(Debug, Default)]
struct Tally {
    ok: std::cell::Cell<u64>,
    failed: std::cell::Cell<u64>,
    bad: std::cell::Cell<u64>,
}

impl Tally {
    fn add(&self, code: i32) {
        let c = match code {
            0 => &self.ok,
            2 => &self.bad,
            _ => &self.failed,
        };
        c.set(c.get() + 1);
    }

    fn print(&self, kind: &str, n: u32, t0: Instant) {
        println!(
            "fuzz {kind}: cases {n} runs: exit 0 {} exit 2 {} exit 1 (damaged file refused) {} seconds {:.1}",
            self.ok.get(),
            self.bad.get(),
            self.failed.get(),
            t0.elapsed().as_secs_f64()
        );
    }
}

// ---------------------------------------------------------------------------
// table_value: Daldøs solved tables

/// The layers built by `daldos solve --board 4 --pieces 2,2`.
const LAYERS: [(u8, u8); 4] = [(1, 1), (2, 1), (1, 2), (2, 2)];

fn table_name(a: u8, b: u8) -> String {
    format!("daldos-L4-any-final-last-{a}v{b}.tbl")
}

/// A forged entry (lower and upper bound).
#[derive(Debug, Clone)]
enum Forge {
    /// NaN in the lower bound, the upper one or both.
    Nan(bool, bool),
    /// An infinity (negative or not) in the lower bound or the upper one.
    Inf { negative: bool, lower: bool },
    /// A negative lower bound (and upper bound too, if asked).
    Negative(f64, bool),
    /// An upper bound above 1 (and lower bound too, if asked).
    AboveOne(f64, bool),
    /// Lower above upper by this much.
    Crossed(f64),
    /// Any two values of [0, 1], in order.
    InRange(f64, f64),
    /// Both bounds moved by this much.
    Shift(f64),
    /// Lower down and upper up by this much (the midpoint kept).
    Widen(f64),
    /// Sixteen random bytes.
    Bytes([u8; 16]),
}

impl Forge {
    fn apply(&self, lo: f64, hi: f64) -> [u8; 16] {
        let pair = |l: f64, h: f64| {
            let mut b = [0u8; 16];
            b[..8].copy_from_slice(&l.to_le_bytes());
            b[8..].copy_from_slice(&h.to_le_bytes());
            b
        };
        match *self {
            Forge::Nan(l, h) => pair(
                if l || !h { f64::NAN } else { lo },
                if h { f64::NAN } else { hi },
            ),
            Forge::Inf { negative, lower } => {
                let v = if negative {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                };
                if lower {
                    pair(v, hi)
                } else {
                    pair(lo, v)
                }
            }
            Forge::Negative(x, both) => pair(-x, if both { -x / 2.0 } else { hi }),
            Forge::AboveOne(x, both) => pair(if both { 1.0 + x / 2.0 } else { lo }, 1.0 + x),
            Forge::Crossed(d) => pair(hi + d, hi),
            Forge::InRange(a, b) => pair(a.min(b), a.max(b)),
            Forge::Shift(d) => pair(lo + d, hi + d),
            Forge::Widen(d) => pair(lo - d, hi + d),
            Forge::Bytes(b) => b,
        }
    }
}

fn forge() -> impl Strategy<Value = Forge> {
    let tiny_to_big = prop_oneof![1e-300..1e-12f64, 1e-12..1e-3f64, 1e-3..1e3f64];
    prop_oneof![
        2 => (any::<bool>(), any::<bool>()).prop_map(|(l, h)| Forge::Nan(l, h)),
        1 => (any::<bool>(), any::<bool>()).prop_map(|(negative, lower)| Forge::Inf { negative, lower }),
        1 => (tiny_to_big.clone(), any::<bool>()).prop_map(|(x, b)| Forge::Negative(x, b)),
        1 => (tiny_to_big.clone(), any::<bool>()).prop_map(|(x, b)| Forge::AboveOne(x, b)),
        1 => tiny_to_big.clone().prop_map(Forge::Crossed),
        2 => (0.0..=1.0f64, 0.0..=1.0f64).prop_map(|(a, b)| Forge::InRange(a, b)),
        2 => (prop_oneof![1e-9..1e-6f64, 1e-6..1e-2f64], any::<bool>())
            .prop_map(|(d, up)| Forge::Shift(if up { d } else { -d })),
        1 => prop_oneof![1e-9..1e-6f64, 1e-6..1e-1f64].prop_map(Forge::Widen),
        1 => any::<[u8; 16]>().prop_map(Forge::Bytes),
    ]
}

/// Which position `daldos value` is asked about.
#[derive(Debug, Clone)]
enum Pick {
    /// The position of the n-th forged entry.
    Forged(Index),
    /// Any position of the forged layer.
    Any(Index),
}

#[derive(Debug, Clone)]
struct TableCase {
    layer: usize,
    forged: Vec<(Index, Forge)>,
    picks: Vec<Pick>,
    check: bool,
}

fn table_case() -> impl Strategy<Value = TableCase> {
    (
        0..LAYERS.len(),
        prop::collection::vec((any::<Index>(), forge()), 1..=4),
        prop::collection::vec(
            prop_oneof![
                any::<Index>().prop_map(Pick::Forged),
                any::<Index>().prop_map(Pick::Any),
            ],
            1..=3,
        ),
        prop::bool::weighted(0.3),
    )
        .prop_map(|(layer, forged, picks, check)| TableCase {
            layer,
            forged,
            picks,
            check,
        })
}

fn entry(bytes: &[u8], r: usize) -> (f64, f64) {
    let at = 128 + 16 * r;
    let f = |o: usize| f64::from_le_bytes(bytes[o..o + 8].try_into().expect("8 bytes"));
    (f(at), f(at + 8))
}

/// Whether a stored pair of bounds is possible: finite, in [0, 1], in order.
fn possible(lo: f64, hi: f64) -> bool {
    lo.is_finite() && hi.is_finite() && 0.0 <= lo && lo <= hi && hi <= 1.0
}

/// The table's checksum, recomputed (docs/formats.md §4.1).
fn reseal_table(bytes: &mut [u8]) {
    let h = fnv1a64(&bytes[128..], FNV_START);
    let h = fnv1a64(&bytes[..64], h);
    let h = fnv1a64(&bytes[72..128], h);
    bytes[64..72].copy_from_slice(&h.to_le_bytes());
}

/// Every `value`, `lower` and `upper` of an answer: finite, in [0, 1], and
/// in order where they come together.
fn check_values(v: &Value, at: &str) -> Result<(), TestCaseError> {
    match v {
        Value::Object(m) => {
            let mut got = [None; 3];
            for (i, key) in ["lower", "value", "upper"].iter().enumerate() {
                if let Some(x) = m.get(*key) {
                    let f = x.as_f64();
                    prop_assert!(
                        f.is_some_and(|f| f.is_finite() && (0.0..=1.0).contains(&f)),
                        "{at}: {key} {x} is not a chance"
                    );
                    got[i] = f;
                }
            }
            if let [Some(lo), Some(w), Some(hi)] = got {
                prop_assert!(
                    lo <= w && w <= hi,
                    "{at}: not lower ≤ value ≤ upper: {lo} {w} {hi}"
                );
            }
            for (k, x) in m {
                check_values(x, &format!("{at}.{k}"))?;
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                check_values(x, &format!("{at}[{i}]"))?;
            }
        }
        _ => {}
    }
    Ok(())
}

#[test]
fn fuzz_table_value() {
    let scratch = Scratch::new("table_value");
    let clean = scratch.0.join("clean");
    let r = run(
        "setup",
        strings(&[
            "daldos", "solve", "--board", "4", "--pieces", "2,2", "--format", "json", "--db-dir",
        ])
        .into_iter()
        .chain([clean.display().to_string()])
        .collect(),
        Vec::new(),
    )
    .expect("the tables build");
    assert_eq!(r.code, 0, "{}", r.err);
    let files = read_folder(&clean);
    let board = Board::new(4).expect("board 4");
    let n = cases("table_value", 30);
    let mut runner = runner("table_value", n);
    let tally = Tally::default();
    let t0 = Instant::now();
    let k = std::cell::Cell::new(0u64);
    let result = runner.run(&table_case(), |c| {
        k.set(k.get() + 1);
        let k = k.get();
        let dir = scratch.0.join(format!("case-{k}"));
        let (a, b) = LAYERS[c.layer];
        let name = table_name(a, b);
        let index = LayerIndex::new(LayerKey { board, a, b });
        let mut copy = files.clone();
        let slot = copy
            .iter()
            .position(|f| f.0 == name)
            .expect("the layer's file");
        let file = &mut copy[slot].1.clone();
        let count = (file.len() - 128) / 16;
        assert_eq!(count as u64, index.size(), "{name}");
        let original = file.clone();
        let mut ranks = Vec::new();
        for (i, f) in &c.forged {
            let r = i.index(count);
            let (lo, hi) = entry(file, r);
            file[128 + 16 * r..128 + 16 * (r + 1)].copy_from_slice(&f.apply(lo, hi));
            ranks.push(r);
        }
        reseal_table(file);
        // What the forgeries left (a later one may overwrite an earlier).
        let bad_ranks: Vec<usize> = ranks
            .iter()
            .copied()
            .filter(|&r| {
                let (lo, hi) = entry(file, r);
                !possible(lo, hi)
            })
            .collect();
        let moved = ranks.iter().copied().find(|&r| {
            let (lo, hi) = entry(file, r);
            let (lo0, hi0) = entry(&original, r);
            possible(lo, hi) && ((lo + hi) / 2.0 - (lo0 + hi0) / 2.0).abs() > 1e-9
        });
        copy[slot].1 = file.clone();
        write_folder(&dir, &copy);
        let db = dir.display().to_string();
        for pick in &c.picks {
            let r = match pick {
                Pick::Forged(i) => ranks[i.index(ranks.len())],
                Pick::Any(i) => i.index(count),
            };
            let pos = index.unrank(r as u64).to_string();
            let args = strings(&[
                "daldos",
                "value",
                "--format",
                "json",
                "--position",
                &pos,
                "--db-dir",
                &db,
            ]);
            let what = format!("value of {pos} (entry {r} of {name})");
            let out = run(&what, args, Vec::new())?;
            tally.add(out.code);
            prop_assert!(
                out.code == 0 || out.code == 1,
                "{what}: exit {}: {:?}",
                out.code,
                short(&out.err)
            );
            if out.code == 1 {
                refused(&what, &out)?;
                continue;
            }
            prop_assert!(
                !bad_ranks.contains(&r),
                "{what}: the forged entry {:?} was answered: {}",
                entry(file, r),
                short(&out.out)
            );
            prop_assert!(
                out.err.is_empty(),
                "{what}: exit 0 with stderr {:?}",
                out.err
            );
            let v: Value = serde_json::from_str(out.out.trim()).map_err(|e| {
                TestCaseError::fail(format!("{what}: not JSON ({e}): {}", short(&out.out)))
            })?;
            check_values(&v, &what)?;
        }
        if c.check {
            let args = strings(&[
                "daldos", "solve", "--board", "4", "--pieces", "2,2", "--check", "--db-dir", &db,
            ]);
            let what = format!("solve --check of forged {name}");
            let out = run(&what, args, Vec::new())?;
            tally.add(out.code);
            prop_assert!(
                out.code == 0 || out.code == 1,
                "{what}: exit {}: {:?}",
                out.code,
                short(&out.err)
            );
            if out.code == 1 {
                one_error_line(&what, &out)?;
            } else {
                prop_assert!(
                    out.err.is_empty(),
                    "{what}: exit 0 with stderr {:?}",
                    out.err
                );
                prop_assert!(
                    bad_ranks.is_empty(),
                    "{what}: passed with the impossible entry {} = {:?}",
                    bad_ranks[0],
                    entry(file, bad_ranks[0])
                );
                if let Some(r) = moved {
                    prop_assert!(
                        false,
                        "{what}: passed with entry {r} moved from {:?} to {:?}",
                        entry(&original, r),
                        entry(file, r)
                    );
                }
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    });
    if let Err(e) = result {
        panic!("fuzz table_value: {e}");
    }
    tally.print("table_value", n, t0);
}

// ---------------------------------------------------------------------------
// database_value: Dakon retrograde databases

/// Seeds on the 3×3 board with 3 seeds a hole: levels 0 to 18.
const DB_TOP: u32 = 18;

fn db_name(k: u32) -> String {
    format!("dakon-n3-r0-k{k:03}.db")
}

/// A value byte written into level `k`.
#[derive(Debug, Clone)]
enum DbByte {
    /// A possible value: this fraction of the way from −k to k.
    InRange(f64),
    /// |v| > k: k + 1 + this much (capped at 127), negative or not.
    OutOfRange(u8, bool),
    /// −128 or 127.
    Extreme(bool),
}

impl DbByte {
    fn value(&self, k: u32) -> i8 {
        let k = k as i32;
        let v = match *self {
            DbByte::InRange(f) => -k + ((2 * k) as f64 * f).round() as i32,
            DbByte::OutOfRange(x, neg) => {
                let m = k + 1 + i32::from(x) % (127 - k);
                if neg {
                    -m
                } else {
                    m
                }
            }
            DbByte::Extreme(neg) => {
                if neg {
                    -128
                } else {
                    127
                }
            }
        };
        v as i8
    }
}

#[derive(Debug, Clone)]
enum DbCommand {
    /// `dakon solve --holes 3 --seeds m --method retrograde`: levels 0..=6m.
    Retrograde(u32),
    /// `dakon solve --holes 3 --seeds 3 --method search --probe-seeds K`:
    /// levels 0..=K.
    Probe(u32),
}

impl DbCommand {
    fn loads(&self) -> u32 {
        match *self {
            DbCommand::Retrograde(m) => 6 * m,
            DbCommand::Probe(k) => k,
        }
    }

    fn seeds(&self) -> u32 {
        match *self {
            DbCommand::Retrograde(m) => m,
            DbCommand::Probe(_) => 3,
        }
    }
}

#[derive(Debug, Clone)]
struct DbCase {
    edits: Vec<(DbAt, DbByte)>,
    command: DbCommand,
}

/// Which entry is forged.
#[derive(Debug, Clone)]
enum DbAt {
    /// Any entry of level k.
    Any(u32, Index),
    /// The start position's own entry (the root of the solve): a value no
    /// move reaches leaves no best move unless it is refused.
    Start,
}

/// The rank of a distribution of seeds, the mover's row first
/// (docs/formats.md §1.2).
fn composition_rank(cells: &[u32]) -> usize {
    fn n(parts: usize, r: u32) -> usize {
        // C(r + parts - 1, parts - 1)
        let (top, k) = (r as usize + parts - 1, parts - 1);
        (0..k).fold(1usize, |c, i| c * (top - i) / (i + 1))
    }
    let p = cells.len();
    let mut rest: u32 = cells.iter().sum();
    let mut rank = 0;
    for (i, &a) in cells[..p - 1].iter().enumerate() {
        rank += n(p - i, rest) - n(p - i, rest - a);
        rest -= a;
    }
    rank
}

fn db_case() -> impl Strategy<Value = DbCase> {
    let byte = prop_oneof![
        3 => (0.0..=1.0f64).prop_map(DbByte::InRange),
        2 => (any::<u8>(), any::<bool>()).prop_map(|(x, n)| DbByte::OutOfRange(x, n)),
        1 => any::<bool>().prop_map(DbByte::Extreme),
    ];
    (
        prop::collection::vec(
            (
                prop_oneof![
                    12 => (0..=DB_TOP, any::<Index>()).prop_map(|(k, i)| DbAt::Any(k, i)),
                    1 => Just(DbAt::Start),
                ],
                byte,
            ),
            1..=4,
        ),
        prop_oneof![
            3 => (1..=3u32).prop_map(DbCommand::Retrograde),
            1 => (1..=DB_TOP).prop_map(DbCommand::Probe),
        ],
    )
        .prop_map(|(edits, command)| DbCase { edits, command })
}

/// The database checksum, recomputed (docs/formats.md §1.1, §1.3).
fn reseal_db(bytes: &mut [u8]) {
    let h = fnv1a64(&bytes[64..], FNV_START);
    let h = fnv1a64(&bytes[..44], h);
    let h = fnv1a64(&bytes[52..64], h);
    bytes[44..52].copy_from_slice(&h.to_le_bytes());
}

/// The worked examples of docs/formats.md §1.2 and §1.4.
#[test]
fn composition_ranks_are_those_of_the_format() {
    assert_eq!(composition_rank(&[1, 1, 1, 0, 0, 0]), 48);
    assert_eq!(composition_rank(&[0, 2, 1, 1, 0, 2]), 159);
    assert_eq!(composition_rank(&[0, 0, 0, 0, 0, 3]), 0);
    assert_eq!(composition_rank(&[3, 0, 0, 0, 0, 0]), 55);
    // The 3×3 start with one seed a hole: entry 6 of level 6.
    assert_eq!(composition_rank(&[1; 6]), 286);
}

#[test]
fn fuzz_database_value() {
    let scratch = Scratch::new("database_value");
    let clean = scratch.0.join("clean");
    let solve = |dir: &Path, seeds: u32, method: &[&str]| {
        let mut args = strings(&[
            "dakon",
            "solve",
            "--holes",
            "3",
            "--seeds",
            &seeds.to_string(),
            "--format",
            "json",
        ]);
        args.extend(strings(method));
        args.extend(["--db-dir".to_owned(), dir.display().to_string()]);
        args
    };
    let r = run(
        "setup",
        solve(&clean, 3, &["--method", "retrograde"]),
        Vec::new(),
    )
    .expect("the databases build");
    assert_eq!(r.code, 0, "{}", r.err);
    let files = read_folder(&clean);
    assert_eq!(files.len(), DB_TOP as usize + 1, "one file per level");
    let n = cases("database_value", 30);
    let mut runner = runner("database_value", n);
    let tally = Tally::default();
    let t0 = Instant::now();
    let case = std::cell::Cell::new(0u64);
    let result = runner.run(&db_case(), |c| {
        case.set(case.get() + 1);
        let case = case.get();
        let dir = scratch.0.join(format!("case-{case}"));
        let mut copy = files.clone();
        // Out-of-range bytes left in a file the command loads.
        let mut impossible = Vec::new();
        // (level, byte offset) of each edit.
        let place = |at: &DbAt, copy: &Files| match at {
            DbAt::Any(k, i) => {
                let len = copy
                    .iter()
                    .find(|f| f.0 == db_name(*k))
                    .expect("a level")
                    .1
                    .len();
                (*k, 64 + i.index(len - 64))
            }
            DbAt::Start => {
                let m = c.command.seeds();
                (6 * m, 64 + composition_rank(&[m; 6]))
            }
        };
        for (at, byte) in &c.edits {
            let (k, i) = place(at, &copy);
            let file = &mut copy
                .iter_mut()
                .find(|f| f.0 == db_name(k))
                .expect("a level")
                .1;
            file[i] = byte.value(k) as u8;
            reseal_db(file);
        }
        for (at, _) in &c.edits {
            let (k, i) = place(at, &copy);
            let v = copy.iter().find(|f| f.0 == db_name(k)).expect("a level").1[i] as i8;
            if i32::from(v).unsigned_abs() > k && k <= c.command.loads() {
                impossible.push(format!("byte {i} of {} = {v}", db_name(k)));
            }
        }
        write_folder(&dir, &copy);
        let method: Vec<String> = match c.command {
            DbCommand::Retrograde(_) => strings(&["--method", "retrograde"]),
            DbCommand::Probe(k) => {
                strings(&["--method", "search", "--probe-seeds", &k.to_string()])
            }
        };
        let methods: Vec<&str> = method.iter().map(String::as_str).collect();
        let args = solve(&dir, c.command.seeds(), &methods);
        let what = format!("{c:?}");
        let out = run(&what, args, Vec::new())?;
        tally.add(out.code);
        prop_assert!(
            out.code == 0 || out.code == 1,
            "{what}: exit {}: {:?}",
            out.code,
            short(&out.err)
        );
        if out.code == 1 {
            refused(&what, &out)?;
        } else {
            prop_assert!(
                impossible.is_empty(),
                "{what}: loaded {} and answered {}",
                impossible.join(", "),
                out.out.trim()
            );
            prop_assert!(
                out.err.is_empty(),
                "{what}: exit 0 with stderr {:?}",
                out.err
            );
            let v: Value = serde_json::from_str(out.out.trim())
                .map_err(|e| TestCaseError::fail(format!("{what}: not JSON ({e})")))?;
            let total = i64::from(6 * c.command.seeds());
            let value = v["value"].as_i64();
            prop_assert!(
                value.is_some_and(|x| x.abs() <= total),
                "{what}: value {} with {total} seeds in the game: {}",
                v["value"],
                out.out.trim()
            );
            let moves = v["best_moves"].as_array().cloned().unwrap_or_default();
            prop_assert!(
                !moves.is_empty(),
                "{what}: no best move at the start: {}",
                out.out.trim()
            );
            // Every hole holds seeds at the start: holes 1 to 3 are legal.
            for m in &moves {
                prop_assert!(
                    m.as_u64().is_some_and(|h| (1..=3).contains(&h)),
                    "{what}: best move {m} is not legal: {}",
                    out.out.trim()
                );
            }
            let result = match value.unwrap_or(0).signum() {
                1 => "win",
                0 => "draw",
                _ => "loss",
            };
            prop_assert_eq!(
                v["result"].as_str(),
                Some(result),
                "{}: {}",
                what,
                out.out.trim()
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    });
    if let Err(e) = result {
        panic!("fuzz database_value: {e}");
    }
    tally.print("database_value", n, t0);
}

// ---------------------------------------------------------------------------
// checkpoint: the openings working folder

/// The board counted: 6×4, 49 layers, 7 winning chains, 0.05 s.
const OPENINGS: (usize, u32) = (6, 4);

/// A number written over one in `state`.
#[derive(Debug, Clone)]
enum Number {
    Random(u64),
    Huge,
    Negative,
    Zero,
    PlusOne,
    MinusOne,
}

#[derive(Debug, Clone)]
enum Edit {
    /// Drop line n of `state`.
    DropLine(Index),
    /// Write line n of `state` twice.
    DuplicateLine(Index),
    /// Change one number of line n of `state`.
    Number(Index, Index, Number),
    /// `pending` with nothing after it.
    PendingBare,
    /// `layer N`.
    Layer(u32),
    /// The other pass.
    Pass,
    /// XOR a payload byte of a `.bin` file with a mask, resealed.
    Flip(Index, Index, u8),
    /// Overwrite payload bytes of a `.bin` file, resealed.
    Replace(Index, Index, Vec<u8>),
    /// Drop the last entry of a `.bin` file, its count and length fixed and
    /// resealed.
    DropLast(Index),
    /// Cut a `.bin` file short.
    Truncate(Index, Index),
    /// Delete a `.bin` file.
    Delete(Index),
    /// Exchange the contents of two `.bin` files.
    Swap(Index, Index),
}

fn edit() -> impl Strategy<Value = Edit> {
    let number = prop_oneof![
        any::<u64>().prop_map(Number::Random),
        Just(Number::Huge),
        Just(Number::Negative),
        Just(Number::Zero),
        Just(Number::PlusOne),
        Just(Number::MinusOne),
    ];
    prop_oneof![
        1 => any::<Index>().prop_map(Edit::DropLine),
        1 => any::<Index>().prop_map(Edit::DuplicateLine),
        3 => (any::<Index>(), any::<Index>(), number).prop_map(|(l, w, n)| Edit::Number(l, w, n)),
        1 => Just(Edit::PendingBare),
        1 => prop::sample::select(vec![999u32, 85, OPENINGS.0 as u32 * 2 * OPENINGS.1 + 1, 0, 1])
            .prop_map(Edit::Layer),
        1 => Just(Edit::Pass),
        3 => (any::<Index>(), any::<Index>(), 1..=255u8).prop_map(|(f, a, m)| Edit::Flip(f, a, m)),
        1 => (any::<Index>(), any::<Index>(), prop::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(f, a, b)| Edit::Replace(f, a, b)),
        2 => any::<Index>().prop_map(Edit::DropLast),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(f, k)| Edit::Truncate(f, k)),
        1 => any::<Index>().prop_map(Edit::Delete),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Edit::Swap(a, b)),
    ]
}

/// The payload checksum and length of a `.bin` file, recomputed
/// (docs/formats.md §2.2).
fn reseal_bin(bytes: &mut [u8]) {
    let len = (bytes.len() - 64) as u64;
    bytes[40..48].copy_from_slice(&len.to_le_bytes());
    let h = fnv1a64(&bytes[64..], FNV_START);
    bytes[48..56].copy_from_slice(&h.to_le_bytes());
}

fn edit_state(state: &str, e: &Edit) -> String {
    let mut lines: Vec<String> = state.lines().map(str::to_owned).collect();
    match e {
        Edit::DropLine(i) => {
            lines.remove(i.index(lines.len()));
        }
        Edit::DuplicateLine(i) => {
            let i = i.index(lines.len());
            lines.insert(i, lines[i].clone());
        }
        Edit::Number(l, w, n) => {
            let l = l.index(lines.len());
            let mut words: Vec<String> = lines[l].split(' ').map(str::to_owned).collect();
            let numeric: Vec<usize> = (0..words.len())
                .filter(|&j| words[j].parse::<u128>().is_ok())
                .collect();
            if !numeric.is_empty() {
                let j = numeric[w.index(numeric.len())];
                let old: u128 = words[j].parse().expect("a number");
                words[j] = match n {
                    Number::Random(x) => x.to_string(),
                    Number::Huge => "340282366920938463463374607431768211456".to_owned(),
                    Number::Negative => "-1".to_owned(),
                    Number::Zero => "0".to_owned(),
                    Number::PlusOne => (old + 1).to_string(),
                    Number::MinusOne => old.saturating_sub(1).to_string(),
                };
                lines[l] = words.join(" ");
            }
        }
        Edit::PendingBare => {
            for line in &mut lines {
                if line.starts_with("pending") {
                    *line = "pending".to_owned();
                }
            }
        }
        Edit::Layer(n) => {
            for line in &mut lines {
                if line.starts_with("layer ") {
                    *line = format!("layer {n}");
                }
            }
        }
        Edit::Pass => {
            for line in &mut lines {
                if line == "pass forward" {
                    *line = "pass backward".to_owned();
                } else if line == "pass backward" {
                    *line = "pass forward".to_owned();
                }
            }
        }
        _ => {}
    }
    lines.join("\n") + "\n"
}

/// Drop the last entry of a `.bin` payload (an LEB128 rank gap, or a
/// 30-byte winner), fixing its count; `false` when it has none.
fn drop_last(bytes: &mut Vec<u8>) -> bool {
    let count = u64::from_le_bytes(bytes[32..40].try_into().expect("8 bytes"));
    let kind = u32::from_le_bytes(bytes[56..60].try_into().expect("4 bytes"));
    if count == 0 || bytes.len() <= 64 {
        return false;
    }
    let keep = if kind == 2 {
        bytes.len().saturating_sub(30).max(64)
    } else {
        // The last value ends the payload; the bytes before it have
        // their top bit set.
        let mut i = bytes.len() - 1;
        while i > 64 && bytes[i - 1] & 0x80 != 0 {
            i -= 1;
        }
        i
    };
    bytes.truncate(keep);
    bytes[32..40].copy_from_slice(&(count - 1).to_le_bytes());
    reseal_bin(bytes);
    true
}

/// Apply a file edit; what was done, in words.
fn edit_files(files: &mut Files, e: &Edit) -> String {
    let bins: Vec<usize> = (0..files.len())
        .filter(|&i| files[i].0.ends_with(".bin"))
        .collect();
    if bins.is_empty() {
        return "no .bin file to edit".to_owned();
    }
    let pick = |i: &Index| bins[i.index(bins.len())];
    match e {
        Edit::Flip(f, at, mask) => {
            let (name, b) = &mut files[pick(f)];
            if b.len() <= 64 {
                return format!("{name}: no payload to flip");
            }
            let i = 64 + at.index(b.len() - 64);
            b[i] ^= mask;
            reseal_bin(b);
            format!("{name}: byte {i} ^= {mask:#04x}, resealed")
        }
        Edit::Replace(f, at, with) => {
            let (name, b) = &mut files[pick(f)];
            if b.len() <= 64 {
                return format!("{name}: no payload to replace");
            }
            let i = 64 + at.index(b.len() - 64);
            for (j, &x) in with.iter().enumerate() {
                if let Some(y) = b.get_mut(i + j) {
                    *y = x;
                }
            }
            reseal_bin(b);
            format!("{name}: bytes from {i} = {with:?}, resealed")
        }
        Edit::DropLast(f) => {
            let (name, b) = &mut files[pick(f)];
            if drop_last(b) {
                format!("{name}: last entry dropped, count and length fixed, resealed")
            } else {
                format!("{name}: no entry to drop")
            }
        }
        Edit::Truncate(f, keep) => {
            let (name, b) = &mut files[pick(f)];
            let n = keep.index(b.len().max(1));
            b.truncate(n);
            format!("{name}: cut to {n} bytes")
        }
        Edit::Delete(f) => {
            let (name, _) = files.remove(pick(f));
            format!("{name}: deleted")
        }
        Edit::Swap(a, b) => {
            let (a, b) = (pick(a), pick(b));
            let x = std::mem::take(&mut files[a].1);
            files[a].1 = std::mem::replace(&mut files[b].1, x);
            format!("{} and {} swapped", files[a].0, files[b].0)
        }
        _ => unreachable!("a state edit"),
    }
}

/// Apply an edit to a checkpoint folder; what was done, in words.
fn apply_edit(files: &mut Files, e: &Edit) -> String {
    match e {
        Edit::DropLine(_)
        | Edit::DuplicateLine(_)
        | Edit::Number(..)
        | Edit::PendingBare
        | Edit::Layer(_)
        | Edit::Pass => {
            let Some(f) = files.iter_mut().find(|f| f.0 == "state") else {
                return "no state to edit".to_owned();
            };
            let text = String::from_utf8_lossy(&f.1).into_owned();
            let edited = edit_state(&text, e);
            let changed: Vec<&str> = edited
                .lines()
                .filter(|l| !text.lines().any(|m| m == *l))
                .collect();
            let dropped: Vec<&str> = text
                .lines()
                .filter(|l| !edited.lines().any(|m| m == *l))
                .collect();
            f.1 = edited.clone().into_bytes();
            format!("state {e:?}: lines {dropped:?} now {changed:?}")
        }
        _ => edit_files(files, e),
    }
}

#[derive(Debug, Clone)]
struct CheckpointCase {
    snapshot: Index,
    edits: Vec<Edit>,
    checkpoints: bool,
}

fn checkpoint_case() -> impl Strategy<Value = CheckpointCase> {
    (
        any::<Index>(),
        prop::collection::vec(edit(), 1..=3),
        prop::bool::weighted(0.1),
    )
        .prop_map(|(snapshot, edits, checkpoints)| CheckpointCase {
            snapshot,
            edits,
            checkpoints,
        })
}

fn openings_args(dir: &Path, checkpoints: bool) -> Vec<String> {
    let (h, s) = OPENINGS;
    let mut args = strings(&[
        "dakon",
        "openings",
        "--holes",
        &h.to_string(),
        "--seeds",
        &s.to_string(),
        "--format",
        "json",
    ]);
    if checkpoints {
        args.extend(strings(&["--checkpoint-minutes", "0"]));
    }
    args.extend(["--work-dir".to_owned(), dir.display().to_string()]);
    args
}

/// Copies the working folder whenever the count starts a layer: the
/// checkpoint written after the layer before is then complete (the count
/// writes nothing else between the two), so one run yields every checkpoint.
struct Snapshots {
    dir: PathBuf,
    taken: std::sync::Mutex<Vec<Files>>,
}

impl OpeningsProgress for Snapshots {
    fn layer(&self, _: Pass, _: u32, _: u32, _: u64) {
        if self.dir.join("state").is_file() {
            let files = read_folder(&self.dir);
            let mut taken = self.taken.lock().expect("not poisoned");
            if taken.last() != Some(&files) {
                taken.push(files);
            }
        }
    }
}

/// Every checkpoint of a count that writes one after every layer.
fn every_checkpoint(dir: &Path) -> Vec<Files> {
    let (holes, seeds) = OPENINGS;
    let _ = std::fs::remove_dir_all(dir);
    let request = CountRequest {
        holes,
        seeds,
        rules: dakon::Rules::default(),
        limits: CountLimits {
            work_dir: Some(dir.to_path_buf()),
            checkpoint_minutes: Some(0),
            ..CountLimits::default()
        },
    };
    let snapshots = Snapshots {
        dir: dir.to_path_buf(),
        taken: std::sync::Mutex::new(Vec::new()),
    };
    plan_count(&request)
        .expect("a count plan")
        .count(&snapshots)
        .expect("the count");
    snapshots.taken.into_inner().expect("not poisoned")
}

#[test]
fn fuzz_checkpoint() {
    let scratch = Scratch::new("checkpoint");
    let fresh = run(
        "setup",
        openings_args(&scratch.0.join("fresh"), false),
        Vec::new(),
    )
    .expect("a count");
    assert_eq!(fresh.code, 0, "{}", fresh.err);
    let truth: Value = serde_json::from_str(fresh.out.trim()).expect("JSON");
    // Every checkpoint of the count, forward and backward.
    let all = every_checkpoint(&scratch.0.join("snapshots"));
    assert!(all.len() > 10, "{} checkpoints", all.len());
    let passes = |f: &Files, pass: &str| {
        f.iter()
            .any(|(n, b)| n == "state" && String::from_utf8_lossy(b).contains(pass))
    };
    assert!(all.iter().any(|f| passes(f, "pass forward")));
    assert!(all.iter().any(|f| passes(f, "pass backward")));
    // Each checkpoint, untouched, resumes to the true count.
    for (i, files) in all.iter().enumerate() {
        let dir = scratch.0.join("resume");
        write_folder(&dir, files);
        let r = run("setup", openings_args(&dir, false), Vec::new()).expect("a count");
        assert_eq!(r.code, 0, "checkpoint {}: {}", i + 1, r.err);
        let v: Value = serde_json::from_str(r.out.trim()).expect("JSON");
        assert_eq!(v, truth, "checkpoint {}", i + 1);
    }
    let n = cases("checkpoint", 20);
    let mut runner = runner("checkpoint", n);
    let tally = Tally::default();
    let t0 = Instant::now();
    let case = std::cell::Cell::new(0u64);
    let result = runner.run(&checkpoint_case(), |c| {
        case.set(case.get() + 1);
        let case = case.get();
        let dir = scratch.0.join(format!("case-{case}"));
        let which = c.snapshot.index(all.len());
        let mut files = all[which].clone();
        let done: Vec<String> = c.edits.iter().map(|e| apply_edit(&mut files, e)).collect();
        write_folder(&dir, &files);
        let what = format!(
            "checkpoint {} of {} edited: {}",
            which + 1,
            all.len(),
            done.join("; ")
        );
        let out = run(&what, openings_args(&dir, c.checkpoints), Vec::new())?;
        tally.add(out.code);
        prop_assert!(
            out.code == 0 || out.code == 1,
            "{what}: exit {}: {:?}",
            out.code,
            short(&out.err)
        );
        if out.code == 1 {
            refused(&what, &out)?;
        } else {
            let v: Value = serde_json::from_str(out.out.trim())
                .map_err(|e| TestCaseError::fail(format!("{what}: not JSON ({e})")))?;
            prop_assert!(
                v == truth,
                "{what}: exit 0 with {v}, the true count is {truth}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    });
    if let Err(e) = result {
        panic!("fuzz checkpoint: {e}");
    }
    tally.print("checkpoint", n, t0);
}

// ---------------------------------------------------------------------------
// endless_line: batch mode

/// One input line.
#[derive(Debug, Clone)]
enum Line {
    /// A cheap position.
    Good(String),
    /// A position padded with spaces to this many bytes (at most 1 MiB).
    Padded(String, usize),
    /// Random bytes (no newline), made unreadable as a position.
    Junk(Vec<u8>, Index),
    /// This many bytes, over 1 MiB (or exactly 1 MiB), of one repeated
    /// byte or a repeated position.
    Long(usize, LongFill),
}

#[derive(Debug, Clone)]
enum LongFill {
    Byte(u8),
    Position(String),
}

/// What line k must answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// The answer of the position.
    Good,
    /// An error line, not about length.
    Bad,
    /// An error line saying the line is too long.
    Long,
    /// Exactly 1 MiB of a good position: either.
    GoodOrLong,
    /// Exactly 1 MiB of junk: an error line.
    BadOrLong,
}

impl Line {
    fn bytes(&self) -> Vec<u8> {
        match self {
            Line::Good(p) => p.clone().into_bytes(),
            Line::Padded(p, len) => {
                let pad = len.saturating_sub(p.len());
                let mut b = vec![b' '; pad / 2];
                b.extend_from_slice(p.as_bytes());
                b.resize(pad + p.len(), b' ');
                b
            }
            Line::Junk(b, at) => {
                let mut b = b.clone();
                // A 'z' is no part of either notation.
                b.insert(at.index(b.len() + 1), b'z');
                b
            }
            Line::Long(len, LongFill::Byte(x)) => vec![*x; *len],
            Line::Long(len, LongFill::Position(p)) => {
                let mut b: Vec<u8> = p
                    .bytes()
                    .chain(std::iter::once(b' '))
                    .cycle()
                    .take(*len)
                    .collect();
                b.truncate(*len);
                b
            }
        }
    }

    fn expect(&self, good: bool) -> Expect {
        let n = self.bytes().len();
        match n.cmp(&MAX_LINE) {
            std::cmp::Ordering::Greater => Expect::Long,
            std::cmp::Ordering::Equal if good => Expect::GoodOrLong,
            std::cmp::Ordering::Equal => Expect::BadOrLong,
            std::cmp::Ordering::Less if good => Expect::Good,
            std::cmp::Ordering::Less => Expect::Bad,
        }
    }
}

/// Which batch: `dakon best` or `daldos moves --dice 1,2`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Batch {
    DakonBest,
    DaldosMoves,
}

impl Batch {
    fn args(self) -> Vec<String> {
        match self {
            Batch::DakonBest => strings(&["dakon", "best", "--position", "-", "--format", "json"]),
            Batch::DaldosMoves => strings(&[
                "daldos",
                "moves",
                "--position",
                "-",
                "--dice",
                "1,2",
                "--format",
                "json",
            ]),
        }
    }

    /// Whether `text` (trimmed) is a position this batch answers.
    fn good(self, text: &[u8]) -> bool {
        let Ok(t) = std::str::from_utf8(text) else {
            return false;
        };
        match self {
            Batch::DakonBest => t.trim().parse::<dakon::Position>().is_ok(),
            Batch::DaldosMoves => t.trim().parse::<daldos::Position>().is_ok(),
        }
    }

    /// The part of an answer that must not depend on the other lines.
    fn essence(self, v: &Value) -> Value {
        match self {
            Batch::DakonBest => serde_json::json!([v["value"], v["best_moves"], v["exact"]]),
            Batch::DaldosMoves => v.clone(),
        }
    }
}

/// A Dakon position of 2 or 3 holes, at most 2 seeds a hole.
fn dakon_line() -> impl Strategy<Value = String> {
    (2..=3usize)
        .prop_flat_map(|n| {
            (
                prop::collection::vec(0..=2u8, n),
                prop::collection::vec(0..=2u8, n),
                [0..=3u8, 0..=3u8],
                any::<bool>(),
            )
        })
        .prop_map(|(s, n, st, north)| {
            let side = if north {
                dakon::Side::North
            } else {
                dakon::Side::South
            };
            dakon::Position::new(&s, &n, st, side)
                .expect("small")
                .to_string()
        })
}

/// A Daldøs position of board 4 to 6, up to 3 pieces a side.
fn daldos_line() -> impl Strategy<Value = String> {
    (4..=6u8, any::<bool>())
        .prop_flat_map(|(len, b)| {
            let cells = 3 * len + 1;
            (
                Just(len),
                Just(b),
                prop::collection::vec((0..cells, 0..4u8), 1..=6),
            )
        })
        .prop_map(|(len, b, pieces)| {
            let board = Board::new(len).expect("4..=6");
            let mut pos = daldos::Position::empty(board, if b { Side::B } else { Side::A });
            for (h, kind) in pieces {
                let side = if kind % 2 == 0 { Side::A } else { Side::B };
                let cell = if kind < 2 {
                    Cell::Undalt(side)
                } else {
                    Cell::Dalt(side)
                };
                if pos.count(side) < 3 {
                    if let Ok(p) = pos.with_cell(Hole(h), cell) {
                        pos = p;
                    }
                }
            }
            if pos.count(Side::A) + pos.count(Side::B) == 0 {
                pos = pos
                    .with_cell(Hole(0), Cell::Dalt(Side::A))
                    .expect("one piece");
            }
            pos.to_string()
        })
}

fn line(batch: Batch) -> impl Strategy<Value = Line> {
    let pos = match batch {
        Batch::DakonBest => dakon_line().boxed(),
        Batch::DaldosMoves => daldos_line().boxed(),
    };
    let near = prop_oneof![
        Just(MAX_LINE - 2),
        Just(MAX_LINE - 1),
        MAX_LINE - 4096..MAX_LINE,
    ];
    let over = prop_oneof![
        3 => Just(MAX_LINE + 1),
        3 => MAX_LINE + 1..MAX_LINE + 4096,
        1 => Just(MAX_LINE),
        2 => 2 * MAX_LINE..6 * MAX_LINE,
    ];
    let fill = prop_oneof![
        prop::sample::select(vec![b'1', b' ', b'a', b'.', 0u8, 0xff, b'\r'])
            .prop_map(LongFill::Byte),
        pos.clone().prop_map(LongFill::Position),
    ];
    prop_oneof![
        8 => pos.clone().prop_map(Line::Good),
        2 => (pos, near).prop_map(|(p, n)| Line::Padded(p, n)),
        4 => (prop::collection::vec(any::<u8>().prop_filter("no newline", |&b| b != b'\n'), 0..64), any::<Index>())
            .prop_map(|(b, i)| Line::Junk(b, i)),
        3 => (over, fill).prop_map(|(n, f)| Line::Long(n, f)),
    ]
}

#[derive(Debug, Clone)]
struct LineCase {
    batch: Batch,
    lines: Vec<Line>,
    final_newline: bool,
}

impl LineCase {
    /// At most two lines of several MiB a case, so a case stays small.
    fn small(&self) -> bool {
        self.lines
            .iter()
            .filter(|l| matches!(l, Line::Long(n, _) if *n > 2 * MAX_LINE))
            .count()
            <= 2
    }
}

fn line_case() -> impl Strategy<Value = LineCase> {
    prop_oneof![Just(Batch::DakonBest), Just(Batch::DaldosMoves)]
        .prop_flat_map(|batch| {
            (
                Just(batch),
                prop::collection::vec(line(batch), 1..=10),
                prop::bool::weighted(0.8),
            )
        })
        .prop_map(|(batch, lines, final_newline)| LineCase {
            batch,
            lines,
            final_newline,
        })
        .prop_filter("two huge lines at most", LineCase::small)
}

#[test]
fn fuzz_endless_line() {
    let n = cases("endless_line", 5);
    let mut runner = runner("endless_line", n);
    let tally = Tally::default();
    let t0 = Instant::now();
    let result = runner.run(&line_case(), |c| {
        let lines: Vec<Vec<u8>> = c.lines.iter().map(Line::bytes).collect();
        let expect: Vec<Expect> = c
            .lines
            .iter()
            .zip(&lines)
            .map(|(l, b)| l.expect(c.batch.good(b)))
            .collect();
        let mut input = Vec::new();
        for (i, l) in lines.iter().enumerate() {
            input.extend_from_slice(l);
            if c.final_newline || i + 1 < lines.len() {
                input.push(b'\n');
            }
        }
        // The answers of the good lines alone, one batch.
        let goods: Vec<String> = lines
            .iter()
            .zip(&expect)
            .filter(|(_, e)| matches!(e, Expect::Good | Expect::GoodOrLong))
            .map(|(l, _)| String::from_utf8_lossy(l).trim().to_owned())
            .collect();
        let mut alone = Vec::new();
        if !goods.is_empty() {
            let r = run(
                "the good lines alone",
                c.batch.args(),
                (goods.join("\n") + "\n").into_bytes(),
            )?;
            prop_assert_eq!(r.code, 0, "good lines alone: {:?}", short(&r.err));
            for l in r.out.lines() {
                let v: Value = serde_json::from_str(l)
                    .map_err(|e| TestCaseError::fail(format!("not JSON ({e}): {}", short(l))))?;
                alone.push(c.batch.essence(&v));
            }
            prop_assert_eq!(alone.len(), goods.len());
        }
        let shown: Vec<String> = lines
            .iter()
            .zip(&expect)
            .map(|(l, e)| {
                format!(
                    "{e:?} {} bytes {:?}",
                    l.len(),
                    short(&String::from_utf8_lossy(&l[..l.len().min(40)]))
                )
            })
            .collect();
        let what = format!("{:?} batch of {shown:?}", c.batch);
        let r = run(&what, c.batch.args(), input)?;
        tally.add(r.code);
        let out: Vec<&str> = r.out.lines().collect();
        prop_assert_eq!(
            out.len(),
            lines.len(),
            "{}: {} answers to {} lines",
            what,
            out.len(),
            lines.len()
        );
        let mut goods_seen = 0;
        let mut any_bad = false;
        for (k, (answer, e)) in out.iter().zip(&expect).enumerate() {
            let at = format!("{what}: line {}", k + 1);
            let v: Value = serde_json::from_str(answer).map_err(|err| {
                TestCaseError::fail(format!("{at}: not JSON ({err}): {}", short(answer)))
            })?;
            let error = v.get("error").map(|x| x.as_str().unwrap_or("").to_owned());
            if let Some(text) = &error {
                prop_assert_eq!(
                    v["line"].as_u64(),
                    Some(k as u64 + 1),
                    "{}: {}",
                    at,
                    short(answer)
                );
                prop_assert!(!text.is_empty(), "{at}: an empty error");
                any_bad = true;
            }
            let long = error.as_deref().is_some_and(|t| t.contains("longer than"));
            match e {
                Expect::Good | Expect::GoodOrLong if error.is_none() => {
                    prop_assert_eq!(
                        &c.batch.essence(&v),
                        &alone[goods_seen],
                        "{}: another answer than alone",
                        at
                    );
                }
                Expect::Good => prop_assert!(false, "{at}: a good line refused: {}", short(answer)),
                Expect::GoodOrLong => {
                    prop_assert!(long, "{at}: refused, not as too long: {}", short(answer))
                }
                Expect::Bad => {
                    prop_assert!(
                        error.is_some() && !long,
                        "{at}: not a plain error line: {}",
                        short(answer)
                    )
                }
                Expect::Long => {
                    prop_assert!(long, "{at}: not refused as too long: {}", short(answer))
                }
                Expect::BadOrLong => {
                    prop_assert!(error.is_some(), "{at}: answered: {}", short(answer))
                }
            }
            if matches!(e, Expect::Good | Expect::GoodOrLong) {
                goods_seen += 1;
            }
        }
        if any_bad {
            prop_assert_eq!(r.code, 2, "{}: exit {} after a bad line", what, r.code);
            one_error_line(&what, &r)?;
        } else {
            prop_assert_eq!(
                r.code,
                0,
                "{}: exit {} with every line good: {:?}",
                what,
                r.code,
                short(&r.err)
            );
            prop_assert!(r.err.is_empty(), "{what}: stderr {:?}", short(&r.err));
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("fuzz endless_line: {e}");
    }
    tally.print("endless_line", n, t0);
}
