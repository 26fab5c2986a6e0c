//! One line of standard input, as every reader of it takes it (batch mode
//! `--position -`, the `game` loops): at most [`MAX_LINE`] bytes are kept,
//! so an endless line (`tr '\0' 1 </dev/zero | dalkon … --position -`)
//! keeps memory flat and is answered as one bad line. The bounded reading
//! itself is `dalkon_store::lines`, shared with the strategy-file reader.

use std::io::{self, BufRead};

use dalkon_store::lines::{read_line, skip_line, LineRead};

/// The longest input line kept, in bytes (its `\n` not counted).
pub const MAX_LINE: usize = 1 << 20;

/// What is said of a line longer than [`MAX_LINE`].
pub const TOO_LONG: &str = "line longer than 1 MiB (1048576 bytes)";

/// One line of input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input<'a> {
    /// A line of text, without its `\n` (surrounding white space kept).
    Text(&'a str),
    /// A line that is not UTF-8: `byte` (from 1) is the first bad byte.
    NotUtf8 {
        /// 1-based byte of the line.
        byte: usize,
    },
    /// A line longer than [`MAX_LINE`]; [`skip_rest`] goes on past it.
    TooLong,
    /// The end of the input.
    End,
}

/// Read the next line of `input` into `buf`.
pub fn next_line<'a>(input: &mut dyn BufRead, buf: &'a mut Vec<u8>) -> io::Result<Input<'a>> {
    Ok(match read_line(input, buf, MAX_LINE)? {
        LineRead::End => Input::End,
        LineRead::TooLong => Input::TooLong,
        LineRead::Line => match std::str::from_utf8(buf) {
            Ok(text) => Input::Text(text),
            Err(e) => Input::NotUtf8 {
                byte: e.valid_up_to() + 1,
            },
        },
    })
}

/// Skip what is left of a line found [`Input::TooLong`], storing nothing.
pub fn skip_rest(input: &mut dyn BufRead) -> io::Result<()> {
    skip_line(input).map(drop)
}
