//! `dalkon.dakon.analyse` and `dalkon.daldos.analyse`: a whole game
//! judged, as `dalkon dakon analyse` / `dalkon daldos analyse` judge it.
//! The report is handed to Python as the CLI's JSON read back
//! (`json.loads`), so its fields, names and values are exactly the CLI's.

use dalkon_dakon::request::analyse::{AnalyseRequest, DEFAULT_ANALYSE_SECONDS};
use dalkon_rules::dakon;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::dakon::{searching, solve_error};
use crate::errors;
use crate::record::DakonRecord;

/// A report as Python objects: its JSON, read by `json.loads`.
pub(crate) fn to_python<'py>(
    py: Python<'py>,
    report: &impl serde::Serialize,
) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(report).map_err(errors::data)?;
    py.import("json")?.call_method1("loads", (text,))
}

/// The record of an argument: a `Record`, or a record's text.
fn dakon_record(record: &Bound<'_, PyAny>) -> PyResult<dakon::Record> {
    if let Ok(r) = record.cast::<DakonRecord>() {
        return Ok(r.get().0.clone());
    }
    if let Ok(text) = record.cast::<PyString>() {
        return text.to_str()?.parse().map_err(errors::input);
    }
    Err(pyo3::exceptions::PyTypeError::new_err(
        "record must be a dalkon.dakon.Record or a record's text",
    ))
}

/// Judge every decision of a Dakon game, as `dalkon dakon analyse`: the
/// report is a dict with the CLI's JSON fields (`decisions`, `summary`, …).
/// ``time`` is the seconds of search per decision (``None``: no limit,
/// every decision exact), ``max_nodes`` a node budget per decision.
/// Runs without the GIL; Ctrl-C stops it (KeyboardInterrupt).
#[pyfunction]
#[pyo3(signature = (record, time = Some(DEFAULT_ANALYSE_SECONDS), max_nodes = None))]
fn analyse<'py>(
    py: Python<'py>,
    record: &Bound<'py, PyAny>,
    time: Option<f64>,
    max_nodes: Option<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    let record = dakon_record(record)?;
    let request = AnalyseRequest::new(record.rules)
        .time(time)
        .map_err(errors::input)?
        .max_nodes(max_nodes);
    let report = searching(py, |progress| {
        request.run(&record.start, &record.moves, None, Some(progress))
    })?
    .map_err(solve_error)?;
    to_python(py, &report)
}

/// The Dakon functions of this file, in `dalkon.dakon`.
pub fn register_dakon(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(analyse, m)?)?;
    m.add("DEFAULT_ANALYSE_SECONDS", DEFAULT_ANALYSE_SECONDS)?;
    Ok(())
}
