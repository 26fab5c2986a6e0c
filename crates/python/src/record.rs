//! `dalkon.dakon.Record` and `dalkon.daldos.Record`: game records
//! (docs/formats.md §5) read from a string or a file, and written back,
//! by the rules crate's readers, so that Python refuses what the CLI
//! refuses, with the same message (line and column of the bad move).

use std::path::PathBuf;

use dalkon_rules::{dakon, daldos, MAX_RECORD_BYTES};
use pyo3::prelude::*;

use crate::dakon::{PyPosition, PyRules};
use crate::daldos::{Play, Position as DaldosPosition, Rules as DaldosRules};
use crate::errors;

/// The record in the file `path`, read bounded as the CLI reads it; its
/// errors name the file.
fn read<R>(path: PathBuf) -> PyResult<R>
where
    R: std::str::FromStr<Err = dalkon_rules::RecordError>,
{
    let text = dalkon_store::read_text(&path, MAX_RECORD_BYTES, "a game record").map_err(|e| {
        if e.is_bad_input() {
            errors::input(e)
        } else {
            errors::data(e)
        }
    })?;
    text.parse()
        .map_err(|e| errors::input(format!("{}: {e}", path.display())))
}

fn write(path: PathBuf, text: &str) -> PyResult<()> {
    dalkon_store::atomic::write(&path, text.as_bytes())
        .map_err(|e| errors::data(format!("{}: {e}", path.display())))
}

/// A Dakon game: its rules, start and moves (holes of the side to move,
/// bonus moves included), with its tags. ``Record.parse(text)`` or
/// ``Record.read(path)`` read one (every move replayed; an illegal one
/// raises InputError naming its line and column); ``str(record)`` is the
/// record's text, as ``dakon game --save`` writes it.
#[pyclass(name = "Record", module = "dalkon.dakon", frozen, skip_from_py_object)]
#[derive(Debug, Clone)]
pub struct DakonRecord(pub(crate) dakon::Record);

#[pymethods]
impl DakonRecord {
    /// A game with no moves yet from ``start`` under ``rules`` (default:
    /// the standard rules).
    #[new]
    #[pyo3(signature = (start, moves = Vec::new(), rules = None))]
    fn new(start: &PyPosition, moves: Vec<usize>, rules: Option<&PyRules>) -> PyResult<Self> {
        let rules = rules.map_or_else(dakon::Rules::default, |r| r.0);
        let mut record = dakon::Record::new(start.0, rules);
        let mut pos = start.0;
        for (i, &h) in moves.iter().enumerate() {
            pos = pos
                .play(h, &rules)
                .map_err(|e| errors::input(format!("move {} ({h}): {e}", i + 1)))?;
            record.moves.push(h);
        }
        Ok(DakonRecord(record))
    }

    /// Read a record from its text.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<Self> {
        text.parse().map(DakonRecord).map_err(errors::input)
    }

    /// Read a record file (at most 4 MiB).
    #[staticmethod]
    fn read(path: PathBuf) -> PyResult<Self> {
        read(path).map(DakonRecord)
    }

    /// Write the record to ``path`` (atomically).
    fn write(&self, path: PathBuf) -> PyResult<()> {
        write(path, &self.0.to_string())
    }

    /// The rules.
    #[getter]
    fn rules(&self) -> PyRules {
        PyRules(self.0.rules)
    }

    /// The position before the first move.
    #[getter]
    fn start(&self) -> PyPosition {
        PyPosition(self.0.start)
    }

    /// The holes played, in order.
    #[getter]
    fn moves(&self) -> Vec<usize> {
        self.0.moves.clone()
    }

    /// The tags other than Game, Rules and the start, as ``(name, value)``.
    #[getter]
    fn tags(&self) -> Vec<(String, String)> {
        self.0.tags.clone()
    }

    /// ``"1-0"`` (South won), ``"0-1"``, ``"1/2-1/2"`` or ``"*"`` (not over).
    #[getter]
    fn result(&self) -> &'static str {
        self.0.result()
    }

    /// The start and the position after each move.
    fn positions(&self) -> Vec<PyPosition> {
        self.0.positions().into_iter().map(PyPosition).collect()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Record(start='{}', moves={}, result='{}')",
            self.0.start,
            self.0.moves.len(),
            self.0.result()
        )
    }
}

/// A Daldøs game: its rules (board included), start and throws, each with
/// the play made, with its tags. ``Record.parse(text)`` or
/// ``Record.read(path)`` read one (every throw replayed; an illegal play
/// raises InputError naming its line and column); ``str(record)`` is the
/// record's text, as ``daldos game --save`` writes it.
#[pyclass(name = "Record", module = "dalkon.daldos", frozen, skip_from_py_object)]
#[derive(Debug, Clone)]
pub struct DaldosRecord(pub(crate) daldos::Record);

#[pymethods]
impl DaldosRecord {
    /// A game from ``start`` (its rules are the record's) whose throws are
    /// ``plays`` (each a ``Play`` from ``plays()`` of the position before it).
    #[new]
    #[pyo3(signature = (start, plays = Vec::new()))]
    fn new(start: &DaldosPosition, plays: Vec<PyRef<'_, Play>>) -> PyResult<Self> {
        let mut record = daldos::Record::new(start.pos, start.rules.variants);
        let turns = plays
            .iter()
            .map(|p| daldos::Turn {
                throw: p.throw,
                play: p.play.clone(),
            })
            .collect();
        record
            .extend(turns)
            .map_err(|(i, e)| errors::input(format!("throw {}: {e}", i + 1)))?;
        Ok(DaldosRecord(record))
    }

    /// Read a record from its text.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<Self> {
        text.parse().map(DaldosRecord).map_err(errors::input)
    }

    /// Read a record file (at most 4 MiB).
    #[staticmethod]
    fn read(path: PathBuf) -> PyResult<Self> {
        read(path).map(DaldosRecord)
    }

    /// Write the record to ``path`` (atomically).
    fn write(&self, path: PathBuf) -> PyResult<()> {
        write(path, &self.0.to_string())
    }

    /// The rules (the board and the options).
    #[getter]
    fn rules(&self) -> DaldosRules {
        DaldosRules {
            board: self.0.start.board(),
            variants: self.0.variants,
        }
    }

    /// The position before the first throw.
    #[getter]
    fn start(&self) -> DaldosPosition {
        DaldosPosition::wrap(self.0.start, self.rules())
    }

    /// Every throw's play, in order, as ``Play`` objects (``throw``,
    /// notation, ``result``).
    #[getter]
    fn plays(&self) -> Vec<Play> {
        let rules = self.rules();
        let positions = self.0.positions();
        self.0
            .turns
            .iter()
            .zip(positions.windows(2))
            .map(|(t, w)| Play::wrap(&w[0], rules, t.throw, t.play.clone(), w[1]))
            .collect()
    }

    /// The tags other than Game, Rules and Start, as ``(name, value)``.
    #[getter]
    fn tags(&self) -> Vec<(String, String)> {
        self.0.tags.clone()
    }

    /// ``"1-0"`` (A won), ``"0-1"`` (B won) or ``"*"`` (not over).
    #[getter]
    fn result(&self) -> &'static str {
        self.0.result()
    }

    /// The start and the position after each throw.
    fn positions(&self) -> Vec<DaldosPosition> {
        let rules = self.rules();
        self.0
            .positions()
            .into_iter()
            .map(|p| DaldosPosition::wrap(p, rules))
            .collect()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Record(start='{}', throws={}, result='{}')",
            self.0.start,
            self.0.turns.len(),
            self.0.result()
        )
    }
}
