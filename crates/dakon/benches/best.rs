//! Benchmark: exact answers in real 7×7 games (value and every best move).
//!
//!     cargo bench -p dalkon-dakon --bench best
//!
//! The positions (`benches/best_7x7.txt`) come from 20 seeded games on the
//! standard board in which each side plays, at every move, a random legal
//! move with probability 1/2 and otherwise the move a 6-ply search likes
//! best; each game gives the positions after 2, 4, 8, 12 and 16 moves
//! (bonus moves count as moves), 100 in all. The file pins each position's
//! exact value and best moves, so a faster wrong answer fails here (and
//! every exact answer's principal variation is replayed to the end of the
//! game, which must come out at the value); `?`
//! marks a position not yet proved within the time limit when the file
//! was written. Each position gets `BEST_BENCH_SECONDS` (default 60) and
//! counts as over the limit when its proof does not finish.
//! `BEST_BENCH_WRITE=1` regenerates the file (solving every position).
//!
//! `BEST_BENCH_SET=strong` takes instead the 100 positions of
//! `benches/best_7x7_strong.txt` (issue 20's games between strong
//! players): seeded games in which each side plays the move an 8-ply
//! search likes best, but a random legal move with probability 1/8; each
//! game gives the positions after 10, 16, 22, 28 and 34 moves, games
//! following one another until there are 100 different ones.
//! `BEST_BENCH_ONLY=K` runs the first K positions; `BEST_BENCH_LIST=1`
//! prints the positions. Reports the time of each and the median, 90th
//! percentile and maximum, and how often the move given is a best move
//! (with `BEST_BENCH_SECONDS=1`: the rate of issue 20's `--time 1` target).
//!
//! `BEST_BENCH_PROBE=K` answers every position with at most `K` seeds on
//! the board from the endgame databases (`dakon best --probe-seeds K`),
//! loaded from or built once into `BEST_BENCH_DB_DIR` (default: the
//! database folder of `--db-dir`); the build is timed apart.

use std::sync::Arc;
use std::time::Instant;

use dalkon_dakon::best::{analyse_with, Options};
use dalkon_dakon::request::DEFAULT_ESTIMATE_DEPTH;
use dalkon_dakon::search::answer::Session;
use dalkon_dakon::search::{estimate_moves, Limits};
use dalkon_dakon::{Databases, NoProgress};
use dalkon_rules::dakon::{Position, Rules};

/// A position's pinned exact value and best moves.
type Pin = (i32, Vec<usize>);

/// One set of benchmark positions: its file, the plies that give its
/// positions, how often a move is random (1 in `random`) and the depth of
/// the search that picks the others.
struct Set {
    name: &'static str,
    file: &'static str,
    plies: [usize; 5],
    random: u64,
    depth: u32,
}

const SETS: [Set; 2] = [
    Set {
        name: "7x7",
        file: concat!(env!("CARGO_MANIFEST_DIR"), "/benches/best_7x7.txt"),
        plies: [2, 4, 8, 12, 16],
        random: 2,
        depth: 6,
    },
    Set {
        name: "strong",
        file: concat!(env!("CARGO_MANIFEST_DIR"), "/benches/best_7x7_strong.txt"),
        plies: [10, 16, 22, 28, 34],
        random: 8,
        depth: 8,
    },
];

/// splitmix64: a fixed, dependency-free stream for the games.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// The 100 benchmark positions of `set`.
fn positions(rules: &Rules, set: &Set) -> Vec<Position> {
    let mut out = Vec::new();
    // The first set is 20 games; a game ending early gives fewer positions,
    // so the strong set plays games until it has 100.
    let games = if set.name == "7x7" { 20 } else { u64::MAX };
    for game in 0..games {
        if out.len() == 100 {
            break;
        }
        let mut rng = Rng(game);
        let mut pos = Position::start(7, 7).unwrap();
        for ply in 1..=*set.plies.last().unwrap() {
            if pos.is_over() || out.len() == 100 {
                break;
            }
            let moves: Vec<usize> = pos.moves().collect();
            let h = if rng.next() % set.random == 0 {
                moves[(rng.next() % moves.len() as u64) as usize]
            } else {
                let est = estimate_moves(&pos, rules, set.depth);
                let top = est.iter().map(|m| m.1).max().unwrap();
                est.iter().find(|m| m.1 == top).unwrap().0
            };
            pos = pos.play(h, rules).unwrap();
            // A game without an early random move repeats an earlier one:
            // a position is taken once.
            if set.plies.contains(&ply) && !pos.is_over() && !out.contains(&pos) {
                out.push(pos);
            }
        }
    }
    out
}

/// The peak resident memory of this process so far, in MiB (Linux).
fn peak_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

