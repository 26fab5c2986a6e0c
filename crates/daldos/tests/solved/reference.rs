//! A reference computation of Daldøs values under perfect play
//! (docs/rules.md §1.8) for tiny positions, as a test oracle for the fast
//! table builder.
//!
//! It is deliberately independent of that builder and shares no code with
//! it: positions are plain `dalkon_rules::daldos::Position` keys in hash
//! maps (no ranking of positions, no packed tables, no symmetry reduction,
//! no layers), and of the rules crate it uses only the play generator
//! (`play_results`) and what a position says about itself (cells, side to
//! move, winner). Anything the two agree on was therefore computed twice by
//! different means. Speed is not a goal beyond keeping the tests short.
//!
//! Two solutions are offered: `float_values`, the lower/upper bound
//! iteration of §1.8 as written there, and `exact_values`, policy iteration
//! in exact rationals seeded by the float solution, with `bellman_exact` to
//! check that exact values are a fixed point, and `mirror` for the symmetry
//! between the sides.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::fmt;

use dalkon_rules::daldos::{play_results, Board, Cell, Hole, Position, Row, Throw, Variants};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

/// The gap between the bounds at which `float_values` stops (docs/rules.md
/// §1.8: results state ε).
pub const EPSILON: f64 = 1e-13;

/// Rounds of policy switching `exact_values` allows before giving up. The
/// float policy is optimal up to near-ties, so one or two rounds are the
/// rule; the cap only guards against a switching cycle.
const MAX_POLICY_ROUNDS: usize = 64;

/// Why an exact solution could not be given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefError {
    /// A successor of a state has no value in the map given.
    Missing(Position),
    /// The linear system of the chosen plays is singular at this state:
    /// under those plays the game can go on for ever, so the values are not
    /// determined by the equation alone.
    Singular(Position),
    /// Policy iteration was still switching plays after this many rounds.
    NoConvergence(usize),
}

impl fmt::Display for RefError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RefError::Missing(p) => write!(f, "no value for successor {p}"),
            RefError::Singular(p) => write!(f, "singular policy system at {p}"),
            RefError::NoConvergence(n) => write!(f, "policy iteration unsettled after {n} rounds"),
        }
    }
}

/// What one play leads to, seen from the side that played it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Next {
    /// The game is over and the mover won.
    Won,
    /// The game is over and the mover lost (not reachable by a play, kept
    /// so that a hand-made position cannot break the equation).
    Lost,
    /// The mover throws again at state `j` (after a dal-dal).
    Same(usize),
    /// The opponent throws at state `j`.
    Other(usize),
}

/// Every state of a closed set with, per state and per ordered throw
/// (`Throw::ALL`, weight 1/16 each), the outcomes of its distinct plays.
#[derive(Debug)]
struct Graph {
    states: Vec<Position>,
    index: HashMap<Position, usize>,
    /// `options[s][t]`: the plays of throw `Throw::ALL[t]` at state `s`,
    /// never empty (a lost throw is one play).
    options: Vec<Vec<Vec<Next>>>,
}

impl Graph {
    /// The graph over `states` and every unfinished position reachable from
    /// them, in the order given and then in order of discovery.
    fn build(states: &[Position], v: &Variants) -> Graph {
        let mut g = Graph {
            states: Vec::new(),
            index: HashMap::new(),
            options: Vec::new(),
        };
        for &s in states {
            if !s.is_over(v) {
                g.add(s);
            }
        }
        let mut out = Vec::new();
        let mut s = 0;
        while s < g.states.len() {
            let pos = g.states[s];
            let mover = pos.side_to_move();
            let mut per_throw = Vec::with_capacity(Throw::ALL.len());
            for throw in Throw::ALL {
                play_results(&pos, v, throw, &mut out);
                let mut nexts = Vec::with_capacity(out.len());
                for r in &out {
                    nexts.push(match r.winner(v) {
                        Some(w) if w == mover => Next::Won,
                        Some(_) => Next::Lost,
                        None => {
                            let j = g.add(*r);
                            if r.side_to_move() == mover {
                                Next::Same(j)
                            } else {
                                Next::Other(j)
                            }
                        }
                    });
                }
                per_throw.push(nexts);
            }
            g.options.push(per_throw);
            s += 1;
        }
        g
    }

