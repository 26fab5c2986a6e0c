//! `dalkon.dakon`: Dakon's rules, solver and proofs.
//!
//! Thin wrappers: keyword arguments become the requests of
//! `dalkon_dakon::request` that the CLI builds from its flags, and the
//! objects are built from the same reports whose serialization is the
//! CLI's JSON, so Python sees what the binary prints. Drawings come from
//! `dalkon-render`.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use dalkon_dakon::prove::{prove as prove_root, ProveRequest};
use dalkon_dakon::request::best::Line;
use dalkon_dakon::request::verify::FailureReport;
use dalkon_dakon::request::{verify_file, BestReport, BestRequest, ProveReport, VerifyReport};
use dalkon_dakon::search::SearchProgress;
use dalkon_dakon::solve::{root_position, start_position};
use dalkon_dakon::SolveError;
use dalkon_rules::dakon::{ParseError, Position, Rules, Side};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2};
use pyo3::prelude::*;

use crate::{errors, interrupt};

/// How often a running search is told of a Ctrl-C that Python has seen.
const STOP_POLL: Duration = Duration::from_millis(2);

/// A Dakon rule set (docs/rules.md §2.4): the values are spelt as the CLI's
/// `--origin`, `--mikul`, `--nembak` flags take them; the defaults are the
/// standard rules (`origin=sow mikul=on nembak=keep`).
#[pyclass(
    name = "Rules",
    module = "dalkon.dakon",
    frozen,
    skip_from_py_object,
    eq,
    hash
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PyRules(pub(crate) Rules);

#[pymethods]
impl PyRules {
    #[new]
    #[pyo3(signature = (origin = "sow", mikul = "on", nembak = "keep"))]
    fn new(origin: &str, mikul: &str, nembak: &str) -> PyResult<PyRules> {
        Ok(PyRules(Rules {
            origin: origin.parse().map_err(errors::input)?,
            mikul: mikul.parse().map_err(errors::input)?,
            nembak: nembak.parse().map_err(errors::input)?,
        }))
    }

    /// Parse the form `str(rules)` writes (and strategy files carry):
    /// `origin=… mikul=… nembak=…`.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<PyRules> {
        text.parse().map(PyRules).map_err(errors::input)
    }

    /// Whether a lap sows into its own origin hole: `"sow"` or `"skip"`.
    #[getter]
    fn origin(&self) -> &'static str {
        self.0.names().0
    }

    /// Mikul captures on the opponent's side: `"on"` or `"off"`.
    #[getter]
    fn mikul(&self) -> &'static str {
        self.0.names().1
    }

    /// The landing seed of a nembak capture: `"keep"` or `"take"`.
    #[getter]
    fn nembak(&self) -> &'static str {
        self.0.names().2
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        let (o, m, n) = self.0.names();
        format!("Rules(origin='{o}', mikul='{m}', nembak='{n}')")
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let parse = py.get_type::<PyRules>().getattr("parse")?;
        Ok((parse, (self.0.to_string(),)))
    }
}

/// The rules of an optional `rules` argument: the standard rules when `None`.
fn rules_of(rules: Option<&PyRules>) -> Rules {
    rules.map_or_else(Rules::default, |r| r.0)
}

/// A Dakon position (docs/rules.md §2.5): both rows, both stores and the side to
/// move. Immutable; `play` returns a new position.
#[pyclass(
    name = "Position",
    module = "dalkon.dakon",
    frozen,
    skip_from_py_object,
    eq,
    hash
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PyPosition(pub(crate) Position);

#[pymethods]
impl PyPosition {
    /// The start of a board: `holes` holes a row with `seeds` seeds each,
    /// empty stores, South (player 0) to move.
    #[staticmethod]
    fn start(holes: usize, seeds: u32) -> PyResult<PyPosition> {
        start_position(holes, seeds)
            .map(PyPosition)
            .map_err(errors::input)
    }

