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

mod analyse;
mod dakon;
mod daldos;
mod errors;
mod interrupt;
mod record;

/// The native module `dalkon._core`.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    errors::register(m)?;
    // The workers of every search run from Python: rayon's global pool,
    // built here with the count checked as the CLI checks it (rayon would
    // start any number RAYON_NUM_THREADS gives).
    dalkon_dakon::threads::init_global_pool().map_err(|e| {
        if e.is_bad_input() {
            errors::input(e)
        } else {
            pyo3::exceptions::PyRuntimeError::new_err(e.to_string())
        }
    })?;
    let dakon = PyModule::new(py, "dakon")?;
    dakon::register(&dakon)?;
    dakon.add_class::<record::DakonRecord>()?;
    analyse::register_dakon(&dakon)?;
    m.add_submodule(&dakon)?;
    let daldos = PyModule::new(py, "daldos")?;
    daldos::register(&daldos)?;
    daldos.add_class::<record::DaldosRecord>()?;
    analyse::register_daldos(&daldos)?;
    m.add_submodule(&daldos)?;
    Ok(())
}
