//! Checking a strategy with the rules alone (docs/formats.md §3): follow
//! the strategy's move wherever its player is to move and every legal reply
//! elsewhere, to the end of every game, and find the worst final store
//! difference the strategy allows.
//!
//! The margin still to come from a position depends on its rows and side
//! to move only, never on the stores (a move adds to the stores whatever
//! they hold). So each distinct (rows, side) is checked once and its worst
//! future margin kept in a table: a strategy's game tree, huge as a tree,
//! is a small graph. The search is depth-first with an explicit stack, as
//! games run to hundreds of moves.
//!
//! A strategy claiming no more than minus every seed of the game holds
//! whatever is played: it is valid without looking at a single line.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

use dalkon_rules::dakon::{Position, Side};

use crate::key::{pack, words_for};
use crate::strategy::Strategy;
use crate::table::Table;

/// What [`verify`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The strategy secures what it claims: no failure, `proved >= guarantees`.
    pub valid: bool,
    /// The worst final store difference (player minus opponent, stores at
    /// the root included) over every game the strategy allows. When a line
    /// is missing or illegal the strategy secures nothing beyond what any
    /// play does, and `proved` is that trivial bound, minus every seed of
    /// the game ([`Strategy::trivial_bound`]).
    pub proved: i32,
    /// Distinct unfinished positions reached (rows and side to move; the
    /// stores are factored out), each checked once. 0 when the claim is
    /// the trivial bound, which needs no checking.
    pub positions_checked: u64,
    /// Strategy lines whose position was never reached with the player to
    /// move (when the check stops at a failure: not reached before it).
    pub unused_lines: u64,
    /// Where the strategy breaks, if it does.
    pub failure: Option<Failure>,
}

/// Where and how a strategy fails.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The moves from the root to the failing position, both sides' moves
    /// (bonus moves included), each a hole of the side to move at that
    /// point. For [`FailureKind::BelowGuarantee`]: a worst game, to its end.
    pub path: Vec<usize>,
    /// What is wrong there.
    pub kind: FailureKind,
}

/// The ways a strategy can fail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// The player is to move in `position` (stores as reached along the
    /// path) and the file has no line for its rows.
    MissingLine {
        /// The position reached.
        position: Position,
    },
    /// The strategy's move in `position` is not legal there: an empty hole,
    /// or no hole of the board.
    IllegalMove {
        /// The position reached.
        position: Position,
        /// The hole the strategy plays.
        hole: u8,
    },
    /// Every position has a legal move, but some game ends below the claim.
    BelowGuarantee {
        /// The worst final store difference the strategy allows.
        proved: i32,
        /// What the file claims.
        guarantees: i32,
    },
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let moves = self
            .path
            .iter()
            .map(|h| h.to_string())
            .collect::<Vec<_>>()
            .join(" ");
        let place = match self.path.len() {
            0 => "at the root".to_owned(),
            1 => format!("after move {moves}"),
            _ => format!("after moves {moves}"),
        };
        match &self.kind {
            FailureKind::MissingLine { position } => {
                write!(f, "{place} the position {position} has no line")
            }
            FailureKind::IllegalMove { position, hole } => {
                let why = if (1..=position.holes()).contains(&usize::from(*hole)) {
                    "an empty hole".to_owned()
                } else {
                    format!("not a hole (1 to {})", position.holes())
                };
                write!(
                    f,
                    "{place} the strategy plays hole {hole} in the position {position}, {why}"
                )
            }
            FailureKind::BelowGuarantee { proved, guarantees } => {
                write!(
                    f,
                    "it secures only {proved}, not the {guarantees} it claims"
                )?;
                if self.path.is_empty() {
                    write!(f, " (the root is a finished game)")
                } else {
                    write!(f, ": a worst game is {moves}")
                }
            }
        }
    }
}

/// Check `strategy` against the rules it names, with no solver.
pub fn verify(strategy: &Strategy) -> Verdict {
    verify_until(strategy, &AtomicBool::new(false)).expect("a check nobody stops ends")
}