    /// The index of `p`, added at the end if new.
    fn add(&mut self, p: Position) -> usize {
        if let Some(&i) = self.index.get(&p) {
            return i;
        }
        let i = self.states.len();
        self.states.push(p);
        self.index.insert(p, i);
        i
    }

    fn len(&self) -> usize {
        self.states.len()
    }
}

/// Every unfinished position reachable from `root` (the root first, then
/// breadth first in the play generator's order; both sides to move, no
/// symmetry reduction). Empty when `root` is already over.
pub fn closure(root: Position, v: &Variants) -> Vec<Position> {
    let mut seen = HashSet::new();
    let mut order = Vec::new();
    let mut queue = VecDeque::new();
    if !root.is_over(v) {
        seen.insert(root);
        queue.push_back(root);
    }
    let mut out = Vec::new();
    while let Some(p) = queue.pop_front() {
        order.push(p);
        for throw in Throw::ALL {
            play_results(&p, v, throw, &mut out);
            for r in &out {
                if !r.is_over(v) && seen.insert(*r) {
                    queue.push_back(*r);
                }
            }
        }
    }
    order
}

/// The value of one outcome for the mover, given the values of the states
/// for the side that throws there: `same` when it is the mover, `other`
/// when it is the opponent.
fn outcome_f(next: Next, same: &[f64], other: &[f64]) -> f64 {
    match next {
        Next::Won => 1.0,
        Next::Lost => 0.0,
        Next::Same(j) => same[j],
        Next::Other(j) => 1.0 - other[j],
    }
}

/// One application of the §1.8 equation at state `s` with `same` for
/// same-side successors and `other` for opponent successors.
fn bellman_f(options: &[Vec<Next>], same: &[f64], other: &[f64]) -> f64 {
    let total: f64 = options
        .iter()
        .map(|plays| {
            plays
                .iter()
                .map(|&n| outcome_f(n, same, other))
                .fold(f64::NEG_INFINITY, f64::max)
        })
        .sum();
    total / f64::from(Throw::TOTAL_WEIGHT)
}

/// The bounds `(lo, hi)` of the iteration, by index of `g.states`.
fn float_bounds(g: &Graph) -> (Vec<f64>, Vec<f64>) {
    let n = g.len();
    let mut lo = vec![0.0; n];
    let mut hi = vec![1.0; n];
    loop {
        let mut changed = false;
        // Gauss-Seidel: a state sees the bounds its successors already got
        // in this sweep. Either bound stays a bound (the step is monotone),
        // and it converges in fewer sweeps than Jacobi.
        for s in 0..n {
            let l = bellman_f(&g.options[s], &lo, &hi);
            let h = bellman_f(&g.options[s], &hi, &lo);
            changed |= l != lo[s] || h != hi[s];
            lo[s] = l;
            hi[s] = h;
        }
        let gap = (0..n).map(|s| hi[s] - lo[s]).fold(0.0, f64::max);
        if gap <= EPSILON || !changed {
            return (lo, hi);
        }
    }
}

/// The bounds `(lo, hi)` on `W` for every state of `states` and every
/// unfinished position reachable from them, by the iteration of
/// docs/rules.md §1.8: `lo` from 0, `hi` from 1, each step using `lo` for
/// same-side successors and `1 - hi` for opponent successors in `lo` (the
/// reverse in `hi`), until the widest gap is at most `EPSILON` or a sweep
/// changes nothing (then the gap left is the chance that the game never
/// ends, up to rounding).
pub fn float_values(states: &[Position], v: &Variants) -> HashMap<Position, (f64, f64)> {
    let g = Graph::build(states, v);
    let (lo, hi) = float_bounds(&g);
    g.states
        .iter()
        .enumerate()
        .map(|(s, &p)| (p, (lo[s], hi[s])))
        .collect()
}

