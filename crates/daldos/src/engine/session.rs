//! A game in progress: turns, seeded dice, plays, undo and the end of the
//! game, shared by `daldos game` (humans and machines in a terminal),
//! `daldos match` ([`crate::engine::matchplay`]) and Python, so that one
//! seed gives one game everywhere.
//!
//! All randomness of a game, its dice and the random player's choices,
//! comes from one stream, `Rng::for_index(seed, index)` (`index` is the
//! game's number in a match, 0 for `daldos game`): the dice of a throw are
//! drawn by the weights of [`Game::throws`] ([`draw_throw`]), then the
//! player of the side to move chooses among the plays, if there are two or
//! more, drawing from the same stream. A human's choice draws nothing. So
//! `daldos game --seed S` between machines plays game 1 of `daldos match
//! --seed S` (index 0, `a` first) throw for throw.
//!
//! `undo` goes back to just before the throw of the last play a human
//! chose, the stream included: the same throw comes again, and the
//! machines' plays after it are replayed as they came, unless another play
//! is chosen.

use dalkon_rules::daldos::{Play, Position, Record, Throw, Turn, Variants};

use crate::engine::daldos::Daldos;
use crate::engine::game::Game;
use crate::engine::players::Player;
use crate::engine::rng::Rng;

/// The hint's default depth in throws (`daldos game --hint-depth`): that
/// of `daldos best`, so that a hint is the answer `best` gives.
pub const HINT_DEPTH: u32 = crate::engine::search::DEFAULT_DEPTH;

/// The hint's default node budget, all depths together (`daldos game
/// --max-nodes`): a fraction of a second, so that a hint on a big
/// position answers at once (with estimates where it could not prove).
pub const HINT_MAX_NODES: u64 = 2_000_000;

/// Draw a throw of `game` by its weights.
pub fn draw_throw<G: Game>(game: &G, rng: &mut Rng) -> G::Throw {
    let total: u32 = game.throws().iter().map(|&(_, w)| w).sum();
    let mut r = rng.below(u64::from(total)) as u32;
    for &(t, w) in game.throws() {
        if r < w {
            return t;
        }
        r -= w;
    }
    unreachable!("weights sum to the total")
}

/// Everything `undo` restores: the state just before a throw.
#[derive(Debug, Clone)]
struct Snapshot<P> {
    pos: P,
    rng: Rng,
    throws: u32,
}

/// Where a game stands before the next throw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Side `0` or `1` has won.
    Won(u8),
    /// The turn cap was reached with no winner.
    Capped,
    /// The side to move throws next.
    ToThrow,
}

/// A throw made and waiting for its play.
#[derive(Debug, Clone)]
pub struct Thrown<G: Game> {
    /// The dice.
    pub throw: G::Throw,
    /// The side that threw (0 or 1).
    pub side: u8,
    /// Every play of the throw with its result (at least one).
    pub plays: Vec<(G::Play, G::Pos)>,
}

/// A game in progress between two seats (module documentation); `None` is
/// a seat whose plays come from outside ([`Session::play`]), a human.
#[derive(Debug)]
pub struct Session<'p, G: Game> {
    game: &'p G,
    seats: [Option<&'p dyn Player<G>>; 2],
    start: G::Pos,
    /// The throws played and their plays, in order (the game's record).
    turns: Vec<(G::Throw, G::Play)>,
    now: Snapshot<G::Pos>,
    turn_cap: u32,
    pending: Option<(Snapshot<G::Pos>, Thrown<G>)>,
    undo: Vec<Snapshot<G::Pos>>,
}

impl<'p, G: Game> Session<'p, G> {
    /// A game of `game` from `start`, seats by side (0 throws first from the
    /// start of the board), drawing from `rng`, stopped after `turn_cap`
    /// throws.
    pub fn new(
        game: &'p G,
        start: G::Pos,
        seats: [Option<&'p dyn Player<G>>; 2],
        rng: Rng,
        turn_cap: u32,
    ) -> Session<'p, G> {
        Session {
            game,
            seats,
            start: start.clone(),
            turns: Vec::new(),
            now: Snapshot {
                pos: start,
                rng,
                throws: 0,
            },
            turn_cap,
            pending: None,
            undo: Vec::new(),
        }
    }

