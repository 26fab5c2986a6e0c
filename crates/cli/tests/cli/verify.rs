//! `dalkon dakon verify FILE` against docs/cli.md: exit 0 when the
//! strategy holds, 1 when it does not (the JSON answer still on stdout,
//! the place it breaks on stderr), 2 for a file that cannot be read.

use serde_json::Value;

use super::{has_fields, run, Scratch};

/// South's file of docs/formats.md §3.3: `1,1/0,2/0,0 0` is worth +2.
const SOUTH: &str = "dalkon-strategy 1
game dakon
rules origin=sow mikul=on nembak=keep
root 1,1/0,2/0,0 0
player 0
guarantees 2
lines 4
1,0/0,0 1
1,0/1,0 1
1,1/0,0 2
1,1/0,2 1
";

/// Write `text` to a file `name` under `dir`, and return its path.
fn file(dir: &Scratch, name: &str, bytes: &[u8]) -> String {
    std::fs::create_dir_all(dir.path()).unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_owned()
}

/// Run `verify` on `path` with `--format json`: exit code, JSON, stderr.
fn verify_json(path: &str) -> (Option<i32>, Value, String) {
    let out = run(&["dakon", "verify", path, "--format", "json"], None);
    let json = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (
        out.status.code(),
        json,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_strategy_that_holds_exits_0_with_the_contract_fields() {
    let dir = Scratch::new("verify-ok");
    let path = file(&dir, "south.strategy", SOUTH.as_bytes());
    let (code, v, err) = verify_json(&path);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
    has_fields(
        &v,
        &[
            "valid",
            "player",
            "guarantees",
            "proved",
            "positions_checked",
            "lines",
            "unused_lines",
        ],
    );
    assert_eq!(
        (
            &v["valid"],
            &v["player"],
            &v["guarantees"],
            &v["proved"],
            &v["positions_checked"],
            &v["lines"],
            &v["unused_lines"],
            &v["failure"]
        ),
        (
            &Value::Bool(true),
            &Value::from(0),
            &Value::from(2),
            &Value::from(2),
            &Value::from(5),
            &Value::from(4),
            &Value::from(0),
            &Value::Null
        )
    );

    // The same file compressed, under a name that does not say so.
    let gz = dalkon_strategy::Strategy::parse(SOUTH.as_bytes())
        .unwrap()
        .to_gzip()
        .unwrap();
    let path = file(&dir, "south.txt", &gz);
    let (code, v, _) = verify_json(&path);
    assert_eq!((code, &v["proved"]), (Some(0), &Value::from(2)));

    let out = run(&["dakon", "verify", &path], None);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0));
    assert!(text.contains("proved       +2\n"), "{text}");
    assert!(text.contains("lines        4, 0 never reached\n"), "{text}");
    assert!(
        text.ends_with("valid: South (0) secures at least +2\n"),
        "{text}"
    );
}

#[test]
fn a_strategy_that_does_not_hold_exits_1_and_says_where() {
    let dir = Scratch::new("verify-bad");
    let worse = SOUTH.replace("1,1/0,0 2", "1,1/0,0 1");
    let (code, v, err) = verify_json(&file(&dir, "worse.strategy", worse.as_bytes()));
    assert_eq!(code, Some(1));
    assert_eq!(
        err,
        "error: the strategy does not hold: it secures only 0, not the 2 it claims: a worst game is 1 1 1 1\n"
    );
    assert_eq!(
        (&v["valid"], &v["proved"], &v["unused_lines"]),
        (&Value::Bool(false), &Value::from(0), &Value::from(1))
    );
    assert_eq!(v["failure"]["kind"], "below_guarantee");
    assert_eq!(v["failure"]["path"], serde_json::json!([1, 1, 1, 1]));

    let missing = SOUTH
        .replace("1,0/1,0 1\n", "")
        .replace("lines 4", "lines 3");
    let path = file(&dir, "missing.strategy", missing.as_bytes());
    let (code, v, err) = verify_json(&path);
    assert_eq!(code, Some(1));
    assert_eq!(
        err,
        "error: the strategy does not hold: after moves 1 2 the position 1,0/1,0/1,1 0 has no line\n"
    );
    assert_eq!(v["failure"]["kind"], "missing_line");
    assert_eq!(v["failure"]["position"], "1,0/1,0/1,1 0");
    assert_eq!(v["proved"], -4);

    // Text output: the summary on stdout, the one line on stderr.
    let out = run(&["dakon", "verify", &path], None);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.ends_with("not valid: the strategy does not hold (see the error line)\n"),
        "{text}"
    );
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
}

