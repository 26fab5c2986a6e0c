//! Every example command of README.md and docs/*.md runs as shown (issue
//! 18 §4: the README tour verified a `south.strategy` it never made).
//!
//! **What is an example.** In a fenced block (```` ``` ````), a line
//! starting with `$ ` is a command, and the lines after it, up to the next
//! `$ ` line or the end of the block, are what it prints; among them, a
//! line starting with `> ` is what the user typed (fed to standard input,
//! in order). In an indented block (four spaces), a line starting with
//! `dalkon ` (or `$ dalkon `) is a command whose output is not shown. Only
//! commands that run `dalkon` are run here: `cargo`, `pip` and `python3`
//! lines are the build, CI and the Python package's own commands
//! (`scripts/python_tests.sh` runs those).
//!
//! **What is not an example.** A synopsis: a line that, outside its quoted
//! arguments, has a placeholder in capitals (`POS`, `N`, `D1,D2`), an
//! optional part in brackets (`[--format json]`), alternatives joined by
//! `|` with no space (`text|json`), or `..`/`…`.
//!
//! **How it runs.** Each page's examples run in order, with `bash -c` as
//! shown, `dalkon` on the PATH the binary under test, in one scratch folder
//! per page that holds a copy of the repository's `data/` and
//! `docs/examples/` (the game records the pages analyse) (as a fresh
//! clone does) and, for docs/cli.md, the strategy files its `verify`
//! examples name (docs/formats.md §3.3's `south.strategy` and the three
//! variants the page describes); `DALKON_DB_DIR` is `dalkon-db` in that
//! folder, the folder the pages' outputs name. A later example may use
//! what an earlier one wrote.
//!
//! **Exit codes.** 0, unless the command line ends with `# exit N`. An
//! example that shows an `error:` line must say its exit code so.
//!
//! **Output.** The lines shown must appear in the output (standard output,
//! then standard error), in order, each compared whole after trimming;
//! blank lines and lines `...`/`…` (parts left out) are skipped, and the
//! output may have more lines (the boards a game transcript leaves out).
//! A shown line with `...` or `…` in it matches a line holding its pieces
//! in order. Where the output is one line of JSON, the page may wrap it:
//! each shown line is then the next piece of that line. Figures that
//! change from run to run or machine to machine are masked on both sides
//! before comparing: a number followed by ` s`, ` nodes/s` or ` million a
//! second`, after `seconds` or `positions_per_second` (text or JSON), in
//! the last column of a table headed `seconds`, and the memory a
//! `MemAvailable` line says this machine has. The counts of a search's
//! work (a number followed by ` nodes,` or ` positions in the table`)
//! depend on how the threads shared it, so they are masked too, unless
//! the command runs on one thread (`--threads 1`), where they are fixed.
//!
//! **Long commands.** A command that takes too long for CI ends with a
//! comment saying so (`# takes about an hour`), and is listed in [`LONG`].
//! It runs for [`LONG_LIMIT`]: it must still be running then (no usage
//! error, nothing refused up front) or have finished with its exit code;
//! by then it must have printed no `error:` line and, where the page shows
//! its output, something (`reproduce`'s first step line on standard
//! error; `daldos solve` prints its table only at the end), and the lines
//! it printed must be the first lines shown.

use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::Scratch;

/// The pages, as the test binary was built.
const PAGES: &[(&str, &str)] = &[
    ("README.md", include_str!("../../../../README.md")),
    ("docs/README.md", include_str!("../../../../docs/README.md")),
    ("docs/cli.md", include_str!("../../../../docs/cli.md")),
    (
        "docs/formats.md",
        include_str!("../../../../docs/formats.md"),
    ),
    ("docs/mpi.md", include_str!("../../../../docs/mpi.md")),
    ("docs/python.md", include_str!("../../../../docs/python.md")),
    ("docs/rules.md", include_str!("../../../../docs/rules.md")),
    ("docs/solved.md", include_str!("../../../../docs/solved.md")),
    ("docs/web.md", include_str!("../../../../docs/web.md")),
    (
        "docs/daldos-eval.md",
        include_str!("../../../../docs/daldos-eval.md"),
    ),
];

