//! A deliberately plain second implementation of docs/rules.md §1.3 (hole
//! arrays, explicit path lists, no bit tricks), used to cross-check the
//! fast generator on random positions. It returns the set of distinct
//! result positions as notation strings.

use std::collections::BTreeSet;

use dalkon_rules::daldos::{
    Board, CaptureRule, Cell, DalRule, Hole, Position, Side, Throw, Variants,
};

#[derive(Clone)]
struct Ref {
    board: Board,
    cells: Vec<Cell>,
    side: Side,
}

impl Ref {
    fn new(p: &Position) -> Ref {
        Ref {
            board: p.board(),
            cells: p.board().holes().map(|h| p.cell(h)).collect(),
            side: p.side_to_move(),
        }
    }

    fn to_position(&self) -> Position {
        let mut p = Position::empty(self.board, self.side);
        for (i, c) in self.cells.iter().enumerate() {
            p = p.with_cell(Hole(i as u8), *c).unwrap();
        }
        p
    }

    fn count(&self, s: Side) -> usize {
        self.cells.iter().filter(|c| c.side() == Some(s)).count()
    }
}

/// The path of `side` written out: start row, then one loop.
fn path(board: Board, side: Side) -> (Vec<Hole>, Vec<Hole>) {
    let l = board.len();
    let (own, enemy) = match side {
        Side::A => (dalkon_rules::daldos::Row::A, dalkon_rules::daldos::Row::B),
        Side::B => (dalkon_rules::daldos::Row::B, dalkon_rules::daldos::Row::A),
    };
    let start = (1..=l).map(|c| board.hole(own, c).unwrap()).collect();
    let mut lp: Vec<Hole> = (0..=l)
        .rev()
        .map(|c| board.hole(dalkon_rules::daldos::Row::M, c).unwrap())
        .collect();
    lp.extend((1..=l).map(|c| board.hole(enemy, c).unwrap()));
    (start, lp)
}

fn ahead(board: Board, side: Side, h: Hole, k: usize) -> Hole {
    let (start, lp) = path(board, side);
    if let Some(i) = start.iter().position(|&x| x == h) {
        let j = i + k;
        if j < start.len() {
            start[j]
        } else {
            lp[(j - start.len()) % lp.len()]
        }
    } else {
        let i = lp.iter().position(|&x| x == h).unwrap();
        lp[(i + k) % lp.len()]
    }
}

struct Ctx {
    side: Side,
    v: Variants,
}

impl Ctx {
    fn own(&self, r: &Ref, h: Hole) -> bool {
        r.cells[h.index()].side() == Some(self.side)
    }
    fn enemy(&self, r: &Ref, h: Hole) -> bool {
        r.cells[h.index()].side() == Some(self.side.other())
    }
    fn lost(&self, r: &Ref) -> bool {
        r.count(self.side.other()) <= self.v.end.losing_count()
    }
    /// Highest-column undalt own piece.
    fn sternmost(&self, r: &Ref) -> Option<Hole> {
        r.board
            .holes()
            .filter(|&h| r.cells[h.index()] == Cell::Undalt(self.side))
            .max_by_key(|&h| r.board.row_col(h).1)
    }
    fn can_dal(&self, r: &Ref, h: Hole) -> bool {
        r.cells[h.index()] == Cell::Undalt(self.side)
            && (self.v.dal == DalRule::Any || self.sternmost(r) == Some(h))
    }
    /// Target of `k` steps from `h`, if no hole on the way is own.
    fn walk(&self, r: &Ref, h: Hole, k: usize) -> Option<Hole> {
        for i in 1..=k {
            if self.own(r, ahead(r.board, self.side, h, i)) {
                return None;
            }
        }
        Some(ahead(r.board, self.side, h, k))
    }
    fn put(&self, r: &Ref, from: Hole, to: Hole) -> Ref {
        let mut q = r.clone();
        q.cells[from.index()] = Cell::Empty;
        q.cells[to.index()] = Cell::Dalt(self.side);
        q
    }
    fn single(&self, r: &Ref, h: Hole, d: u8) -> Option<(Ref, Hole, bool)> {
        if !self.own(r, h) {
            return None;
        }
        let to = match r.cells[h.index()] {
            Cell::Undalt(_) if d == 1 && self.can_dal(r, h) => self.walk(r, h, 1)?,
            Cell::Undalt(_) => return None,
            _ => self.walk(r, h, usize::from(d))?,
        };
        Some((self.put(r, h, to), to, self.enemy(r, to)))
    }
    /// The added move and whether the game ended on its intermediate hole.
    fn added(&self, r: &Ref, h: Hole, x: u8, y: u8) -> Option<(Ref, bool)> {
        if matches!(r.cells[h.index()], Cell::Undalt(_)) && !(x == 1 && self.can_dal(r, h)) {
            return None;
        }
        let mid = self.walk(r, h, usize::from(x))?;
        let to = self.walk(r, mid, usize::from(y))?;
        if self.v.capture == CaptureRule::Path && self.enemy(r, mid) {
            let q = self.put(r, h, mid);
            if self.lost(&q) {
                return Some((q, true));
            }
            return Some((self.put(&q, mid, to), false));
        }
        Some((self.put(r, h, to), false))
    }
}

/// Distinct results (notation) of every legal play, or empty if the game
/// is over.
pub fn reference_results(p: &Position, v: &Variants, t: Throw) -> BTreeSet<String> {
    let r = Ref::new(p);
    let cx = Ctx {
        side: r.side,
        v: *v,
    };
    let mut out: Vec<Ref> = Vec::new();
    if r.count(Side::A) <= v.end.losing_count() || r.count(Side::B) <= v.end.losing_count() {
        return BTreeSet::new();
    }
    let holes: Vec<Hole> = p.board().holes().collect();
    // Plays that end the game before the second die: always legal.
    let mut ending: Vec<Ref> = Vec::new();
    for (x, y) in [(t.first, t.second), (t.second, t.first)] {
        for &h in &holes {
            if let Some((q, to, cap)) = cx.single(&r, h, x) {
                if cap && cx.lost(&q) {
                    ending.push(q);
                    continue;
                }
                for &g in &holes {
                    if g != to {
                        if let Some((q2, _, _)) = cx.single(&q, g, y) {
                            out.push(q2);
                        }
                    }
                }
            }
        }
        for &h in &holes {
            if cx.own(&r, h) {
                if let Some((q, stopped)) = cx.added(&r, h, x, y) {
                    if stopped {
                        ending.push(q);
                    } else {
                        out.push(q);
                    }
                }
            }
        }
    }
    if out.is_empty() {
        for d in [t.first, t.second] {
            for &h in &holes {
                if let Some((q, _, _)) = cx.single(&r, h, d) {
                    out.push(q);
                }
            }
        }
    }
    out.extend(ending);
    if out.is_empty() {
        out.push(r.clone());
    }
    let next = if t.is_daldal() {
        r.side
    } else {
        r.side.other()
    };
    out.into_iter()
        .map(|mut q| {
            q.side = next;
            q.to_position().to_string()
        })
        .collect()
}
