//! The `dalkon` binary: the real standard streams handed to
//! [`dalkon_cli::run`], whose exit code is the process's. On SIGINT, SIGTERM
//! or SIGHUP the files being written are abandoned and their temporaries
//! removed, so an interrupted build leaves only complete files behind.

use std::io::{BufReader, BufWriter, LineWriter};

/// Exit code after an interrupting signal (128 + SIGINT, as shells report).
const EXIT_INTERRUPTED: i32 = 130;

fn main() {
    // If the handler cannot be installed the run goes on: a temporary left
    // by an interruption is removed by the next run of the same build.
    let _ = ctrlc::set_handler(|| {
        dalkon_store::atomic::remove_live_temporaries();
        std::process::exit(EXIT_INTERRUPTED);
    });
    let mut stdin = BufReader::new(std::io::stdin());
    let mut stdout = BufWriter::new(std::io::stdout());
    let mut stderr = LineWriter::new(std::io::stderr());
    let code = dalkon_cli::run(
        std::env::args_os(),
        dalkon_cli::Streams {
            stdin: &mut stdin,
            stdout: &mut stdout,
            stderr: &mut stderr,
        },
    );
    drop(stdout);
    std::process::exit(code);
}
