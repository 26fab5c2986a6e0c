//! `dalkon.daldos.best`: keyword arguments to the library's
//! [`BestRequest`] (the request of `dalkon daldos best` and `show --best`),
//! its report to Python objects. Runs without the GIL; Ctrl-C stops it.

use std::path::PathBuf;

use dalkon_daldos::request::best::{
    Analyst, BestReport, BestRequest, PlayRow, StatsReport, DEFAULT_DEPTH, DEFAULT_MAX_NODES,
};
use dalkon_daldos::request::RolloutRequest;
use dalkon_rules::daldos::Throw;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::engine::{table_error, tables_dir};
use super::{throw_arg, Play, Position, Rules};
use crate::{errors, interrupt};

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
    /// With ``rollouts=N``: ``(games, mean, stderr)`` of the play's
    /// rollout, as the CLI's ``rollout``; else None.
    #[pyo3(get)]
    rollout: Option<(u32, f64, f64)>,
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
    counts: StatsReport,
}

#[pymethods]
impl BestResult {
    /// Node counts by kind (``chance_nodes``, ``throw_nodes``, ``leaves``,
    /// ``terminals``, ``ordering_evals``, ``tt_hits``, ``cutoffs``,
    /// ``table_hits``), as the CLI's ``stats``.
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.counts.named() {
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
/// ``$DALKON_DB_DIR``, else ``./dalkon-db`` if it exists, else ``$XDG_DATA_HOME/dalkon``, else
/// ``~/.local/share/dalkon``) are used wherever they cover a
/// position. ``rollouts=N`` (1..=100000) also rolls out every play
/// (``PlayValue.rollout``), as ``dalkon daldos best --rollouts N``, with
/// ``rollout_seed`` (default 1) and ``rollout_depth`` (default 1). Runs without the GIL; Ctrl-C stops it (KeyboardInterrupt).
#[pyfunction]
#[pyo3(
    signature = (pos, dice = None, depth = DEFAULT_DEPTH, rules = None, db_dir = None, max_nodes = Some(DEFAULT_MAX_NODES), fast = false, prune = true, rollouts = None, rollout_seed = None, rollout_depth = None),
    text_signature = "(pos, dice=None, depth=3, rules=None, db_dir=None, max_nodes=30000000, fast=False, prune=True, rollouts=None, rollout_seed=None, rollout_depth=None)"
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
    rollouts: Option<u32>,
    rollout_seed: Option<u64>,
    rollout_depth: Option<u32>,
) -> PyResult<BestResult> {
    let rules = pos.rules_or(rules)?;
    let throw = dice.map(dice_arg).transpose()?;
    let request =
        BestRequest::new(throw, depth, max_nodes, fast, prune, None).map_err(errors::input)?;
    let request = request.with_rollouts(
        rollouts
            .map(|n| RolloutRequest::new(n, rollout_seed, rollout_depth))
            .transpose()
            .map_err(errors::input)?,
    );
    let dir = tables_dir(db_dir)?;
    let analyst = Analyst::load(&dir, rules.board, rules.variants)
        .map_err(|e| table_error(e, &format!("reading the tables in {}: ", dir.display())))?;
    let r = interrupt::run(py, |stop| {
        request
            .run(&analyst, &pos.pos, &(), Some(stop))
            .map_err(errors::input)
    })??;
    Ok(best_result(pos, rules, r))
}

/// The Python objects of a report.
fn best_result(pos: &Position, rules: Rules, r: BestReport) -> BestResult {
    let plays = |rows: &[PlayRow], throw: Throw| -> Vec<PlayValue> {
        rows.iter()
            .map(|p| PlayValue {
                play: Play::wrap(&pos.pos, rules, throw, p.step.clone(), p.result),
                value: p.value,
                exact: p.exact,
                upper_bound: p.upper_bound,
                rollout: p.rollout.map(|r| (r.games, r.mean, r.stderr)),
            })
            .collect()
    };
    let (best, plays_of_throw) = match r.throw {
        Some(t) => {
            let p = plays(&r.plays, t);
            (p.first().map(|p| p.play.clone()), p)
        }
        None => (None, Vec::new()),
    };
    let throws = r.throws.as_ref().map(|_| {
        r.distinct
            .iter()
            .map(|(row, weight)| {
                let p = plays(&row.plays, row.throw);
                ThrowBest {
                    dice: (row.throw.first, row.throw.second),
                    weight: *weight,
                    value: row.value,
                    exact: row.exact,
                    best: p[0].play.clone(),
                    plays: p,
                }
            })
            .collect()
    });
    BestResult {
        value: r.value,
        exact: r.exact,
        best,
        plays: plays_of_throw,
        throws,
        depth: r.depth,
        depth_asked: r.depth_asked,
        complete: r.complete,
        nodes: r.nodes,
        nodes_total: r.nodes_total,
        prune: r.prune,
        tables: r.tables,
        counts: r.stats,
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PlayValue>()?;
    m.add_class::<ThrowBest>()?;
    m.add_class::<BestResult>()?;
    m.add_function(wrap_pyfunction!(best, m)?)?;
    Ok(())
}
