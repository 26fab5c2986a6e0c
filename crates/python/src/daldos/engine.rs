//! The engines of `dalkon.daldos`: capture odds (`odds`), the
//! expectiminimax search (`best`), the solved tables (`value`,
//! `solve_tables`) and seeded matches (`match`), each as the CLI command
//! of the same name computes it (docs/cli.md). Long calls run without the
//! GIL (`interrupt::run`); `best` and `match` read the stop flag that
//! Ctrl-C raises.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use dalkon_daldos::capture::{capture_odds_with, OddsLimits, EXACT_DALDALS};
use dalkon_daldos::engine::{
    deepen, play_match_with_stop, Analysis, Daldos, DeepenOptions, MatchConfig, PlayerSpec,
    RootMode, SearchError, Stats, ThrowAnalysis,
};
use dalkon_daldos::ratio::{fraction_string, to_f64};
use dalkon_daldos::solved::{plan, value_report, NoProgress, TableError, Tables, EPS};
use dalkon_rules::daldos::{Position as Pos, Throw};
use pyo3::create_exception;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::{throw_arg, Play, Position, Rules};
use crate::{errors, interrupt};

create_exception!(
    dalkon,
    NotCoveredError,
    errors::InputError,
    "A position the solved tables do not cover; the message names the layer and the command that builds it."
);

/// The CLI's default `--max-nodes` of `daldos best`.
const DEFAULT_MAX_NODES: u64 = 30_000_000;

/// An error and its causes on one line, as the CLI prints them.
fn one_line(e: &dyn std::error::Error) -> String {
    let mut line = e.to_string().replace('\n', " ");
    let mut cause = e.source();
    while let Some(c) = cause {
        let text = c.to_string().replace('\n', " ");
        if !line.contains(&text) {
            line.push_str(": ");
            line.push_str(&text);
        }
        cause = c.source();
    }
    line
}

/// A table error as its exception (files and memory: DataError, as the
/// CLI's exit code 1; a position not covered: NotCoveredError; the rest
/// bad input), `prefix` put before its message.
fn table_error(e: TableError, prefix: &str) -> PyErr {
    let message = format!("{prefix}{}", one_line(&e));
    match e {
        TableError::OutOfMemory { .. } | TableError::Io { .. } | TableError::BadFile { .. } => {
            errors::data(message)
        }
        TableError::NotCovered { .. } => NotCoveredError::new_err(message),
        _ => errors::InputError::new_err(message),
    }
}

/// The tables folder ([`dalkon_store::data_dir`], as the CLI's
/// `--db-dir`): `db_dir`, else `$DALKON_DB_DIR`, else
/// `$XDG_DATA_HOME/dalkon`, else `~/.local/share/dalkon`.
fn tables_dir(arg: Option<PathBuf>) -> PyResult<PathBuf> {
    dalkon_store::data_dir(arg).map_err(|e| errors::InputError::new_err(e.to_string()))
}

/// Every layer of `rules` whose file is in `dir`, and how many there are.
fn load_tables(dir: &Path, rules: Rules) -> PyResult<(Arc<Tables>, usize)> {
    let mut t = Tables::new(rules.board, rules.variants, Some(dir));
    let n = t
        .load_all()
        .map_err(|e| table_error(e, &format!("reading the tables in {}: ", dir.display())))?;
    Ok((Arc::new(t), n))
}

/// A `fractions.Fraction` from `7/16` (or `0`, `1`).
fn fraction<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("fractions")?.getattr("Fraction")?.call1((text,))
}

/// The message of a finished game given to an engine.
fn game_over(pos: &Pos, rules: Rules) -> Option<PyErr> {
    pos.winner(&rules.variants).map(|w| {
        errors::InputError::new_err(format!(
            "the game is already over in this position ({} has won under end={})",
            w.letter(),
            rules.variants.end
        ))
    })
}

// ---------------------------------------------------------------- odds

