//! Golden files pinning Dakon move application and move generation.
//!
//! - `golden/dakon_sequences.txt`: seeded random games on several boards
//!   under all eight rule sets, with the position after every move.
//! - `golden/dakon_perft.txt`: distinct positions after exactly k moves
//!   from the start of small boards (perft), per rule set.
//!
//! Run with `DALKON_BLESS=1` to rewrite them after an intended rule change;
//! the diff then shows exactly what changed. The hand-worked cases in
//! `dakon_rules.rs` are the independent check of the sowing itself.

use std::collections::HashSet;

use dalkon_rules::dakon::{Position, Rules};

mod common;
use common::check_or_bless;

/// splitmix64: a fixed generator so the file never depends on a crate version.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

fn sequences() -> String {
    let mut out = String::from("# rules | start | moves | position after each move\n");
    let mut rng = Rng(2026);
    for rules in Rules::ALL {
        for (n, m) in [(1, 3), (2, 2), (3, 3), (4, 4), (5, 5), (7, 7)] {
            let start = Position::start(n, m).unwrap();
            let mut p = start;
            let mut moves = Vec::new();
            let mut after = Vec::new();
            while !p.is_over() {
                let legal: Vec<usize> = p.moves().collect();
                let h = legal[(rng.next() % legal.len() as u64) as usize];
                p = p.play(h, &rules).unwrap();
                moves.push(h.to_string());
                after.push(p.to_string());
            }
            out.push_str(&format!(
                "{rules} | {start} | {} | {}\n",
                moves.join(" "),
                after.join(" ; ")
            ));
        }
    }
    out
}

fn perft(start: Position, rules: &Rules, depth: usize) -> Vec<usize> {
    let mut layer: HashSet<Position> = HashSet::from([start]);
    let mut counts = Vec::new();
    for _ in 0..depth {
        layer = layer
            .iter()
            .flat_map(|p| p.moves().map(move |h| p.play_unchecked(h, rules)))
            .collect();
        counts.push(layer.len());
    }
    counts
}

/// Every distinct position reachable from `start`, counted with stores and
/// without (the engines factor stores out of their tables).
fn reachable(start: Position, rules: &Rules) -> (usize, usize) {
    let mut seen = HashSet::from([start]);
    let mut stack = vec![start];
    while let Some(p) = stack.pop() {
        for h in p.moves() {
            let q = p.play_unchecked(h, rules);
            if seen.insert(q) {
                stack.push(q);
            }
        }
    }
    let boards: HashSet<Position> = seen.iter().map(|p| p.without_stores()).collect();
    (seen.len(), boards.len())
}

#[test]
fn golden_sequences() {
    check_or_bless("dakon_sequences.txt", &sequences());
}

#[test]
fn golden_sequences_conserve_seeds() {
    for line in sequences().lines().skip(1) {
        let fields: Vec<&str> = line.split(" | ").collect();
        let start: Position = fields[1].parse().unwrap();
        for p in fields[3].split(" ; ") {
            assert_eq!(
                p.parse::<Position>().unwrap().total_seeds(),
                start.total_seeds()
            );
        }
        let last: Position = fields[3].split(" ; ").last().unwrap().parse().unwrap();
        assert!(last.is_over() && last.seeds_on_board() == 0, "{line}");
    }
}

/// Worked by hand: from `2,2/2,2/0,0 0`, hole 1 sows S2 and the store (a
/// bonus: `0,3/2,2/1,0 0`); hole 2 sows the store and N1, relays N1's 3
/// seeds through N2, S1 and the emptied S2, whose opposite N1 is now empty
/// (`3,1/0,3/1,0 1`). The 4x4 count without stores, 201,067, is the
/// "about 2x10^5 reachable positions" the search is designed around.
#[test]
fn perft_first_layers_by_hand() {
    let rules = Rules::default();
    let start = Position::start(2, 2).unwrap();
    let mut after: Vec<String> = start
        .moves()
        .map(|h| start.play(h, &rules).unwrap().to_string())
        .collect();
    after.sort();
    assert_eq!(after, vec!["0,3/2,2/1,0 0", "3,1/0,3/1,0 1"]);
    assert_eq!(perft(start, &rules, 1), vec![2]);
    assert_eq!(reachable(Position::start(4, 4).unwrap(), &rules).1, 201_067);
}

#[test]
fn golden_perft() {
    let mut out = String::from(
        "# rules | board (holes x seeds) | distinct positions after 1, 2, ... moves | reachable positions (with stores, without)\n",
    );
    for rules in Rules::ALL {
        for (n, m, depth) in [(2, 2, 8), (3, 3, 8), (4, 4, 6), (5, 5, 5), (7, 7, 3)] {
            let start = Position::start(n, m).unwrap();
            let counts = perft(start, &rules, depth);
            let list: Vec<String> = counts.iter().map(|c| c.to_string()).collect();
            let reach = if n <= 3 || (n == 4 && rules == Rules::default()) {
                let (a, b) = reachable(start, &rules);
                format!("{a} {b}")
            } else {
                "-".to_owned()
            };
            out.push_str(&format!(
                "{rules} | {n}x{m} | {} | {reach}\n",
                list.join(" ")
            ));
        }
    }
    check_or_bless("dakon_perft.txt", &out);
}
