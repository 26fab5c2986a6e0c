//! The relaxed model for "at least one capture" (`RelaxedAny`): every
//! enemy piece a target of one model, for the certificate of "any".

use dalkon_rules::daldos::{Hole, Position};
use hashbrown::HashMap;

use super::target::Relaxed;
use super::{index, memo, reach, turn, undalt, Line, Piece, PAST};

/// The relaxed model for "at least one capture": the same relaxation as
/// `Relaxed` (unwanted dice spent elsewhere for free, `dal=any`, no game
/// end), with every enemy piece a target; a play wins as soon as a piece
/// lands on any of them. Pieces that can reach no target in the rethrows
/// left and stand no more than `PAST` past none are left out (they block
/// nothing that matters, as for one target). An upper bound on the board
/// value of "any", cut after the same number of rethrows.
#[derive(Debug)]
pub(crate) struct RelaxedAny {
    /// Moves and blocking (target-free parts of `Relaxed`).
    moves: Relaxed,
    /// Per path index: a target stands there.
    target: Vec<bool>,
    /// Per path index: holes to the nearest target ahead (`u32::MAX`:
    /// none can be reached).
    dist: Vec<u32>,
    /// Per path index: at most `PAST` past some target.
    past: Vec<bool>,
    memo: HashMap<(Line, u32), u64>,
    /// States it may still work out (memo misses); once none are left
    /// every new state is bounded by a sure capture, which is still an
    /// upper bound (see [`RelaxedAny::with_budget`]).
    budget: usize,
    /// States worked out so far.
    pub(crate) states: usize,
}

impl RelaxedAny {
    /// The model for the side to move of `pos` against every enemy piece
    /// (`None` when the enemy has none).
    pub(crate) fn new(pos: &Position) -> Option<RelaxedAny> {
        let board = pos.board();
        let side = pos.side_to_move();
        let targets: Vec<Hole> = pos.pieces(side.other()).collect();
        let moves = Relaxed::new(board, side, *targets.first()?, memo());
        let last = usize::from(3 * board.len());
        let mut target = vec![false; last + 1];
        let mut past = vec![false; last + 1];
        let mut dist = vec![u32::MAX; last + 1];
        for &t in &targets {
            let ti = board.path_index(side, t);
            target[usize::from(ti)] = true;
            for k in 1..=PAST {
                past[usize::from(board.advance(ti, u32::from(k)))] = true;
            }
            for (p, d) in dist.iter_mut().enumerate() {
                if let Some(e) = board.path_distance(side, board.hole_at(side, p as u8), t) {
                    *d = (*d).min(e);
                }
            }
        }
        Some(RelaxedAny {
            moves,
            target,
            dist,
            past,
            memo: HashMap::new(),
            budget: usize::MAX,
            states: 0,
        })
    }

    /// At most `budget` states are worked out: with many pieces in reach
    /// of some target the model has as many states as the full search
    /// (every dal-dal play of every piece), so it must count against the
    /// same node budget. A state beyond it is bounded by 1 (a sure
    /// capture), which keeps the bound sound, only looser.
    pub(crate) fn with_budget(mut self, budget: usize) -> RelaxedAny {
        self.budget = budget;
        self
    }

    /// The pieces of `pos` that matter with `r` rethrows left.
    pub(crate) fn project(&self, pos: &Position, r: u32) -> Line {
        let mut line = self.moves.project_all(pos);
        self.keep(&mut line, r);
        line
    }

    fn keep(&self, line: &mut Line, r: u32) {
        let reach = reach(r);
        let mut n = 0;
        for k in 0..usize::from(line.len) {
            let p = line.pieces[k];
            let at = usize::from(index(p));
            if self.dist[at] <= reach || self.past[at] {
                line.pieces[n] = p;
                n += 1;
            }
        }
        line.pieces[n..usize::from(line.len)].fill(0);
        line.len = n as u8;
        line.pieces[..n].sort_unstable();
    }

    fn hits(&self, to: u8) -> bool {
        self.target[usize::from(to)]
    }

    /// Whether some relaxed play of `(x, y)` lands on a target: a piece
    /// with one die or the sum (undalt: the dal first), or one piece moves
    /// with one die and another lands with the other.
    fn captures(&self, pieces: &[Piece], x: u8, y: u8) -> bool {
        let m = &self.moves;
        let orders: &[(u8, u8)] = if x == y { &[(x, y)] } else { &[(x, y), (y, x)] };
        let mut after = [0u8; 32];
        let n = pieces.len();
        for &(a, b) in orders {
            for i in 0..n {
                let Some(to) = m.single(pieces, i, a) else {
                    continue;
                };
                if self.hits(to) {
                    return true;
                }
                after[..n].copy_from_slice(pieces);
                after[i] = to << 1;
                let after = &after[..n];
                if (!undalt(pieces[i]) || a == 1)
                    && m.walk(after, i, b).is_some_and(|t| self.hits(t))
                {
                    return true;
                }
                for j in (0..n).filter(|&j| j != i) {
                    if m.single(after, j, b).is_some_and(|t| self.hits(t)) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Value with `r` rethrows left, in units of `1 / (15 * 16^(r+1))`
    /// (the budget spent: 1, that is `15 * 16^(r+1)` units).
    pub(crate) fn value(&mut self, line: &Line, r: u32) -> u64 {
        let reach = reach(r);
        let pieces = line.as_slice();
        if !pieces
            .iter()
            .any(|&p| self.dist[usize::from(index(p))] <= reach)
        {
            return 0;
        }
        if let Some(&v) = self.memo.get(&(*line, r)) {
            return v;
        }
        if self.states >= self.budget {
            return 15 * 16u64.pow(r + 1);
        }
        self.states += 1;
        let v = turn(
            self,
            r,
            |m, x, y| m.captures(pieces, x, y),
            |m| {
                let children = m.moves.rethrow_lines(line, |c| m.keep(c, r - 1));
                children
                    .iter()
                    .map(|c| m.value(c, r - 1))
                    .max()
                    .unwrap_or(0)
            },
        );
        self.memo.insert((*line, r), v);
        v
    }
}