/// One enemy piece and the chance that the side to throw captures it
/// this turn (extra throws after dal-dal included).
///
/// ``probability`` is a ``fractions.Fraction``: the exact probability when
/// ``exact``; otherwise (a chain of dal-dals was cut) a lower bound, the
/// true value lying in ``[probability, probability + bound]``.
#[pyclass(module = "dalkon.daldos", frozen, skip_from_py_object)]
#[derive(Debug, Clone)]
pub struct OddsTarget {
    /// The hole of the enemy piece, e.g. ``"M8"``.
    #[pyo3(get)]
    hole: String,
    probability: String,
    bound: String,
    /// ``probability`` as a float.
    #[pyo3(get)]
    probability_float: f64,
    /// Nothing was cut: ``probability`` is exact (``bound`` is 0).
    #[pyo3(get)]
    exact: bool,
    /// Settled by the relaxed-model certificate.
    #[pyo3(get)]
    certified: bool,
}

#[pymethods]
impl OddsTarget {
    /// The probability (exact, or a lower bound within ``bound``), a Fraction.
    #[getter]
    fn probability<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        fraction(py, &self.probability)
    }

    /// How much the true probability may exceed ``probability`` (a Fraction).
    #[getter]
    fn bound<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        fraction(py, &self.bound)
    }

    fn __repr__(&self) -> String {
        format!(
            "OddsTarget(hole={:?}, probability=Fraction({:?}), exact={})",
            self.hole,
            self.probability,
            if self.exact { "True" } else { "False" }
        )
    }
}

/// What ``dalkon daldos odds`` computes: for every enemy piece the chance
/// that the side to throw captures it this turn, and of capturing at least
/// one (``any``). Probabilities are ``fractions.Fraction``; where ``exact``
/// is False they are lower bounds within ``bound``.
#[pyclass(module = "dalkon.daldos", frozen, skip_from_py_object)]
#[derive(Debug, Clone)]
pub struct Odds {
    /// The side to throw, which captures: 0 = A, 1 = B.
    #[pyo3(get)]
    side: usize,
    /// Every enemy piece (or the one asked), in hole order.
    #[pyo3(get)]
    targets: Vec<OddsTarget>,
    any: String,
    any_bound: String,
    /// ``any`` as a float.
    #[pyo3(get)]
    any_float: f64,
    /// Every probability (targets and ``any``) is exact.
    #[pyo3(get)]
    exact: bool,
    bound: String,
    /// Dal-dal rethrows the certificates follow.
    #[pyo3(get)]
    daldals_max: u32,
    /// Dal-dal rethrows the full search reached.
    #[pyo3(get)]
    daldals: u32,
    /// Targets the certificates settled.
    #[pyo3(get)]
    certified: usize,
    /// Positions evaluated.
    #[pyo3(get)]
    nodes: usize,
}

#[pymethods]
impl Odds {
    /// Chance of capturing at least one enemy piece (a Fraction; a lower
    /// bound within ``any_bound`` unless exact).
    #[getter]
    fn any<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        fraction(py, &self.any)
    }

    /// How much the true ``any`` may exceed it (a Fraction, 0 when exact).
    #[getter]
    fn any_bound<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        fraction(py, &self.any_bound)
    }

    /// The largest bound of all (a Fraction, 0 when everything is exact).
    #[getter]
    fn bound<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        fraction(py, &self.bound)
    }

    fn __repr__(&self) -> String {
        format!(
            "Odds(side={}, targets={}, any=Fraction({:?}), exact={})",
            self.side,
            self.targets.len(),
            self.any,
            if self.exact { "True" } else { "False" }
        )
    }
}

