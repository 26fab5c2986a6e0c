//! `dalkon.daldos.value`: keyword arguments to the library's
//! [`ValueRequest`] (the request of `dalkon daldos value`), its report to
//! Python objects.

use std::path::PathBuf;

use dalkon_daldos::request::{load_tables, ValueRequest};
use pyo3::prelude::*;

use super::engine::{table_error, tables_dir};
use super::{Play, Position, Rules};
use crate::interrupt;

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
/// ``$DALKON_DB_DIR``, else ``./dalkon-db`` if it exists, else ``$XDG_DATA_HOME/dalkon``, else
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
    let request = ValueRequest {
        pos: p,
        variants: rules.variants,
    };
    let r = interrupt::run(py, |_| {
        let t = load_tables(&dir, rules.board, rules.variants).map_err(|e| table_error(e, ""))?;
        request.run(&t).map_err(|e| table_error(e, ""))
    })??;
    Ok(ValueResult {
        value: r.value,
        lower: r.lower,
        upper: r.upper,
        exact: r.exact,
        throws: r
            .throws
            .into_iter()
            .map(|tv| {
                let plays: Vec<PlayBounds> = tv
                    .plays
                    .into_iter()
                    .map(|pv| PlayBounds {
                        play: Play::wrap(&p, rules, tv.throw, pv.step, pv.after),
                        value: pv.value,
                        lower: pv.lower,
                        upper: pv.upper,
                        exact: pv.exact,
                    })
                    .collect();
                ThrowValue {
                    dice: (tv.dice[0], tv.dice[1]),
                    weight: tv.weight,
                    best: plays[0].play.clone(),
                    plays,
                }
            })
            .collect(),
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PlayBounds>()?;
    m.add_class::<ThrowValue>()?;
    m.add_class::<ValueResult>()?;
    m.add_function(wrap_pyfunction!(value, m)?)?;
    Ok(())
}