/// The commands marked long (`# takes …`) on the pages, each checked for
/// [`LONG_LIMIT`] only.
const LONG: &[&str] = &[
    "dalkon reproduce --only daldos --format json",
    "dalkon daldos solve --board 4 --pieces 4,4",
    "dalkon daldos solve --board 4 --pieces 4,4 --check",
];

/// How long a long command runs before it is stopped.
const LONG_LIMIT: Duration = Duration::from_secs(4);

/// A command that is not long gets this much before the test fails.
const LIMIT: Duration = Duration::from_secs(60);

/// One example of a page.
#[derive(Debug)]
struct Example {
    line: usize,
    command: String,
    input: Vec<String>,
    shown: Vec<String>,
    exit: i32,
    long: bool,
}

/// The shell comment at the end of a command line, if any (a `#` after a
/// space, outside quotes).
fn comment(command: &str) -> Option<&str> {
    let mut quote = None;
    let mut prev = ' ';
    for (i, c) in command.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == '#' && prev.is_whitespace() => return Some(command[i + 1..].trim()),
            None => {}
        }
        prev = c;
    }
    None
}

/// The command line without its quoted arguments and trailing comment.
fn unquoted(command: &str) -> String {
    let mut out = String::new();
    let mut quote = None;
    let mut prev = ' ';
    for c in command.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == '#' && prev.is_whitespace() => break,
            None => out.push(c),
        }
        prev = c;
    }
    out
}

/// Whether a line is a synopsis (see the module's rule), not an example.
fn synopsis(command: &str) -> bool {
    let bare = unquoted(command);
    let chars: Vec<char> = bare.chars().collect();
    let alternatives = chars
        .windows(3)
        .any(|w| w[1] == '|' && !w[0].is_whitespace() && !w[2].is_whitespace());
    let placeholder = bare
        .split(|c: char| c.is_whitespace() || c == '=')
        .any(|w| {
            w.chars().any(|c| c.is_ascii_uppercase())
                && w.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == ',' || c == '_')
        });
    alternatives || placeholder || bare.contains('[') || bare.contains("..") || bare.contains('…')
}

/// Whether the command runs `dalkon` (alone, after a pipe or after `&&`).
fn runs_dalkon(command: &str) -> bool {
    command.starts_with("dalkon ")
        || command == "dalkon"
        || command.contains("| dalkon ")
        || command.contains("&& dalkon ")
}

fn example(line: usize, command: &str) -> Example {
    let note = comment(command).unwrap_or("");
    let exit = note
        .strip_prefix("exit ")
        .map(|n| n.trim().parse().expect("`# exit N` with a number"))
        .unwrap_or(0);
    Example {
        line,
        command: command.trim().to_owned(),
        input: Vec::new(),
        shown: Vec::new(),
        exit,
        long: note.starts_with("takes "),
    }
}

/// The examples of one page, in order.
fn examples(text: &str) -> Vec<Example> {
    let mut found: Vec<Example> = Vec::new();
    let mut fence = false;
    let mut open = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fence = !fence;
            open = false;
            continue;
        }
        if fence {
            if let Some(command) = line.strip_prefix("$ ") {
                open = runs_dalkon(command) && !synopsis(command);
                if open {
                    found.push(example(i + 1, command));
                }
            } else if open {
                let last = found.last_mut().unwrap();
                match line.strip_prefix("> ") {
                    Some(typed) => last.input.push(typed.to_owned()),
                    None => last.shown.push(line.to_owned()),
                }
            }
        } else if let Some(rest) = line.strip_prefix("    ") {
            let t = rest.trim_start();
            let t = t.strip_prefix("$ ").unwrap_or(t);
            if runs_dalkon(t) && !synopsis(t) {
                found.push(example(i + 1, t));
            }
        }
    }
    found
}

