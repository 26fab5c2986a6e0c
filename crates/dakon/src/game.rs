//! A Dakon game between humans and the engine: turns (a bonus move is a
//! move of its own, by the same side), undo, hints, the engine's moves and
//! the end of the game with its final score. Front ends only read moves and
//! print: `dakon game` in the CLI, Python.
//!
//! The hint is the request of `dakon best --every-move` under the game's
//! budget, and the engine plays the first best move of the same analysis
//! (best moves only: much less work than valuing every move), so `best`,
//! the hint and the engine agree. One table serves the whole game: every
//! bound in it is proved, so later moves and hints reuse earlier work.

use dalkon_rules::dakon::{Event, FinalScore, MoveError, Position, Record, Rules, Side};

use crate::best::EngineMove;
use crate::error::SolveError;
use crate::progress::Progress;
use crate::request::best::{Analyst, BestReport, BestRequest, DEFAULT_ESTIMATE_DEPTH};

/// The default node budget of a move or a hint: a few tenths of a second
/// of exact search on a machine shared with other work, so that engine
/// moves stay quick on the standard 7 × 7 board.
pub const GAME_MAX_NODES: u64 = 300_000;

/// The default transposition table of a game's engine, in MiB.
pub const GAME_TT_MB: usize = 16;

/// The deepest estimate a game takes, in plies.
pub const MAX_GAME_ESTIMATE_DEPTH: u32 = 12;

/// Who plays a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Player {
    /// Moves typed in.
    Human,
    /// The engine.
    Engine,
}

/// A game to start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRequest {
    /// The starting position.
    pub start: Position,
    /// The rule set.
    pub rules: Rules,
    /// Who plays the side to move at the start.
    pub first: Player,
    /// Who plays the other side.
    pub second: Player,
    /// Nodes of a move or a hint before the engine settles for bounds or
    /// an estimate; 0 for no limit.
    pub max_nodes: u64,
    /// Plies of that estimate, 1 to [`MAX_GAME_ESTIMATE_DEPTH`].
    pub estimate_depth: u32,
    /// Transposition-table memory in MiB.
    pub tt_mb: usize,
    /// Probe the endgame databases of up to this many seeds on the board,
    /// as [`BestRequest::probe_seeds`] (`None`: none).
    pub probe_seeds: Option<u32>,
    /// Their folder, as [`BestRequest::db_dir`].
    pub db_dir: Option<std::path::PathBuf>,
}

impl GameRequest {
    /// A human (first) against the engine, with the default budget.
    pub fn new(start: Position, rules: Rules) -> GameRequest {
        GameRequest {
            start,
            rules,
            first: Player::Human,
            second: Player::Engine,
            max_nodes: GAME_MAX_NODES,
            estimate_depth: DEFAULT_ESTIMATE_DEPTH,
            tt_mb: GAME_TT_MB,
            probe_seeds: None,
            db_dir: None,
        }
    }
}

/// A move played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played {
    /// Who played it.
    pub side: Side,
    /// The hole.
    pub hole: usize,
    /// The position after it.
    pub position: Position,
    /// What happened.
    pub events: Vec<Event>,
}

/// Moves taken back by [`Game::undo`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Undone {
    /// The holes taken back, in the order they were played.
    pub taken: Vec<usize>,
    /// The position now.
    pub position: Position,
}

/// A game in progress.
#[derive(Debug)]
pub struct Game {
    /// The budget of the engine and the hints.
    budget: BestRequest,
    analyst: Analyst,
    players: [Player; 2],
    start: Position,
    pos: Position,
    moves: Vec<usize>,
    /// Before each move a human typed: the position and how many moves had
    /// been played.
    undo: Vec<(Position, usize)>,
}