/// Exact values over one common denominator, `x_s = numer[s] / denom`,
/// so that comparing and adding them is integer work.
#[derive(Debug)]
struct Scaled {
    denom: BigInt,
    numer: Vec<BigInt>,
    /// `denom − numer[s]`: the opponent's `1 − x_s`.
    complement: Vec<BigInt>,
    zero: BigInt,
}

impl Scaled {
    fn new(denom: BigInt, numer: Vec<BigInt>) -> Scaled {
        let complement = numer.iter().map(|x| &denom - x).collect();
        Scaled {
            denom,
            numer,
            complement,
            zero: BigInt::zero(),
        }
    }

    /// The same values, brought to their least common denominator.
    fn from_rationals(values: &[BigRational]) -> Scaled {
        let denom = values.iter().fold(BigInt::one(), |d, v| lcm(&d, v.denom()));
        let numer = values
            .iter()
            .map(|v| v.numer() * (&denom / v.denom()))
            .collect();
        Scaled::new(denom, numer)
    }

    /// The value of one outcome for the mover, in units of `1 / denom`.
    fn outcome(&self, next: Next) -> &BigInt {
        match next {
            Next::Won => &self.denom,
            Next::Lost => &self.zero,
            Next::Same(j) => &self.numer[j],
            Next::Other(j) => &self.complement[j],
        }
    }

    /// `x_s` in lowest terms.
    fn value(&self, s: usize) -> BigRational {
        BigRational::new(self.numer[s].clone(), self.denom.clone())
    }
}

/// The least common multiple of two positive integers: `a` times the
/// numerator of `b / a` in lowest terms (`b / gcd(a, b)`).
fn lcm(a: &BigInt, b: &BigInt) -> BigInt {
    a * BigRational::new(b.clone(), a.clone()).numer()
}

/// The equations of one policy over the integers: `Σ_j a_sj·x_j = b_s`
/// for every state `s`, where `a = 16·I − K` (K counts, with sign, the
/// throws whose chosen play leads to each successor) and `b_s` counts the
/// throws worth a sure 1 (a win, or the `1` of an opponent's `1 − W`).
/// Integers keep the solver free of fractions until the very end.
#[derive(Debug)]
struct System {
    /// Row `s`: the nonzero `a_sj` as `(j, a_sj)`, by increasing `j`.
    rows: Vec<Vec<(usize, i64)>>,
    rhs: Vec<i64>,
}

impl System {
    fn of_policy(g: &Graph, policy: &[Vec<usize>]) -> System {
        let mut rows = Vec::with_capacity(g.len());
        let mut rhs = Vec::with_capacity(g.len());
        for (s, per_throw) in g.options.iter().enumerate() {
            let mut row = BTreeMap::from([(s, i64::from(Throw::TOTAL_WEIGHT))]);
            let mut b = 0;
            for (plays, &k) in per_throw.iter().zip(&policy[s]) {
                match plays[k] {
                    Next::Won => b += 1,
                    Next::Lost => {}
                    Next::Same(j) => *row.entry(j).or_insert(0) -= 1,
                    Next::Other(j) => {
                        *row.entry(j).or_insert(0) += 1;
                        b += 1;
                    }
                }
            }
            rows.push(row.into_iter().filter(|&(_, a)| a != 0).collect());
            rhs.push(b);
        }
        System { rows, rhs }
    }

    fn len(&self) -> usize {
        self.rows.len()
    }

    /// log2 of a bound on every numerator and denominator of the solution
    /// (reduced or not): by Cramer's rule they are determinants of `a` with
    /// at most one column replaced by `b`, and Hadamard's inequality bounds
    /// each by the product over rows of `|row|₂ + |b_s|`.
    fn log2_bound(&self) -> f64 {
        self.rows
            .iter()
            .zip(&self.rhs)
            .map(|(row, &b)| {
                let norm2: i64 = row.iter().map(|&(_, a)| a * a).sum();
                ((norm2 as f64).sqrt() + b.unsigned_abs() as f64).log2()
            })
            .sum()
    }
}

