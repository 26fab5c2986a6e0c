//! Batch mode (`--position -`, docs/cli.md): one position per line on
//! standard input, exactly one JSON line out per line in, in order — the
//! answer, or `{"line":k,"error":"..."}` for a line that cannot be read or
//! answered. A bad line never stops the batch; the run fails at the end
//! (exit 2 for bad input, 1 if a line failed for another reason).
//!
//! Lines are read as bytes, one at a time, and at most 1 MiB of each is
//! kept (a longer line is one bad line, its rest skipped unstored); each
//! answer is flushed before the next line is read: memory stays flat over
//! any number of lines of any length, and a reader sees each answer as
//! soon as it is known.

use std::io::{BufRead, Write};

use serde_json::json;

use crate::errors::{exit_code, one_line, Exit};
use crate::input::{next_line, skip_rest, Input, TOO_LONG};

/// How a batch went: the lines read, and those that got an error line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tally {
    /// Lines read.
    pub lines: u64,
    /// Lines answered with `{"line":k,"error":...}` for bad input.
    pub bad: u64,
    /// Lines whose answer failed for another reason (memory, files).
    pub failed: u64,
}

/// Answer every line of `input` with `answer` (given the line's text,
/// trimmed) and write one JSON line per input line to `out`.
pub fn run(
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    mut answer: impl FnMut(&str) -> anyhow::Result<serde_json::Value>,
) -> anyhow::Result<Tally> {
    let mut tally = Tally::default();
    let mut buf = Vec::new();
    loop {
        let line = next_line(input, &mut buf)?;
        let k = tally.lines + 1;
        let reply = match line {
            Input::End => break,
            Input::TooLong => {
                tally.bad += 1;
                json!({"line": k, "error": TOO_LONG})
            }
            Input::NotUtf8 { byte } => {
                tally.bad += 1;
                json!({"line": k, "error": format!("not UTF-8 text (byte {byte} is not valid UTF-8)")})
            }
            Input::Text(text) => match answer(text.trim()) {
                Ok(v) => v,
                Err(e) => {
                    if exit_code(&e) == 2 {
                        tally.bad += 1;
                    } else {
                        tally.failed += 1;
                    }
                    json!({"line": k, "error": one_line(&e)})
                }
            },
        };
        tally.lines = k;
        writeln!(out, "{reply}")?;
        out.flush()?;
        if line == Input::TooLong {
            // Answered first: a reader waiting on the reply gets it now.
            skip_rest(input)?;
        }
    }
    if tally.bad + tally.failed > 0 {
        let mut message = format!("{} of {} input lines were bad", tally.bad, tally.lines);
        if tally.failed > 0 {
            message.push_str(&format!(" and {} failed", tally.failed));
        }
        message.push_str("; each got an error line");
        // Worst first: a line that failed for another reason than its input.
        let code = if tally.failed > 0 { 1 } else { 2 };
        return Err(Exit { code, message }.into());
    }
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(text: &str) -> anyhow::Result<serde_json::Value> {
        let n: i64 = text.parse().map_err(|_| {
            anyhow::anyhow!("not a number: {}", dalkon_render::error_line::quote(text))
        })?;
        Ok(json!({ "double": 2 * n }))
    }

    #[test]
    fn every_line_gets_one_answer_in_order() {
        let mut input: &[u8] = b"1\nx\n\n3\r\n\xff\xfe\n4";
        let mut out = Vec::new();
        let err = run(&mut input, &mut out, answer).unwrap_err();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines,
            [
                r#"{"double":2}"#,
                r#"{"error":"not a number: \"x\"","line":2}"#,
                r#"{"error":"not a number: \"\"","line":3}"#,
                r#"{"double":6}"#,
                r#"{"error":"not UTF-8 text (byte 1 is not valid UTF-8)","line":5}"#,
                r#"{"double":8}"#,
            ]
        );
        assert_eq!(exit_code(&err), 2);
        assert_eq!(
            one_line(&err),
            "3 of 6 input lines were bad; each got an error line"
        );
    }

    #[test]
    fn an_overlong_line_is_one_bad_line_and_the_batch_goes_on() {
        let mut bytes = b"1\n".to_vec();
        bytes.extend(std::iter::repeat_n(b'7', 3 << 20));
        bytes.extend(b"\n2\n");
        let mut input = std::io::BufReader::with_capacity(4096, &bytes[..]);
        let mut out = Vec::new();
        let err = run(&mut input, &mut out, answer).unwrap_err();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"double\":2}\n{\"error\":\"line longer than 1 MiB (1048576 bytes)\",\"line\":2}\n{\"double\":4}\n"
        );
        assert_eq!(exit_code(&err), 2);
        assert_eq!(
            one_line(&err),
            "1 of 3 input lines were bad; each got an error line"
        );
    }

    #[test]
    fn a_clean_batch_succeeds() {
        let mut input: &[u8] = b"5\n6\n";
        let mut out = Vec::new();
        let tally = run(&mut input, &mut out, answer).unwrap();
        assert_eq!(tally.lines, 2);
        assert_eq!(out, b"{\"double\":10}\n{\"double\":12}\n");
    }
}