/// The capture odds of ``pos`` for its side to throw, as ``dalkon daldos
/// odds`` computes them (dal-dal rethrows followed to 9, every value within
/// 1e-12, ``max_nodes`` positions for the full search). ``target`` (a hole
/// name such as ``"M5"``) keeps only the enemy piece there.
#[pyfunction]
#[pyo3(signature = (pos, rules = None, target = None, max_nodes = 50_000))]
fn odds(
    py: Python<'_>,
    pos: &Position,
    rules: Option<Rules>,
    target: Option<&str>,
    max_nodes: usize,
) -> PyResult<Odds> {
    let rules = pos.rules_or(rules)?;
    let p = pos.pos;
    let board = p.board();
    let hole = match target {
        None => None,
        Some(text) => {
            let h = board
                .parse_hole(text)
                .map_err(|e| errors::InputError::new_err(format!("target {text:?}: {e}")))?;
            let enemy = p.side_to_move().other();
            if !p.pieces(enemy).any(|x| x == h) {
                let holes: Vec<String> = p.pieces(enemy).map(|h| board.hole_name(h)).collect();
                let on = if holes.is_empty() {
                    "it has none".to_owned()
                } else {
                    format!("its pieces are on {}", holes.join(" "))
                };
                return Err(errors::InputError::new_err(format!(
                    "target {}: no piece of {} (the side not to move) there; {on}",
                    board.hole_name(h),
                    enemy.letter()
                )));
            }
            Some(h)
        }
    };
    let limits = OddsLimits {
        max_daldals: EXACT_DALDALS,
        max_nodes,
        certify: true,
    };
    let o = interrupt::run(py, |_| capture_odds_with(&p, &rules.variants, limits))?;
    Ok(Odds {
        side: o.side.index(),
        targets: o
            .targets
            .iter()
            .filter(|t| hole.iter().all(|&h| h == t.hole))
            .map(|t| OddsTarget {
                hole: board.hole_name(t.hole),
                probability: fraction_string(&t.probability),
                bound: fraction_string(&t.bound),
                probability_float: to_f64(&t.probability),
                exact: t.exact,
                certified: t.certified,
            })
            .collect(),
        any: fraction_string(&o.any),
        any_bound: fraction_string(&o.any_bound),
        any_float: to_f64(&o.any),
        exact: o.exact,
        bound: fraction_string(&o.bound),
        daldals_max: EXACT_DALDALS,
        daldals: o.daldals,
        certified: o.certified,
        nodes: o.nodes,
    })
}

// ---------------------------------------------------------------- best

/// A play and its value by the search: the mover's win probability after
/// it (``exact`` when every line the search needed ended in a finished
/// game or the solved tables; else an estimate; ``upper_bound`` when
/// ``fast`` only bounded it).
#[pyclass(module = "dalkon.daldos", frozen, skip_from_py_object)]
#[derive(Debug, Clone)]
pub struct PlayValue {
    /// The play.
    #[pyo3(get)]
    play: Play,
    /// The mover's win probability after it (or an upper bound on it).
    #[pyo3(get)]
    value: f64,
    /// ``value`` is the game's value, not an estimate.
    #[pyo3(get)]
    exact: bool,
    /// ``value`` is only an upper bound (``fast=True``).
    #[pyo3(get)]
    upper_bound: bool,
}

#[pymethods]
impl PlayValue {
    fn __repr__(&self) -> String {
        format!(
            "PlayValue({:?}, value={}, exact={})",
            self.play.__str__(),
            self.value,
            if self.exact { "True" } else { "False" }
        )
    }
}

/// One throw of ``best`` without dice: its value and plays, best first.
#[pyclass(module = "dalkon.daldos", frozen, skip_from_py_object)]
#[derive(Debug, Clone)]
pub struct ThrowBest {
    /// The throw, larger die first.
    #[pyo3(get)]
    dice: (u8, u8),
    /// Its weight out of 16.
    #[pyo3(get)]
    weight: u32,
    /// The mover's win probability with its best play.
    #[pyo3(get)]
    value: f64,
    /// ``value`` is the game's value.
    #[pyo3(get)]
    exact: bool,
    /// The best play.
    #[pyo3(get)]
    best: Play,
    /// Every play, best first.
    #[pyo3(get)]
    plays: Vec<PlayValue>,
}

#[pymethods]
impl ThrowBest {
    fn __repr__(&self) -> String {
        format!(
            "ThrowBest(dice={:?}, value={}, best={:?})",
            self.dice,
            self.value,
            self.best.__str__()
        )
    }
}

/// What ``dalkon daldos best --format json`` answers: the value (the side
/// to throw's win probability) and, with dice, the best play and every play
/// ranked; without dice the expected value before the throw and each
/// distinct throw's analysis (``throws``).
#[pyclass(module = "dalkon.daldos", frozen, skip_from_py_object)]
#[derive(Debug, Clone)]
pub struct BestResult {
    /// The side to throw's win probability (with the dice: after its best
    /// play; without: expected over the throws).
    #[pyo3(get)]
    value: f64,
    /// ``value`` is the game's value (every line ended), not an estimate.
    #[pyo3(get)]
    exact: bool,
    /// The best play of the dice asked (None without dice).
    #[pyo3(get)]
    best: Option<Play>,
    /// Every play of the dice asked, best first (empty without dice).
    #[pyo3(get)]
    plays: Vec<PlayValue>,
    /// Without dice: the 10 distinct throws (as ``throws()``), else None.
    #[pyo3(get)]
    throws: Option<Vec<ThrowBest>>,
    /// The depth of the answer (below ``depth_asked`` when the node limit
    /// stopped a deeper one).
    #[pyo3(get)]
    depth: u32,
    /// The depth asked.
    #[pyo3(get)]
    depth_asked: u32,
    /// ``depth == depth_asked``.
    #[pyo3(get)]
    complete: bool,
    /// Nodes of the search at ``depth``.
    #[pyo3(get)]
    nodes: u64,
    /// Nodes of every depth searched.
    #[pyo3(get)]
    nodes_total: u64,
    /// Whether pruning was on.
    #[pyo3(get)]
    prune: bool,
    /// Layers of solved tables the search used (0: none).
    #[pyo3(get)]
    tables: usize,
    counts: Stats,
}