/// Strongly connected components of the graph `succ` on `0..n` (Tarjan,
/// with an explicit stack so that long chains cannot overflow the thread's
/// stack), each listed once, a component after every component it has an
/// edge to: the order in which to solve them.
fn tarjan(n: usize, succ: &[Vec<usize>]) -> Vec<Vec<usize>> {
    const UNSEEN: usize = usize::MAX;
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut components = Vec::new();
    let mut next_index = 0;
    // Call frames: (node, position in its successor list).
    let mut frames: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        frames.push((root, 0));
        index[root] = next_index;
        low[root] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (u, ref mut pos)) = frames.last_mut() {
            if let Some(&w) = succ[u].get(*pos) {
                *pos += 1;
                if index[w] == UNSEEN {
                    index[w] = next_index;
                    low[w] = next_index;
                    next_index += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    frames.push((w, 0));
                } else if on_stack[w] {
                    low[u] = low[u].min(index[w]);
                }
                continue;
            }
            frames.pop();
            if let Some(&(parent, _)) = frames.last() {
                low[parent] = low[parent].min(low[u]);
            }
            if low[u] == index[u] {
                let mut comp = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    comp.push(w);
                    if w == u {
                        break;
                    }
                }
                comp.sort_unstable();
                components.push(comp);
            }
        }
    }
    components
}

/// Primes for the modular elimination: 2^31 − 1, 2^31 − 19 and 2^31 − 61
/// (a test checks they are prime). Below 2^31 a product of two residues
/// fits in a `u64`, and as constants the reductions compile to
/// multiplications. A later prime is used only when a block's determinant
/// is divisible by the earlier ones.
pub const PRIMES: [u64; 3] = [2_147_483_647, 2_147_483_629, 2_147_483_587];

fn pow_mod(mut a: u64, mut e: u64, p: u64) -> u64 {
    let mut r = 1 % p;
    a %= p;
    while e > 0 {
        if e & 1 == 1 {
            r = (u128::from(r) * u128::from(a) % u128::from(p)) as u64;
        }
        a = (u128::from(a) * u128::from(a) % u128::from(p)) as u64;
        e >>= 1;
    }
    r
}

/// Whether `n` is prime (Miller–Rabin with the bases that decide every
/// 64-bit number).
pub fn is_prime(n: u64) -> bool {
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    if n < 2 {
        return false;
    }
    if let Some(&b) = BASES.iter().find(|&&b| n % b == 0) {
        return n == b;
    }
    let s = (n - 1).trailing_zeros();
    let d = (n - 1) >> s;
    BASES.iter().all(|&a| {
        let mut x = pow_mod(a, d, n);
        if x == 1 || x == n - 1 {
            return true;
        }
        for _ in 1..s {
            x = pow_mod(x, 2, n);
            if x == n - 1 {
                return true;
            }
        }
        false
    })
}

/// `a mod P` in `0..P`.
fn reduce<const P: u64>(a: i128) -> u64 {
    a.rem_euclid(i128::from(P)) as u64
}

/// `Σ a_k·b_k mod P` for residues below `P < 2^31` (each product below
/// 2^62, so even 2^64 of them fit the 128-bit sum).
fn dot<const P: u64>(a: &[u64], b: &[u64]) -> u64 {
    let sum: u128 = a.iter().zip(b).map(|(&x, &y)| u128::from(x * y)).sum();
    (sum % u128::from(P)) as u64
}

/// A square block factored as `Π·a = L·U` modulo `P`: `L` unit lower
/// triangular below the diagonal of `lu`, `U` on and above it, `perm[i]`
/// the row of `a` that ended up in row `i`.
#[derive(Debug)]
struct Lu<const P: u64> {
    m: usize,
    lu: Vec<u64>,
    perm: Vec<usize>,
    /// Inverses of `U`'s diagonal.
    inv_diag: Vec<u64>,
}

