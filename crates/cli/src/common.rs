//! Options shared by every command (docs/cli.md): output format and threads;
//! input quoted in messages; usage errors in one line.
//!
//! `--format` is accepted before or after the command name, but each
//! command offers only some formats: [`OFFERED`] lists them, and
//! [`parse`] gives every command a `--format` of its own that takes only
//! those (so its `--help` and clap's errors list only them). A format given
//! before the command name is checked by the command itself
//! ([`Global::require_format`]).

use std::ffi::{OsStr, OsString};

use clap::builder::{EnumValueParser, PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, ValueEnum};

use dalkon_render::error_line::shorten_long_words;

/// Output formats. `text` is for people; the others for scripts (`svg`:
/// a picture). Not every command offers every format: see [`OFFERED`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Csv,
    Md,
    Svg,
}

/// What most commands offer.
pub const TEXT_JSON: &[Format] = &[Format::Text, Format::Json];

/// The formats of each command that offers more than (or other than)
/// [`TEXT_JSON`], by its words after `dalkon`. A command offering a new
/// format adds its row here (e.g. `("daldos show", &[Format::Text,
/// Format::Svg])`) and passes the same list to
/// [`Global::require_format`].
pub const OFFERED: &[(&str, &[Format])] = &[
    (
        "daldos table",
        &[Format::Text, Format::Json, Format::Csv, Format::Md],
    ),
    ("dakon show", &[Format::Text, Format::Svg, Format::Json]),
    ("daldos show", &[Format::Text, Format::Svg, Format::Json]),
    ("daldos game", &[Format::Text]),
    ("dakon game", &[Format::Text]),
    ("dakon analyse", &[Format::Text, Format::Json, Format::Svg]),
    ("daldos analyse", &[Format::Text, Format::Json, Format::Svg]),
];

/// The formats `command` (its words after `dalkon`, e.g. `daldos best`)
/// offers.
pub fn offered(command: &str) -> &'static [Format] {
    OFFERED
        .iter()
        .find(|(name, _)| *name == command)
        .map_or(TEXT_JSON, |&(_, formats)| formats)
}

impl Format {
    /// The name on the command line, lower-case (`csv`).
    pub fn name(self) -> String {
        self.to_possible_value()
            .map(|v| v.get_name().to_owned())
            .unwrap_or_default()
    }
}

/// A `--format` value parser that takes only the formats a command offers;
/// clap's help and its errors list exactly those.
#[derive(Debug, Clone, Copy)]
struct OfferedFormats(&'static [Format]);

impl TypedValueParser for OfferedFormats {
    type Value = Format;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<Format, clap::Error> {
        // The first refuses what the command does not offer, listing what it
        // does; the second turns an offered name into its `Format`.
        PossibleValuesParser::new(self.0.iter().filter_map(|f| f.to_possible_value()))
            .parse_ref(cmd, arg, value)?;
        EnumValueParser::<Format>::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            self.0.iter().filter_map(|f| f.to_possible_value()),
        ))
    }
}

/// Give every command without subcommands, below `command` (whose words
/// after `dalkon` are `path`), a `--format` that takes only its formats.
/// Its value reaches [`Global::format`] as the global flag's would.
fn with_formats(command: clap::Command, path: &str) -> clap::Command {
    let subcommands: Vec<String> = command
        .get_subcommands()
        .map(|c| c.get_name().to_owned())
        .collect();
    if subcommands.is_empty() {
        return command.arg(
            clap::Arg::new("format")
                .long("format")
                .value_name("FORMAT")
                .help("Output format (text is for people; the others for scripts)")
                .value_parser(OfferedFormats(offered(path)))
                .default_value("text"),
        );
    }
    subcommands.into_iter().fold(command, |command, name| {
        let sub_path = if path.is_empty() {
            name.clone()
        } else {
            format!("{path} {name}")
        };
        command.mut_subcommand(&name, |sub| with_formats(sub, &sub_path))
    })
}

/// Parse the command line (program name first) as `P`, each command's
/// `--format` restricted to its formats.
pub fn parse<P: clap::Parser>(args: &[OsString]) -> Result<P, clap::Error> {
    let mut command = with_formats(P::command(), "");
    let mut matches = command.try_get_matches_from_mut(args)?;
    P::from_arg_matches_mut(&mut matches).map_err(|e| e.format(&mut command))
}

/// The most worker threads `--threads` takes.
pub const MAX_THREADS: i64 = dalkon_dakon::threads::MAX_THREADS as i64;

/// Run `work` on a pool of `threads` workers, or, when no count was asked
/// for, of the count `RAYON_NUM_THREADS` gives (refused outside 1 to 256,
/// exit 2, as `--threads` is), else one per core. The pool is always ours:
/// rayon's global pool would take the variable's value unchecked.
pub fn with_threads<R: Send>(
    threads: Option<u16>,
    work: impl FnOnce() -> anyhow::Result<R> + Send,
) -> anyhow::Result<R> {
    use dalkon_dakon::threads;
    let exit = |e: threads::ThreadsError| crate::errors::Exit {
        code: if e.is_bad_input() { 2 } else { 1 },
        message: e.to_string(),
    };
    let n = threads::worker_threads(threads.map(usize::from)).map_err(exit)?;
    threads::pool(n, None).map_err(exit)?.install(work)
}

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
    shorten_long_words(&format!("{line}; see '{command} --help'"))
}

/// Flags accepted by every command.
#[derive(Debug, Args)]
pub struct Global {
    /// Output format: text (for people, the default) or another that the
    /// command offers (its --help lists them).
    #[arg(long, global = true, value_enum, default_value_t = Format::Text, hide_possible_values = true)]
    pub format: Format,
    /// Worker threads, 1 to 256 (default: all cores). Results never depend
    /// on it.
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS))]
    pub threads: Option<u16>,
}

impl Global {
    /// Refuse a format the command does not offer (`offered`: the same
    /// list as its row of [`OFFERED`]). After the command name the parser
    /// already refuses it; this catches one given before the name
    /// (`dalkon --format csv daldos best`).
    pub fn require_format(&self, offered: &[Format]) -> anyhow::Result<Format> {
        if offered.contains(&self.format) {
            Ok(self.format)
        } else {
            let names: Vec<String> = offered.iter().map(|f| f.name()).collect();
            anyhow::bail!(
                "this command does not offer --format {}; choose one of: {}",
                self.format.name(),
                names.join(", ")
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
