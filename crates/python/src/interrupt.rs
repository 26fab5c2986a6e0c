//! Long calls run without the GIL and stop on Ctrl-C.
//!
//! The work runs on a scoped thread while the calling thread, which holds
//! no GIL between checks, asks Python every few milliseconds whether a
//! signal arrived. On `KeyboardInterrupt` the work's stop flag is raised;
//! the engines read it where they read their time limits, so the call
//! returns promptly and the exception reaches Python.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How often the calling thread looks for a signal.
const POLL: Duration = Duration::from_millis(20);

/// Run `work(stop)` without the GIL; a Python signal (Ctrl-C) sets `stop`
/// and, once `work` has returned, is raised in place of its result.
pub fn run<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&AtomicBool) -> T + Send,
{
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        let handle = s.spawn(|| work(&stop));
        let mut interrupted: Option<PyErr> = None;
        loop {
            py.detach(|| {
                let until = std::time::Instant::now() + POLL;
                while !handle.is_finished() && std::time::Instant::now() < until {
                    std::thread::sleep(Duration::from_millis(1));
                }
            });
            if handle.is_finished() {
                break;
            }
            if interrupted.is_none() {
                if let Err(e) = py.check_signals() {
                    stop.store(true, Ordering::Relaxed);
                    interrupted = Some(e);
                }
            }
        }
        let out = handle
            .join()
            .map_err(|_| PyRuntimeError::new_err("dalkon: the computation panicked"))?;
        match interrupted {
            Some(e) => Err(e),
            None => Ok(out),
        }
    })
}