    /// The position the game started from.
    pub fn start(&self) -> &G::Pos {
        &self.start
    }

    /// The throws played so far and their plays, in order: what a game
    /// record keeps.
    pub fn turns(&self) -> &[(G::Throw, G::Play)] {
        &self.turns
    }

    /// The position before the next throw (or before the pending play).
    pub fn position(&self) -> &G::Pos {
        match &self.pending {
            Some((before, _)) => &before.pos,
            None => &self.now.pos,
        }
    }

    /// Throws made so far, the pending one included.
    pub fn throws(&self) -> u32 {
        self.now.throws
    }

    /// Throws made and played (the pending one left out).
    pub fn throws_played(&self) -> u32 {
        match &self.pending {
            Some((before, _)) => before.throws,
            None => self.now.throws,
        }
    }

    /// The game's random stream as it stands (after the pending throw, if
    /// any).
    pub fn rng(&self) -> &Rng {
        &self.now.rng
    }

    /// Whether side `side` is played from outside (a human).
    pub fn is_outside(&self, side: u8) -> bool {
        self.seats[usize::from(side)].is_none()
    }

    /// The game's end, the turn cap, or the next throw to make.
    pub fn status(&self) -> Status {
        let pos = self.position();
        match self.game.winner(pos) {
            Some(w) => Status::Won(w),
            None if self.now.throws >= self.turn_cap && self.pending.is_none() => Status::Capped,
            None => Status::ToThrow,
        }
    }

    /// Throw the dice (a throw already made and not played is kept): the
    /// throw, whose side threw and its plays. Call only on
    /// [`Status::ToThrow`].
    pub fn throw(&mut self) -> &Thrown<G> {
        if self.pending.is_none() {
            let before = self.now.clone();
            let throw = draw_throw(self.game, &mut self.now.rng);
            self.now.throws += 1;
            let plays = self.game.plays(&before.pos, throw);
            let side = self.game.to_move(&before.pos);
            self.pending = Some((before, Thrown { throw, side, plays }));
        }
        &self.pending.as_ref().expect("a throw was just made").1
    }

    /// The play of the pending throw a machine makes: the only play when
    /// there is one, a machine seat's choice (drawing from the game's
    /// stream), `None` when a human must choose.
    pub fn machine_choice(&mut self) -> Option<usize> {
        let (before, thrown) = self.pending.as_ref()?;
        if thrown.plays.len() == 1 {
            return Some(0);
        }
        let player = self.seats[usize::from(thrown.side)]?;
        Some(player.choose(self.game, &before.pos, &thrown.plays, &mut self.now.rng))
    }

    /// Make play `i` of the pending throw; `chosen` when a human chose it
    /// (`undo` comes back to this throw). Returns the throw made. An index
    /// out of range, or no pending throw, changes nothing (`None`).
    pub fn play(&mut self, i: usize, chosen: bool) -> Option<Thrown<G>> {
        if self.pending.as_ref()?.1.plays.len() <= i {
            return None;
        }
        let (before, thrown) = self.pending.take()?;
        self.now.pos = thrown.plays[i].1.clone();
        self.turns.push((thrown.throw, thrown.plays[i].0.clone()));
        if chosen {
            self.undo.push(before);
        }
        Some(thrown)
    }