/// [`verify`], abandoned when `stop` is set (a caller's Ctrl-C; it is read
/// every few thousand positions): `None` then, as nothing is known.
pub fn verify_until(strategy: &Strategy, stop: &AtomicBool) -> Option<Verdict> {
    let trivial = strategy.trivial_bound();
    if strategy.guarantees <= trivial {
        return Some(Verdict {
            valid: true,
            proved: trivial,
            positions_checked: 0,
            unused_lines: strategy.lines(),
            failure: None,
        });
    }
    match words_for(strategy.root.holes()) {
        2 => Checker::<2>::new(strategy, stop).run(),
        4 => Checker::<4>::new(strategy, stop).run(),
        _ => Checker::<8>::new(strategy, stop).run(),
    }
}

/// How far the check of a strategy line has got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum State {
    /// Not reached yet.
    #[default]
    Fresh,
    /// On the search stack: its value is not known yet.
    Open,
    /// Checked: `value` is final.
    Done,
}

/// What the tables keep for a position. The node sits in the table
/// itself, beside its key: one memory access finds both.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    /// The worst future margin for the player (when `Done`).
    value: i16,
    /// The player's position: the strategy's hole. The opponent's: a reply
    /// reaching the worst margin (the lowest such hole), for rebuilding a
    /// worst game.
    hole: u8,
    /// Always `Done` for the opponent's positions, which enter their
    /// table only once checked.
    state: State,
}

/// A position being searched.
#[derive(Clone, Copy, Debug)]
struct Frame<const W: usize> {
    /// The position, stores empty.
    pos: Position,
    /// Its key.
    key: [u64; W],
    /// The player is to move (one move: the strategy's, `hole`), or the
    /// opponent (every legal move).
    player_moves: bool,
    hole: u8,
    /// Holes `1..=next` have been tried.
    next: u8,
    /// The least margin found so far (the only one, for the player).
    best: i16,
    best_hole: u8,
    /// The move being followed, and what it put in the stores (for the
    /// player, minus for the opponent).
    child_hole: u8,
    child_gain: i16,
}

/// Where the check broke: the path from the root, and the strategy's
/// hole if it is illegal there (`None`: no line).
type Broken = (Vec<usize>, Option<u8>);

/// Why the search of a strategy ended before its value was known.
enum Halt {
    /// The strategy breaks there.
    Broken(Broken),
    /// The caller stopped the check.
    Stopped,
}

/// Positions searched between two looks at the stop flag.
const STOP_EVERY: u32 = 4096;

/// What entering a position gave.
enum Reached<const W: usize> {
    /// Its value is known: a finished game, or checked before.
    Value(i16),
    /// A new position to search.
    Open(Frame<W>),
    /// The player is to move and the strategy has no line.
    Missing,
    /// The strategy's move is illegal.
    Illegal(u8),
}

/// The tables of one check, keys of `W` words.
struct Checker<'a, const W: usize> {
    strategy: &'a Strategy,
    stop: &'a AtomicBool,
    player: Side,
    /// The strategy's lines, with what the check found.
    lines: Table<W, Node>,
    /// The opponent's positions checked.
    replies: Table<W, Node>,
    /// Keys of `strategy.moves` not in normal form: never reached.
    ignored: u64,
    checked: u64,
}