impl<const P: u64> Lu<P> {
    /// Gaussian elimination with row pivoting on the `m × m` row-major
    /// `a`; `None` when it is singular modulo `P`.
    fn new(mut a: Vec<u64>, m: usize) -> Option<Lu<P>> {
        let mut perm: Vec<usize> = (0..m).collect();
        let mut inv_diag = Vec::with_capacity(m);
        for col in 0..m {
            let pivot = (col..m).find(|&r| a[r * m + col] != 0)?;
            if pivot != col {
                for k in 0..m {
                    a.swap(pivot * m + k, col * m + k);
                }
                perm.swap(pivot, col);
            }
            let inv = pow_mod(a[col * m + col], P - 2, P);
            inv_diag.push(inv);
            let (above, below) = a.split_at_mut((col + 1) * m);
            let pivot_row = &above[col * m..];
            for row in below.chunks_exact_mut(m) {
                let f = row[col] * inv % P;
                row[col] = f;
                if f == 0 {
                    continue;
                }
                let neg = P - f;
                for (x, &u) in row[col + 1..].iter_mut().zip(&pivot_row[col + 1..]) {
                    *x = (*x + neg * u) % P;
                }
            }
        }
        Some(Lu {
            m,
            lu: a,
            perm,
            inv_diag,
        })
    }

    /// `x` with `a·x ≡ b (mod P)`.
    fn solve(&self, b: &[u64]) -> Vec<u64> {
        let m = self.m;
        let mut y: Vec<u64> = self.perm.iter().map(|&i| b[i]).collect();
        for i in 0..m {
            let s = dot::<P>(&self.lu[i * m..i * m + i], &y[..i]);
            y[i] = (y[i] + P - s) % P;
        }
        for i in (0..m).rev() {
            let s = dot::<P>(&self.lu[i * m + i + 1..(i + 1) * m], &y[i + 1..]);
            y[i] = (y[i] + P - s) % P * self.inv_diag[i] % P;
        }
        y
    }
}

/// The system's diagonal blocks (its strongly connected components, in
/// solving order) factored modulo `P`: with them `a·y ≡ r (mod P)` is
/// solved by block forward substitution.
#[derive(Debug)]
struct ModBlocks<const P: u64> {
    comps: Vec<Vec<usize>>,
    /// `comp_of[s]`: the component of state `s`.
    comp_of: Vec<usize>,
    blocks: Vec<Lu<P>>,
}

impl<const P: u64> ModBlocks<P> {
    /// `Err(comp)` when that block is singular modulo `P`.
    fn new(sys: &System, comps: &[Vec<usize>]) -> Result<ModBlocks<P>, usize> {
        let n = sys.len();
        let mut local = vec![0; n];
        let mut comp_of = vec![0; n];
        for (c, comp) in comps.iter().enumerate() {
            for (i, &s) in comp.iter().enumerate() {
                local[s] = i;
                comp_of[s] = c;
            }
        }
        let mut blocks = Vec::with_capacity(comps.len());
        for (c, comp) in comps.iter().enumerate() {
            let m = comp.len();
            let mut block = vec![0u64; m * m];
            for (i, &s) in comp.iter().enumerate() {
                for &(j, a) in &sys.rows[s] {
                    if comp_of[j] == c {
                        block[i * m + local[j]] = reduce::<P>(i128::from(a));
                    }
                }
            }
            blocks.push(Lu::new(block, m).ok_or(c)?);
        }
        Ok(ModBlocks {
            comps: comps.to_vec(),
            comp_of,
            blocks,
        })
    }