    /// Parse the CLI's position notation, e.g.
    /// `"7,7,7,7,7,7,7/7,7,7,7,7,7,7/0,0 0"`.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<PyPosition> {
        text.parse().map(PyPosition).map_err(errors::input)
    }

    /// A position from its parts: South's and North's holes (hole 1 first),
    /// the stores `(South, North)` and the side to move (0 South, 1 North),
    /// validated as the notation's parser validates them.
    #[staticmethod]
    #[pyo3(signature = (south, north, stores = (0, 0), side_to_move = 0))]
    fn from_rows(
        south: Vec<u8>,
        north: Vec<u8>,
        stores: (u8, u8),
        side_to_move: usize,
    ) -> PyResult<PyPosition> {
        let side = Side::from_index(side_to_move)
            .ok_or_else(|| errors::input(ParseError::Side(side_to_move.to_string())))?;
        Position::new(&south, &north, [stores.0, stores.1], side)
            .map(PyPosition)
            .map_err(errors::input)
    }

    /// Holes per row.
    #[getter]
    fn holes(&self) -> usize {
        self.0.holes()
    }

    /// The player to move: 0 for South (who moves first), 1 for North.
    #[getter]
    fn side_to_move(&self) -> usize {
        self.0.side_to_move().index()
    }

    /// The stores, `(South, North)`.
    #[getter]
    fn stores(&self) -> (u8, u8) {
        (self.0.store(Side::South), self.0.store(Side::North))
    }

    /// The seeds in the holes: a new NumPy `uint8` array of shape
    /// `(2, holes)`, row 0 South's holes 1..n, row 1 North's holes 1..n.
    #[getter]
    fn seeds<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<u8>> {
        let n = self.0.holes();
        let cells: Vec<u8> = Side::BOTH
            .iter()
            .flat_map(|&s| self.0.pits(s).iter().copied())
            .collect();
        Array2::from_shape_vec((2, n), cells)
            .expect("two rows of `holes` counts")
            .into_pyarray(py)
    }

    /// Seeds in the holes of both rows (stores not counted).
    fn seeds_on_board(&self) -> u32 {
        self.0.seeds_on_board()
    }

    /// The legal moves: the non-empty holes of the side to move, numbered
    /// 1..n as the notation and the CLI's `--moves` number them (empty when
    /// the game is over). The rules do not change which holes are legal.
    #[pyo3(signature = (rules = None))]
    fn legal_moves(&self, rules: Option<&PyRules>) -> Vec<usize> {
        let _ = rules;
        self.0.moves().collect()
    }

    /// Play hole `hole` of the side to move: the new position and what
    /// happened, one line per event as `dalkon dakon play` prints them.
    /// An illegal move raises `InputError` with the rules' message.
    #[pyo3(signature = (hole, rules = None))]
    fn play(&self, hole: usize, rules: Option<&PyRules>) -> PyResult<(PyPosition, Vec<String>)> {
        let (next, log) = self
            .0
            .play_logged(hole, &rules_of(rules))
            .map_err(errors::input)?;
        Ok((
            PyPosition(next),
            log.iter().map(ToString::to_string).collect(),
        ))
    }

    /// Whether the game is over (the side to move has no seeds).
    #[pyo3(signature = (rules = None))]
    fn is_over(&self, rules: Option<&PyRules>) -> bool {
        let _ = rules;
        self.0.is_over()
    }

    /// South's final store minus North's when the game is over (the
    /// remaining seeds swept to their row's owner, docs/rules.md §2.3), else
    /// `None`.
    #[pyo3(signature = (rules = None))]
    fn terminal_margin(&self, rules: Option<&PyRules>) -> Option<i32> {
        let _ = rules;
        Some(self.0.final_score()?.difference(Side::South))
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Position('{}')", self.0)
    }

    /// The board as `dalkon dakon show` draws it for a terminal.
    fn draw(&self) -> String {
        dalkon_render::dakon::draw(&self.0)
    }

    /// The picture of `dalkon dakon show --format svg`, for notebooks.
    fn _repr_svg_(&self) -> String {
        dalkon_render::dakon::svg(&self.0, None)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let parse = py.get_type::<PyPosition>().getattr("parse")?;
        Ok((parse, (self.0.to_string(),)))
    }
}

