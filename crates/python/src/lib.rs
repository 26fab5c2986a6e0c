//! The `dalkon` Python package's native part, `dalkon._core`: the rules
//! and engines of both games wrapped for Python. Each submodule wraps one
//! game (`dakon.rs`, `daldos.rs`); the Python files under `python/dalkon/`
//! re-export them with their type stubs, and add the OpenSpiel games.
//!
//! Nothing here decides a rule or a value: every call goes to the library
//! crates, so Python sees exactly what the `dalkon` binary sees, with the
//! same one-line error messages.

// PyO3's macros expand to `unsafe` FFI glue; this crate writes none itself.
#![allow(unsafe_code)]

use pyo3::prelude::*;

mod dakon;
mod daldos;
mod errors;
mod interrupt;

/// The native module `dalkon._core`.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    errors::register(m)?;
    let dakon = PyModule::new(py, "dakon")?;
    dakon::register(&dakon)?;
    m.add_submodule(&dakon)?;
    let daldos = PyModule::new(py, "daldos")?;
    daldos::register(&daldos)?;
    m.add_submodule(&daldos)?;
    Ok(())
}
