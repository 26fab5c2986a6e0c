//! Build (or open) the Dakon retrograde databases of one board size into a
//! folder and print the start values they give, with a line per level on
//! stderr. Start positions up to two seeds a hole beyond the databases are
//! solved by the alpha-beta search with the databases as its probe. Used by
//! `scripts/bench_retro.sh`.
//!
//!     cargo run --release -p dalkon-dakon --example retro_build -- HOLES MAX_K DIR [RULES_CODE]

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use dalkon_dakon::search::{solve, Goal, Limits};
use dalkon_dakon::{Databases, Progress};
use dalkon_rules::dakon::{Position, Rules};

/// One line per level on stderr: entries, seconds, positions per second.
struct Lines {
    started: Mutex<Instant>,
    done: AtomicU64,
}

impl Progress for Lines {
    fn level_started(&self, level: u32, entries: u64) {
        *self.started.lock().unwrap() = Instant::now();
        self.done.store(0, Ordering::Relaxed);
        eprint!("level {level:3}: {entries:>13} entries ");
    }
    fn advance(&self, entries: u64) {
        self.done.fetch_add(entries, Ordering::Relaxed);
    }
    fn level_finished(&self, _level: u32) {
        let secs = self.started.lock().unwrap().elapsed().as_secs_f64();
        let done = self.done.load(Ordering::Relaxed);
        eprintln!(
            "built in {secs:8.2} s ({:.2} M/s)",
            done as f64 / secs.max(1e-9) / 1e6
        );
    }
    fn level_loaded(&self, level: u32, entries: u64) {
        eprintln!("level {level:3}: {entries:>13} entries loaded");
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: retro_build HOLES MAX_K DIR [RULES_CODE]");
        std::process::exit(2);
    }
    let holes: usize = args[1].parse().expect("HOLES");
    let max_k: u32 = args[2].parse().expect("MAX_K");
    let dir = PathBuf::from(&args[3]);
    let code: u8 = args.get(4).map_or(0, |c| c.parse().expect("RULES_CODE"));
    let rules = Rules::from_code(code).expect("a rules code 0..=7");
    let progress = Lines {
        started: Mutex::new(Instant::now()),
        done: AtomicU64::new(0),
    };
    let t = Instant::now();
    let db = match Databases::open_or_build(&dir, holes, rules, max_k, &progress) {
        Ok(db) => db,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let secs = t.elapsed().as_secs_f64();
    println!(
        "holes {holes} rules {rules} levels 0..={max_k}: {} entries ({} built, {} loaded) in {secs:.2} s, {:.2} M built/s, {} threads",
        db.positions(),
        db.built(),
        db.loaded(),
        db.built() as f64 / secs / 1e6,
        rayon::current_num_threads()
    );
    for seeds in 1..=u8::MAX {
        let start = Position::start(holes, seeds).expect("start position");
        if start.seeds_on_board() <= max_k {
            let sol = db.solve(&start).expect("covered");
            println!(
                "start {holes}x{seeds}: value {} best moves {:?} (databases)",
                sol.value, sol.best_moves
            );
        } else if start.seeds_on_board() <= max_k + 2 * holes as u32 * 2 {
            // A little beyond the databases: alpha-beta search that trusts
            // the databases for every position they cover.
            let probe = |p: &Position| db.probe(p);
            let limits = Limits {
                max_nodes: Some(2_000_000_000),
                time: None,
                ..Limits::default()
            };
            match solve(&start, &rules, &limits, Some(&probe), None, Goal::BestMoves) {
                Ok(r) => println!(
                    "start {holes}x{seeds}: value {} best moves {:?} (search with database probes: {} probe hits, {} nodes)",
                    r.value, r.best_moves, r.probe_hits, r.nodes
                ),
                Err(e) => println!("start {holes}x{seeds}: search failed: {e}"),
            }
        } else {
            break;
        }
    }
}
