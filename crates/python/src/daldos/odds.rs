//! `dalkon.daldos.odds`: keyword arguments to the library's
//! [`OddsRequest`], its report to Python objects (probabilities as
//! ``fractions.Fraction``).

use dalkon_daldos::request::odds::{OddsError, OddsRequest, DEFAULT_MAX_NODES};
use pyo3::prelude::*;

use super::engine::fraction;
use super::{Position, Rules};
use crate::{errors, interrupt};

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
#[pyo3(
    signature = (pos, rules = None, target = None, max_nodes = DEFAULT_MAX_NODES),
    text_signature = "(pos, rules=None, target=None, max_nodes=50000)"
)]
fn odds(
    py: Python<'_>,
    pos: &Position,
    rules: Option<Rules>,
    target: Option<&str>,
    max_nodes: usize,
) -> PyResult<Odds> {
    let rules = pos.rules_or(rules)?;
    let request = OddsRequest::new(pos.pos, rules.variants, target, max_nodes).map_err(|e| {
        let what = match &e {
            OddsError::NoEnemy { hole, .. } => hole.clone(),
            OddsError::Hole(_) => format!("{:?}", target.unwrap_or_default()),
        };
        errors::InputError::new_err(format!("target {what}: {e}"))
    })?;
    let o = interrupt::run(py, |_| request.run())?;
    Ok(Odds {
        side: o.mover.index(),
        targets: o
            .targets
            .iter()
            .map(|t| OddsTarget {
                hole: t.hole.clone(),
                probability: t.fraction.clone(),
                bound: t.bound_fraction.clone(),
                probability_float: t.probability,
                exact: t.exact,
                certified: t.certified,
            })
            .collect(),
        any: o.any_fraction,
        any_bound: o.any_bound_fraction,
        any_float: o.any,
        exact: o.exact,
        bound: o.bound_fraction,
        daldals_max: o.daldals_max,
        daldals: o.daldals,
        certified: o.certified,
        nodes: o.nodes,
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<OddsTarget>()?;
    m.add_class::<Odds>()?;
    m.add_function(wrap_pyfunction!(odds, m)?)?;
    Ok(())
}