#[pymethods]
impl BestResult {
    /// Node counts by kind (``chance_nodes``, ``throw_nodes``, ``leaves``,
    /// ``terminals``, ``ordering_evals``, ``tt_hits``, ``cutoffs``,
    /// ``table_hits``), as the CLI's ``stats``.
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.counts;
        let d = PyDict::new(py);
        for (k, v) in [
            ("chance_nodes", s.chance_nodes),
            ("throw_nodes", s.throw_nodes),
            ("leaves", s.leaves),
            ("terminals", s.terminals),
            ("ordering_evals", s.ordering_evals),
            ("tt_hits", s.tt_hits),
            ("cutoffs", s.cutoffs),
            ("table_hits", s.table_hits),
        ] {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "BestResult(value={}, exact={}, best={}, depth={}, nodes={})",
            self.value,
            if self.exact { "True" } else { "False" },
            self.best
                .as_ref()
                .map_or("None".to_owned(), |p| format!("{:?}", p.__str__())),
            self.depth,
            self.nodes
        )
    }
}

/// What one `best` call asks.
struct Query {
    throw: Option<Throw>,
    depth: u32,
    max_nodes: Option<u64>,
    prune: bool,
    mode: RootMode,
}

fn play_values(pos: &Position, rules: Rules, a: &ThrowAnalysis<Daldos>) -> Vec<PlayValue> {
    a.plays
        .iter()
        .map(|p| PlayValue {
            play: Play::wrap(&pos.pos, rules, a.throw, p.play.clone(), p.result),
            value: p.value,
            exact: p.exact,
            upper_bound: p.bound,
        })
        .collect()
}

/// The answer: depths 1, 2, … within the node budget, the deepest that
/// finished (`engine::deepen`, as `dalkon daldos best`); without a budget
/// the depth asked.
fn answer(
    q: &Query,
    game: &Daldos,
    pos: &Position,
    rules: Rules,
    tables: usize,
    stop: &AtomicBool,
) -> PyResult<BestResult> {
    let opts = DeepenOptions {
        depth: q.depth,
        max_nodes: q.max_nodes,
        prune: q.prune,
        mode: q.mode,
    };
    let d = deepen(game, &pos.pos, q.throw, opts, &(), Some(stop)).map_err(errors::input)?;
    let stats = d.analysis.stats();
    let base = |value, exact| BestResult {
        value,
        exact,
        best: None,
        plays: Vec::new(),
        throws: None,
        depth: d.depth,
        depth_asked: q.depth,
        complete: d.complete,
        nodes: stats.nodes(),
        nodes_total: d.nodes_total,
        prune: q.prune,
        tables,
        counts: stats,
    };
    Ok(match &d.analysis {
        Analysis::Throw(a) => {
            let plays = play_values(pos, rules, a);
            // The throw as given (the analysis keeps it as given too).
            BestResult {
                best: Some(plays[0].play.clone()),
                plays,
                ..base(a.value, a.exact)
            }
        }
        Analysis::Position(a) => {
            let throws = a
                .throws
                .iter()
                .map(|(ta, w)| {
                    let plays = play_values(pos, rules, ta);
                    ThrowBest {
                        dice: (ta.throw.first, ta.throw.second),
                        weight: *w,
                        value: ta.value,
                        exact: ta.exact,
                        best: plays[0].play.clone(),
                        plays,
                    }
                })
                .collect();
            BestResult {
                throws: Some(throws),
                ..base(a.value, a.exact)
            }
        }
    })
}

