//! Standard streams: batch mode (one answer line per input line, bad lines
//! answered and the batch going on), a closed pipe, a full disk, and the
//! thread bound — none of them a panic.

use std::io::Write;
use std::process::{Command, Stdio};

use super::run;

#[test]
fn batch_answers_every_line_in_order_and_exits_2_at_the_end() {
    let input = "4,4/4,4/0,0 0\nbad\n\n1,2/2,1/0,0 1\n";
    let mut bytes = input.as_bytes().to_vec();
    bytes.extend_from_slice(b"\xff\xfe\n1,2/2,1/0,0 0\n");
    let out = run_bytes(&["dakon", "best", "--position", "-"], &bytes);
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 6, "{text}");
    assert_eq!(lines[0]["value"], 12);
    assert_eq!(lines[1]["line"], 2);
    assert!(lines[1]["error"]
        .as_str()
        .unwrap()
        .starts_with("bad position \"bad\""));
    assert_eq!(lines[2]["line"], 3);
    assert_eq!(lines[3]["value"], 6);
    assert_eq!(lines[4]["line"], 5);
    assert_eq!(
        lines[4]["error"],
        "not UTF-8 text (byte 1 is not valid UTF-8)"
    );
    assert_eq!(lines[5]["value"], 6);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: 3 of 6 input lines were bad; each got an error line\n"
    );
}

/// `first`, a line of `len` bytes with no end in sight, then `last`.
fn with_an_overlong_line(first: &str, len: usize, last: &str) -> Vec<u8> {
    let mut bytes = format!("{first}\n").into_bytes();
    bytes.resize(bytes.len() + len, b'1');
    bytes.extend_from_slice(format!("\n{last}\n").as_bytes());
    bytes
}

#[test]
fn an_overlong_line_gets_one_error_line_and_the_batch_goes_on() {
    for (args, first, last) in [
        (
            &["dakon", "best", "--position", "-"][..],
            "4,4/4,4/0,0 0",
            "1,2/2,1/0,0 0",
        ),
        (
            &["daldos", "moves", "--position", "-", "--dice", "1,1"][..],
            "AAAA/...../BBBB a",
            "AAAA/...../BBBB a",
        ),
    ] {
        let out = run_bytes(args, &with_an_overlong_line(first, 3 << 20, last));
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{args:?}: {text}");
        assert_eq!(
            lines[1],
            r#"{"error":"line longer than 1 MiB (1048576 bytes)","line":2}"#
        );
        let answers: Vec<serde_json::Value> = [lines[0], lines[2]]
            .iter()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert!(answers.iter().all(|a| a.get("error").is_none()), "{text}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "error: 1 of 3 input lines were bad; each got an error line\n"
        );
    }
    // A line of exactly 1 MiB is still a line (here a bad position).
    let out = run_bytes(
        &["dakon", "best", "--position", "-"],
        &with_an_overlong_line("4,4/4,4/0,0 0", 1 << 20, "1,2/2,1/0,0 0"),
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.lines()
            .nth(1)
            .unwrap()
            .starts_with(r#"{"error":"bad position"#),
        "{}",
        &text[..200]
    );
}

#[test]
fn daldos_batches_too() {
    let out = run_bytes(
        &["daldos", "moves", "--position", "-", "--dice", "1,1"],
        b"AAAA/...../BBBB a\n..../...../.... a\n",
    );
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(
        lines[0].starts_with(r#"{"plays":[{"play":"A4-M4 A3-A4""#),
        "{}",
        lines[0]
    );
    assert_eq!(
        lines[1],
        r#"{"error":"--position \"..../...../.... a\": no pieces on the board: a position needs at least one piece of either side","line":2}"#
    );
}

#[test]
fn error_lines_quote_at_most_80_characters() {
    let long = "7,".repeat(50_000);
    let out = run(&["dakon", "best", "--position", &long], None);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1);
    assert!(err.len() < 400, "{} bytes: {err}", err.len());
    assert!(err.contains("… (100000 characters)"), "{err}");
}

/// Library errors print paths in full; the error line cuts every word
/// (a run without white space) to 80 characters: a 300-character
/// `--db-dir` or file argument is quoted in its first 80 and its length.
#[test]
fn long_paths_in_error_lines_are_cut_to_80_characters() {
    let long = format!("/nonexistent-dalkon/{}", vec!["d".repeat(49); 6].join("/"));
    assert!(long.len() >= 300);
    let file = format!("{long}/x.strategy");
    let db = format!("/dev/null/{long}");
    let cases: [(Vec<&str>, i32); 3] = [
        (vec!["dakon", "verify", &file], 2),
        (
            vec![
                "dakon",
                "solve",
                "--holes",
                "3",
                "--seeds",
                "3",
                "--method",
                "retrograde",
                "--db-dir",
                &db,
            ],
            1,
        ),
        (
            vec![
                "daldos",
                "value",
                "--position",
                "Aa../...../Bb.. a",
                "--db-dir",
                &long,
            ],
            2,
        ),
    ];
    for (args, code) in cases {
        let out = run(&args, None);
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(" characters)"), "{err}");
        assert!(!err.contains(&long[..81]), "{err}");
        for word in err.split_whitespace() {
            assert!(word.chars().count() <= 81 || word.contains('…'), "{word}");
        }
    }
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dalkon"))
        .args(["dakon", "best", "--position", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The reader goes away before anything is written.
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all("1,2/2,1/0,0 0\n".repeat(1000).as_bytes());
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(141));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_full_disk_is_one_error_line() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // not Linux
    };
    let out = Command::new(env!("CARGO_BIN_EXE_dalkon"))
        .args(["daldos", "table", "--board", "norwegian"])
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: cannot write the output: No space left on device (os error 28)\n"
    );
}

