//! The `dalkon` binary: the real standard streams handed to
//! [`dalkon_cli::run`], whose exit code is the process's.

use std::io::{BufReader, BufWriter, LineWriter};

fn main() {
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
