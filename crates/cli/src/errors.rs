//! Errors as the command line reports them: one line, each cause once, and
//! the exit code (docs/cli.md: 1 failure, 2 bad input).

use dalkon_dakon::openings::OpeningsError;
use dalkon_dakon::search::SearchError;
use dalkon_dakon::{DbError, SolveError};

/// A failure whose exit code is decided where it happened (a batch with bad
/// lines, say), with its one-line message.
#[derive(Debug)]
pub struct Exit {
    /// The exit code.
    pub code: i32,
    /// What went wrong.
    pub message: String,
}

impl std::fmt::Display for Exit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Exit {}

/// The error and its causes on one line, as every front end says it
/// (`dalkon_render::error_line::message`).
pub fn one_line(err: &anyhow::Error) -> String {
    dalkon_render::error_line::message(err.as_ref())
}

/// Exit code for an error: an [`Exit`] says it, a damaged data file of
/// `reproduce` is a failure (1); else the first error of
/// the chain that knows
/// whether it is bad input decides (the solver's errors: 2 for bad input,
/// 1 for everything else: files, memory, limits reached); an I/O error
/// means the system failed us (1); anything else is bad input (2).
pub fn exit_code(err: &anyhow::Error) -> i32 {
    for cause in err.chain() {
        if let Some(e) = cause.downcast_ref::<Exit>() {
            return e.code;
        }
        if cause.is::<dalkon_reproduce::DamagedData>() {
            return 1;
        }
        let bad_input = if let Some(e) = cause.downcast_ref::<SolveError>() {
            Some(e.is_bad_input())
        } else if let Some(e) = cause.downcast_ref::<DbError>() {
            Some(e.is_bad_input())
        } else if let Some(e) = cause.downcast_ref::<SearchError>() {
            Some(e.is_bad_input())
        } else if let Some(e) = cause.downcast_ref::<OpeningsError>() {
            Some(e.is_bad_input())
        } else if cause.is::<std::io::Error>() {
            Some(false)
        } else {
            None
        };
        if let Some(bad) = bad_input {
            return if bad { 2 } else { 1 };
        }
    }
    2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn causes_are_printed_once() {
        let io = std::io::Error::other("No space left on device");
        let quoted = anyhow::anyhow!("cannot write x: {io}");
        let err = anyhow::Error::new(io).context(quoted.to_string());
        assert_eq!(one_line(&err), "cannot write x: No space left on device");
        let err = anyhow::anyhow!("inner\ntext").context("outer");
        assert_eq!(one_line(&err), "outer: inner text");
    }

    #[test]
    fn solver_errors_map_by_kind() {
        let disk = anyhow::Error::new(SolveError::Openings(OpeningsError::Io {
            path: "layer-001.bin".into(),
            source: std::io::Error::other("full"),
        }));
        assert_eq!(exit_code(&disk), 1);
        let db = anyhow::Error::new(SolveError::Retrograde(DbError::Io {
            path: "x".into(),
            source: std::io::Error::other("full"),
        }))
        .context("while solving");
        assert_eq!(exit_code(&db), 1);
        let seeds = anyhow::Error::new(SolveError::Seeds { seeds: 0 });
        assert_eq!(exit_code(&seeds), 2);
        assert_eq!(exit_code(&anyhow::anyhow!("bad flag")), 2);
        let io = anyhow::Error::new(std::io::Error::other("pipe")).context("writing");
        assert_eq!(exit_code(&io), 1);
    }

    /// A kept `reproduce` row that disagrees with the run is damaged data:
    /// exit 1, not bad input (docs/cli.md, reproduce).
    #[test]
    fn damaged_reproduce_data_exits_1() {
        let e = anyhow::Error::new(dalkon_reproduce::DamagedData(
            "proofs/manifest.csv has a proof of 2x2 for player 0 only".into(),
        ))
        .context("reproduce");
        assert_eq!(exit_code(&e), 1);
        assert_eq!(
            one_line(&e),
            "reproduce: proofs/manifest.csv has a proof of 2x2 for player 0 only"
        );
    }

    #[test]
    fn an_exit_carries_its_code() {
        let e = anyhow::Error::new(Exit {
            code: 2,
            message: "3 of 6 input lines were bad".into(),
        });
        assert_eq!(
            (exit_code(&e), one_line(&e).as_str()),
            (2, "3 of 6 input lines were bad")
        );
    }
}
