//! `dalkon.daldos.solve_tables`: keyword arguments to the library's
//! [`SolveRequest`] (the request of `dalkon daldos solve`), its layers to
//! Python objects. Runs without the GIL; Ctrl-C stops it between
//! components.

use std::path::PathBuf;

use dalkon_daldos::request::solve::{SolveError, SolveRequest};
use dalkon_daldos::solved::NoProgress;
use pyo3::prelude::*;

use super::engine::{table_error, tables_dir};
use super::Rules;
use crate::{errors, interrupt};

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
    let request = SolveRequest {
        board: rules.board,
        variants: rules.variants,
        pieces,
        dir: tables_dir(db_dir)?,
        check: false,
    };
    let r = interrupt::run(py, |stop| {
        request
            .run(&mut NoProgress, Some(stop))
            .map_err(|e| match e {
                SolveError::Table(e) => table_error(e, ""),
                e => errors::data(e),
            })
    })??;
    Ok(r.layers
        .iter()
        .map(|l| LayerReport {
            a: l.a,
            b: l.b,
            positions: l.positions,
            gap: l.gap,
            mean_w: l.mean_w,
            loaded: l.loaded,
            seconds: l.seconds,
        })
        .collect())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<LayerReport>()?;
    m.add_function(wrap_pyfunction!(solve_tables, m)?)?;
    Ok(())
}