impl Game {
    /// Start `request`'s game: its budget checked (the table sized) first.
    pub fn new(request: &GameRequest) -> Result<Game, SolveError> {
        if !(1..=MAX_GAME_ESTIMATE_DEPTH).contains(&request.estimate_depth) {
            return Err(SolveError::OutOfRange {
                flag: "--estimate-depth",
                range: "1 to 12",
            });
        }
        let budget = BestRequest {
            estimate_depth: request.estimate_depth,
            tt_mb: Some(request.tt_mb),
            ..BestRequest::new(request.rules)
                .max_nodes(Some(request.max_nodes))
                .probe(request.probe_seeds, request.db_dir.clone())?
        };
        budget.limits(request.start.holes())?;
        let mut players = [request.second; 2];
        players[request.start.side_to_move().index()] = request.first;
        Ok(Game {
            budget,
            analyst: Analyst::default(),
            players,
            start: request.start,
            pos: request.start,
            moves: Vec::new(),
            undo: Vec::new(),
        })
    }

    /// Open (or build once into their folder) the databases the game's
    /// engine and hints probe, `progress` hearing of every level; the first
    /// move does it silently when this was not called.
    pub fn open_databases(&mut self, progress: &dyn Progress) -> Result<(), SolveError> {
        self.analyst
            .open_databases(&self.budget, self.start.holes(), progress)
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The starting position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The holes played so far, in order.
    pub fn moves(&self) -> &[usize] {
        &self.moves
    }

    /// The rule set.
    pub fn rules(&self) -> &Rules {
        &self.budget.rules
    }

    /// The engine's budget: nodes (`None`: no limit) and estimate plies.
    pub fn budget(&self) -> (Option<u64>, u32) {
        (self.budget.max_nodes, self.budget.estimate_depth)
    }

    /// Who plays `side`.
    pub fn player(&self, side: Side) -> Player {
        self.players[side.index()]
    }

    /// Who is to move, `None` when the game is over.
    pub fn to_move(&self) -> Option<Player> {
        (!self.pos.is_over()).then(|| self.player(self.pos.side_to_move()))
    }

    /// Whether a move typed can be taken back.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    fn apply(&mut self, hole: usize) -> Result<Played, MoveError> {
        let side = self.pos.side_to_move();
        let (position, events) = self.pos.play_logged(hole, self.rules())?;
        self.moves.push(hole);
        self.pos = position;
        Ok(Played {
            side,
            hole,
            position,
            events,
        })
    }

    /// Play a move typed by a human (it can be taken back); an illegal
    /// move changes nothing.
    pub fn play(&mut self, hole: usize) -> Result<Played, MoveError> {
        let before = (self.pos, self.moves.len());
        let played = self.apply(hole)?;
        self.undo.push(before);
        Ok(played)
    }

    /// The engine's move, played, and how it was chosen; `None` when the
    /// game is over.
    pub fn engine_move(&mut self) -> Result<Option<(Played, EngineMove)>, SolveError> {
        let Some(m) = self.analyst.engine_move(&self.budget, &self.pos)? else {
            return Ok(None);
        };
        let played = self.apply(m.hole).map_err(|source| SolveError::Move {
            index: self.moves.len() + 1,
            hole: m.hole,
            position: self.pos,
            source,
        })?;
        Ok(Some((played, m)))
    }

    /// Every legal move valued: `dakon best --every-move` under the game's
    /// budget.
    pub fn hint(&mut self) -> Result<BestReport, SolveError> {
        let request = BestRequest {
            every_move: true,
            ..self.budget.clone()
        };
        self.analyst.run(&request, &self.pos, None)
    }

    /// Back to the position before the last move a human typed, taking
    /// back the engine's replies after it; `None` when nothing was typed.
    pub fn undo(&mut self) -> Option<Undone> {
        let (position, played) = self.undo.pop()?;
        let taken = self.moves.split_off(played);
        self.pos = position;
        Some(Undone { taken, position })
    }

    /// Play a game record's moves (from this game's start, as
    /// [`Game::load`] does): a human side's moves can be taken back. `Err`
    /// at the first illegal move, with its index from 0; the moves before
    /// it are played.
    pub fn replay(&mut self, moves: &[usize]) -> Result<(), (usize, MoveError)> {
        for (k, &hole) in moves.iter().enumerate() {
            let human = self.player(self.pos.side_to_move()) == Player::Human;
            let result = if human {
                self.play(hole)
            } else {
                self.apply(hole)
            };
            result.map_err(|e| (k, e))?;
        }
        Ok(())
    }

