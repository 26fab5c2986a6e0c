//! `dalkon.daldos`: Daldøs's rules, odds, engine and solved values.

use pyo3::prelude::*;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add(
        "__doc__",
        "Daldøs: rules, exact odds, engine, solved values.",
    )?;
    Ok(())
}