fn main() {
    let rules = Rules::default();
    let set_name = std::env::var("BEST_BENCH_SET").unwrap_or_else(|_| "7x7".to_owned());
    let set = SETS
        .iter()
        .find(|s| s.name == set_name)
        .expect("BEST_BENCH_SET is 7x7 or strong");
    let seconds: f64 = std::env::var("BEST_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60.0);
    let limits = Limits {
        tt_bytes: 2 << 30,
        max_nodes: None,
        time: Some(std::time::Duration::from_secs_f64(seconds)),
    };
    // The estimate depth `dakon best` uses, so the rate is the users'.
    let options = Options {
        every_move: false,
        estimate_depth: DEFAULT_ESTIMATE_DEPTH,
    };
    if std::env::var_os("BEST_BENCH_LIST").is_some() {
        for p in positions(&rules, set) {
            println!("{p}");
        }
        return;
    }
    let write = std::env::var_os("BEST_BENCH_WRITE").is_some();
    let pinned: Vec<(Position, Option<Pin>)> = if write {
        positions(&rules, set)
            .into_iter()
            .map(|p| (p, None))
            .collect()
    } else {
        std::fs::read_to_string(set.file)
            .expect("the set's file (BEST_BENCH_WRITE=1 makes it)")
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                let pin = (f[1] != "?").then(|| {
                    let best = f[2].split(' ').map(|h| h.parse().unwrap()).collect();
                    (f[1].parse().unwrap(), best)
                });
                (f[0].parse().unwrap(), pin)
            })
            .collect()
    };
    let only: usize = std::env::var("BEST_BENCH_ONLY")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(usize::MAX);
    let probe: u32 = std::env::var("BEST_BENCH_PROBE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let databases = (probe > 0).then(|| {
        let dir =
            dalkon_store::data_dir(std::env::var_os("BEST_BENCH_DB_DIR").map(Into::into)).unwrap();
        let t = Instant::now();
        let db = Databases::open_or_build(&dir, 7, rules, probe, &NoProgress).unwrap();
        println!(
            "databases up to {probe} seeds in {}: {} positions, {:.1} s ({} built)",
            dir.display(),
            db.positions(),
            t.elapsed().as_secs_f64(),
            db.built()
        );
        Arc::new(db)
    });
    let mut times = Vec::new();
    let mut total_nodes = 0u64;
    let mut lines = vec!["# position\tvalue\tbest moves (benches/best.rs)".to_owned()];
    let mut unproved = 0;
    let (mut chose_best, mut pinned_count) = (0, 0);
    let mut cut_lines = 0;
    for (i, (pos, pin)) in pinned.iter().enumerate().take(only) {
        let t = Instant::now();
        // A fresh table for each position, as without databases.
        let session = databases
            .as_ref()
            .map(|d| Session::new(7, rules, &limits).with_databases(Some(Arc::clone(d))));
        let r = analyse_with(pos, &rules, &limits, session.as_ref(), None, options).unwrap();
        let secs = t.elapsed().as_secs_f64();
        times.push(secs);
        total_nodes += r.nodes;
        println!(
            "{i:>3} {pos}  value {:+} best {:?} {} {} nodes  {secs:.3} s",
            r.value,
            r.best_moves,
            if r.exact { "exact" } else { "NOT PROVED" },
            r.nodes
        );
        if r.exact {
            // The principal variation, replayed, ends at exactly the value;
            // a proof that finished just before the time limit may leave no
            // time to walk the whole line (documented: the line stops where
            // the budget ran out), which only a short limit shows.
            let mut p = *pos;
            for &h in &r.pv {
                p = p.play(h, &rules).unwrap();
            }
            let me = pos.side_to_move();
            let end = i32::from(p.store(me)) - i32::from(p.store(me.other()));
            if p.is_over() {
                assert_eq!(end, r.value, "{pos}: pv {:?} ends at {p}", r.pv);
            } else {
                assert!(seconds < 10.0, "{pos}: pv {:?} stops at {p}", r.pv);
                cut_lines += 1;
            }
        } else {
            unproved += 1;
        }
        if write {
            let b: Vec<String> = r.best_moves.iter().map(|h| h.to_string()).collect();
            lines.push(if r.exact {
                format!("{pos}\t{}\t{}", r.value, b.join(" "))
            } else {
                format!("{pos}\t?\t?")
            });
        } else if let (Some((value, best)), true) = (pin, r.exact) {
            assert_eq!((r.value, &r.best_moves), (*value, best), "{pos}");
        }
        // Whether the move given (the first best move) is a best move.
        if let Some((_, best)) = pin {
            pinned_count += 1;
            chose_best += usize::from(best.contains(&r.best_moves[0]));
        }
    }
    if write {
        lines.push(String::new());
        std::fs::write(set.file, lines.join("\n")).unwrap();
    }
    times.sort_by(f64::total_cmp);
    let q = |f: f64| times[((times.len() - 1) as f64 * f).round() as usize];
    let total = times.iter().sum::<f64>();
    let threads = rayon::current_num_threads();
    println!(
        "best {}{}: {} positions ({unproved} not proved within {seconds} s), median {:.3} s, 90th percentile {:.3} s, max {:.3} s, total {total:.1} s ({threads} threads), peak memory {:.0} MiB",
        set.name,
        if probe > 0 { format!(" (databases up to {probe} seeds)") } else { String::new() },
        times.len(),
        q(0.5),
        q(0.9),
        q(1.0),
        peak_mib().unwrap_or(f64::NAN)
    );
    // Wall-clock throughput over the whole set, per thread (issue 20's
    // target is 3 M nodes/s a core).
    println!(
        "{total_nodes} nodes, {:.2} M nodes/s, {:.2} M nodes/s a thread",
        total_nodes as f64 / total / 1e6,
        total_nodes as f64 / total / 1e6 / threads as f64
    );
    println!(
        "the move given is a best move in {chose_best} of {pinned_count} positions with pinned best moves ({:.1} %); {cut_lines} exact answers' lines cut by the time limit",
        100.0 * chose_best as f64 / pinned_count.max(1) as f64
    );
}
