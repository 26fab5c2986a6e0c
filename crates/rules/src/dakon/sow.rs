//! Applying a move: relay sowing, bonus, nembak, mikul and the end sweep
//! (docs/rules.md §2.2 and §2.3).
//!
//! The sowing cycle is numbered `0..2n+2`: player 0's holes `0..n`, its store
//! `n`, player 1's holes `n+1..=2n`, its store `2n+1`. One generic routine
//! serves both the fast path and the logged path; the log is a type
//! parameter, so the fast path carries no logging cost.

use super::error::MoveError;
use super::event::Event;
use super::position::Position;
use super::rules::{Mikul, Nembak, Origin, Rules};
use super::side::Side;

/// Where events go: nowhere (engines) or a vector (people).
trait Log {
    fn push(&mut self, event: Event);
}

impl Log for () {
    #[inline(always)]
    fn push(&mut self, _: Event) {}
}

impl Log for Vec<Event> {
    fn push(&mut self, event: Event) {
        Vec::push(self, event);
    }
}

impl Position {
    /// Play hole `hole` (1-based) of the side to move, checked.
    pub fn play(&self, hole: usize, rules: &Rules) -> Result<Position, MoveError> {
        self.check(hole)?;
        Ok(self.sow(hole, rules, &mut ()))
    }

    /// Play hole `hole` of the side to move without checking that it is
    /// legal (the engines' hot path). The caller guarantees `hole` is one of
    /// [`Position::moves`].
    #[inline]
    pub fn play_unchecked(&self, hole: usize, rules: &Rules) -> Position {
        debug_assert!(self.check(hole).is_ok(), "illegal move {hole} in {self}");
        self.sow(hole, rules, &mut ())
    }

    /// Play hole `hole`, returning the new position and what happened.
    pub fn play_logged(
        &self,
        hole: usize,
        rules: &Rules,
    ) -> Result<(Position, Vec<Event>), MoveError> {
        self.check(hole)?;
        let mut log = Vec::new();
        let next = self.sow(hole, rules, &mut log);
        Ok((next, log))
    }

    fn check(&self, hole: usize) -> Result<(), MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        if hole == 0 || hole > self.holes() {
            return Err(MoveError::NoSuchHole {
                hole,
                holes: self.holes(),
            });
        }
        if self.pit(self.side, hole) == 0 {
            return Err(MoveError::EmptyHole { hole });
        }
        Ok(())
    }

    fn sow<L: Log>(&self, hole: usize, rules: &Rules, log: &mut L) -> Position {
        let mut p = *self;
        let n = p.holes();
        let cycle = 2 * n + 2;
        let me = p.side;
        let my_store = if me == Side::South { n } else { 2 * n + 1 };
        let their_store = if me == Side::South { 2 * n + 1 } else { n };
        // Cycle index -> (row, 0-based hole), for playing holes only.
        let locate = |c: usize| -> (usize, usize) {
            if c < n {
                (0, c)
            } else {
                (1, c - n - 1)
            }
        };
        let skip_origin = rules.origin == Origin::Skip;

        let mut origin = my_store - n + hole - 1;
        let mut hand = std::mem::take(&mut p.pits[me.index()][hole - 1]);
        log.push(Event::Lap {
            side: me,
            hole: hole as u8,
            seeds: hand,
        });
        let mut cur = origin;
        loop {
            while hand > 0 {
                cur += 1;
                if cur == cycle {
                    cur = 0;
                }
                if cur == their_store || (skip_origin && cur == origin) {
                    continue;
                }
                if cur == my_store {
                    p.stores[me.index()] += 1;
                } else {
                    let (r, i) = locate(cur);
                    p.pits[r][i] += 1;
                }
                hand -= 1;
            }
            if cur == my_store {
                log.push(Event::Bonus);
                break;
            }
            let (r, i) = locate(cur);
            if p.pits[r][i] > 1 {
                hand = std::mem::take(&mut p.pits[r][i]);
                origin = cur;
                log.push(Event::Relay {
                    side: Side::BOTH[r],
                    hole: (i + 1) as u8,
                    seeds: hand,
                });
                continue;
            }
            // The last seed fell into an empty playing hole.
            if r == me.index() {
                let opposite = n - 1 - i;
                let captured = std::mem::take(&mut p.pits[1 - r][opposite]);
                let landing_taken = captured > 0 && rules.nembak == Nembak::Take;
                if landing_taken {
                    p.pits[r][i] = 0;
                }
                p.stores[me.index()] += captured + u8::from(landing_taken);
                log.push(Event::Nembak {
                    side: me,
                    hole: (i + 1) as u8,
                    captured,
                    landing_taken,
                });
            } else {
                let mut captured = 0;
                if rules.mikul == Mikul::On && i > 0 && i + 1 < n {
                    let (left, right) = (p.pits[r][i - 1], p.pits[r][i + 1]);
                    if left == right && left > 0 {
                        captured = left + right + 1;
                        p.pits[r][i - 1] = 0;
                        p.pits[r][i] = 0;
                        p.pits[r][i + 1] = 0;
                        p.stores[me.index()] += captured;
                    }
                }
                log.push(Event::Mikul {
                    side: me.other(),
                    hole: (i + 1) as u8,
                    captured,
                });
            }
            p.side = me.other();
            break;
        }
        if p.is_over() {
            let to = p.side.other();
            let seeds = p.row_seeds(to) as u8;
            p.pits[to.index()] = [0; super::position::MAX_HOLES];
            p.stores[to.index()] += seeds;
            log.push(Event::Sweep { to, seeds });
        }
        p
    }
}
