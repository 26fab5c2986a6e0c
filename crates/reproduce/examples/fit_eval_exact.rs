//! Fits the evaluation weights (`eval.rs`) to exact values instead of game
//! outcomes: minimises the cross-entropy between the evaluation and the
//! solved tables' `W` (docs/rules.md §1.8) over positions of covered layers,
//! by Newton's method on the five weights (`dalt_cap` stays 8), with
//! numerical derivatives and a halving line search.
//!
//!     cargo run --release -p dalkon-reproduce --example fit_eval_exact -- DIR [SEED]
//!
//! `DIR` holds (or gets) the tables of the whole L = 4 game and of the
//! Norwegian board up to 2 v 2. The training positions are, with `SEED`
//! (default 777, not the seed the error rates are measured with):
//! every position before a throw of 3000 games on L = 4 played as the
//! error rates' games are (greedy, one play in four at random), and
//! 100 000 positions drawn uniformly from the Norwegian layers up to 2 v 2
//! (each layer by its size), half of them with B to throw. Prints the
//! weights, the cross-entropy and mean absolute error on each part with
//! the weights before and after.

use std::path::PathBuf;
use std::sync::Arc;

use dalkon_daldos::engine::{features, EvalWeights, Features, Game, GreedyPlayer, Player, Rng};
use dalkon_daldos::engine::{Daldos, RandomPlayer};
use dalkon_daldos::solved::{layers_for, plan, LayerIndex, NoProgress, Tables, EPS};
use dalkon_rules::daldos::{Board, Position, Throw, Variants};
use rayon::prelude::*;

fn tables(board: Board, pieces: (u8, u8), dir: &std::path::Path) -> Arc<Tables> {
    let v = Variants::default();
    let mut t = Tables::new(board, v, Some(dir));
    let p = plan(board, &v, pieces).expect("a plan");
    t.build(&p, EPS, &mut NoProgress).expect("tables build");
    Arc::new(t)
}

/// Every position before a throw of game `k` (not finished).
fn game_positions(game: &Daldos, board: Board, mut rng: Rng) -> Vec<Position> {
    let mut pos = Position::start(board);
    let mut out = Vec::new();
    while game.winner(&pos).is_none() && out.len() < 5000 {
        out.push(pos);
        let throw = Throw::ALL[rng.below(16) as usize];
        let mut plays = game.plays(&pos, throw);
        let i = if plays.len() < 2 {
            0
        } else if rng.below(4) == 0 {
            RandomPlayer.choose(game, &pos, &plays, &mut rng)
        } else {
            GreedyPlayer.choose(game, &pos, &plays, &mut rng)
        };
        pos = plays.swap_remove(i).1;
    }
    out
}

/// Positions drawn uniformly from the union of `board`'s layers up to
/// `pieces`, half mirrored to B to throw.
fn layer_positions(board: Board, pieces: (u8, u8), n: u64, seed: u64) -> Vec<Position> {
    let v = Variants::default();
    let mut keys = Vec::new();
    for k in layers_for(board, &v, pieces) {
        keys.push(k);
        if k.a != k.b {
            keys.push(k.swapped());
        }
    }
    let indexes: Vec<LayerIndex> = keys.into_iter().map(LayerIndex::new).collect();
    let total: u64 = indexes.iter().map(LayerIndex::size).sum();
    (0..n)
        .into_par_iter()
        .map(|k| {
            let mut rng = Rng::for_index(seed, k);
            let mut r = rng.below(total);
            let mut i = 0;
            while r >= indexes[i].size() {
                r -= indexes[i].size();
                i += 1;
            }
            let pos = indexes[i].unrank(r);
            if rng.below(2) == 0 {
                pos.mirror()
            } else {
                pos
            }
        })
        .collect()
}

/// Mean cross-entropy of `w` against the targets, and mean absolute error.
fn loss(w: &EvalWeights, data: &[(Features, f64)]) -> (f64, f64) {
    let (ce, ae) = data
        .par_iter()
        .map(|(f, t)| {
            let p = w.value(f).clamp(1e-12, 1.0 - 1e-12);
            (-(t * p.ln() + (1.0 - t) * (1.0 - p).ln()), (p - t).abs())
        })
        .reduce(|| (0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1));
    (ce / data.len() as f64, ae / data.len() as f64)
}

fn get(w: &EvalWeights) -> [f64; 5] {
    [w.material, w.defend, w.attack, w.dalt, w.race]
}

fn set(x: [f64; 5]) -> EvalWeights {
    EvalWeights {
        material: x[0],
        defend: x[1],
        attack: x[2],
        dalt: x[3],
        dalt_cap: 8,
        race: x[4],
    }
}