/// The answer of `solve`, as `dalkon dakon best` gives it.
#[pyclass(
    name = "Result",
    module = "dalkon.dakon",
    frozen,
    skip_from_py_object,
    get_all
)]
#[derive(Clone, Debug)]
pub struct PySolveResult {
    /// Final store difference for the side to move (stores included), as
    /// `dakon best` prints it. Exact when `exact`; otherwise the best move's
    /// estimate (a 6-ply search) clamped to the proved `lower..upper`.
    value: i32,
    /// The value is at least this (proved).
    lower: i32,
    /// The value is at most this (proved).
    upper: i32,
    /// Exact: every move reaching `value`, ascending (empty when the game
    /// is over). Otherwise the one move judged best.
    best_moves: Vec<usize>,
    /// The principal variation: both sides' moves (bonus moves included)
    /// to the end of the game; replaying an exact answer's `pv` ends the
    /// game at `value`. Not exact: the table's line, which may stop early.
    pv: Vec<usize>,
    /// Whether `value` and `best_moves` are proved.
    exact: bool,
    /// Every legal move as `(hole, lower, upper)`, its proved bounds (equal
    /// for the moves solved exactly: the best moves, every move with
    /// `every_move`).
    moves: Vec<(usize, i32, i32)>,
    /// Plies of the estimate that chose the move when the budget proved
    /// nothing (`None` otherwise).
    estimate_depth: Option<u32>,
    /// Search nodes (alpha-beta calls).
    nodes: u64,
    /// Positions in the table after the search.
    positions: u64,
    /// Wall-clock seconds of the search.
    seconds: f64,
    /// With `multipv=K` (else `None`): the `K` best moves, best first, each
    /// with its value and its own line, as the `lines` of `dalkon dakon
    /// best --multipv K`.
    lines: Option<Vec<PyLine>>,
}

/// One of the best moves of `solve(..., multipv=K)`: an item of the
/// `lines` of `dalkon dakon best --multipv K`.
#[pyclass(
    name = "Line",
    module = "dalkon.dakon",
    frozen,
    skip_from_py_object,
    get_all
)]
#[derive(Clone, Debug)]
pub struct PyLine {
    /// The move (a hole of the side to move).
    #[pyo3(name = "move")]
    hole: usize,
    /// Its value (final store difference for the side to move): exact when
    /// `exact`, else the shallow estimate within `lower..upper`.
    value: i32,
    /// Whether `value` is proved.
    exact: bool,
    /// Proved lower bound when not exact (`None` when exact).
    lower: Option<i32>,
    /// Proved upper bound when not exact (`None` when exact).
    upper: Option<i32>,
    /// The line of play, starting with the move; replaying an exact
    /// line's `pv` ends the game at `value` (unless the budget ran out
    /// while it was walked: it then stops early).
    pv: Vec<usize>,
}

impl From<&Line> for PyLine {
    fn from(l: &Line) -> PyLine {
        PyLine {
            hole: l.hole,
            value: l.value,
            exact: l.exact,
            lower: l.lower,
            upper: l.upper,
            pv: l.pv.clone(),
        }
    }
}

#[pymethods]
impl PyLine {
    fn __repr__(&self) -> String {
        let bounds = match (self.lower, self.upper) {
            (Some(lo), Some(hi)) => format!(", lower={lo}, upper={hi}"),
            _ => String::new(),
        };
        format!(
            "Line(move={}, value={}, exact={}{bounds}, pv={:?})",
            self.hole,
            self.value,
            if self.exact { "True" } else { "False" },
            self.pv
        )
    }
}

impl PySolveResult {
    fn from(r: BestReport) -> PySolveResult {
        let a = &r.analysis;
        PySolveResult {
            value: r.value,
            lower: a.lower,
            upper: a.upper,
            moves: a
                .move_bounds
                .iter()
                .map(|m| (m.hole, m.lower, m.upper))
                .collect(),
            positions: a.positions,
            best_moves: r.best_moves,
            pv: r.pv,
            exact: r.exact,
            estimate_depth: r.estimate_depth,
            nodes: r.nodes,
            seconds: r.seconds,
            lines: r
                .lines
                .as_ref()
                .map(|lines| lines.iter().map(PyLine::from).collect()),
        }
    }
}

