//! `dalkon.daldos`: Daldøs's rules, odds, engine and solved values.
//!
//! This file wraps the rules (`Rules`, `Position`, `Play`, `plays`,
//! `throws`, the action codes); `daldos/engine.rs` the engines (`odds`,
//! `best`, `value`, `match`, `solve_tables`). Every rule, value and error
//! message comes from `dalkon-rules` and `dalkon-daldos`; this file only
//! converts.
//!
//! Action codes (for OpenSpiel) and the game length bound are
//! `dalkon_rules::daldos::{action_codes, num_actions, max_game_length}`.

use dalkon_rules::daldos::{
    action_code, action_codes, max_game_length as max_length, num_actions as num_actions_of,
    plays as rule_plays, Board, Play as RulePlay, Position as Pos, Side, Throw, Variants,
    DEFAULT_MAX_THROWS,
};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::errors;

mod best;
pub(crate) mod engine;
mod odds;
mod solve;
mod value;

/// Daldøs rules: the board and the three rule options (docs/rules.md §1.5).
///
/// ``Rules(board="danish", dal="any", capture="final", end="last")``:
/// ``board`` is ``"danish"`` (L = 16), ``"norwegian"`` (L = 12) or a row
/// length L from 4 to 32 (an int or its digits), as the CLI's ``--board``;
/// ``dal`` is ``"any"`` or ``"sternmost"``, ``capture`` ``"final"`` or
/// ``"path"``, ``end`` ``"last"`` or ``"one"``, as the CLI's flags. The
/// defaults are the default rules. Immutable, hashable.
#[pyclass(module = "dalkon.daldos", frozen, eq, hash, from_py_object)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules {
    pub(crate) board: Board,
    pub(crate) variants: Variants,
}

/// The board an argument names: an int L, or a name / digits.
fn board_arg(board: &Bound<'_, PyAny>) -> PyResult<Board> {
    let name = if let Ok(n) = board.extract::<i64>() {
        n.to_string()
    } else if let Ok(s) = board.extract::<String>() {
        s
    } else {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "board must be an int (the row length L) or a str (danish, norwegian or L)",
        ));
    };
    Board::from_name(&name).map_err(errors::input)
}

#[pymethods]
impl Rules {
    #[new]
    #[pyo3(signature = (board = None, dal = "any", capture = "final", end = "last"))]
    fn new(
        board: Option<&Bound<'_, PyAny>>,
        dal: &str,
        capture: &str,
        end: &str,
    ) -> PyResult<Rules> {
        let board = match board {
            Some(b) => board_arg(b)?,
            None => Board::DANISH,
        };
        let variants = Variants {
            dal: dal.parse().map_err(errors::input)?,
            capture: capture.parse().map_err(errors::input)?,
            end: end.parse().map_err(errors::input)?,
        };
        Ok(Rules { board, variants })
    }

    /// The board's name: ``"danish"``, ``"norwegian"`` or the digits of L.
    #[getter]
    fn board(&self) -> String {
        self.board.name()
    }

    /// The row length L (holes in row A or B; the board has 3L + 1 holes).
    #[getter]
    fn board_len(&self) -> u8 {
        self.board.len()
    }

    /// ``"any"`` or ``"sternmost"``.
    #[getter]
    fn dal(&self) -> String {
        self.variants.dal.to_string()
    }

    /// ``"final"`` or ``"path"``.
    #[getter]
    fn capture(&self) -> String {
        self.variants.capture.to_string()
    }

    /// ``"last"`` or ``"one"``.
    #[getter]
    fn end(&self) -> String {
        self.variants.end.to_string()
    }

    /// ``board=danish dal=any capture=final end=last``.
    fn __str__(&self) -> String {
        format!("board={} {}", self.board.name(), self.variants)
    }

    fn __repr__(&self) -> String {
        let board = match self.board.len() {
            12 | 16 => format!("{:?}", self.board.name()),
            n => n.to_string(),
        };
        format!(
            "Rules(board={board}, dal={:?}, capture={:?}, end={:?})",
            self.dal(),
            self.capture(),
            self.end()
        )
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let r = slf.get();
        let args = (r.board(), r.dal(), r.capture(), r.end());
        (slf.get_type(), args).into_pyobject(slf.py())
    }

    fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: Bound<'py, Self>, _memo: &Bound<'py, PyAny>) -> Bound<'py, Self> {
        slf
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            board: Board::DANISH,
            variants: Variants::default(),
        }
    }
}

/// A Daldøs position (docs/rules.md §1.6) under its rules: the pieces, the side
/// to throw and the rules it is played under (which decide when the game
/// is over and which plays are legal).
///
/// Make one with ``Position.start(rules)`` or ``Position.parse(text, rules)``
/// (``Position(text, rules)`` is the same as ``parse``). ``str(pos)`` is
/// the notation, e.g. ``"AAAA/...../BBBB a"``, and
/// ``Position.parse(str(pos), pos.rules) == pos``. Two positions are equal
/// when their pieces, side to throw and rules are. Immutable, hashable.
#[pyclass(module = "dalkon.daldos", frozen, eq, hash, from_py_object)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) pos: Pos,
    pub(crate) rules: Rules,
}

/// The rules to use: those given (whose board must be the position's) or
/// the position's own.
pub(crate) fn rules_for(pos: &Pos, own: Option<Rules>, given: Option<Rules>) -> PyResult<Rules> {
    let Some(r) = given else {
        return Ok(own.unwrap_or(Rules {
            board: pos.board(),
            variants: Variants::default(),
        }));
    };
    if r.board != pos.board() {
        return Err(errors::InputError::new_err(format!(
            "rules board {} (L={}) disagrees with the position, whose rows give L={}",
            r.board,
            r.board.len(),
            pos.board().len()
        )));
    }
    Ok(r)
}

/// A side number from Python: 0 for A, 1 for B.
fn side_arg(side: i64) -> PyResult<Side> {
    match side {
        0 => Ok(Side::A),
        1 => Ok(Side::B),
        _ => Err(errors::InputError::new_err(format!(
            "side {side}: expected 0 (A) or 1 (B)"
        ))),
    }
}

/// A throw from two faces, with the library's message for a bad face.
pub(crate) fn throw_arg(d1: i64, d2: i64) -> PyResult<Throw> {
    format!("{d1},{d2}").parse().map_err(errors::input)
}

impl Position {
    pub(crate) fn wrap(pos: Pos, rules: Rules) -> Position {
        Position { pos, rules }
    }

    /// The rules a call uses: `rules` if given (checked), else the
    /// position's.
    pub(crate) fn rules_or(&self, rules: Option<Rules>) -> PyResult<Rules> {
        rules_for(&self.pos, Some(self.rules), rules)
    }
}

#[pymethods]
impl Position {
    #[new]
    #[pyo3(signature = (text, rules = None))]
    fn new(text: &str, rules: Option<Rules>) -> PyResult<Position> {
        Position::parse(text, rules)
    }

    /// The start position of ``rules``' board (default rules: the Danish
    /// board): every piece undalt on its own row, A to throw.
    #[staticmethod]
    #[pyo3(signature = (rules = None))]
    fn start(rules: Option<Rules>) -> Position {
        let rules = rules.unwrap_or_default();
        Position::wrap(Pos::start(rules.board), rules)
    }

    /// Parse the notation ``<row A>/<row M>/<row B> <side>`` (docs/rules.md
    /// §1.6); the board is read from the rows, and must be ``rules``' board
    /// when ``rules`` are given (default: the default rules on that board).
    /// Raises InputError with the CLI's message (column of the fault).
    #[staticmethod]
    #[pyo3(signature = (text, rules = None))]
    fn parse(text: &str, rules: Option<Rules>) -> PyResult<Position> {
        let pos: Pos = text.parse().map_err(errors::input)?;
        let rules = rules_for(&pos, None, rules)?;
        Ok(Position::wrap(pos, rules))
    }

    /// The rules this position is played under.
    #[getter]
    fn rules(&self) -> Rules {
        self.rules
    }

    /// The row length L.
    #[getter]
    fn board_len(&self) -> u8 {
        self.pos.board().len()
    }