/// `--help` and `--version` are output like any other: to a full disk one
/// line and exit 1 (they exited 0), to a closed pipe 141 and no line.
#[test]
fn help_and_version_report_output_they_cannot_write() {
    for args in [
        &["--help"][..],
        &["--version"],
        &["dakon", "best", "--help"],
    ] {
        let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
            return; // not Linux
        };
        let out = Command::new(env!("CARGO_BIN_EXE_dalkon"))
            .args(args)
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "error: cannot write the output: No space left on device (os error 28)\n"
        );
        // The reader (`true`) is gone before anything is written: the
        // writer starts a moment after it, whatever the machine's load.
        let out = Command::new("bash")
            .arg("-c")
            .arg(r#"(sleep 0.3; exec "$0" "$@") | true; echo "${PIPESTATUS[0]}""#)
            .arg(env!("CARGO_BIN_EXE_dalkon"))
            .args(args)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), "141\n", "{args:?}");
        assert!(out.stderr.is_empty());
    }
}

#[test]
fn threads_are_bounded() {
    let play = |n: &str| {
        run(
            &[
                "dakon",
                "play",
                "--position",
                "1/1/0,0 0",
                "--moves",
                "1",
                "--threads",
                n,
            ],
            None,
        )
    };
    for n in ["0", "257", "100000", "-1", "x"] {
        let out = play(n);
        assert_eq!(out.status.code(), Some(2), "--threads {n}");
        assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
    }
    assert_eq!(play("256").status.code(), Some(0));
}

/// `RAYON_NUM_THREADS` is checked as `--threads` is: 100000 started
/// thousands of threads and never finished. Without `--threads` a bad
/// value is refused in one line naming the variable (exit 2); a good one
/// is used; `--threads` overrides it.
#[test]
fn rayon_num_threads_is_bounded_too() {
    let solve = |value: &str, threads: Option<&str>| {
        let mut args = vec![
            "dakon", "solve", "--holes", "3", "--seeds", "3", "--method", "search",
        ];
        if let Some(n) = threads {
            args.extend(["--threads", n]);
        }
        Command::new(env!("CARGO_BIN_EXE_dalkon"))
            .args(&args)
            .env("RAYON_NUM_THREADS", value)
            .env("DALKON_DB_DIR", super::Scratch::new("rayon").path())
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    for value in ["100000", "0", "abc", "257", "-1"] {
        let out = solve(value, None);
        assert_eq!(out.status.code(), Some(2), "RAYON_NUM_THREADS={value}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!(
                "error: RAYON_NUM_THREADS=\"{value}\" is not a number of worker threads: \
                 it must be a whole number from 1 to 256, or unset\n"
            )
        );
        assert!(out.stdout.is_empty());
        assert_eq!(
            solve(value, Some("2")).status.code(),
            Some(0),
            "--threads 2"
        );
    }
    for value in ["1", "256", ""] {
        let out = solve(value, None);
        assert_eq!(out.status.code(), Some(0), "RAYON_NUM_THREADS={value}");
        assert!(String::from_utf8_lossy(&out.stdout).contains("value       +10"));
    }
}

/// Run with raw bytes on stdin.
pub fn run_bytes(args: &[&str], stdin: &[u8]) -> std::process::Output {
    // Tables and databases in a scratch folder, never the user's.
    let db = super::Scratch::new("bytes");
    let mut child = Command::new(env!("CARGO_BIN_EXE_dalkon"))
        .args(args)
        .env("DALKON_DB_DIR", db.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

/// Stopped by SIGINT while it builds databases, a solve removes the
/// temporary it was writing: only complete levels are left (exit 130).
#[test]
fn an_interrupted_build_leaves_no_temporary() {
    let dir = super::Scratch::new("sigint");
    let mut child = Command::new(env!("CARGO_BIN_EXE_dalkon"))
        .args([
            "dakon",
            "solve",
            "--holes",
            "4",
            "--seeds",
            "4",
            "--method",
            "retrograde",
            "--db-dir",
            dir.str(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the build has written its first levels, then interrupt it
    // in the middle (the whole build takes several seconds).
    let started = std::time::Instant::now();
    while std::fs::read_dir(dir.path()).map_or(0, |d| d.count()) < 10 {
        assert!(started.elapsed().as_secs() < 60, "the build wrote no level");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| n.ends_with(".db")), "{names:?}");
    assert!(names.len() < 33, "the build finished before the signal");
}