    /// `y` with `a·y ≡ r (mod P)`, each entry in `0..P`.
    fn solve(&self, sys: &System, r: &[i128]) -> Vec<u64> {
        let mut y = vec![0u64; sys.len()];
        for (c, (comp, block)) in self.comps.iter().zip(&self.blocks).enumerate() {
            let rhs: Vec<u64> = comp
                .iter()
                .map(|&s| {
                    // Entries of earlier components are known already.
                    let known: i128 = sys.rows[s]
                        .iter()
                        .filter(|&&(j, _)| self.comp_of[j] != c)
                        .map(|&(j, a)| i128::from(a) * i128::from(y[j]))
                        .sum();
                    reduce::<P>(r[s] - known)
                })
                .collect();
            for (&s, value) in comp.iter().zip(block.solve(&rhs)) {
                y[s] = value;
            }
        }
        y
    }
}

/// `n / d` with `n ≡ u·d (mod m)` and `|n|, d ≤ bound`, if there is one
/// (extended Euclid stopped at the first remainder within the bound); unique
/// when `2·bound² < m`.
fn rational_reconstruction(u: &BigInt, m: &BigInt, bound: &BigInt) -> Option<BigRational> {
    let (mut r0, mut r1) = (m.clone(), u.clone());
    let (mut t0, mut t1) = (BigInt::zero(), BigInt::one());
    while &r1 > bound {
        let q = &r0 / &r1;
        let r2 = &r0 - &q * &r1;
        let t2 = &t0 - &q * &t1;
        (r0, r1) = (r1, r2);
        (t0, t1) = (t1, t2);
    }
    if t1.is_zero() || t1.magnitude() > bound.magnitude() {
        return None;
    }
    Some(BigRational::new(r1, t1))
}

/// The exact solution of `sys`, or `Err(state)` at a state where it is
/// singular.
///
/// Gaussian elimination in rationals is exact but slow here: the numbers
/// grow to the size of the determinants (a hundred digits on 1 against 1,
/// a thousand on 2 against 1), and measured it took 9 s for 186 states
/// and 12 min for 1139. So the elimination is done modulo a prime `p`, once
/// per strongly connected block (the system is block triangular in the
/// policy's component order), and the solution is lifted p-adically (Dixon:
/// `y_t = a⁻¹ r_t mod p`, `r_{t+1} = (r_t − a·y_t) / p`, so that
/// `x ≡ Σ y_t p^t (mod p^k)`) until `p^k` exceeds twice the square of the
/// Hadamard bound on every numerator and denominator; each value is then
/// the unique fraction within the bound congruent to it. The result is
/// checked exactly against every equation before it is returned.
fn solve_exact(sys: &System, comps: &[Vec<usize>]) -> Result<Scaled, usize> {
    // A block that is singular modulo every prime tried is taken to be
    // singular: otherwise its determinant would be divisible by all three.
    // The state reported is one of the first block found singular.
    let first = match ModBlocks::<{ PRIMES[0] }>::new(sys, comps) {
        Ok(blocks) => return lift(sys, comps, &blocks),
        Err(c) => comps[c][0],
    };
    if let Ok(blocks) = ModBlocks::<{ PRIMES[1] }>::new(sys, comps) {
        return lift(sys, comps, &blocks);
    }
    match ModBlocks::<{ PRIMES[2] }>::new(sys, comps) {
        Ok(blocks) => lift(sys, comps, &blocks),
        Err(_) => Err(first),
    }
}