    /// The side that throws next: 0 = A (the first player), 1 = B.
    #[getter]
    fn side_to_throw(&self) -> usize {
        self.pos.side_to_move().index()
    }

    /// Whether the game is over under the end rule (``rules`` if given,
    /// else the position's).
    #[pyo3(signature = (rules = None))]
    fn is_over(&self, rules: Option<Rules>) -> PyResult<bool> {
        Ok(self.pos.is_over(&self.rules_or(rules)?.variants))
    }

    /// The winner if the game is over (0 = A, 1 = B), else None.
    #[pyo3(signature = (rules = None))]
    fn winner(&self, rules: Option<Rules>) -> PyResult<Option<usize>> {
        Ok(self
            .pos
            .winner(&self.rules_or(rules)?.variants)
            .map(Side::index))
    }

    /// Pieces left: ``(A's, B's)``.
    fn pieces(&self) -> (usize, usize) {
        (self.pos.count(Side::A), self.pos.count(Side::B))
    }

    /// Undalt pieces (not yet activated): ``(A's, B's)``.
    fn undalt(&self) -> (usize, usize) {
        let u = self.pos.undalt_mask();
        (
            (self.pos.mask(Side::A) & u).count_ones() as usize,
            (self.pos.mask(Side::B) & u).count_ones() as usize,
        )
    }

    /// The holes of ``side``'s pieces (0 = A, 1 = B), e.g. ``["A1", "M5"]``,
    /// in the board's cell order (row A, then M0..ML, then row B).
    fn holes(&self, side: i64) -> PyResult<Vec<String>> {
        let side = side_arg(side)?;
        let board = self.pos.board();
        Ok(self.pos.pieces(side).map(|h| board.hole_name(h)).collect())
    }

    /// What hole ``hole`` (e.g. ``"M5"``) holds, as the notation writes it:
    /// ``"."`` empty, ``"A"``/``"B"`` undalt, ``"a"``/``"b"`` dalt.
    fn cell(&self, hole: &str) -> PyResult<String> {
        let h = self.pos.board().parse_hole(hole).map_err(errors::input)?;
        Ok(self.pos.cell(h).to_char().to_string())
    }

    /// The board as a NumPy ``int8`` array of its 3L + 1 holes in cell
    /// order (A1..AL, M0..ML, B1..BL): 0 empty, 1 an undalt piece of A, 2 a
    /// dalt piece of A, -1 an undalt piece of B, -2 a dalt piece of B.
    fn array<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray1<i8>> {
        use dalkon_rules::daldos::Cell;
        let cells: Vec<i8> = self
            .pos
            .board()
            .holes()
            .map(|h| match self.pos.cell(h) {
                Cell::Empty => 0,
                Cell::Undalt(Side::A) => 1,
                Cell::Dalt(Side::A) => 2,
                Cell::Undalt(Side::B) => -1,
                Cell::Dalt(Side::B) => -2,
            })
            .collect();
        numpy::IntoPyArray::into_pyarray(cells, py)
    }

    /// The mirror image: rows A and B exchanged, every piece given to the
    /// other side, the other side to throw (the same value for the side to
    /// throw: the rules are symmetric).
    fn mirror(&self) -> Position {
        Position::wrap(self.pos.mirror(), self.rules)
    }

    /// The same pieces with ``side`` (0 = A, 1 = B) to throw.
    fn with_side_to_throw(&self, side: i64) -> PyResult<Position> {
        Ok(Position::wrap(
            self.pos.with_side_to_move(side_arg(side)?),
            self.rules,
        ))
    }

    /// The same pieces under other rules (same board).
    fn with_rules(&self, rules: Rules) -> PyResult<Position> {
        Ok(Position::wrap(self.pos, self.rules_or(Some(rules))?))
    }

    /// Every distinct legal play of the throw ``(d1, d2)``, as ``plays``.
    #[pyo3(signature = (d1, d2, rules = None))]
    fn plays(&self, d1: i64, d2: i64, rules: Option<Rules>) -> PyResult<Vec<Play>> {
        plays_of(self, d1, d2, rules)
    }