/// Mask the figures that change between runs and machines (see the
/// module's rule) with `#`. `seconds_column` says the line is in a table
/// whose header ends with `seconds`.
fn mask(line: &str, seconds_column: bool, work: bool) -> String {
    let memory_from = line
        .contains("MemAvailable")
        .then(|| line.find("but only").unwrap_or(0));
    let b = line.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    let mut last_number = None;
    while i < b.len() {
        let starts = b[i].is_ascii_digit()
            && (i == 0
                || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'.' || b[i - 1] == b'_'));
        if !starts {
            let c = line[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
            continue;
        }
        let mut j = i;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j + 1 < b.len() && b[j] == b'.' && b[j + 1].is_ascii_digit() {
            j += 1;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
        }
        if j < b.len() && (b[j] == b'e' || b[j] == b'E') {
            let mut k = j + 1;
            if k < b.len() && (b[k] == b'-' || b[k] == b'+') {
                k += 1;
            }
            if k < b.len() && b[k].is_ascii_digit() {
                while k < b.len() && b[k].is_ascii_digit() {
                    k += 1;
                }
                j = k;
            }
        }
        let after = &line[j..];
        let before = line[..i].trim_end_matches([' ', '=', ':', '"']);
        let unit_s = after
            .strip_prefix(" s")
            .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric()));
        let volatile = unit_s
            || after.starts_with(" nodes/s")
            || after.starts_with(" million a second")
            || (work
                && (after.starts_with(" nodes,") || after.starts_with(" positions in the table")))
            || before.ends_with("seconds")
            || before.ends_with("positions_per_second")
            || memory_from.is_some_and(|from| i > from);
        if volatile {
            out.push('#');
        } else {
            last_number = Some((out.len(), j - i, &line[i..j]));
            out.push_str(&line[i..j]);
        }
        i = j;
    }
    if seconds_column {
        if let Some((at, _, n)) = last_number {
            if out[at + n.len()..].trim().is_empty() {
                out.replace_range(at..at + n.len(), "#");
            }
        }
    }
    out
}

/// Trimmed, masked lines, with the `seconds` column of tables masked.
fn normalise<'a>(lines: impl Iterator<Item = &'a str>, prompts: bool, work: bool) -> Vec<String> {
    let mut seconds_column = false;
    let mut out = Vec::new();
    for line in lines {
        let mut t = line.trim();
        if prompts {
            while let Some(rest) = t.strip_prefix("> ") {
                t = rest.trim_start();
            }
            if t == ">" {
                t = "";
            }
        }
        if t.is_empty() {
            seconds_column = false;
            out.push(String::new());
            continue;
        }
        let masked = mask(t, seconds_column, work);
        if t.ends_with("seconds") {
            seconds_column = true;
        }
        out.push(masked);
    }
    out
}

/// Check that the shown lines appear in the output (the module's rule);
/// with `prefix`, only as far as the output goes. The error names the
/// first shown line not found. With `work`, the counts of a search's
/// work are masked as well (the command may run on several threads).
fn compare(
    shown: &[String],
    output: &str,
    prompts: bool,
    prefix: bool,
    work: bool,
) -> Result<(), String> {
    let want = normalise(shown.iter().map(String::as_str), false, work);
    let got = normalise(output.lines(), prompts, work);
    let (mut line, mut col) = (0usize, 0usize);
    // After a line `...`, the next piece of a JSON line may come later in it.
    let mut skipped = false;
    let mut last_match = 0;
    for w in &want {
        if w == "..." || w == "…" {
            skipped = true;
            continue;
        }
        if w.is_empty() {
            continue;
        }
        let pieces: Vec<&str> = w
            .split("...")
            .flat_map(|p| p.split('…'))
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .collect();
        let elided = pieces.len() != 1 || pieces[0] != w;
        let mut found = false;
        while line < got.len() {
            let g = &got[line];
            let json = g.starts_with('{') || g.starts_with('[');
            if json || elided {
                let mut at = col;
                let all = pieces.iter().all(|p| match g[at..].find(p) {
                    Some(k) if json && !elided && !skipped && k != 0 => false,
                    Some(k) => {
                        at += k + p.len();
                        true
                    }
                    None => false,
                });
                if all && (json || col == 0) {
                    if json && at < g.len() {
                        col = at;
                    } else {
                        line += 1;
                        col = 0;
                    }
                    found = true;
                    skipped = false;
                    break;
                }
            } else if col == 0 && g == w {
                last_match = line + 1;
                line += 1;
                found = true;
                break;
            }
            line += 1;
            col = 0;
        }
        if !found {
            if prefix && line >= got.len() {
                return Ok(());
            }
            return Err(format!(
                "the shown line {w:?} is not in the output after its line {}",
                last_match
            ));
        }
    }
    Ok(())
}