#[pymethods]
impl PySolveResult {
    fn __repr__(&self) -> String {
        format!(
            "Result(value={}, lower={}, upper={}, best_moves={:?}, exact={}, pv={:?}, nodes={})",
            self.value,
            self.lower,
            self.upper,
            self.best_moves,
            if self.exact { "True" } else { "False" },
            self.pv,
            self.nodes
        )
    }
}

/// Run `work` with a search progress whose stop flag follows Ctrl-C:
/// without the GIL, the KeyboardInterrupt raised once the search returns.
pub(crate) fn searching<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&SearchProgress) -> T + Send,
{
    interrupt::run(py, |stop: &AtomicBool| {
        let progress = SearchProgress::default();
        let (done, finished) = mpsc::channel::<()>();
        std::thread::scope(|s| {
            let shared = &progress;
            // The sender moves into the search thread, so that a panic
            // there drops it and ends the wait below.
            let search = s.spawn(move || {
                let out = work(shared);
                let _ = done.send(());
                out
            });
            // Wakes at once when the search ends (or panics: the sender
            // is dropped), else every few ms to pass Ctrl-C on.
            while let Err(RecvTimeoutError::Timeout) = finished.recv_timeout(STOP_POLL) {
                if stop.load(Ordering::Relaxed) {
                    progress.stop.store(true, Ordering::Relaxed);
                }
            }
            search
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        })
    })
}

/// A search or proof error: bad input (a table too small, a board too big)
/// or a limit reached / a file not written.
pub(crate) fn solve_error(e: SolveError) -> PyErr {
    if e.is_bad_input() {
        errors::input(e)
    } else {
        errors::data(e)
    }
}

/// The value and best moves of `pos`, as `dalkon dakon best` computes them:
/// exact unless `time` (seconds) or `max_nodes` cut the search first.
/// `multipv=K` also gives the `K` best moves with their lines (`lines`), as
/// `--multipv K` (at least 1; more than the legal moves gives them all).
/// `probe_seeds=K` answers positions with at most `K` seeds on the board
/// from the endgame databases in `db_dir` (built there once), as
/// `--probe-seeds K --db-dir DIR`: the same answer, found faster.
/// Runs without the GIL; Ctrl-C stops it (KeyboardInterrupt).
#[pyfunction]
#[pyo3(signature = (pos, rules = None, time = None, max_nodes = None, every_move = false, tt_mb = None, multipv = None, probe_seeds = None, db_dir = None))]
#[allow(clippy::too_many_arguments)]
fn solve(
    py: Python<'_>,
    pos: &PyPosition,
    rules: Option<&PyRules>,
    time: Option<f64>,
    max_nodes: Option<u64>,
    every_move: bool,
    tt_mb: Option<usize>,
    multipv: Option<usize>,
    probe_seeds: Option<u32>,
    db_dir: Option<std::path::PathBuf>,
) -> PyResult<PySolveResult> {
    let request = BestRequest {
        every_move,
        tt_mb,
        ..BestRequest::new(rules_of(rules))
            .max_nodes(max_nodes)
            .time(time)
            .and_then(|r| r.multipv(multipv))
            .and_then(|r| r.probe(probe_seeds, db_dir))
            .map_err(errors::input)?
    };
    let pos = pos.0;
    searching(py, |progress| request.run(&pos, Some(progress)))?
        .map(PySolveResult::from)
        .map_err(solve_error)
}

/// One strategy file written by `prove`.
#[pyclass(
    name = "ProofFile",
    module = "dalkon.dakon",
    frozen,
    skip_from_py_object,
    get_all
)]
#[derive(Clone, Debug)]
pub struct PyProofFile {
    /// Where it was written.
    path: PathBuf,
    /// Whose strategy: 0 South, 1 North.
    player: usize,
    /// The final store difference (player minus opponent) it secures.
    guarantees: i32,
    /// Strategy lines (positions with the player to move).
    lines: u64,
    /// Positions (either side to move) its games reach.
    reached: u64,
    /// Of those, the ones where any play secures what is still needed (the
    /// format still asks a move in each).
    settled: u64,
    /// Bytes of the file.
    bytes: u64,
}

