//! `daldos value`: the exact value `W` of a position from the solved
//! tables, and every play of each throw ranked by its exact value.
//!
//! Values are for the side to throw at the position: a play's value is
//! that side's chance to win after it (whoever throws next). Each value is
//! the midpoint of its bounds, quoted with them; a value is exact when its
//! bounds are within [`EPS`].

use dalkon_rules::daldos::{Play, Position, Side, Throw, Variants};
use serde::Serialize;

use crate::solved::{value_report, Bounds, TableError, Tables, EPS};

/// The exact value of one position.
#[derive(Debug, Clone, Copy)]
pub struct ValueRequest {
    pub pos: Position,
    pub variants: Variants,
}

/// Whether bounds count as exact.
fn exact(b: Bounds) -> bool {
    b.gap() <= EPS
}

/// One play and its exact value.
#[derive(Debug, Clone, Serialize)]
pub struct PlayBounds {
    pub play: String,
    pub value: f64,
    pub lower: f64,
    pub upper: f64,
    /// The position after the play (its side is the one that throws next).
    pub result: String,
    /// The play itself.
    #[serde(skip)]
    pub step: Play,
    /// The position after it.
    #[serde(skip)]
    pub after: Position,
    /// The bounds are within [`EPS`].
    #[serde(skip)]
    pub exact: bool,
}

/// One distinct throw, its weight out of 16 and its plays, best first.
#[derive(Debug, Clone, Serialize)]
pub struct ThrowBounds {
    pub dice: [u8; 2],
    pub weight: u32,
    pub best: String,
    pub plays: Vec<PlayBounds>,
    /// The throw.
    #[serde(skip)]
    pub throw: Throw,
}

/// docs/cli.md: `{"value":w, "lower":lo, "upper":hi, "exact":bool,
/// "throws":[...]}`; no throws for a finished game.
#[derive(Debug, Clone, Serialize)]
pub struct ValueReport {
    pub value: f64,
    pub lower: f64,
    pub upper: f64,
    pub exact: bool,
    pub throws: Vec<ThrowBounds>,
    /// The side that has won when the game is over.
    #[serde(skip)]
    pub winner: Option<Side>,
}

impl ValueReport {
    /// Whether a play's bounds are further apart than [`EPS`].
    pub fn any_loose(&self) -> bool {
        self.throws.iter().flat_map(|t| &t.plays).any(|p| !p.exact)
    }
}

impl ValueRequest {
    /// The report of the position from `tables` (of its board and rules),
    /// or the error naming the layer it (or one of its plays) needs.
    pub fn run(&self, tables: &Tables) -> Result<ValueReport, TableError> {
        let pos = &self.pos;
        let board = pos.board();
        let winner = pos.winner(&self.variants);
        if winner.is_some() {
            // Worth 1 to the winner, 0 to the loser; no plays.
            let b = tables.bounds(pos).expect("a finished game has a value");
            return Ok(ValueReport {
                value: b.value(),
                lower: b.lo,
                upper: b.hi,
                exact: exact(b),
                throws: Vec::new(),
                winner,
            });
        }
        let r = value_report(tables, pos)?;
        Ok(ValueReport {
            value: r.bounds.value(),
            lower: r.bounds.lo,
            upper: r.bounds.hi,
            exact: exact(r.bounds),
            throws: r
                .throws
                .into_iter()
                .map(|t| ThrowBounds {
                    dice: [t.throw.first, t.throw.second],
                    weight: t.weight,
                    best: t.plays[0].play.notation(board),
                    plays: t
                        .plays
                        .into_iter()
                        .map(|p| PlayBounds {
                            play: p.play.notation(board),
                            value: p.bounds.value(),
                            lower: p.bounds.lo,
                            upper: p.bounds.hi,
                            result: p.result.to_string(),
                            exact: exact(p.bounds),
                            step: p.play,
                            after: p.result,
                        })
                        .collect(),
                    throw: t.throw,
                })
                .collect(),
            winner,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::best::{Analyst, BestRequest};
    use crate::request::solve::SolveRequest;
    use crate::solved::NoProgress;
    use dalkon_rules::daldos::Board;

    /// docs/solved.md's worked example: board 4 up to 1 v 1, A's undalt
    /// piece on A4, B's dalt piece on M2: W = 0.385784037429; `best` with
    /// the same tables gives that value, exact, at depth 1.
    #[test]
    fn solve_then_value_then_best_from_the_tables() {
        let dir = std::env::temp_dir().join(format!("dalkon-request-value-{}", std::process::id()));
        let board = Board::new(4).unwrap();
        let variants = Variants::default();
        let solved = SolveRequest {
            board,
            variants,
            pieces: (1, 1),
            dir: dir.clone(),
            check: true,
        }
        .run(&mut NoProgress, None)
        .unwrap();
        assert_eq!(solved.layers.len(), 1);
        assert_eq!(solved.layers[0].positions, 237);
        assert!(solved.failed().is_empty());
        let pos: Position = "...A/..b../.... a".parse().unwrap();
        let analyst = Analyst::load(&dir, board, variants).unwrap();
        let v = ValueRequest { pos, variants }
            .run(analyst.tables())
            .unwrap();
        assert!(v.exact && (v.value - 0.385784037429).abs() < 1e-12);
        assert_eq!(v.throws.len(), 10);
        let b = BestRequest::new(None, 1, None, false, true, None)
            .unwrap()
            .run(&analyst, &pos, &(), None)
            .unwrap();
        assert!(b.exact && (b.value - v.value).abs() < 1e-12 && b.tables == 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
