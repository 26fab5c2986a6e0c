//! `dalkon.dakon`: Dakon's rules, solver and proofs.

use pyo3::prelude::*;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__doc__", "Dakon: rules, exact solver, proofs.")?;
    Ok(())
}