#[pymethods]
impl PyProofFile {
    fn __repr__(&self) -> String {
        format!(
            "ProofFile(path='{}', player={}, guarantees={}, lines={})",
            self.path.display(),
            self.player,
            self.guarantees,
            self.lines
        )
    }
}

/// What `prove` proved and wrote, as `dalkon dakon prove` reports it.
#[pyclass(
    name = "Proof",
    module = "dalkon.dakon",
    frozen,
    skip_from_py_object,
    get_all
)]
#[derive(Clone, Debug)]
pub struct PyProof {
    /// The exact value: final store difference for the side to move.
    value: i32,
    /// Every root move reaching `value`, ascending.
    best_moves: Vec<usize>,
    /// The mover's file (secures `value`), then the opponent's (`-value`).
    files: Vec<PyProofFile>,
    /// Wall-clock seconds: the search plus reading the strategies off it.
    seconds: f64,
}

#[pymethods]
impl PyProof {
    fn __repr__(&self) -> String {
        format!(
            "Proof(value={}, best_moves={:?}, files=[{}])",
            self.value,
            self.best_moves,
            self.files
                .iter()
                .map(PyProofFile::__repr__)
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

fn proof_of(r: ProveReport) -> PyProof {
    PyProof {
        value: r.value,
        best_moves: r.best_moves,
        files: r
            .files
            .into_iter()
            .map(|f| PyProofFile {
                path: f.path.into(),
                player: f.player,
                guarantees: f.guarantees,
                lines: f.lines,
                reached: f.reached,
                settled: f.settled,
                bytes: f.bytes,
            })
            .collect(),
        seconds: r.seconds,
    }
}

/// Solve a position exactly and write the proof of its value into
/// `out_dir` as `mover.strategy` and `opponent.strategy` (`.gz` with
/// `gzip`), as `dalkon dakon prove`: give `pos`, or `holes` and `seeds` for
/// a board's start. Runs without the GIL; Ctrl-C stops the search.
#[pyfunction]
#[pyo3(signature = (pos = None, rules = None, *, holes = None, seeds = None, out_dir, gzip = false, max_lines = None, tt_mb = None))]
#[allow(clippy::too_many_arguments)] // the CLI's flags, one keyword each
fn prove(
    py: Python<'_>,
    pos: Option<&PyPosition>,
    rules: Option<&PyRules>,
    holes: Option<usize>,
    seeds: Option<u32>,
    out_dir: PathBuf,
    gzip: bool,
    max_lines: Option<u64>,
    tt_mb: Option<usize>,
) -> PyResult<PyProof> {
    let root = root_position(pos.map(|p| p.0), holes, seeds).map_err(errors::input)?;
    let request = ProveRequest {
        root,
        rules: rules_of(rules),
        tt_mb,
        max_lines,
    };
    let proved =
        searching(py, |progress| prove_root(&request, Some(progress)))?.map_err(solve_error)?;
    let files = py
        .detach(|| proved.write(&out_dir, gzip))
        .map_err(solve_error)?;
    Ok(proof_of(ProveReport::new(&proved, &files)))
}

/// Where a strategy breaks (`Verdict.failure`).
#[pyclass(
    name = "Failure",
    module = "dalkon.dakon",
    frozen,
    skip_from_py_object,
    get_all
)]
#[derive(Clone, Debug)]
pub struct PyFailure {
    /// `"missing_line"`, `"illegal_move"` or `"below_guarantee"`.
    kind: &'static str,
    /// The moves from the root to the failing position (a worst game, to
    /// its end, for `below_guarantee`).
    path: Vec<usize>,
    /// The position where a line is missing or illegal.
    position: Option<PyPosition>,
    /// The illegal hole the strategy plays.
    hole: Option<u8>,
    /// The CLI's message (after `the strategy does not hold: `).
    message: String,
}

#[pymethods]
impl PyFailure {
    fn __repr__(&self) -> String {
        format!("Failure(kind='{}', message={:?})", self.kind, self.message)
    }
}

impl PyFailure {
    fn from(f: FailureReport) -> PyFailure {
        PyFailure {
            kind: f.kind,
            path: f.path,
            position: f.at.map(PyPosition),
            hole: f.hole,
            message: f.message,
        }
    }
}

/// What `verify` found: the fields of `dalkon dakon verify --format json`.
#[pyclass(
    name = "Verdict",
    module = "dalkon.dakon",
    frozen,
    skip_from_py_object,
    get_all
)]
#[derive(Clone, Debug)]
pub struct PyVerdict {
    /// The strategy secures what it claims.
    valid: bool,
    /// Whose strategy: 0 South, 1 North.
    player: usize,
    /// What the file claims the player secures.
    guarantees: i32,
    /// The worst final store difference (player minus opponent) over every
    /// game the strategy allows.
    proved: i32,
    /// Distinct unfinished positions checked.
    positions_checked: u64,
    /// Strategy lines in the file.
    lines: u64,
    /// Lines never reached.
    unused_lines: u64,
    /// The rules the file names.
    rules: PyRules,
    /// The position the file proves.
    root: PyPosition,
    /// Wall-clock seconds of the check.
    seconds: f64,
    /// Where it breaks (`None` when valid).
    failure: Option<PyFailure>,
}