/// Dice given as a pair of faces, ``(3, 1)`` or ``[3, 1]``, or as the CLI's
/// ``"3,1"``.
fn dice_arg(dice: &Bound<'_, PyAny>) -> PyResult<Throw> {
    if let Ok(text) = dice.extract::<String>() {
        return text.parse().map_err(errors::input);
    }
    match dice.extract::<Vec<i64>>()?.as_slice() {
        &[a, b] => throw_arg(a, b),
        other => Err(errors::InputError::new_err(format!(
            "dice {other:?}: expected two faces, e.g. (3, 1)"
        ))),
    }
}

/// The best play of the throw ``dice`` (``(3, 1)`` or ``"3,1"``), or without
/// dice the value before the throw and each throw's best play, by
/// expectiminimax to ``depth`` throws (1..=8), as ``dalkon daldos best``.
///
/// Values are the side to throw's win probability. ``max_nodes`` (default
/// the CLI's 30 000 000; None for no limit) bounds the whole answer: depths
/// 1, 2, … are searched and the deepest that finished is returned
/// (``complete`` False if short of ``depth``). ``fast`` values only the
/// best play exactly (the others get upper bounds); ``prune=False`` turns
/// pruning off. Solved tables found in ``db_dir`` (default
/// ``$DALKON_DB_DIR``, else ``$XDG_DATA_HOME/dalkon``, else
/// ``~/.local/share/dalkon``) are used wherever they cover a
/// position. Runs without the GIL; Ctrl-C stops it (KeyboardInterrupt).
#[pyfunction]
#[pyo3(
    signature = (pos, dice = None, depth = 2, rules = None, db_dir = None, max_nodes = Some(DEFAULT_MAX_NODES), fast = false, prune = true),
    text_signature = "(pos, dice=None, depth=2, rules=None, db_dir=None, max_nodes=30000000, fast=False, prune=True)"
)]
#[allow(clippy::too_many_arguments)] // the Python signature, all keywords but `pos`
fn best(
    py: Python<'_>,
    pos: &Position,
    dice: Option<&Bound<'_, PyAny>>,
    depth: u32,
    rules: Option<Rules>,
    db_dir: Option<PathBuf>,
    max_nodes: Option<u64>,
    fast: bool,
    prune: bool,
) -> PyResult<BestResult> {
    let rules = pos.rules_or(rules)?;
    if depth == 0 || depth > dalkon_daldos::engine::MAX_DEPTH {
        return Err(errors::input(SearchError::Depth(depth)));
    }
    let throw = dice.map(dice_arg).transpose()?;
    if let Some(e) = game_over(&pos.pos, rules) {
        return Err(e);
    }
    let dir = tables_dir(db_dir)?;
    let (tables, layers) = load_tables(&dir, rules)?;
    let game = if layers == 0 {
        Daldos::new(rules.variants)
    } else {
        Daldos::with_tables(tables)
    };
    let q = Query {
        throw,
        depth,
        max_nodes: max_nodes.filter(|&m| m > 0),
        prune,
        mode: if fast {
            RootMode::BestOnly
        } else {
            RootMode::AllExact
        },
    };
    interrupt::run(py, |stop| answer(&q, &game, pos, rules, layers, stop))?
}

// ---------------------------------------------------------------- value

/// A play valued by the solved tables: bounds on the mover's chance to win
/// after it (whoever throws next), ``value`` their midpoint.
#[pyclass(module = "dalkon.daldos", frozen, skip_from_py_object)]
#[derive(Debug, Clone)]
pub struct PlayBounds {
    /// The play.
    #[pyo3(get)]
    play: Play,
    /// The midpoint of the bounds.
    #[pyo3(get)]
    value: f64,
    /// Lower bound.
    #[pyo3(get)]
    lower: f64,
    /// Upper bound.
    #[pyo3(get)]
    upper: f64,
    /// The bounds are within 1e-12.
    #[pyo3(get)]
    exact: bool,
}

#[pymethods]
impl PlayBounds {
    fn __repr__(&self) -> String {
        format!(
            "PlayBounds({:?}, value={})",
            self.play.__str__(),
            self.value
        )
    }
}

