//! Options shared by every command (docs/cli.md): output format and threads,
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

/// The most worker threads `--threads` takes.
pub const MAX_THREADS: i64 = 256;

/// Run `work` on a pool of `threads` workers, or on rayon's global pool
/// (all cores, built on first use) when no count was asked for.
pub fn with_threads<R: Send>(
    threads: Option<u16>,
    work: impl FnOnce() -> anyhow::Result<R> + Send,
) -> anyhow::Result<R> {
    match threads {
        None => work(),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(usize::from(n))
            .build()
            .map_err(|e| anyhow::anyhow!("cannot start {n} worker threads: {e}"))?
            .install(work),
    }
}

/// The error and its causes on one line, `: `-separated, each cause once
/// (a message that already quotes its cause is not followed by it again).
pub fn one_line(err: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in err.chain() {
        let text = cause.to_string().replace('\n', " ");
        if line.contains(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

/// Input quoted in an error message: at most [`QUOTE_MAX`] characters.
pub fn quote(text: &str) -> String {
    if text.chars().count() <= QUOTE_MAX {
        format!("{text:?}")
    } else {
        let head: String = text.chars().take(QUOTE_MAX).collect();
        format!("{head:?}… ({} characters)", text.chars().count())
    }
}

/// The most characters of the input an error line quotes.
pub const QUOTE_MAX: usize = 80;

/// A clap usage error as one line: clap's first line (`error: …`), with
/// the items clap lists under it (missing flags, possible values) folded
/// in, and where the usage is explained (`see 'dalkon dakon solve --help'`).
pub fn usage_line(rendered: &str, command: &str) -> String {
    let mut lines = rendered.lines().skip_while(|l| l.trim().is_empty());
    let mut line = lines
        .next()
        .unwrap_or("error: bad arguments")
        .trim()
        .to_owned();
    let listed: Vec<&str> = lines
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    if !listed.is_empty() {
        line.push(' ');
        line.push_str(&listed.join(", "));
    }
    format!("{line}; see '{command} --help'")
}

/// Flags accepted by every command.
#[derive(Debug, Args)]
pub struct Global {
    /// Output format (text is for people; json for scripts).
    #[arg(long, global = true, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Worker threads, 1 to 256 (default: all cores). Results never depend
    /// on it.
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS))]
    pub threads: Option<u16>,
}

impl Global {
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
            let name = self
                .format
                .to_possible_value()
                .map(|v| v.get_name().to_owned())
                .unwrap_or_default();
            anyhow::bail!(
                "this command does not offer --format {name}; choose one of: {}",
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
        if let Some(e) = cause.downcast_ref::<crate::batch::BatchError>() {
            return e.exit_code();
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
    fn long_input_is_quoted_short() {
        assert_eq!(quote("1,2/3"), "\"1,2/3\"");
        let long = "7,".repeat(100);
        let q = quote(&long);
        assert!(q.starts_with(&format!("{:?}", &long[..80])), "{q}");
        assert!(q.ends_with("… (200 characters)"), "{q}");
    }

    #[test]
    fn usage_errors_are_one_line() {
        let rendered = "error: unexpected argument '--foo' found\n\n  tip: to pass '--foo' as a value, use '-- --foo'\n\nUsage: dalkon dakon solve [OPTIONS] --holes <HOLES> --seeds <SEEDS>\n\nFor more information, try '--help'.\n";
        assert_eq!(
            usage_line(rendered, "dalkon dakon solve"),
            "error: unexpected argument '--foo' found; see 'dalkon dakon solve --help'"
        );
        let missing = "error: the following required arguments were not provided:\n  --seeds <SEEDS>\n  --holes <HOLES>\n\nUsage: dalkon dakon solve --holes <HOLES> --seeds <SEEDS>\n";
        assert_eq!(
            usage_line(missing, "dalkon dakon solve"),
            "error: the following required arguments were not provided: --seeds <SEEDS>, --holes <HOLES>; see 'dalkon dakon solve --help'"
        );
        let value = "error: invalid value 'foo' for '--method <METHOD>'\n  [possible values: auto, retrograde, search]\n\nFor more information, try '--help'.\n";
        assert_eq!(
            usage_line(value, "dalkon dakon solve"),
            "error: invalid value 'foo' for '--method <METHOD>' [possible values: auto, retrograde, search]; see 'dalkon dakon solve --help'"
        );
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
}
