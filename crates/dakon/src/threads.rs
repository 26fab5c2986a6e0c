//! The number of worker threads, validated wherever it comes from: a
//! front end's flag (`--threads`), else the `RAYON_NUM_THREADS`
//! environment variable, else one per core. Every pool of the workspace is
//! built with [`worker_threads`]' count ([`pool`]), never by rayon reading
//! the variable itself: it would start any number it is given (100,000
//! threads were asked for and 2,073 started before the machine gave out).

/// The most worker threads a pool may have.
pub const MAX_THREADS: usize = 256;

/// The environment variable read when no count is given.
pub const ENV_VAR: &str = "RAYON_NUM_THREADS";

/// The most characters of the variable's value an error quotes.
const QUOTE_MAX: usize = 80;

/// Why no pool of workers was made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ThreadsError {
    /// `RAYON_NUM_THREADS` is set to something other than 1 to 256 (bad
    /// input, as `--threads 0` is).
    #[error(
        "RAYON_NUM_THREADS={value} is not a number of worker threads: \
         it must be a whole number from 1 to 256, or unset"
    )]
    Env {
        /// The value, quoted (at most 80 characters of it).
        value: String,
    },
    /// The system refused the threads (a failure, not bad input).
    #[error("cannot start {threads} worker threads: {message}")]
    Start {
        /// Threads asked for.
        threads: usize,
        /// What the system said.
        message: String,
    },
}

impl ThreadsError {
    /// Whether the count given is at fault (the variable), rather than the
    /// system.
    pub fn is_bad_input(&self) -> bool {
        matches!(self, ThreadsError::Env { .. })
    }
}

/// The count `RAYON_NUM_THREADS` asks for: `None` when it is unset or
/// empty, an error when it is not a whole number from 1 to 256.
pub fn env_threads() -> Result<Option<usize>, ThreadsError> {
    match std::env::var_os(ENV_VAR) {
        None => Ok(None),
        Some(v) if v.is_empty() => Ok(None),
        Some(v) => parse_threads(&v.to_string_lossy()).map(Some),
    }
}

/// A value of `RAYON_NUM_THREADS`, checked as `--threads` is.
fn parse_threads(text: &str) -> Result<usize, ThreadsError> {
    match text.parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(ThreadsError::Env { value: quote(text) }),
    }
}

fn quote(text: &str) -> String {
    let n = text.chars().count();
    if n <= QUOTE_MAX {
        format!("{text:?}")
    } else {
        let head: String = text.chars().take(QUOTE_MAX).collect();
        format!("{head:?}… ({n} characters)")
    }
}

/// The worker threads to use: `requested` (a front end's flag, already
/// within 1 to [`MAX_THREADS`]) when given, else `RAYON_NUM_THREADS`
/// (checked), else one per core (at most [`MAX_THREADS`]).
pub fn worker_threads(requested: Option<usize>) -> Result<usize, ThreadsError> {
    if let Some(n) = requested {
        return Ok(n.clamp(1, MAX_THREADS));
    }
    if let Some(n) = env_threads()? {
        return Ok(n);
    }
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    Ok(cores.min(MAX_THREADS))
}

/// A pool of `threads` workers (each with a stack of `stack_bytes` when
/// given), its count set here so that rayon never reads the variable.
pub fn pool(threads: usize, stack_bytes: Option<usize>) -> Result<rayon::ThreadPool, ThreadsError> {
    let mut b = rayon::ThreadPoolBuilder::new().num_threads(threads);
    if let Some(bytes) = stack_bytes {
        b = b.stack_size(bytes);
    }
    b.build().map_err(|e| ThreadsError::Start {
        threads,
        message: e.to_string(),
    })
}

/// The thread count of the pool the caller runs on; outside any pool,
/// [`worker_threads`]`(None)` (rayon's global pool would read the variable
/// unchecked).
pub fn current_threads() -> Result<usize, ThreadsError> {
    if rayon::current_thread_index().is_some() {
        Ok(rayon::current_num_threads())
    } else {
        worker_threads(None)
    }
}

/// Make rayon's global pool (used by work run outside any pool, as from
/// Python) with [`worker_threads`]`(None)`; a no-op when it exists already.
pub fn init_global_pool() -> Result<(), ThreadsError> {
    let threads = worker_threads(None)?;
    // An error here means the global pool was built before: keep it.
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variable_is_checked_as_the_flag_is() {
        assert_eq!(parse_threads("1"), Ok(1));
        assert_eq!(parse_threads("256"), Ok(256));
        for bad in ["0", "257", "100000", "-1", "abc", " 2", "1.5"] {
            let e = parse_threads(bad).unwrap_err();
            assert!(e.is_bad_input());
            assert_eq!(
                e.to_string(),
                format!(
                    "RAYON_NUM_THREADS={bad:?} is not a number of worker threads: \
                     it must be a whole number from 1 to 256, or unset"
                )
            );
        }
        let long = "9".repeat(300);
        let e = parse_threads(&long).unwrap_err().to_string();
        assert!(
            e.contains(&format!("{:?}… (300 characters)", &long[..80])),
            "{e}"
        );
    }

    #[test]
    fn a_flag_comes_first() {
        assert_eq!(worker_threads(Some(3)), Ok(3));
        assert_eq!(worker_threads(Some(1000)), Ok(MAX_THREADS));
    }

    #[test]
    fn inside_a_pool_its_count_is_used() {
        let p = pool(3, None).unwrap();
        assert_eq!(p.install(current_threads), Ok(3));
    }
}