/// One throw of ``value``: its weight, best play and every play ranked.
#[pyclass(module = "dalkon.daldos", frozen, skip_from_py_object)]
#[derive(Debug, Clone)]
pub struct ThrowValue {
    /// The throw, larger die first.
    #[pyo3(get)]
    dice: (u8, u8),
    /// Its weight out of 16.
    #[pyo3(get)]
    weight: u32,
    /// The best play.
    #[pyo3(get)]
    best: Play,
    /// Every play, best first (the generator's order among equals).
    #[pyo3(get)]
    plays: Vec<PlayBounds>,
}

#[pymethods]
impl ThrowValue {
    fn __repr__(&self) -> String {
        format!(
            "ThrowValue(dice={:?}, best={:?}, value={})",
            self.dice,
            self.best.__str__(),
            self.plays[0].value
        )
    }
}

/// What ``dalkon daldos value --format json`` answers: the exact value W of
/// the position (the side to throw's chance to win under perfect play) from
/// the solved tables, with its bounds, and every play of each throw ranked.
#[pyclass(module = "dalkon.daldos", frozen, skip_from_py_object)]
#[derive(Debug, Clone)]
pub struct ValueResult {
    /// W, the midpoint of the bounds.
    #[pyo3(get)]
    value: f64,
    /// Lower bound on W.
    #[pyo3(get)]
    lower: f64,
    /// Upper bound on W.
    #[pyo3(get)]
    upper: f64,
    /// The bounds are within 1e-12.
    #[pyo3(get)]
    exact: bool,
    /// The 10 distinct throws (empty for a finished game).
    #[pyo3(get)]
    throws: Vec<ThrowValue>,
}

#[pymethods]
impl ValueResult {
    fn __repr__(&self) -> String {
        format!(
            "ValueResult(value={}, exact={})",
            self.value,
            if self.exact { "True" } else { "False" }
        )
    }
}

/// The exact value of ``pos`` from the solved tables in ``db_dir`` (default
/// ``$DALKON_DB_DIR``, else ``$XDG_DATA_HOME/dalkon``, else
/// ``~/.local/share/dalkon``), as ``dalkon daldos value``.
/// Raises NotCoveredError (an InputError) with the CLI's message, naming the
/// layer and the ``dalkon daldos solve`` command, when the tables do not
/// cover it or one of its plays; DataError for a damaged table file.
#[pyfunction]
#[pyo3(signature = (pos, rules = None, db_dir = None))]
fn value(
    py: Python<'_>,
    pos: &Position,
    rules: Option<Rules>,
    db_dir: Option<PathBuf>,
) -> PyResult<ValueResult> {
    let rules = pos.rules_or(rules)?;
    let dir = tables_dir(db_dir)?;
    let p = pos.pos;
    interrupt::run(py, |_| {
        let mut t = Tables::new(rules.board, rules.variants, Some(&dir));
        t.load_all().map_err(|e| table_error(e, ""))?;
        if p.is_over(&rules.variants) {
            let b = t.bounds(&p).expect("a finished game has a value");
            return Ok(ValueResult {
                value: b.value(),
                lower: b.lo,
                upper: b.hi,
                exact: b.gap() <= EPS,
                throws: Vec::new(),
            });
        }
        let r = value_report(&t, &p).map_err(|e| table_error(e, ""))?;
        Ok(ValueResult {
            value: r.bounds.value(),
            lower: r.bounds.lo,
            upper: r.bounds.hi,
            exact: r.bounds.gap() <= EPS,
            throws: r
                .throws
                .into_iter()
                .map(|tv| {
                    let plays: Vec<PlayBounds> = tv
                        .plays
                        .into_iter()
                        .map(|pv| PlayBounds {
                            play: Play::wrap(&p, rules, tv.throw, pv.play, pv.result),
                            value: pv.bounds.value(),
                            lower: pv.bounds.lo,
                            upper: pv.bounds.hi,
                            exact: pv.bounds.gap() <= EPS,
                        })
                        .collect();
                    ThrowValue {
                        dice: (tv.throw.first, tv.throw.second),
                        weight: tv.weight,
                        best: plays[0].play.clone(),
                        plays,
                    }
                })
                .collect(),
        })
    })?
}