impl<'a, const W: usize> Checker<'a, W> {
    fn new(strategy: &'a Strategy, stop: &'a AtomicBool) -> Checker<'a, W> {
        let player = strategy.player;
        let holes = strategy.root.holes();
        let mut lines = Table::with_capacity(strategy.moves.len());
        let mut ignored = 0;
        let mut keyed = Vec::with_capacity(strategy.moves.len());
        for (key, &hole) in &strategy.moves {
            if key.holes() != holes || *key != Strategy::key(key, player) || key.is_over() {
                // Not a key, or one never looked up: with the player's row
                // empty the game is over (and the key of both rows empty
                // marks an empty slot of the table).
                ignored += 1;
                continue;
            }
            keyed.push((pack::<W>(key), hole));
        }
        // Each insert lands in a random slot: the slots of the inserts a
        // few steps ahead are prefetched, so that their misses overlap.
        const AHEAD: usize = 8;
        for (i, &(key, hole)) in keyed.iter().enumerate() {
            if let Some((next, _)) = keyed.get(i + AHEAD) {
                lines.prefetch(next);
            }
            let node = Node {
                value: 0,
                hole,
                state: State::Fresh,
            };
            lines.insert(key, node);
        }
        Checker {
            strategy,
            stop,
            player,
            lines,
            replies: Table::with_capacity(strategy.moves.len()),
            ignored,
            checked: 0,
        }
    }

    fn run(mut self) -> Option<Verdict> {
        let root = self.strategy.root;
        let base = i32::from(root.store(self.player)) - i32::from(root.store(self.player.other()));
        let mut stack = Vec::new();
        let future = match self.enter(root.without_stores()) {
            Reached::Value(v) => Ok(v),
            Reached::Open(frame) => {
                stack.push(frame);
                self.search(&mut stack)
            }
            Reached::Missing => Err(Halt::Broken((Vec::new(), None))),
            Reached::Illegal(hole) => Err(Halt::Broken((Vec::new(), Some(hole)))),
        };
        Some(match future {
            Ok(v) => {
                let proved = base + i32::from(v);
                let guarantees = self.strategy.guarantees;
                let failure = (proved < guarantees).then(|| Failure {
                    path: self.worst_game(),
                    kind: FailureKind::BelowGuarantee { proved, guarantees },
                });
                self.verdict(proved, failure)
            }
            Err(Halt::Stopped) => return None,
            Err(Halt::Broken((path, illegal))) => {
                let position = path
                    .iter()
                    .fold(root, |p, &h| p.play_unchecked(h, &self.strategy.rules));
                let kind = match illegal {
                    None => FailureKind::MissingLine { position },
                    Some(hole) => FailureKind::IllegalMove { position, hole },
                };
                self.verdict(self.strategy.trivial_bound(), Some(Failure { path, kind }))
            }
        })
    }

    fn verdict(&self, proved: i32, failure: Option<Failure>) -> Verdict {
        let fresh = self
            .lines
            .values()
            .filter(|n| n.state == State::Fresh)
            .count() as u64;
        Verdict {
            valid: failure.is_none(),
            proved,
            positions_checked: self.checked,
            unused_lines: fresh + self.ignored,
            failure,
        }
    }

    /// The worst future margin from the root's frame on `stack`, or where
    /// the check broke.
    fn search(&mut self, stack: &mut Vec<Frame<W>>) -> Result<i16, Halt> {
        let rules = self.strategy.rules;
        let mut steps = 0u32;
        loop {
            steps = steps.wrapping_add(1);
            if steps % STOP_EVERY == 1 && self.stop.load(Ordering::Relaxed) {
                return Err(Halt::Stopped);
            }
            let Some(top) = stack.last_mut() else {
                unreachable!("the search returns when it pops the root")
            };
            if let Some(hole) = next_move(top) {
                let child = top.pos.play_unchecked(usize::from(hole), &rules);
                let gain = self.gain(&child);
                top.child_hole = hole;
                top.child_gain = gain;
                match self.enter(child.without_stores()) {
                    Reached::Value(v) => absorb(top, gain + v),
                    Reached::Open(frame) => stack.push(frame),
                    Reached::Missing => return Err(Halt::Broken((path(stack), None))),
                    Reached::Illegal(h) => return Err(Halt::Broken((path(stack), Some(h)))),
                }
            } else {
                let done = *top;
                stack.pop();
                let node = Node {
                    value: done.best,
                    hole: done.best_hole,
                    state: State::Done,
                };
                if done.player_moves {
                    self.lines.insert(done.key, node);
                } else {
                    self.replies.insert(done.key, node);
                }
                match stack.last_mut() {
                    Some(parent) => absorb(parent, parent.child_gain + done.best),
                    None => return Ok(done.best),
                }
            }
        }
    }

    /// What a move put in the stores, for the player, minus for the
    /// opponent: `child` was played from a position with empty stores.
    #[inline]
    fn gain(&self, child: &Position) -> i16 {
        i16::from(child.store(self.player)) - i16::from(child.store(self.player.other()))
    }

    /// Enter `pos` (stores empty): a finished game, a position already
    /// checked, or a new one to search.
    #[inline]
    fn enter(&mut self, pos: Position) -> Reached<W> {
        if pos.is_over() {
            // After a move the sweep has emptied the board; only a root
            // typed in can still hold the other side's seeds.
            let to = pos.side_to_move().other();
            let seeds = pos.row_seeds(to) as i16;
            return Reached::Value(if to == self.player { seeds } else { -seeds });
        }
        let key = pack::<W>(&pos);
        if pos.side_to_move() != self.player {
            if let Some(node) = self.replies.get(&key) {
                return Reached::Value(node.value);
            }
            // Not checked yet, and not on the stack either: the game graph
            // has no cycles (docs/rules.md §2.2).
            self.checked += 1;
            self.prefetch_children(&pos);
            return Reached::Open(Frame::new(pos, key, false, 0));
        }
        let Some(node) = self.lines.get_mut(&key) else {
            return Reached::Missing;
        };
        match node.state {
            State::Done => return Reached::Value(node.value),
            State::Open => {
                unreachable!("a Dakon game cannot return to a position (docs/rules.md §2.2)")
            }
            State::Fresh => {}
        }
        let hole = usize::from(node.hole);
        if !(1..=pos.holes()).contains(&hole) || pos.pit(self.player, hole) == 0 {
            return Reached::Illegal(node.hole);
        }
        node.state = State::Open;
        self.checked += 1;
        Reached::Open(Frame::new(pos, key, true, node.hole))
    }

    /// Prefetch the table slots of the opponent's replies from `pos`, all
    /// of which the check is about to follow: their lookups then overlap
    /// instead of each waiting on memory in turn (the tables of a big
    /// proof are far larger than the caches). Costs a second sowing of
    /// each move, much less than a miss.
    #[inline]
    fn prefetch_children(&self, pos: &Position) {
        for h in pos.moves() {
            self.prefetch_child(pos, h);
        }
    }

    /// Prefetch the table slot of the position after `hole` from `pos`.
    #[inline]
    fn prefetch_child(&self, pos: &Position, hole: usize) {
        let child = pos.play_unchecked(hole, &self.strategy.rules);
        if child.is_over() {
            return;
        }
        let key = pack::<W>(&child);
        if child.side_to_move() == self.player {
            self.lines.prefetch(&key);
        } else {
            self.replies.prefetch(&key);
        }
    }

    /// A worst game from the root to its end: the strategy's moves and, for
    /// the opponent, the replies that reach the worst margin. Every
    /// position on it was checked.
    fn worst_game(&self) -> Vec<usize> {
        let mut path = Vec::new();
        let mut pos = self.strategy.root;
        while !pos.is_over() {
            let key = pack::<W>(&pos);
            let table = if pos.side_to_move() == self.player {
                &self.lines
            } else {
                &self.replies
            };
            let hole = usize::from(table.get(&key).map_or(0, |n| n.hole));
            path.push(hole);
            pos = pos.play_unchecked(hole, &self.strategy.rules);
        }
        path
    }
}