/// The p-adic lifting, reconstruction and exact check of `solve_exact`,
/// with the blocks factored modulo `P`.
fn lift<const P: u64>(
    sys: &System,
    comps: &[Vec<usize>],
    blocks: &ModBlocks<P>,
) -> Result<Scaled, usize> {
    let n = sys.len();
    let p = P;
    let bits = 2.0 * sys.log2_bound() + 2.0;
    let steps = (bits / (p as f64).log2()).ceil() as usize + 1;
    // digits[t][s]: the p-adic digit t of x_s.
    let mut digits: Vec<Vec<u64>> = Vec::with_capacity(steps);
    let mut r: Vec<i128> = sys.rhs.iter().map(|&b| i128::from(b)).collect();
    for _ in 0..steps {
        let y = blocks.solve(sys, &r);
        for (s, row) in sys.rows.iter().enumerate() {
            // A row's |a_sj| sum to at most 32 (16 on the diagonal, give or
            // take a lost dal-dal, and 16 throws' worth off it) and y < p,
            // so the sum fits easily and r stays small: |r_t| < 33.
            let ay: i128 = row
                .iter()
                .map(|&(j, a)| i128::from(a) * i128::from(y[j]))
                .sum();
            r[s] = (r[s] - ay) / i128::from(p);
        }
        digits.push(y);
    }
    let big_p = BigInt::from(p);
    let modulus = num_traits::pow(big_p.clone(), steps);
    let bound = (&modulus / BigInt::from(2)).sqrt();
    // The common denominator found so far. States are visited from the
    // last component (the ones everything else hangs below) down, so that
    // most values are recognised by it without a reconstruction.
    let mut common = BigInt::one();
    // x_s = fractions[s].0 / fractions[s].1, not necessarily reduced.
    let mut fractions = vec![(BigInt::zero(), BigInt::one()); n];
    for &s in comps.iter().rev().flatten() {
        let mut u = BigInt::zero();
        for t in (0..steps).rev() {
            u = u * &big_p + BigInt::from(digits[t][s]);
        }
        // A value whose denominator divides `common` shows as a residue in
        // 0..=common; any other lands there only by a chance of about
        // common / modulus, and would then fail the exact check below.
        let scaled = (&common * &u) % &modulus;
        fractions[s] = if scaled <= common {
            (scaled, common.clone())
        } else {
            let Some(value) = rational_reconstruction(&u, &modulus, &bound) else {
                return Err(s);
            };
            common = lcm(&common, value.denom());
            value.into_raw()
        };
    }
    // Every denominator divides the final common one.
    let numer: Vec<BigInt> = fractions
        .into_iter()
        .map(|(num, den)| num * (&common / den))
        .collect();
    // The exact check: D·x must satisfy every equation times D.
    for (s, row) in sys.rows.iter().enumerate() {
        let lhs = row
            .iter()
            .fold(BigInt::zero(), |acc, &(j, a)| acc + &numer[j] * a);
        if lhs != &common * sys.rhs[s] {
            return Err(s);
        }
    }
    Ok(Scaled::new(common, numer))
}

/// The exact values of the states when both sides play `policy` (the index
/// of the chosen play per state and throw).
fn evaluate_policy(g: &Graph, policy: &[Vec<usize>]) -> Result<Scaled, RefError> {
    let sys = System::of_policy(g, policy);
    let succ: Vec<Vec<usize>> = sys
        .rows
        .iter()
        .enumerate()
        .map(|(s, row)| row.iter().map(|&(j, _)| j).filter(|&j| j != s).collect())
        .collect();
    let comps = tarjan(g.len(), &succ);
    solve_exact(&sys, &comps).map_err(|s| RefError::Singular(g.states[s]))
}

/// The play with the highest float value per state and throw (the first
/// on ties), valuing successors at the middle of their bounds.
fn float_policy(g: &Graph, lo: &[f64], hi: &[f64]) -> Vec<Vec<usize>> {
    let mid: Vec<f64> = lo.iter().zip(hi).map(|(l, h)| (l + h) / 2.0).collect();
    g.options
        .iter()
        .map(|per_throw| {
            per_throw
                .iter()
                .map(|plays| {
                    let mut best = 0;
                    for (k, &n) in plays.iter().enumerate() {
                        if outcome_f(n, &mid, &mid) > outcome_f(plays[best], &mid, &mid) {
                            best = k;
                        }
                    }
                    best
                })
                .collect()
        })
        .collect()
}