/// One layer built or loaded by ``solve_tables``.
#[pyclass(module = "dalkon.daldos", frozen, skip_from_py_object)]
#[derive(Debug, Clone)]
pub struct LayerReport {
    /// Pieces of the side to throw.
    #[pyo3(get)]
    a: u8,
    /// Pieces of the other side.
    #[pyo3(get)]
    b: u8,
    /// Positions in the layer.
    #[pyo3(get)]
    positions: u64,
    /// The largest gap between the bounds left.
    #[pyo3(get)]
    gap: f64,
    /// Mean of the values.
    #[pyo3(get)]
    mean_w: f64,
    /// Read from its file rather than built.
    #[pyo3(get)]
    loaded: bool,
    /// Seconds its pair took.
    #[pyo3(get)]
    seconds: f64,
}

#[pymethods]
impl LayerReport {
    fn __repr__(&self) -> String {
        format!(
            "LayerReport({} v {}, positions={}, loaded={})",
            self.a,
            self.b,
            self.positions,
            if self.loaded { "True" } else { "False" }
        )
    }
}

/// Build (or load) the solved tables of ``rules`` up to ``pieces = (a, b)``
/// pieces a side in ``db_dir``, as ``dalkon daldos solve --pieces a,b``;
/// returns one report per layer in build order. Runs without the GIL;
/// Ctrl-C stops it between components (the layers finished before are
/// kept, and a new call resumes from them).
#[pyfunction]
#[pyo3(signature = (rules, pieces, db_dir = None))]
fn solve_tables(
    py: Python<'_>,
    rules: Option<Rules>,
    pieces: (u8, u8),
    db_dir: Option<PathBuf>,
) -> PyResult<Vec<LayerReport>> {
    let rules = rules.unwrap_or_default();
    let dir = tables_dir(db_dir)?;
    interrupt::run(py, |stop| {
        let p = plan(rules.board, &rules.variants, pieces).map_err(|e| table_error(e, ""))?;
        let mut t = Tables::new(rules.board, rules.variants, Some(&dir));
        let reports = t
            .build_until(&p, EPS, &mut NoProgress, stop)
            .map_err(|e| table_error(e, ""))?;
        Ok(reports
            .iter()
            .map(|r| LayerReport {
                a: r.stats.key.a,
                b: r.stats.key.b,
                positions: r.stats.positions,
                gap: r.stats.gap,
                mean_w: r.stats.mean_w,
                loaded: r.loaded,
                seconds: r.seconds,
            })
            .collect())
    })?
}

// ---------------------------------------------------------------- match

/// What ``dalkon daldos match --format json`` answers.
#[pyclass(
    name = "MatchResult",
    module = "dalkon.daldos",
    frozen,
    skip_from_py_object
)]
#[derive(Debug, Clone)]
pub struct MatchOutcome {
    /// Games played.
    #[pyo3(get)]
    games: u32,
    /// Games won by ``a``.
    #[pyo3(get)]
    a_wins: u32,
    /// Games won by ``b``.
    #[pyo3(get)]
    b_wins: u32,
    /// Games stopped at the turn cap (won by neither).
    #[pyo3(get)]
    capped: u32,
    /// ``a_wins / games``.
    #[pyo3(get)]
    a_win_rate: f64,
    /// Wilson 95% interval of ``a``'s win rate.
    #[pyo3(get)]
    ci95: (f64, f64),
    /// Games won by the side that started.
    #[pyo3(get)]
    first_player_wins: u32,
    /// ``first_player_wins / games``.
    #[pyo3(get)]
    first_player_win_rate: f64,
    /// Mean throws per game.
    #[pyo3(get)]
    mean_turns: f64,
    /// Player a, e.g. ``"engine:2"``.
    #[pyo3(get)]
    a: String,
    /// Player b.
    #[pyo3(get)]
    b: String,
    /// The seed.
    #[pyo3(get)]
    seed: u64,
    /// The board's name.
    #[pyo3(get)]
    board: String,
    /// The rule options, ``"dal=any capture=final end=last"``.
    #[pyo3(get)]
    rules: String,
    /// Throws after which a game is stopped.
    #[pyo3(get)]
    turn_cap: u32,
    /// Wall time (the only field that changes between runs).
    #[pyo3(get)]
    seconds: f64,
    /// Every game in index order: ``(winner, a_first, throws)`` with winner
    /// 0 for ``a``, 1 for ``b``, None if capped.
    #[pyo3(get)]
    records: Vec<(Option<u8>, bool, u32)>,
}

#[pymethods]
impl MatchOutcome {
    fn __repr__(&self) -> String {
        format!(
            "MatchResult(a={:?}, b={:?}, games={}, a_wins={}, b_wins={}, seed={})",
            self.a, self.b, self.games, self.a_wins, self.b_wins, self.seed
        )
    }
}