/// Wait for the child up to `limit`; `None` if it is still running then
/// (it is killed).
fn wait(child: &mut Child, limit: Duration) -> Option<i32> {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status.code().unwrap_or(128));
        }
        if start.elapsed() >= limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            // The untracked large proofs of `reproduce --full` are not in a
            // clone.
            if entry.file_name() != "proofs-large" {
                copy_tree(&entry.path(), &target);
            }
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// docs/formats.md §3.3's strategy file, and the variants docs/cli.md
/// checks beside it.
fn strategy_files(dir: &Path) {
    let formats = PAGES[3].1;
    let start = formats.find("<!-- strategy-example-0:begin -->").unwrap();
    let block = &formats[start..];
    let body = block.split("```").nth(1).unwrap().trim_start_matches('\n');
    std::fs::write(dir.join("south.strategy"), body).unwrap();
    assert!(body.contains("1,1/0,0 2\n") && body.contains("1,0/1,0 1\n"));
    std::fs::write(
        dir.join("worse.strategy"),
        body.replace("1,1/0,0 2\n", "1,1/0,0 1\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("missing.strategy"),
        body.replace("1,0/1,0 1\n", "")
            .replace("lines 4\n", "lines 3\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("rules.strategy"),
        body.replace(
            "origin=sow mikul=on nembak=keep",
            "mikul=on origin=sow nembak=keep",
        ),
    )
    .unwrap();
}

/// Run every example of one page; return the long commands met.
fn run_page(name: &str) -> Vec<String> {
    let text = PAGES.iter().find(|(n, _)| *n == name).unwrap().1;
    let dir = Scratch::new("docs");
    copy_tree(&repository().join("data"), &dir.path().join("data"));
    copy_tree(
        &repository().join("docs/examples"),
        &dir.path().join("docs/examples"),
    );
    if name == "docs/cli.md" {
        strategy_files(dir.path());
    }
    let bin = Path::new(env!("CARGO_BIN_EXE_dalkon"))
        .parent()
        .unwrap()
        .to_owned();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut long = Vec::new();
    let mut failures = Vec::new();
    for ex in examples(text) {
        let at = format!("{name}:{}: {}", ex.line, ex.command);
        let shows_error = ex.shown.iter().any(|l| l.starts_with("error:"));
        if shows_error && ex.exit == 0 {
            failures.push(format!("{at}: shows an error line but no `# exit N`"));
        }
        let mut child = Command::new("bash")
            .arg("-c")
            .arg(&ex.command)
            .current_dir(dir.path())
            .env("PATH", &path)
            .env("DALKON_DB_DIR", "dalkon-db")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let input: String = ex.input.iter().map(|l| format!("{l}\n")).collect();
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
        let mut stdout = child.stdout.take().unwrap();
        let mut stderr = child.stderr.take().unwrap();
        let out = std::thread::spawn(move || {
            let mut s = Vec::new();
            let _ = stdout.read_to_end(&mut s);
            s
        });
        let err = std::thread::spawn(move || {
            let mut s = Vec::new();
            let _ = stderr.read_to_end(&mut s);
            s
        });
        let code = wait(&mut child, if ex.long { LONG_LIMIT } else { LIMIT });
        writer.join().unwrap();
        let output = format!(
            "{}{}",
            String::from_utf8_lossy(&out.join().unwrap()),
            String::from_utf8_lossy(&err.join().unwrap())
        );
        match code {
            None if ex.long => {
                // Started as it should: no error, and where the page shows
                // output, something printed (`reproduce`'s first step line).
                let silent = output.trim().is_empty() && ex.shown.iter().any(|l| !l.is_empty());
                if silent || output.lines().any(|l| l.starts_with("error:")) {
                    failures.push(format!("{at}: no start within {LONG_LIMIT:?}\n{output}"));
                }
                long.push(unquoted(&ex.command).trim().to_owned());
            }
            None => failures.push(format!("{at}: still running after {LIMIT:?}")),
            Some(code) if code != ex.exit => {
                failures.push(format!("{at}: exit {code}, not {}\n{output}", ex.exit));
            }
            Some(_) => {}
        }
        let work = !ex.command.contains("--threads 1 ");
        if let Err(e) = compare(
            &ex.shown,
            &output,
            !ex.input.is_empty(),
            code.is_none(),
            work,
        ) {
            failures.push(format!("{at}: {e}\n--- output:\n{output}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    long
}

/// The long commands of one page must be exactly those of [`LONG`] that
/// it holds (so that the list and the pages' marks agree).
fn check_long(name: &str, long: Vec<String>) {
    let text = PAGES.iter().find(|(n, _)| *n == name).unwrap().1;
    let marked: BTreeSet<String> = examples(text)
        .into_iter()
        .filter(|e| e.long)
        .map(|e| unquoted(&e.command).trim().to_owned())
        .collect();
    for m in &marked {
        assert!(
            LONG.contains(&m.as_str()),
            "{name}: {m} is marked long but not in LONG"
        );
    }
    let ran: BTreeSet<String> = long.into_iter().collect();
    assert!(ran.is_subset(&marked));
}

#[test]
fn every_page_is_read() {
    let mut names: Vec<String> = std::fs::read_dir(repository().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    names.push("README.md".to_owned());
    names.sort();
    let mut pages: Vec<String> = PAGES.iter().map(|(n, _)| (*n).to_owned()).collect();
    pages.sort();
    assert_eq!(names, pages);
    let all: BTreeSet<String> = PAGES
        .iter()
        .flat_map(|(_, t)| examples(t))
        .filter(|e| e.long)
        .map(|e| unquoted(&e.command).trim().to_owned())
        .collect();
    let listed: BTreeSet<String> = LONG.iter().map(|s| (*s).to_owned()).collect();
    assert_eq!(
        all, listed,
        "the commands marked `# takes …` and LONG differ"
    );
}

#[test]
fn the_rules_of_the_test_tell_examples_from_synopses() {
    assert!(synopsis(
        "dalkon daldos moves --position POS --dice D1,D2 [rule flags]"
    ));
    assert!(synopsis("dalkon daldos table|odds|moves"));
    assert!(synopsis(
        "dalkon dakon play --position POS --moves H1,H2,..."
    ));
    assert!(!synopsis(
        "dalkon daldos moves --position 'AAAA/...../BBBB a' --dice 1,1"
    ));
    assert!(!synopsis("printf 'a\\n' | dalkon dakon best --position -"));
    assert!(!synopsis(
        "dalkon dakon solve --holes 3 --seedz 2   # exit 2"
    ));
    assert_eq!(example(1, "dalkon x   # exit 2").exit, 2);
    assert!(example(1, "dalkon x   # takes about an hour").long);
    assert_eq!(mask("seconds     0.028", false, true), "seconds     #");
    assert_eq!(
        mask("52 nodes in 0.000 s (186514 nodes/s)", false, false),
        "52 nodes in # s (# nodes/s)"
    );
    assert_eq!(
        mask("{\"seconds\":4.9e-6,\"value\":8}", false, false),
        "{\"seconds\":#,\"value\":8}"
    );
    assert_eq!(mask("1 v 1   237   0.015", true, false), "1 v 1   237   #");
    assert_eq!(
        mask("13 nodes, 8 positions in the table, 0.006 s", false, true),
        "# nodes, # positions in the table, # s"
    );
    assert_eq!(
        mask("13 nodes, 8 positions in the table, 0.006 s", false, false),
        "13 nodes, 8 positions in the table, # s"
    );
    let shown = ["{\"a\":1,".to_owned(), " \"b\":2}".to_owned()];
    assert!(compare(&shown, "{\"a\":1,\"b\":2}\n", false, false, false).is_ok());
    assert!(compare(&shown, "{\"a\":1,\"c\":3,\"b\":2}\n", false, false, false).is_err());
    let shown = ["value +8".to_owned(), "...".to_owned(), "pv 1 2".to_owned()];
    assert!(compare(&shown, "value +8\nmore\npv 1 2\n", false, false, false).is_ok());
    assert!(compare(&shown, "value +9\npv 1 2\n", false, false, false).is_err());
}

#[test]
fn the_readme_runs_as_shown() {
    let long = run_page("README.md");
    check_long("README.md", long);
}

#[test]
fn docs_cli_runs_as_shown() {
    let long = run_page("docs/cli.md");
    check_long("docs/cli.md", long);
}

#[test]
fn docs_rules_formats_solved_python_run_as_shown() {
    for page in [
        "docs/README.md",
        "docs/rules.md",
        "docs/formats.md",
        "docs/solved.md",
        "docs/python.md",
        "docs/daldos-eval.md",
    ] {
        let long = run_page(page);
        check_long(page, long);
    }
}

/// Every board drawing in docs/rules.md is the program's: a block that
/// holds a drawing (a Daldøs row arrow `|  --> toward the stern`, or a
/// Dakon `South store`) starts with the `$ dalkon` command that draws it,
/// and the lines shown are that command's standard output exactly, line
/// for line (trailing spaces aside): no part left out, nothing masked.
#[test]
fn the_drawings_of_rules_md_are_the_programs() {
    let text = PAGES.iter().find(|(n, _)| *n == "docs/rules.md").unwrap().1;
    let blocks: Vec<&str> = text.split("```").skip(1).step_by(2).collect();
    let drawings: Vec<&str> = blocks
        .into_iter()
        .filter(|b| b.contains("|  --> toward the stern") || b.contains("South store"))
        .collect();
    assert!(drawings.len() >= 4, "{}", drawings.len());
    let dir = Scratch::new("drawings");
    std::fs::create_dir_all(dir.path()).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_dalkon"))
        .parent()
        .unwrap()
        .to_owned();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for block in drawings {
        let mut lines = block.trim_start_matches('\n').lines();
        let first = lines.next().unwrap();
        let command = first
            .strip_prefix("$ ")
            .unwrap_or_else(|| panic!("a drawing in docs/rules.md without its command: {first:?}"));
        assert!(
            command.starts_with("dalkon ") && !block[first.len()..].contains("\n$ "),
            "{command}: one dalkon command a drawing"
        );
        let out = Command::new("bash")
            .arg("-c")
            .arg(command)
            .current_dir(dir.path())
            .env("PATH", &path)
            .env("DALKON_DB_DIR", "dalkon-db")
            .output()
            .unwrap();
        assert!(out.status.success(), "{command}");
        let got: Vec<String> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| l.trim_end().to_owned())
            .collect();
        let shown: Vec<String> = lines.map(|l| l.trim_end().to_owned()).collect();
        let trim = |v: &[String]| {
            let end = v.iter().rposition(|l| !l.is_empty()).map_or(0, |i| i + 1);
            v[..end].to_vec()
        };
        assert_eq!(trim(&shown), trim(&got), "{command}: the drawing differs");
    }
}