    /// Make a throw that was made elsewhere (a game record's) and its play
    /// `i`, drawing nothing from the game's stream; `chosen` as for
    /// [`Session::play`]. `None`, changing nothing, when the game is not
    /// waiting for a throw or `i` is not one of the throw's plays.
    pub fn replay(&mut self, throw: G::Throw, i: usize, chosen: bool) -> Option<Thrown<G>> {
        if self.pending.is_some() || self.status() != Status::ToThrow {
            return None;
        }
        let before = self.now.clone();
        let plays = self.game.plays(&before.pos, throw);
        if plays.len() <= i {
            return None;
        }
        let side = self.game.to_move(&before.pos);
        self.now.throws += 1;
        self.pending = Some((before, Thrown { throw, side, plays }));
        self.play(i, chosen)
    }

    /// Whether a human has chosen a play that `undo` can take back.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Back to just before the throw of the last play a human chose: the
    /// throws taken back (the pending one included), `None` if none was.
    pub fn undo(&mut self) -> Option<u32> {
        let snapshot = self.undo.pop()?;
        let taken = self.now.throws - snapshot.throws;
        self.turns.truncate(snapshot.throws as usize);
        self.now = snapshot;
        self.pending = None;
        Some(taken)
    }

    /// Play to the end between machine seats (every seat a machine): the
    /// winner (0 or 1, `None` when capped) and the throws made; `None`
    /// when `stop()` said to stop (asked before each throw) or a seat is a
    /// human's.
    pub fn run(&mut self, stop: &dyn Fn() -> bool) -> Option<(Option<u8>, u32)> {
        loop {
            match self.status() {
                Status::Won(w) => return Some((Some(w), self.now.throws)),
                Status::Capped => return Some((None, self.now.throws)),
                Status::ToThrow => {}
            }
            if stop() {
                return None;
            }
            self.throw();
            let i = self.machine_choice()?;
            self.play(i, false);
        }
    }
}

impl Session<'_, Daldos> {
    /// Play `turns` (a game record's, from this session's position) as
    /// [`Session::replay`] does, a human seat's plays kept for `undo`.
    /// `Err(k)` at the first turn `k` (from 0) that is not a play of its
    /// throw, the turns before it played.
    pub fn replay_turns(&mut self, turns: &[Turn]) -> Result<(), usize> {
        for (k, turn) in turns.iter().enumerate() {
            let before = *self.position();
            let i = self
                .game
                .plays(&before, turn.throw)
                .iter()
                .position(|(p, _)| *p == turn.play)
                .ok_or(k)?;
            let human = self.is_outside(self.game.to_move(&before));
            self.replay(turn.throw, i, human).ok_or(k)?;
        }
        Ok(())
    }
}

/// The record of a Daldøs game from `start` under `variants` that made
/// `turns` (a session's [`Session::turns`]), with no tags yet.
pub fn game_record(start: Position, variants: Variants, turns: &[(Throw, Play)]) -> Record {
    Record {
        turns: turns
            .iter()
            .map(|(throw, play)| Turn {
                throw: *throw,
                play: play.clone(),
            })
            .collect(),
        ..Record::new(start, variants)
    }
}

/// A seed for a game whose seed was not given: drawn from the process's
/// hashing keys and the clock, and printed so that the game can be replayed.
pub fn random_seed() -> u64 {
    use std::hash::BuildHasher;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    std::collections::hash_map::RandomState::new().hash_one(now)
}

/// Why a typed line names no play of the throw ([`pick_play`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PickError {
    /// A number outside the list.
    #[error("there is no play {number}: the plays are numbered 1 to {count}")]
    NoSuchNumber {
        /// The number typed.
        number: usize,
        /// How many plays the throw has.
        count: usize,
    },
    /// Text that is neither a number nor a listed play's notation.
    #[error(
        "{text} is not a play of this throw: type its number (1 to {count}) or its notation \
         as listed, or help"
    )]
    NotAPlay {
        /// The line typed, quoted (at most 80 characters of it).
        text: String,
        /// How many plays the throw has.
        count: usize,
    },
}