/// The exact `W` of every state of `states` and every unfinished position
/// reachable from them, by policy iteration: the plays that are best on
/// the float solution are evaluated exactly (`evaluate_policy`); then every
/// state and throw is checked for a play that is worth exactly more under
/// those values, and if any is, the best such plays replace the chosen ones
/// and the new policy is evaluated, until no play improves. The values
/// returned are then a fixed point of the exact equation (checked again by
/// `bellman_exact` in the tests).
pub fn exact_values(
    states: &[Position],
    v: &Variants,
) -> Result<HashMap<Position, BigRational>, RefError> {
    let g = Graph::build(states, v);
    let (lo, hi) = float_bounds(&g);
    let mut policy = float_policy(&g, &lo, &hi);
    for _ in 0..MAX_POLICY_ROUNDS {
        let x = evaluate_policy(&g, &policy)?;
        let mut switched = false;
        for (s, per_throw) in g.options.iter().enumerate() {
            for (plays, chosen) in per_throw.iter().zip(policy[s].iter_mut()) {
                let mut best = *chosen;
                let mut best_value = x.outcome(plays[best]);
                for (k, &n) in plays.iter().enumerate() {
                    let value = x.outcome(n);
                    if value > best_value {
                        best = k;
                        best_value = value;
                    }
                }
                if best != *chosen {
                    *chosen = best;
                    switched = true;
                }
            }
        }
        if !switched {
            return Ok(g
                .states
                .iter()
                .enumerate()
                .map(|(s, &p)| (p, x.value(s)))
                .collect());
        }
    }
    Err(RefError::NoConvergence(MAX_POLICY_ROUNDS))
}

/// One application of the §1.8 equation, in exact rationals, to `values`
/// at every state of `states` and every unfinished position reachable from
/// them: `Σ_t 1/16 · max_p [1 if p wins, W(s') after a dal-dal, else
/// 1 − W(s')]`. Equal to `values` exactly when they are a fixed point.
pub fn bellman_exact(
    states: &[Position],
    v: &Variants,
    values: &HashMap<Position, BigRational>,
) -> Result<HashMap<Position, BigRational>, RefError> {
    let g = Graph::build(states, v);
    let x = g
        .states
        .iter()
        .map(|p| values.get(p).cloned().ok_or(RefError::Missing(*p)))
        .collect::<Result<Vec<_>, _>>()?;
    let x = Scaled::from_rationals(&x);
    let denom = &x.denom * BigInt::from(Throw::TOTAL_WEIGHT);
    Ok(g.states
        .iter()
        .zip(&g.options)
        .map(|(&p, per_throw)| {
            let total = per_throw
                .iter()
                .filter_map(|plays| plays.iter().map(|&n| x.outcome(n)).max())
                .fold(BigInt::zero(), |acc, best| acc + best);
            (p, BigRational::new(total, denom.clone()))
        })
        .collect())
}

/// The hole facing `h` across the middle row: `A_c` ↔ `B_c`, `M_c` itself.
fn mirror_hole(board: Board, row: Row, col: u8) -> Option<Hole> {
    let row = match row {
        Row::A => Row::B,
        Row::M => Row::M,
        Row::B => Row::A,
    };
    board.hole(row, col)
}

/// The same position with the roles of the sides exchanged: row A and row
/// B swapped cell by cell (`A_c` ↔ `B_c`, `M_c` stays), every piece given to
/// the other side (dalt stays dalt, undalt stays undalt) and the other side
/// to move. The rules are symmetric under this map (B's path is A's path
/// mirrored), so `W(mirror(p)) = W(p)`. Built from the rules' definition of
/// the holes (docs/rules.md §1.1), not from any table builder's symmetry.
pub fn mirror(p: &Position) -> Position {
    let board = p.board();
    let mut out = Position::empty(board, p.side_to_move().other());
    for h in board.holes() {
        let (row, col) = board.row_col(h);
        let cell = match p.cell(h) {
            Cell::Empty => continue,
            Cell::Undalt(s) => Cell::Undalt(s.other()),
            Cell::Dalt(s) => Cell::Dalt(s.other()),
        };
        // Every hole has a facing hole on the same board, an undalt piece
        // on its start row lands on the other side's start row, and piece
        // counts move between the sides unchanged: a valid position
        // mirrors to a valid position.
        out = mirror_hole(board, row, col)
            .and_then(|m| out.with_cell(m, cell).ok())
            .expect("the mirror of a valid position is valid");
    }
    out
}
