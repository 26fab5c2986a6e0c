//! Reading a strategy file: gzip or plain text, header, then strategy lines
//! (docs/formats.md §3).
//!
//! The header fields come in a fixed order, each on its own line; lines
//! starting with `#` are comments anywhere after the first line and are
//! not counted by `lines`. Strategy lines are read by hand rather than
//! through `Position`'s parser: a proof file has millions of them.

use std::io::Read;

use dalkon_rules::dakon::{Position, Rules, Side, MAX_HOLES};
use dalkon_rules::excerpt;

use crate::error::{FormatError, LineProblem};
use crate::strategy::Strategy;

/// The two bytes every gzip stream starts with (RFC 1952).
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// The shortest strategy line with its line end, `0/0 1\n`: bounds the
/// capacity reserved from a `lines` count that may be corrupt.
const SHORTEST_LINE: usize = 6;

impl Strategy {
    /// Read a strategy file, plain text or gzip (told apart by the gzip
    /// magic bytes `1f 8b`, not by a file name).
    pub fn parse(bytes: &[u8]) -> Result<Strategy, FormatError> {
        let inflated;
        let bytes = if bytes.starts_with(&GZIP_MAGIC) {
            inflated = gunzip(bytes)?;
            &inflated[..]
        } else {
            bytes
        };
        let text = utf8(bytes)?;
        read(text)
    }
}

fn gunzip(bytes: &[u8]) -> Result<Vec<u8>, FormatError> {
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes)
        .read_to_end(&mut out)
        .map_err(|e| FormatError::Gzip(e.to_string()))?;
    Ok(out)
}

fn utf8(bytes: &[u8]) -> Result<&str, FormatError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let good = &bytes[..e.valid_up_to()];
        let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        FormatError::Utf8 {
            line: 1 + good.iter().filter(|&&b| b == b'\n').count() as u64,
            byte: good.len() - line_start + 1,
        }
    })
}

/// The lines of a text with their numbers (from 1). A final `\n` ends the
/// last line; it does not start an empty one.
struct Lines<'a> {
    rest: &'a str,
    number: u64,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Lines<'a> {
        Lines {
            rest: text,
            number: 0,
        }
    }

    /// The text not yet read.
    fn rest(&self) -> &'a str {
        self.rest
    }

    /// The next line that is not a comment.
    fn next_item(&mut self) -> Option<(u64, &'a str)> {
        self.find(|(_, line)| !line.starts_with('#'))
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = (u64, &'a str);

    fn next(&mut self) -> Option<(u64, &'a str)> {
        if self.rest.is_empty() {
            return None;
        }
        let (line, rest) = self.rest.split_once('\n').unwrap_or((self.rest, ""));
        self.rest = rest;
        self.number += 1;
        Some((self.number, line))
    }
}

/// The value of the header field `name` on the next item line.
fn field<'a>(
    lines: &mut Lines<'a>,
    name: &str,
    expected: &'static str,
) -> Result<(u64, &'a str), FormatError> {
    let Some((line, text)) = lines.next_item() else {
        return Err(FormatError::EndOfHeader {
            line: lines.number + 1,
            expected,
        });
    };
    match text.strip_prefix(name).and_then(|t| t.strip_prefix(' ')) {
        Some(value) => Ok((line, value)),
        None => Err(FormatError::Field {
            line,
            expected,
            text: excerpt(text),
        }),
    }
}

