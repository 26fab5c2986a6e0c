//! Options shared by every command (CLI.md): output format and threads,
//! and the mapping of errors to exit codes.

use clap::{Args, ValueEnum};
use dalkon_solver::openings::OpeningsError;
use dalkon_solver::search::SearchError;
use dalkon_solver::{DbError, SolveError};

/// Output formats. `text` is for people; the others for scripts. Not every
/// command offers every format: a command refuses one it does not offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Csv,
    Md,
}

/// Flags accepted by every command.
#[derive(Debug, Args)]
pub struct Global {
    /// Output format (text is for people; json for scripts).
    #[arg(long, global = true, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Worker threads (default: all cores). Results never depend on it.
    #[arg(long, global = true, value_name = "N")]
    pub threads: Option<usize>,
}

impl Global {
    /// Configure rayon's global pool from `--threads`.
    pub fn init_threads(&self) -> anyhow::Result<()> {
        if let Some(n) = self.threads {
            if n == 0 {
                anyhow::bail!("--threads must be at least 1");
            }
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build_global()
                .map_err(|e| anyhow::anyhow!("cannot start {n} threads: {e}"))?;
        }
        Ok(())
    }

    /// Refuse a format the command does not offer.
    pub fn require_format(&self, offered: &[Format]) -> anyhow::Result<Format> {
        if offered.contains(&self.format) {
            Ok(self.format)
        } else {
            let names: Vec<String> = offered
                .iter()
                .map(|f| {
                    f.to_possible_value()
                        .map(|v| v.get_name().to_owned())
                        .unwrap_or_default()
                })
                .collect();
            anyhow::bail!(
                "this command does not offer --format {:?}; choose one of: {}",
                self.format,
                names.join(", ")
            )
        }
    }
}

/// Exit code for an error: the first error of the chain that knows
/// whether it is bad input decides (the solver's errors: 2 for bad input,
/// 1 for everything else: files, memory, limits reached); an I/O error
/// means the system failed us (1); anything else is bad input (2).
pub fn exit_code(err: &anyhow::Error) -> i32 {
    for cause in err.chain() {
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
    fn solver_errors_map_by_kind() {
        let disk = anyhow::Error::new(SolveError::Openings(OpeningsError::Io("full".into())));
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
}