/// The play a typed line names among `names` (the plays' notations, as
/// listed): its number in the list (from 1), or its notation, spaces and
/// case aside. `quoted` is the line as an error quotes it.
pub fn pick_play(text: &str, names: &[String], quoted: String) -> Result<usize, PickError> {
    let count = names.len();
    if let Ok(number) = text.parse::<usize>() {
        return if (1..=count).contains(&number) {
            Ok(number - 1)
        } else {
            Err(PickError::NoSuchNumber { number, count })
        };
    }
    let typed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    names
        .iter()
        .position(|n| n.eq_ignore_ascii_case(&typed))
        .ok_or(PickError::NotAPlay {
            text: quoted,
            count,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::players::RandomPlayer;
    use dalkon_rules::daldos::Board;

    fn board4() -> (Daldos, Position) {
        (
            Daldos::new(Variants::default()),
            Position::start(Board::new(4).unwrap()),
        )
    }

    /// `undo` restores the position, the throw count and the stream: the
    /// same throw comes again.
    #[test]
    fn undo_comes_back_to_the_same_throw() {
        let (game, start) = board4();
        let b = &RandomPlayer as &dyn Player<Daldos>;
        let mut s = Session::new(&game, start, [None, Some(b)], Rng::for_index(6, 0), 500);
        assert!(!s.can_undo());
        let (first, before) = loop {
            let thrown = s.throw().clone();
            match s.machine_choice() {
                Some(i) => {
                    s.play(i, false);
                }
                None => break (thrown, *s.position()),
            }
        };
        let throws = s.throws();
        assert!(s.play(first.plays.len(), true).is_none(), "out of range");
        s.play(0, true).unwrap();
        assert!(s.can_undo());
        s.throw();
        let now = s.throws();
        assert_eq!(s.undo(), Some(now - (throws - 1)));
        assert_eq!(*s.position(), before);
        assert_eq!(s.throws(), throws - 1);
        assert_eq!(s.throw().throw, first.throw);
        assert_eq!(s.throws(), throws);
        assert_eq!(
            s.turns().len() as u32,
            throws - 1,
            "the undone turns are gone"
        );
    }

    /// A machine game's turns, replayed into a new session, reach the same
    /// end without drawing from the stream.
    #[test]
    fn turns_replay_to_the_same_game() {
        let (game, start) = board4();
        let r = &RandomPlayer as &dyn Player<Daldos>;
        let mut s = Session::new(&game, start, [Some(r), Some(r)], Rng::for_index(3, 0), 500);
        let (winner, throws) = s.run(&|| false).unwrap();
        assert!(winner.is_some());
        assert_eq!(s.turns().len() as u32, throws);
        let mut again = Session::new(&game, start, [None, None], Rng::for_index(99, 0), 500);
        for (throw, play) in s.turns() {
            let i = game
                .plays(again.position(), *throw)
                .iter()
                .position(|(p, _)| p == play)
                .unwrap();
            again.replay(*throw, i, true).unwrap();
        }
        assert_eq!(again.position(), s.position());
        assert_eq!(again.turns(), s.turns());
        assert_eq!(again.rng(), &Rng::for_index(99, 0), "nothing drawn");
        assert_eq!(again.status(), Status::Won(winner.unwrap()));
        assert!(
            again.replay(s.turns()[0].0, 0, false).is_none(),
            "the game is over"
        );
        assert_eq!(again.undo(), Some(1));
    }

    #[test]
    fn picks_by_number_or_notation() {
        let names = vec!["A3-A4 B2-M3".to_owned(), "pass".to_owned()];
        assert_eq!(pick_play("2", &names, "\"2\"".into()), Ok(1));
        assert_eq!(pick_play("a3-a4   b2-m3", &names, String::new()), Ok(0));
        assert_eq!(
            pick_play("3", &names, "\"3\"".into())
                .unwrap_err()
                .to_string(),
            "there is no play 3: the plays are numbered 1 to 2"
        );
        assert_eq!(
            pick_play("foo", &names, "\"foo\"".into())
                .unwrap_err()
                .to_string(),
            "\"foo\" is not a play of this throw: type its number (1 to 2) or its notation as \
             listed, or help"
        );
    }
}
