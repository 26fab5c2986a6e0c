//! `dalkon.dakon.analyse` and `dalkon.daldos.analyse`: a whole game
//! judged, as `dalkon dakon analyse` / `dalkon daldos analyse` judge it.
//! The report is handed to Python as the CLI's JSON read back
//! (`json.loads`), so its fields, names and values are exactly the CLI's.

use dalkon_dakon::request::analyse::{AnalyseRequest, DEFAULT_ANALYSE_SECONDS};
use std::path::PathBuf;
use std::sync::Arc;

use dalkon_daldos::request::analyse::{
    AnalyseRequest as DaldosAnalyse, DEFAULT_ANALYSE_MAX_NODES as DALDOS_NODES,
    DEFAULT_ANALYSE_SECONDS as DALDOS_SECONDS,
};
use dalkon_daldos::request::best::Analyst;
use dalkon_daldos::request::load_tables;
use dalkon_rules::{dakon, daldos};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::dakon::{searching, solve_error};
use crate::daldos::engine::{table_error, tables_dir};
use crate::record::{DakonRecord, DaldosRecord};
use crate::{errors, interrupt};

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
/// every decision exact), ``max_nodes`` a node budget per decision;
/// ``probe_seeds``/``db_dir`` probe the endgame databases as
/// ``dakon.solve`` does (``dalkon dakon analyse --probe-seeds K``).
/// Runs without the GIL; Ctrl-C stops it (KeyboardInterrupt).
#[pyfunction]
#[pyo3(signature = (record, time = Some(DEFAULT_ANALYSE_SECONDS), max_nodes = None, probe_seeds = None, db_dir = None))]
fn analyse<'py>(
    py: Python<'py>,
    record: &Bound<'py, PyAny>,
    time: Option<f64>,
    max_nodes: Option<u64>,
    probe_seeds: Option<u32>,
    db_dir: Option<std::path::PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    let record = dakon_record(record)?;
    let request = AnalyseRequest::new(record.rules)
        .time(time)
        .map_err(errors::input)?
        .max_nodes(max_nodes)
        .probe(probe_seeds, db_dir)
        .map_err(errors::input)?;
    let report = searching(py, |progress| {
        request.run(&record.start, &record.moves, None, Some(progress))
    })?
    .map_err(solve_error)?;
    to_python(py, &report)
}

/// The record of an argument: a `Record`, or a record's text.
fn daldos_record(record: &Bound<'_, PyAny>) -> PyResult<daldos::Record> {
    if let Ok(r) = record.cast::<DaldosRecord>() {
        return Ok(r.get().0.clone());
    }
    if let Ok(text) = record.cast::<PyString>() {
        return text.to_str()?.parse().map_err(errors::input);
    }
    Err(pyo3::exceptions::PyTypeError::new_err(
        "record must be a dalkon.daldos.Record or a record's text",
    ))
}

/// Judge every throw of a Daldøs game, as `dalkon daldos analyse`, with
/// the solved tables of its board in ``db_dir`` (default as the CLI's):
/// the report is a dict with the CLI's JSON fields (`decisions` with their
/// `luck`, `summary`, `start_value`, `result`, …). ``time`` and
/// ``max_nodes`` are the search budget of each throw the tables do not
/// cover. Runs without the GIL; Ctrl-C stops it (KeyboardInterrupt).
#[pyfunction]
#[pyo3(name = "analyse", signature = (record, time = DALDOS_SECONDS, max_nodes = Some(DALDOS_NODES), db_dir = None))]
fn daldos_analyse<'py>(
    py: Python<'py>,
    record: &Bound<'py, PyAny>,
    time: f64,
    max_nodes: Option<u64>,
    db_dir: Option<PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    let record = daldos_record(record)?;
    let request = DaldosAnalyse::new()
        .time(Some(time))
        .map_err(errors::input)?
        .max_nodes(max_nodes);
    let dir = tables_dir(db_dir)?;
    let report = interrupt::run(py, |stop| {
        let tables = load_tables(&dir, record.start.board(), record.variants)
            .map_err(|e| table_error(e, ""))?;
        let analyst = Analyst::with_tables(Arc::new(tables));
        request
            .run_record(&analyst, &record, &(), Some(stop))
            .map_err(errors::input)
    })??;
    to_python(py, &report)
}

/// The Daldøs functions of this file, in `dalkon.daldos`.
pub fn register_daldos(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(daldos_analyse, m)?)?;
    m.add("DEFAULT_ANALYSE_SECONDS", DALDOS_SECONDS)?;
    m.add("DEFAULT_ANALYSE_MAX_NODES", DALDOS_NODES)?;
    Ok(())
}

/// The Dakon functions of this file, in `dalkon.dakon`.
pub fn register_dakon(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(analyse, m)?)?;
    m.add("DEFAULT_ANALYSE_SECONDS", DEFAULT_ANALYSE_SECONDS)?;
    Ok(())
}