    /// The position after the play with action code ``action`` of the
    /// throw ``(d1, d2)``; InputError if no play of that throw has it. When
    /// the throw has no play the only code is 0 (the lost throw, ``pass``).
    #[pyo3(signature = (d1, d2, action, rules = None))]
    fn play_action(
        &self,
        d1: i64,
        d2: i64,
        action: i64,
        rules: Option<Rules>,
    ) -> PyResult<Position> {
        let all = plays_of(self, d1, d2, rules)?;
        if let Some(p) = all.iter().find(|p| i64::from(p.action) == action) {
            return Ok(p.result);
        }
        let codes: Vec<String> = all.iter().map(|p| p.action.to_string()).collect();
        Err(errors::InputError::new_err(if all.is_empty() {
            format!("action {action}: the game is over, the throw {d1},{d2} has no play")
        } else {
            format!(
                "action {action} is not a play of the throw {d1},{d2} here; its plays have actions {}",
                codes.join(" ")
            )
        }))
    }

    fn __str__(&self) -> String {
        self.pos.to_string()
    }

    /// The SVG picture of the position (as ``dalkon daldos show --format
    /// svg``), which notebooks show.
    fn _repr_svg_(&self) -> String {
        dalkon_render::daldos::svg(&self.pos, None, None)
    }

    fn __repr__(&self) -> String {
        if self.rules.variants == Variants::default() {
            format!("Position({:?})", self.pos.to_string())
        } else {
            format!(
                "Position({:?}, {})",
                self.pos.to_string(),
                self.rules.__repr__()
            )
        }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let p = slf.get();
        (slf.get_type(), (p.pos.to_string(), p.rules)).into_pyobject(slf.py())
    }

    fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: Bound<'py, Self>, _memo: &Bound<'py, PyAny>) -> Bound<'py, Self> {
        slf
    }
}

/// One legal play of a throw and the position it leads to.
///
/// ``str(play)`` is the CLI's play notation (``"A12-M12 M12-M9"``, ``x``
/// after a capture, ``"pass"`` for the lost throw); ``position`` the result,
/// whose ``side_to_throw`` is the side that throws next (the same side after
/// a dal-dal, 1,1, else the opponent); ``action`` its code for OpenSpiel.
#[pyclass(module = "dalkon.daldos", frozen, eq, hash, skip_from_py_object)]
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Play {
    pub(crate) play: RulePlay,
    pub(crate) result: Position,
    pub(crate) throw: Throw,
    pub(crate) action: u32,
}

impl Play {
    /// `play` of `throw` in `from` (whose side moved), leading to `result`.
    pub(crate) fn wrap(
        from: &Pos,
        rules: Rules,
        throw: Throw,
        play: RulePlay,
        result: Pos,
    ) -> Play {
        let action = action_code(from.board(), from.side_to_move(), throw, &play);
        Play {
            play,
            result: Position::wrap(result, rules),
            throw,
            action,
        }
    }
}

#[pymethods]
impl Play {
    /// The position after the play (its side to throw throws next).
    #[getter]
    fn position(&self) -> Position {
        self.result
    }

    /// The action code: distinct among the plays of one throw, in
    /// ``range(num_actions(rules))``; 0 for the lost throw.
    #[getter]
    fn action(&self) -> u32 {
        self.action
    }

    /// The throw as given, ``(d1, d2)``.
    #[getter]
    fn dice(&self) -> (u8, u8) {
        (self.throw.first, self.throw.second)
    }

    /// The die uses in order: ``(from, to, capture)`` with hole names, e.g.
    /// ``[("A12", "M12", False), ("M12", "M9", False)]``; empty for ``pass``.
    /// Two steps where the second starts where the first ended are one added
    /// move (both dice on one piece).
    #[getter]
    fn steps(&self) -> Vec<(String, String, bool)> {
        let b = self.result.pos.board();
        self.play
            .steps
            .iter()
            .map(|s| (b.hole_name(s.from), b.hole_name(s.to), s.capture))
            .collect()
    }

    /// Whether this is the lost throw (no die could be used).
    #[getter]
    fn is_pass(&self) -> bool {
        self.play.is_pass()
    }

