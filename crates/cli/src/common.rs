//! Options shared by every command (docs/cli.md): output format and threads;
//! input quoted in messages; usage errors in one line.

use clap::{Args, ValueEnum};

/// Output formats. `text` is for people; the others for scripts. Not every
/// command offers every format: a command refuses one it does not offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Csv,
    Md,
    /// A picture (the `show` commands).
    Svg,
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
            // The system refused the threads: a failure, not bad input.
            .map_err(|e| crate::errors::Exit {
                code: 1,
                message: format!("cannot start {n} worker threads: {e}"),
            })?
            .install(work),
    }
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
    /// Output format (text is for people; json for scripts; svg a picture).
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