/// Solve `a x = b` (5 x 5) by Gaussian elimination with pivoting.
// Row and column indices are the algorithm; iterators would hide them.
#[allow(clippy::needless_range_loop)]
fn solve(mut a: [[f64; 5]; 5], mut b: [f64; 5]) -> [f64; 5] {
    for i in 0..5 {
        let p = (i..5)
            .max_by(|&r, &s| a[r][i].abs().total_cmp(&a[s][i].abs()))
            .unwrap_or(i);
        a.swap(i, p);
        b.swap(i, p);
        for r in 0..5 {
            if r != i && a[i][i] != 0.0 {
                let f = a[r][i] / a[i][i];
                for c in i..5 {
                    a[r][c] -= f * a[i][c];
                }
                b[r] -= f * b[i];
            }
        }
    }
    let mut x = [0.0; 5];
    for i in 0..5 {
        x[i] = if a[i][i] != 0.0 { b[i] / a[i][i] } else { 0.0 };
    }
    x
}

// Hessian indices as in the formulas.
#[allow(clippy::needless_range_loop)]
fn fit(start: EvalWeights, data: &[(Features, f64)]) -> EvalWeights {
    let f = |x: [f64; 5]| loss(&set(x), data).0;
    let mut x = get(&start);
    let h = 1e-4;
    for it in 0..40 {
        let fx = f(x);
        let mut g = [0.0; 5];
        let mut hess = [[0.0; 5]; 5];
        for i in 0..5 {
            let mut xp = x;
            xp[i] += h;
            let mut xm = x;
            xm[i] -= h;
            let (fp, fm) = (f(xp), f(xm));
            g[i] = (fp - fm) / (2.0 * h);
            hess[i][i] = (fp - 2.0 * fx + fm) / (h * h);
            for j in 0..i {
                let mut pp = x;
                pp[i] += h;
                pp[j] += h;
                let mut pm = x;
                pm[i] += h;
                pm[j] -= h;
                let mut mp = x;
                mp[i] -= h;
                mp[j] += h;
                let mut mm = x;
                mm[i] -= h;
                mm[j] -= h;
                let v = (f(pp) - f(pm) - f(mp) + f(mm)) / (4.0 * h * h);
                hess[i][j] = v;
                hess[j][i] = v;
            }
        }
        let step = solve(hess, g);
        let mut t = 1.0;
        let mut next = x;
        loop {
            let mut y = x;
            for i in 0..5 {
                y[i] -= t * step[i];
            }
            if f(y) < fx || t < 1e-6 {
                next = if f(y) < fx { y } else { next };
                break;
            }
            t /= 2.0;
        }
        let gain = fx - f(next);
        x = next;
        eprintln!(
            "iteration {it}: cross-entropy {:.7} (gain {gain:.2e})",
            f(x)
        );
        if gain < 1e-10 {
            break;
        }
    }
    set(x)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().expect("usage: fit_eval_exact DIR [SEED]"));
    let seed: u64 = args.next().map_or(777, |s| s.parse().expect("a seed"));
    let v = Variants::default();
    let l4 = tables(Board::new(4).expect("L = 4"), (4, 4), &dir);
    let nw = tables(Board::NORWEGIAN, (2, 2), &dir);
    let game = Daldos::new(v);
    let board4 = Board::new(4).expect("L = 4");
    let games: Vec<Position> = (0..3000u64)
        .into_par_iter()
        .flat_map_iter(|k| game_positions(&game, board4, Rng::for_index(seed, k)))
        .collect();
    let layers = layer_positions(Board::NORWEGIAN, (2, 2), 100_000, seed ^ 0x5eed);
    let label = |t: &Tables, ps: &[Position]| -> Vec<(Features, f64)> {
        ps.par_iter()
            .map(|p| {
                let b = t.bounds(p).expect("covered");
                (features(p, &v), b.value())
            })
            .collect()
    };
    let g = label(&l4, &games);
    let l = label(&nw, &layers);
    eprintln!(
        "{} positions from L = 4 games, {} from Norwegian layers",
        g.len(),
        l.len()
    );
    let all: Vec<(Features, f64)> = g.iter().chain(l.iter()).copied().collect();
    let before = EvalWeights::GAMES_FIT;
    let after = fit(before, &all);
    for (name, w) in [("before (games fit)", before), ("after (exact fit)", after)] {
        let (cg, ag) = loss(&w, &g);
        let (cl, al) = loss(&w, &l);
        println!(
            "{name}: {w:?}\n  L=4 games: cross-entropy {cg:.5} mean |eval - W| {ag:.4}; \
             Norwegian <= 2v2: cross-entropy {cl:.5} mean |eval - W| {al:.4}"
        );
    }
    // Each part alone, to see how far the two boards agree.
    for (name, part) in [("L=4 games only", &g), ("Norwegian only", &l)] {
        let w = fit(after, part);
        println!("{name}: {w:?}");
    }
}