    /// Enemy pieces captured.
    #[getter]
    fn captures(&self) -> usize {
        self.play.captures()
    }

    fn __str__(&self) -> String {
        self.play.notation(self.result.pos.board())
    }

    fn __repr__(&self) -> String {
        format!(
            "Play({:?}, action={}, position={:?})",
            self.__str__(),
            self.action,
            self.result.pos.to_string()
        )
    }

    fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: Bound<'py, Self>, _memo: &Bound<'py, PyAny>) -> Bound<'py, Self> {
        slf
    }
}

/// The plays of `(d1, d2)` in `pos`, as `Play`s, in the CLI's order for
/// the dice as given. The action codes are those of the same throw with
/// the larger die first: the order of the dice changes neither which
/// results are legal nor, so, a result's code (it may change which of the
/// plays leading to one result is kept, and the order).
fn plays_of(pos: &Position, d1: i64, d2: i64, rules: Option<Rules>) -> PyResult<Vec<Play>> {
    let throw = throw_arg(d1, d2)?;
    let rules = pos.rules_or(rules)?;
    let outcomes = rule_plays(&pos.pos, &rules.variants, throw);
    let codes = action_codes(&pos.pos, &rules.variants, throw, &outcomes);
    Ok(outcomes
        .into_iter()
        .zip(codes)
        .map(|(o, action)| Play {
            action,
            ..Play::wrap(&pos.pos, rules, throw, o.play, o.result)
        })
        .collect())
}

/// Every distinct legal play of the throw ``(d1, d2)`` in ``pos`` (docs/rules.md
/// §1.3), in the order ``dalkon daldos moves`` prints them: one per
/// distinct result. A throw no piece can use is lost: the list is then the
/// one play ``pass`` (action 0) whose position is ``pos`` with the turn
/// passed (the same side again after 1,1). A finished game has no plays
/// (an empty list). ``rules`` default to the position's.
#[pyfunction]
#[pyo3(signature = (pos, d1, d2, rules = None))]
fn plays(pos: &Position, d1: i64, d2: i64, rules: Option<Rules>) -> PyResult<Vec<Play>> {
    plays_of(pos, d1, d2, rules)
}

/// The number of action codes of ``rules``' board (default: Danish):
/// ``1 + 4C + 2C**2`` with ``C = 3L + 1`` holes; every play's ``action`` is
/// below it.
#[pyfunction]
#[pyo3(signature = (rules = None))]
fn num_actions(rules: Option<Rules>) -> u32 {
    num_actions_of(rules.unwrap_or_default().board)
}

/// OpenSpiel's ``max_game_length`` of a game cut off after ``max_throws``
/// throws (default 5000, the turn cap of ``match``): a chance node and a
/// play per throw, ``2 * max_throws``.
#[pyfunction]
#[pyo3(signature = (max_throws = DEFAULT_MAX_THROWS))]
fn max_game_length(max_throws: u32) -> u64 {
    max_length(max_throws)
}

/// The 10 distinct throws ``(d1, d2, weight)``, larger die first, with
/// their weights out of 16 (1 for a double, 2 otherwise; they sum to 16).
#[pyfunction]
fn throws() -> Vec<(u8, u8, u32)> {
    Throw::DISTINCT
        .iter()
        .map(|&(t, w)| (t.first, t.second, w))
        .collect()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add(
        "__doc__",
        "Daldøs: rules, exact odds, engine, solved values.",
    )?;
    m.add_class::<Rules>()?;
    m.add_class::<Position>()?;
    m.add_class::<Play>()?;
    m.add_function(wrap_pyfunction!(plays, m)?)?;
    m.add_function(wrap_pyfunction!(num_actions, m)?)?;
    m.add_function(wrap_pyfunction!(throws, m)?)?;
    m.add_function(wrap_pyfunction!(max_game_length, m)?)?;
    m.add("DEFAULT_MAX_THROWS", DEFAULT_MAX_THROWS)?;
    engine::register(m)?;
    odds::register(m)?;
    best::register(m)?;
    value::register(m)?;
    solve::register(m)?;
    Ok(())
}