fn is_number(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

fn read(text: &str) -> Result<Strategy, FormatError> {
    let mut lines = Lines::new(text);
    let first = lines.next().map_or("", |(_, l)| l);
    match first.strip_prefix("dalkon-strategy ") {
        Some("1") => {}
        Some(version) => return Err(FormatError::Version(excerpt(version))),
        None => return Err(FormatError::NotStrategy(excerpt(first))),
    }

    let (line, game) = field(&mut lines, "game", "game dakon")?;
    if game != "dakon" {
        return Err(FormatError::Game {
            line,
            game: excerpt(game),
        });
    }

    let (line, text_rules) = field(
        &mut lines,
        "rules",
        "rules origin=sow|skip mikul=on|off nembak=keep|take",
    )?;
    // `Rules`' parser takes exactly the form it writes: all three options,
    // in this order, single spaces.
    let rules: Rules = text_rules.parse().map_err(|source| FormatError::Rules {
        line,
        text: excerpt(text_rules),
        source,
    })?;

    let (line, text_root) = field(
        &mut lines,
        "root",
        "root <row 0>/<row 1>/<store 0>,<store 1> <side>",
    )?;
    let root: Position = text_root.parse().map_err(|source| FormatError::Root {
        line,
        text: excerpt(text_root),
        source,
    })?;

    let (line, text_player) = field(&mut lines, "player", "player 0|1")?;
    let player = match text_player {
        "0" => Side::South,
        "1" => Side::North,
        _ => {
            return Err(FormatError::Player {
                line,
                text: excerpt(text_player),
            })
        }
    };

    let (line, text_g) = field(&mut lines, "guarantees", "guarantees <whole number>")?;
    let guarantees = Some(text_g)
        .filter(|t| is_number(t.strip_prefix('-').unwrap_or(t)))
        .and_then(|t| t.parse::<i32>().ok())
        .ok_or_else(|| FormatError::Guarantees {
            line,
            text: excerpt(text_g),
        })?;

    let (lines_line, text_lines) = field(&mut lines, "lines", "lines <count>")?;
    let declared = Some(text_lines)
        .filter(|t| is_number(t))
        .and_then(|t| t.parse::<u64>().ok())
        .ok_or_else(|| FormatError::LinesField {
            line: lines_line,
            text: excerpt(text_lines),
        })?;

    let body = lines.rest();
    let body_first_line = lines.number + 1;
    let holes = root.holes();
    let total = root.total_seeds();
    let capacity = (declared as usize).min(text.len() / SHORTEST_LINE);
    let mut moves = hashbrown::HashMap::with_capacity(capacity);
    let mut found = 0u64;
    while let Some((line, text)) = lines.next_item() {
        let (key, hole) =
            strategy_line(text, holes, total, player).map_err(|problem| FormatError::Line {
                line,
                text: excerpt(text),
                problem,
            })?;
        if moves.insert(key, hole).is_some() {
            return Err(FormatError::Duplicate {
                line,
                first: first_line_of(body, body_first_line, &key, total, player),
                rows: rows_text(&key),
            });
        }
        found += 1;
    }
    if found != declared {
        return Err(FormatError::LineCount {
            line: lines_line,
            declared,
            found,
        });
    }
    Ok(Strategy {
        rules,
        root,
        player,
        guarantees,
        moves,
    })
}

/// `<row 0>/<row 1>`.
fn rows_text(key: &Position) -> String {
    let text = key.to_string();
    // The notation is `<rows>/<stores> <side>`: cut at the stores' slash.
    let cut = text.rfind('/').unwrap_or(text.len());
    text[..cut].to_owned()
}

/// The line number of the first strategy line of `body` (which starts at
/// line `first_number`) whose key is `key`. Only called for a duplicate,
/// so the second pass costs nothing on a good file.
fn first_line_of(body: &str, first_number: u64, key: &Position, total: u32, player: Side) -> u64 {
    let mut lines = Lines::new(body);
    lines.number = first_number - 1;
    std::iter::from_fn(|| lines.next_item())
        .find(|(_, text)| {
            strategy_line(text, key.holes(), total, player).is_ok_and(|(k, _)| k == *key)
        })
        .map_or(first_number, |(line, _)| line)
}

/// One strategy line `<row 0>/<row 1> <move>`: the key and the hole.
fn strategy_line(
    text: &str,
    holes: usize,
    total: u32,
    player: Side,
) -> Result<(Position, u8), LineProblem> {
    if text.is_empty() {
        return Err(LineProblem::Empty);
    }
    let (rows, hole) = text.split_once(' ').ok_or(LineProblem::Shape)?;
    let (row0, row1) = rows.split_once('/').ok_or(LineProblem::Shape)?;
    if hole.contains(' ') || row1.contains('/') {
        return Err(LineProblem::Shape);
    }
    let south = row(row0, "row 0", holes)?;
    let north = row(row1, "row 1", holes)?;
    let found: u32 = south.iter().chain(&north).map(|&c| u32::from(c)).sum();
    if found > total {
        return Err(LineProblem::Seeds { found, total });
    }
    let hole = Some(hole)
        .filter(|h| is_number(h))
        .and_then(|h| h.parse::<usize>().ok())
        .filter(|h| (1..=holes).contains(h))
        .ok_or_else(|| LineProblem::Move {
            text: excerpt(hole),
            holes,
        })?;
    // Rows of the root's size holding at most the root's seeds (at most
    // `MAX_SEEDS`) are always a position.
    let key = Position::new(&south[..holes], &north[..holes], [0, 0], player)
        .map_err(|_| LineProblem::Seeds { found, total })?;
    // `holes <= MAX_HOLES = 32`, so the hole fits a byte.
    Ok((key, hole as u8))
}

/// One row: exactly `holes` comma-separated counts.
fn row(text: &str, name: &'static str, holes: usize) -> Result<[u8; MAX_HOLES], LineProblem> {
    let mut counts = [0u8; MAX_HOLES];
    let mut found = 0;
    for (i, item) in text.split(',').enumerate() {
        let count = Some(item)
            .filter(|t| is_number(t))
            .and_then(|t| t.parse::<u8>().ok())
            .ok_or_else(|| LineProblem::Count {
                row: name,
                item: i + 1,
                text: excerpt(item),
            })?;
        if i < holes {
            counts[i] = count;
        }
        found = i + 1;
    }
    if found != holes {
        return Err(LineProblem::Holes {
            row: name,
            found,
            holes,
        });
    }
    Ok(counts)
}