    /// The game so far as a record (docs/formats.md), with no tags.
    pub fn record(&self) -> Record {
        Record {
            moves: self.moves.clone(),
            ..Record::new(self.start, *self.rules())
        }
    }

    /// The final score when the game is over (seeds left on the board go
    /// to their row's owner).
    pub fn final_score(&self) -> Option<FinalScore> {
        self.pos.final_score()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(first: Player, second: Player, start: Position) -> Game {
        Game::new(&GameRequest {
            first,
            second,
            ..GameRequest::new(start, Rules::default())
        })
        .unwrap()
    }

    #[test]
    fn a_record_replays_into_a_game_that_writes_it_back() {
        let start = Position::start(4, 4).unwrap();
        let mut g = game(Player::Human, Player::Engine, start);
        while g.to_move().is_some() {
            match g.to_move() {
                Some(Player::Engine) => {
                    g.engine_move().unwrap();
                }
                _ => {
                    let h = g.position().moves().last().unwrap();
                    g.play(h).unwrap();
                }
            }
        }
        let record = g.record();
        assert_eq!(record.end(), *g.position());
        let text = record.to_string();
        let back: Record = text.parse().unwrap();
        let mut again = game(Player::Human, Player::Engine, back.start);
        again.replay(&back.moves).unwrap();
        assert_eq!(again.position(), g.position());
        assert_eq!(again.record().to_string(), text);
        // The human's moves can be taken back, the engine's with them.
        assert!(again.can_undo());
        let mut bad = game(Player::Human, Player::Human, start);
        let err = bad.replay(&[1, 1]).unwrap_err();
        assert_eq!(err.0, 1);
    }

    #[test]
    fn undo_takes_back_the_engines_replies_too() {
        let mut g = game(
            Player::Human,
            Player::Engine,
            Position::start(4, 4).unwrap(),
        );
        assert!(!g.can_undo());
        assert!(g.play(9).is_err() && g.moves().is_empty());
        let played = g.play(2).unwrap();
        assert_eq!(played.side, Side::South);
        while g.to_move() == Some(Player::Engine) {
            g.engine_move().unwrap().unwrap();
        }
        let n = g.moves().len();
        let undone = g.undo().unwrap();
        assert_eq!(undone.taken.len(), n);
        assert_eq!(undone.taken[0], 2);
        assert_eq!(*g.position(), Position::start(4, 4).unwrap());
        assert!(g.undo().is_none());
    }

    /// The hint and the engine's move are `best`'s answer under the
    /// game's budget.
    #[test]
    fn the_hint_and_the_engine_agree_with_best() {
        let start = Position::start(4, 4).unwrap();
        let mut g = game(Player::Engine, Player::Engine, start);
        let hint = g.hint().unwrap();
        let best = BestRequest {
            every_move: true,
            ..BestRequest::new(Rules::default())
        }
        .run(&start, None)
        .unwrap();
        assert_eq!(
            (hint.value, &hint.best_moves, hint.ranked()),
            (best.value, &best.best_moves, best.ranked())
        );
        let (played, m) = g.engine_move().unwrap().unwrap();
        assert_eq!(played.hole, best.best_moves[0]);
        assert_eq!(m.choice, crate::best::Choice::Exact { value: 32 });
    }

    #[test]
    fn an_engine_game_ends_with_its_final_score() {
        let mut g = game(
            Player::Engine,
            Player::Engine,
            Position::start(3, 3).unwrap(),
        );
        while g.to_move().is_some() {
            g.engine_move().unwrap().unwrap();
        }
        let score = g.final_score().unwrap();
        // 3 × 3 is worth this much to the first player under perfect play.
        let solved = BestRequest::new(Rules::default())
            .run(&Position::start(3, 3).unwrap(), None)
            .unwrap();
        assert_eq!(score.difference(Side::South), solved.value);
        assert!(g.engine_move().unwrap().is_none());
    }

    #[test]
    fn an_estimate_depth_out_of_range_is_refused() {
        let request = GameRequest {
            estimate_depth: 13,
            ..GameRequest::new(Position::start(3, 3).unwrap(), Rules::default())
        };
        let e = Game::new(&request).unwrap_err();
        assert_eq!(e.to_string(), "--estimate-depth must be 1 to 12");
    }
}