#[pymethods]
impl PyVerdict {
    fn __repr__(&self) -> String {
        format!(
            "Verdict(valid={}, player={}, guarantees={}, proved={}, positions_checked={})",
            if self.valid { "True" } else { "False" },
            self.player,
            self.guarantees,
            self.proved,
            self.positions_checked
        )
    }
}

fn verdict_of(r: VerifyReport) -> PyVerdict {
    PyVerdict {
        valid: r.valid,
        player: r.player,
        guarantees: r.guarantees,
        proved: r.proved,
        positions_checked: r.positions_checked,
        lines: r.lines,
        unused_lines: r.unused_lines,
        rules: PyRules(r.strategy.rules),
        root: PyPosition(r.strategy.root),
        seconds: r.seconds,
        failure: r.failure.map(PyFailure::from),
    }
}

/// Check a strategy file (plain or gzip) with the rules alone, as
/// `dalkon dakon verify`. A strategy that does not hold is an answer
/// (`valid` false, `failure` says where); a file that cannot be read or
/// is malformed raises `DataError` with the CLI's message (the CLI's
/// exit 2). Runs without the GIL; Ctrl-C stops the check.
#[pyfunction]
fn verify(py: Python<'_>, path: PathBuf) -> PyResult<PyVerdict> {
    let checked = interrupt::run(py, |stop: &AtomicBool| verify_file(&path, stop))?;
    match checked {
        // `None`: stopped by Ctrl-C, which `interrupt::run` raises.
        Ok(Some(report)) => Ok(verdict_of(report)),
        Ok(None) => Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(())),
        Err(e) => Err(errors::data(e.to_string())),
    }
}

/// A true upper bound on the moves of a game from the start with ``holes``
/// holes a row and ``seeds`` seeds in each (OpenSpiel's ``max_game_length``):
/// the rules' bound, ``T + (T + 1) * T * holes`` with ``T = 2 * holes * seeds``.
#[pyfunction]
fn max_game_length(holes: usize, seeds: u32) -> u64 {
    dalkon_rules::dakon::max_game_length(holes, seeds)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__doc__", "Dakon: rules, exact solver, proofs.")?;
    m.add_function(wrap_pyfunction!(max_game_length, m)?)?;
    m.add_class::<PyRules>()?;
    m.add_class::<PyPosition>()?;
    m.add_class::<PySolveResult>()?;
    m.add_class::<PyLine>()?;
    m.add_class::<PyProof>()?;
    m.add_class::<PyProofFile>()?;
    m.add_class::<PyVerdict>()?;
    m.add_class::<PyFailure>()?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(prove, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    Ok(())
}