#[test]
fn a_file_that_cannot_be_read_exits_2() {
    let dir = Scratch::new("verify-malformed");
    let rules = SOUTH.replace("origin=sow mikul=on", "mikul=on origin=sow");
    let path = file(&dir, "rules.strategy", rules.as_bytes());
    let out = run(&["dakon", "verify", &path, "--format", "json"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("error: {path}: line 3: bad rules line \"mikul=on origin=sow nembak=keep\": expected `origin=… mikul=… nembak=…` (all three, in this order), got \"mikul=on origin=sow nembak=keep\"\n")
    );

    let gz = dalkon_strategy::Strategy::parse(SOUTH.as_bytes())
        .unwrap()
        .to_gzip()
        .unwrap();
    let path = file(&dir, "cut.strategy.gz", &gz[..gz.len() / 2]);
    let out = run(&["dakon", "verify", &path], None);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "error: {path}: the gzip stream cannot be read to its end: incomplete deflate stream\n"
        )
    );

    let absent = dir.path().join("absent.strategy");
    let out = run(&["dakon", "verify", absent.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with(&format!("error: cannot read {}: ", absent.display())),
        "{err}"
    );
    let out = run(&["dakon", "verify", &path, "--format", "csv"], None);
    assert_eq!(out.status.code(), Some(2));
}

/// Run `verify` on `path` (text): exit code and stderr.
fn verify_err(path: &str) -> (Option<i32>, String) {
    let out = run(&["dakon", "verify", path], None);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn an_overlong_line_or_a_gzip_bomb_is_refused_at_its_first_line() {
    let dir = Scratch::new("verify-long");
    let long = file(&dir, "long.strategy", &vec![b'1'; 10 << 20]);
    assert_eq!(
        verify_err(&long),
        (
            Some(2),
            format!("error: {long}: line 1 is longer than 65536 bytes, the most a line of a strategy file may have\n")
        )
    );
    // 200 MB of zeros in about 200 KB: refused on line 1, not inflated
    // (the strategy crate's tests count the bytes read).
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..200 {
        std::io::Write::write_all(&mut gz, &zeros).unwrap();
    }
    let bomb = file(&dir, "bomb.strategy.gz", &gz.finish().unwrap());
    assert_eq!(
        verify_err(&bomb),
        (
            Some(2),
            format!("error: {bomb}: line 1 is longer than 65536 bytes, the most a line of a strategy file may have\n")
        )
    );
    // A device is never read: /dev/zero would be an endless line.
    assert_eq!(
        verify_err("/dev/zero"),
        (
            Some(2),
            "error: cannot read /dev/zero: it is a device, not a regular file\n".to_owned()
        )
    );
}

#[test]
fn more_lines_than_declared_are_refused_at_the_first_extra_line() {
    let dir = Scratch::new("verify-extra");
    let path = file(
        &dir,
        "extra.strategy",
        SOUTH.replace("lines 4", "lines 2").as_bytes(),
    );
    assert_eq!(
        verify_err(&path),
        (
            Some(2),
            format!(
                "error: {path}: line 10: one strategy line more than the `lines 2` of line 7\n"
            )
        )
    );
}

#[test]
fn a_file_with_windows_line_ends_gets_the_same_verdict() {
    let dir = Scratch::new("verify-crlf");
    let lf = file(&dir, "lf.strategy", SOUTH.as_bytes());
    let crlf = file(
        &dir,
        "crlf.strategy",
        SOUTH.replace('\n', "\r\n").as_bytes(),
    );
    let (code_lf, mut v_lf, _) = verify_json(&lf);
    let (code_crlf, mut v_crlf, err) = verify_json(&crlf);
    assert_eq!((code_lf, code_crlf), (Some(0), Some(0)), "{err}");
    for v in [&mut v_lf, &mut v_crlf] {
        v.as_object_mut().unwrap().remove("seconds");
        v.as_object_mut().unwrap().remove("positions_per_second");
    }
    assert_eq!(v_crlf, v_lf);
    assert_eq!(v_crlf["valid"], true);
}
