//! The `dalkon` command line as a library: [`run`] takes the arguments and
//! the standard streams and returns the exit code, so that tests and the
//! fuzz harness drive every command in-process. The binary (`main.rs`) only
//! hands it the real streams.
//!
//! This crate parses arguments and formats output; every game rule, engine
//! and solving decision lives in the library crates.

mod batch;
#[cfg(feature = "mpi")]
mod cluster;
mod common;
mod dakon;
mod daldos;
mod errors;
mod input;
mod progress;
mod prompt;
mod record_file;
mod reproduce;
mod serve;

use std::ffi::OsString;
use std::io::{self, BufRead, Write};

use clap::{Parser, Subcommand};
use common::Global;

/// Game-theoretic solver and analysis engine for Daldøs and Dakon.
#[derive(Debug, Parser)]
#[command(name = "dalkon", version, about)]
struct Cli {
    #[command(flatten)]
    global: Global,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Regenerate everything under data/ (tables, solved boards, plots).
    Reproduce(reproduce::Args),
    /// Serve the play, analyse and position pages and the JSON API on
    /// loopback (docs/web.md).
    Serve(serve::Args),
    /// Daldøs: dice odds, capture tables, plays, best play and the exact
    /// solved values (tables built by `daldos solve`).
    #[command(subcommand)]
    Daldos(daldos::Command),
    /// Dakon: exact solving, best moves, playing moves, openings.
    #[command(subcommand)]
    Dakon(dakon::Command),
}

/// Exit code when standard output is a closed pipe (128 + SIGPIPE, what a
/// shell reports for a program killed by it): the reader went away, which
/// is not an error worth a message.
pub const EXIT_CLOSED_PIPE: i32 = 141;

/// The standard streams of one run. `Send` so that the command can run on
/// the worker pool that `--threads` asks for.
pub struct Streams<'a> {
    /// Standard input (batch mode reads positions from it).
    pub stdin: &'a mut (dyn BufRead + Send),
    /// Standard output: results.
    pub stdout: &'a mut (dyn Write + Send),
    /// Standard error: the one error line.
    pub stderr: &'a mut (dyn Write + Send),
}

impl std::fmt::Debug for Streams<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Streams")
    }
}

/// Run `dalkon` with `args` (the program name first, as in `std::env::args`)
/// and return the exit code: 0 done, 1 failure (files, memory, output), 2 bad
/// input, [`EXIT_CLOSED_PIPE`] when standard output was closed.
pub fn run<I, T>(args: I, streams: Streams<'_>) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let Streams {
        stdin,
        stdout,
        stderr,
    } = streams;
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let cli = match common::parse::<Cli>(&args) {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e, &args, stdout, stderr),
    };
    let mut out = Watched::new(stdout);
    let result = common::with_threads(cli.global.threads, || {
        let global = &cli.global;
        let out: &mut dyn Write = &mut out;
        let r = match cli.command {
            Command::Reproduce(args) => reproduce::run(global, args, out),
            Command::Serve(args) => serve::run(args, out),
            Command::Daldos(cmd) => daldos::run(global, cmd, out, stdin),
            Command::Dakon(cmd) => dakon::run(global, cmd, out, stdin),
        };
        r.and_then(|()| Ok(out.flush()?))
    });
    match (result, out.failure) {
        (_, Some((io::ErrorKind::BrokenPipe, _))) => EXIT_CLOSED_PIPE,
        (_, Some((_, message))) => {
            let _ = writeln!(stderr, "error: cannot write the output: {message}");
            1
        }
        (Ok(()), None) => 0,
        (Err(err), None) => {
            let _ = writeln!(stderr, "error: {}", errors::one_line(&err));
            errors::exit_code(&err)
        }
    }
}

/// A clap error: `--help` and `--version` print as clap prints them (exit
/// 0, or as any output that cannot be written); a usage error is one line naming the problem and where to read the
/// usage (exit 2).
fn usage_error(
    e: &clap::Error,
    args: &[OsString],
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    use clap::error::ErrorKind;
    let text = e.render().to_string();
    let (path, commands) = command_path(args);
    let line = match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            // Output like any other: a closed pipe ends quietly, a full
            // disk is one line and exit 1.
            return match stdout
                .write_all(text.as_bytes())
                .and_then(|()| stdout.flush())
            {
                Ok(()) => 0,
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => EXIT_CLOSED_PIPE,
                Err(e) => {
                    let _ = writeln!(stderr, "error: cannot write the output: {e}");
                    1
                }
            };
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::MissingSubcommand => {
            format!(
                "error: '{path}' needs a command: {}; see '{path} --help'",
                commands.join(", ")
            )
        }
        _ => common::usage_line(&text, &path),
    };
    let _ = writeln!(stderr, "{line}");
    2
}

/// The (sub)command that `args` name, as `dalkon dakon solve`, and the
/// names of its own subcommands: found by walking clap's command tree, so
/// that flag values never count as commands.
fn command_path(args: &[OsString]) -> (String, Vec<String>) {
    use clap::CommandFactory;
    let mut command = Cli::command();
    let mut path = vec![command.get_name().to_owned()];
    for arg in args.iter().skip(1) {
        let Some(word) = arg.to_str() else { continue };
        let Some(sub) = command.find_subcommand(word).cloned() else {
            continue;
        };
        path.push(sub.get_name().to_owned());
        command = sub;
    }
    let subcommands = command
        .get_subcommands()
        .filter(|c| c.get_name() != "help")
        .map(|c| c.get_name().to_owned())
        .collect();
    (path.join(" "), subcommands)
}

/// Standard output, remembering the first write error (a closed pipe, a
/// full disk), so that it is reported as an output failure whatever the
/// command made of it.
struct Watched<'a> {
    inner: &'a mut (dyn Write + Send),
    failure: Option<(io::ErrorKind, String)>,
}

impl<'a> Watched<'a> {
    fn new(inner: &'a mut (dyn Write + Send)) -> Watched<'a> {
        Watched {
            inner,
            failure: None,
        }
    }

    fn watch<T>(&mut self, r: io::Result<T>) -> io::Result<T> {
        if let Err(e) = &r {
            self.failure.get_or_insert((e.kind(), e.to_string()));
        }
        r
    }
}

impl Write for Watched<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let r = self.inner.write(buf);
        self.watch(r)
    }

    fn flush(&mut self) -> io::Result<()> {
        let r = self.inner.flush();
        self.watch(r)
    }
}