impl<const W: usize> Frame<W> {
    fn new(pos: Position, key: [u64; W], player_moves: bool, hole: u8) -> Frame<W> {
        Frame {
            pos,
            key,
            player_moves,
            hole,
            next: 0,
            best: i16::MAX,
            best_hole: 0,
            child_hole: 0,
            child_gain: 0,
        }
    }
}

/// The next move to follow from `frame`, if any is left.
#[inline]
fn next_move<const W: usize>(frame: &mut Frame<W>) -> Option<u8> {
    if frame.player_moves {
        if frame.next > 0 {
            return None;
        }
        frame.next = 1;
        return Some(frame.hole);
    }
    let row = frame.pos.pits(frame.pos.side_to_move());
    let from = usize::from(frame.next);
    let i = from + row[from..].iter().position(|&c| c > 0)?;
    frame.next = (i + 1) as u8;
    Some(frame.next)
}

/// Take the margin `v` of the move being followed from `frame` into account.
#[inline]
fn absorb<const W: usize>(frame: &mut Frame<W>, v: i16) {
    if frame.player_moves || v < frame.best {
        frame.best = v;
        frame.best_hole = frame.child_hole;
    }
}

/// The moves from the root to the position entered last.
fn path<const W: usize>(stack: &[Frame<W>]) -> Vec<usize> {
    stack.iter().map(|f| usize::from(f.child_hole)).collect()
}
