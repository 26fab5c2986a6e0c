//! The package's exceptions. Every error a library call returns becomes
//! one of these, with the library error's own one-line message (the line
//! the CLI prints after `error: `).

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

create_exception!(
    dalkon,
    DalkonError,
    PyException,
    "Base class of every error dalkon raises; its message is the CLI's one-line message."
);
create_exception!(
    dalkon,
    InputError,
    DalkonError,
    "Bad input: a position, move, rule or option that the rules refuse (the CLI's exit code 2)."
);
create_exception!(
    dalkon,
    DataError,
    DalkonError,
    "A file that cannot be used: damaged, cut short, for other rules, or unreadable (the CLI's exit code 1)."
);

/// Bad input, with the library error's message.
pub fn input(e: impl std::fmt::Display) -> PyErr {
    InputError::new_err(e.to_string())
}

/// A file or table that cannot be used, with the library error's message.
pub fn data(e: impl std::fmt::Display) -> PyErr {
    DataError::new_err(e.to_string())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("DalkonError", py.get_type::<DalkonError>())?;
    m.add("InputError", py.get_type::<InputError>())?;
    m.add("DataError", py.get_type::<DataError>())?;
    Ok(())
}
