//! What the `game` commands (`dakon game`, `daldos game`) read from a
//! player: one typed line at a time from standard input, and the words
//! both games understand besides a move. Reading never fails on what was
//! typed (a line that is not UTF-8, or is longer than 1 MiB, is only a bad
//! line); it fails only when standard input itself cannot be read.

use std::io::{self, BufRead, Write};

use crate::input::{next_line, skip_rest, Input};

/// The prompt before each typed line.
pub const PROMPT: &str = "> ";

/// One line typed by a player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// The line, without surrounding white space.
    Text(String),
    /// A line that is not UTF-8 text.
    NotUtf8,
    /// A line longer than 1 MiB (`input::MAX_LINE`), skipped unstored.
    TooLong,
    /// The end of the input: the player has gone, as with `quit`.
    End,
}

/// A word that is not a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Word {
    /// `hint`: the engine's ranked moves.
    Hint,
    /// `undo`: take back the last own move.
    Undo,
    /// `help` (or `?`).
    Help,
    /// `quit` (or `exit`).
    Quit,
}

impl Word {
    /// The word `text` names, in any case.
    pub fn parse(text: &str) -> Option<Word> {
        match text.to_ascii_lowercase().as_str() {
            "hint" => Some(Word::Hint),
            "undo" => Some(Word::Undo),
            "help" | "?" => Some(Word::Help),
            "quit" | "exit" => Some(Word::Quit),
            _ => None,
        }
    }
}

/// `save FILE` (or `save` alone: `Some("")`): what follows the word, when
/// the line starts with the word `save` in any case.
pub fn save_word(text: &str) -> Option<&str> {
    let (word, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    word.eq_ignore_ascii_case("save").then(|| rest.trim())
}

/// Write the prompt (flushed, so that a player at a terminal sees it) and
/// read the next line.
pub fn ask(out: &mut dyn Write, stdin: &mut dyn BufRead) -> io::Result<Line> {
    write!(out, "{PROMPT}")?;
    out.flush()?;
    let mut buf = Vec::new();
    Ok(match next_line(stdin, &mut buf)? {
        Input::End => {
            // Without this the next output would follow the prompt on its line.
            writeln!(out)?;
            Line::End
        }
        Input::Text(text) => Line::Text(text.trim().to_owned()),
        Input::NotUtf8 { .. } => Line::NotUtf8,
        Input::TooLong => {
            skip_rest(stdin)?;
            Line::TooLong
        }
    })
}

/// Ask until a line of text comes ([`ask`]); `None` at the end of the
/// input. A line that is not UTF-8 gets one message and another prompt.
pub fn ask_text(out: &mut dyn Write, stdin: &mut dyn BufRead) -> io::Result<Option<String>> {
    loop {
        match ask(out, stdin)? {
            Line::End => return Ok(None),
            Line::NotUtf8 => writeln!(
                out,
                "that line is not UTF-8 text; type help for the commands"
            )?,
            Line::TooLong => writeln!(
                out,
                "that line is longer than 1 MiB (1048576 bytes); type help for the commands"
            )?,
            Line::Text(text) => return Ok(Some(text)),
        }
    }
}
