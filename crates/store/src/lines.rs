//! Reading text one line at a time with a bound on the line's length, for
//! every reader of untrusted lines: the CLI's batch mode and `game` loops
//! (standard input) and the strategy-file reader. `BufRead::read_until`
//! keeps whatever comes until the next `\n`, so one endless line (`tr '\0'
//! 1 </dev/zero`, a gzip bomb) grows memory without end; here a line
//! longer than the bound is reported as soon as the bound is passed, with
//! at most the bound (plus one byte) consumed and nothing beyond it stored.

use std::io::{self, BufRead};

/// What [`read_line`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineRead {
    /// A line, now in the buffer without its `\n` (the last line of the
    /// input may have none).
    Line,
    /// The end of the input: no byte was left.
    End,
    /// A line longer than the bound: the buffer holds its first `max`
    /// bytes and the input is just past byte `max + 1` of the line; call
    /// [`skip_line`] to go on with the next line.
    TooLong,
}

/// Read the next line of `input` into `buf` (cleared first), without its
/// `\n`, as long as it has at most `max` bytes (the `\n` not counted).
pub fn read_line<R: BufRead + ?Sized>(
    input: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
) -> io::Result<LineRead> {
    buf.clear();
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            // The end of the input ends the last line, if it had a byte.
            return Ok(if buf.is_empty() {
                LineRead::End
            } else {
                LineRead::Line
            });
        }
        let newline = available.iter().position(|&b| b == b'\n');
        let content = newline.unwrap_or(available.len());
        let room = max - buf.len();
        if content > room {
            buf.extend_from_slice(&available[..room]);
            // One byte past the bound: the evidence that the line is longer.
            input.consume(room + 1);
            return Ok(LineRead::TooLong);
        }
        buf.extend_from_slice(&available[..content]);
        match newline {
            Some(_) => {
                input.consume(content + 1);
                return Ok(LineRead::Line);
            }
            None => input.consume(content),
        }
    }
}

/// Skip the rest of the current line, its `\n` included, storing nothing;
/// returns the bytes skipped. On an endless line this never returns, but
/// memory stays flat.
pub fn skip_line<R: BufRead + ?Sized>(input: &mut R) -> io::Result<u64> {
    let mut skipped = 0u64;
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(skipped);
        }
        match available.iter().position(|&b| b == b'\n') {
            Some(i) => {
                input.consume(i + 1);
                return Ok(skipped + i as u64 + 1);
            }
            None => {
                let n = available.len();
                input.consume(n);
                skipped += n as u64;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Read};

    fn lines(input: &[u8], max: usize, capacity: usize) -> Vec<(LineRead, Vec<u8>)> {
        let mut r = BufReader::with_capacity(capacity, input);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        loop {
            let got = read_line(&mut r, &mut buf, max).unwrap();
            out.push((got, buf.clone()));
            match got {
                LineRead::End => return out,
                LineRead::TooLong => {
                    skip_line(&mut r).unwrap();
                }
                LineRead::Line => {}
            }
        }
    }

    #[test]
    fn lines_are_split_and_bounded_whatever_the_buffer_size() {
        use LineRead::*;
        let input = b"ab\n\nabcd\nabcde\nxyz";
        let want = vec![
            (Line, b"ab".to_vec()),
            (Line, b"".to_vec()),
            (Line, b"abcd".to_vec()),
            (TooLong, b"abcd".to_vec()),
            (Line, b"xyz".to_vec()),
            (End, b"".to_vec()),
        ];
        for capacity in [1, 2, 3, 5, 64] {
            assert_eq!(lines(input, 4, capacity), want, "buffer of {capacity}");
        }
        assert_eq!(
            lines(b"ab\n", 4, 8),
            [(Line, b"ab".to_vec()), (End, vec![])]
        );
        assert_eq!(lines(b"", 4, 8), [(End, vec![])]);
    }

    #[test]
    fn an_endless_line_is_refused_after_the_bound() {
        // Bytes that never end in a newline: the reader stops one byte past
        // the bound (it would run out of memory, not of input, otherwise).
        let mut endless = BufReader::with_capacity(1000, io::repeat(b'1').take(1 << 30));
        let mut buf = Vec::new();
        assert_eq!(
            read_line(&mut endless, &mut buf, 4096).unwrap(),
            LineRead::TooLong
        );
        assert_eq!(buf.len(), 4096);
        let consumed = (1u64 << 30) - endless.into_inner().limit();
        assert!(consumed <= 4096 + 1000, "{consumed} bytes read");
    }
}