/// A seeded, replayable match of ``games`` games between players ``a`` and
/// ``b`` (``"random"``, ``"greedy"``, ``"engine:N"``, ``"perfect"``) from the
/// start position of ``rules``' board, as ``dalkon daldos match``: game i
/// depends on ``(seed, i)`` alone, ``a`` starts the even games. ``perfect``
/// plays from the solved tables in ``db_dir`` and is refused unless they
/// cover the whole game. Runs without the GIL; Ctrl-C stops it.
#[pyfunction(name = "match")]
#[pyo3(signature = (a, b, games = 1000, seed = 1, rules = None, db_dir = None, turn_cap = 5000))]
#[allow(clippy::too_many_arguments)] // the Python signature
fn match_(
    py: Python<'_>,
    a: &str,
    b: &str,
    games: u32,
    seed: u64,
    rules: Option<Rules>,
    db_dir: Option<PathBuf>,
    turn_cap: u32,
) -> PyResult<MatchOutcome> {
    let spec = |name: &str, text: &str| -> PyResult<PlayerSpec> {
        text.parse::<PlayerSpec>()
            .map_err(|e| errors::InputError::new_err(format!("{name}: {e}")))
    };
    let (sa, sb) = (spec("a", a)?, spec("b", b)?);
    if games == 0 {
        return Err(errors::InputError::new_err("games must be at least 1"));
    }
    if turn_cap == 0 {
        return Err(errors::InputError::new_err("turn_cap must be at least 1"));
    }
    let rules = rules.unwrap_or_default();
    let game = Daldos::new(rules.variants);
    let start = Pos::start(rules.board);
    let tables = if sa.needs_tables() || sb.needs_tables() {
        Some(load_tables(&tables_dir(db_dir)?, rules)?.0)
    } else {
        None
    };
    let build = |name: &str, s: PlayerSpec| {
        s.build(&game, &start, tables.as_ref())
            .map_err(|e| errors::InputError::new_err(format!("{name}: {}", one_line(&e))))
    };
    let (pa, pb) = (build("a", sa)?, build("b", sb)?);
    let cfg = MatchConfig {
        games,
        seed,
        turn_cap,
    };
    let started = Instant::now();
    let r = interrupt::run(py, |stop| {
        play_match_with_stop(&game, &start, pa.as_ref(), pb.as_ref(), cfg, &|| {}, stop)
    })?;
    let Some(r) = r else {
        // Only a raised stop flag ends a match early, and then
        // `interrupt::run` raised KeyboardInterrupt above.
        return Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(
            "the match was interrupted",
        ));
    };
    Ok(MatchOutcome {
        games: r.games,
        a_wins: r.a_wins,
        b_wins: r.b_wins,
        capped: r.capped,
        a_win_rate: r.a_win_rate,
        ci95: r.ci95,
        first_player_wins: r.first_player_wins,
        first_player_win_rate: r.first_player_win_rate,
        mean_turns: r.mean_turns,
        a: sa.to_string(),
        b: sb.to_string(),
        seed,
        board: rules.board.name(),
        rules: rules.variants.to_string(),
        turn_cap,
        seconds: started.elapsed().as_secs_f64(),
        records: r
            .records
            .iter()
            .map(|g| (g.winner, g.a_first, g.turns))
            .collect(),
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("NotCoveredError", py.get_type::<NotCoveredError>())?;
    m.add_class::<OddsTarget>()?;
    m.add_class::<Odds>()?;
    m.add_class::<PlayValue>()?;
    m.add_class::<ThrowBest>()?;
    m.add_class::<BestResult>()?;
    m.add_class::<PlayBounds>()?;
    m.add_class::<ThrowValue>()?;
    m.add_class::<ValueResult>()?;
    m.add_class::<LayerReport>()?;
    m.add_class::<MatchOutcome>()?;
    m.add_function(wrap_pyfunction!(odds, m)?)?;
    m.add_function(wrap_pyfunction!(best, m)?)?;
    m.add_function(wrap_pyfunction!(value, m)?)?;
    m.add_function(wrap_pyfunction!(solve_tables, m)?)?;
    m.add_function(wrap_pyfunction!(match_, m)?)?;
    Ok(())
}
