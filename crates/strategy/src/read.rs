//! Reading a strategy file: gzip or plain text, header, then strategy lines
//! (docs/formats.md §3).
//!
//! The header fields come in a fixed order, each on its own line; lines
//! starting with `#` are comments anywhere after the first line and are
//! not counted by `lines`. Strategy lines are read by hand rather than
//! through `Position`'s parser: a proof file has millions of them.

use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use dalkon_rules::dakon::{Position, Rules, Side, MAX_HOLES};
use dalkon_rules::excerpt;
use dalkon_store::lines::{read_line, LineRead};
use dalkon_store::memory;

use crate::error::{FormatError, LineProblem, ReadError};
use crate::strategy::Strategy;

/// The two bytes every gzip stream starts with (RFC 1952).
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// The longest line a strategy file may have, in bytes (the line end not
/// counted), comments included. The longest legal line, a 32-hole root
/// with 255 seeds in a hole, is under 300 bytes; the bound is what stops
/// an endless line (`/dev/zero`, a gzip bomb) at once.
pub const MAX_LINE_BYTES: usize = 64 << 10;

/// Strategy lines whose table is reserved before the first one is read;
/// more are reserved as they come, up to the declared count.
const FIRST_RESERVE: usize = 1 << 16;

/// Bytes read from the file at a time.
const BUFFER: usize = 64 << 10;

/// What a reading may take: the longest line, and the memory the table
/// of strategy lines may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadLimits {
    /// The longest line accepted, in bytes ([`MAX_LINE_BYTES`]).
    pub line_bytes: usize,
    /// Bytes the table of strategy lines may take (the memory this
    /// machine can spare: `dalkon_store::memory::usable`).
    pub memory_bytes: u64,
}

impl ReadLimits {
    /// [`MAX_LINE_BYTES`], and the memory this machine can spare now.
    pub fn of_this_machine() -> ReadLimits {
        ReadLimits {
            line_bytes: MAX_LINE_BYTES,
            memory_bytes: memory::usable(memory::available_memory()),
        }
    }
}

/// Bytes the table of `lines` strategy lines takes at its largest:
/// hashbrown's power-of-two buckets at a load of at most 7/8, each an entry
/// and a control byte, and, while the table last grows, the old table of
/// half as many buckets beside the new one.
pub fn table_bytes(lines: u64) -> u128 {
    let lines = u128::from(lines);
    let buckets = if lines < 8 {
        8
    } else {
        (lines * 8).div_ceil(7).next_power_of_two()
    };
    let entry = std::mem::size_of::<(Position, u8)>() as u128 + 1;
    buckets * entry * 3 / 2
}

impl Strategy {
    /// Read a strategy file in memory, plain text or gzip (told apart by
    /// the gzip magic bytes `1f 8b`, not by a file name), within
    /// [`ReadLimits::of_this_machine`].
    pub fn parse(bytes: &[u8]) -> Result<Strategy, FormatError> {
        Strategy::read_with(|| Ok(bytes), &ReadLimits::of_this_machine())
    }

    /// Read a strategy file from the reader `open` gives, line by line,
    /// stopping at the first bad line: no line longer than
    /// `limits.line_bytes` is kept, and a `lines` count whose table would
    /// not fit in `limits.memory_bytes` is refused before any strategy line
    /// is read. `open` is called once more only to name the first line of
    /// a duplicate.
    pub fn read_with<R: Read>(
        mut open: impl FnMut() -> io::Result<R>,
        limits: &ReadLimits,
    ) -> Result<Strategy, FormatError> {
        let input = open().map_err(|e| FormatError::Read {
            line: 1,
            message: e.to_string(),
        })?;
        let mut lines = Lines::open(input, limits.line_bytes)?;
        let body = read(&mut lines, limits);
        drop(lines);
        match body {
            Err(Found::Format(e)) => Err(e),
            Err(Found::Duplicate {
                line,
                key,
                total,
                player,
                first_number,
            }) => {
                let first = open()
                    .ok()
                    .and_then(|r| Lines::open(r, limits.line_bytes).ok())
                    .and_then(|mut l| first_line_of(&mut l, first_number, &key, total, player))
                    .unwrap_or(first_number);
                Err(FormatError::Duplicate {
                    line,
                    first,
                    rows: rows_text(&key),
                })
            }
            Ok(s) => Ok(s),
        }
    }
}

/// Read the strategy file at `path`, which must be a regular file (a FIFO
/// or a device is refused before it is opened, so that reading never
/// blocks or runs without end), within [`ReadLimits::of_this_machine`].
pub fn read_file(path: &Path) -> Result<Strategy, ReadError> {
    let regular = |meta: &std::fs::Metadata| {
        if meta.is_file() {
            Ok(())
        } else {
            Err(ReadError::NotAFile {
                kind: kind_of(&meta.file_type()),
            })
        }
    };
    regular(&std::fs::metadata(path).map_err(ReadError::Open)?)?;
    let file = std::fs::File::open(path).map_err(ReadError::Open)?;
    // The file could have been swapped for a FIFO since the first look:
    // look again at what was opened.
    regular(&file.metadata().map_err(ReadError::Open)?)?;
    let mut file = Some(file);
    Strategy::read_with(
        || match file.take() {
            Some(f) => Ok(f),
            None => std::fs::File::open(path),
        },
        &ReadLimits::of_this_machine(),
    )
    .map_err(ReadError::Format)
}

/// What a file that is not a regular file is, in words.
fn kind_of(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

/// How a reading stopped short: a malformed file, or a duplicate, whose
/// first line a second reading names.
enum Found {
    Format(FormatError),
    Duplicate {
        line: u64,
        key: Position,
        total: u32,
        player: Side,
        first_number: u64,
    },
}

impl From<FormatError> for Found {
    fn from(e: FormatError) -> Found {
        Found::Format(e)
    }
}

/// The lines of a file with their numbers (from 1), read one at a time,
/// each without its `\n` and one `\r` before it (a file edited on
/// Windows). A final `\n` ends the last line; it does not start an empty
/// one.
struct Lines<'a> {
    input: Box<dyn BufRead + 'a>,
    gzip: bool,
    buf: Vec<u8>,
    max: usize,
    number: u64,
}

impl<'a> Lines<'a> {
    /// The lines of `raw`, inflated when it starts with the gzip magic.
    fn open(mut raw: impl Read + 'a, max: usize) -> Result<Lines<'a>, FormatError> {
        let mut head = [0u8; 2];
        let mut n = 0;
        while n < head.len() {
            match raw.read(&mut head[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    return Err(FormatError::Read {
                        line: 1,
                        message: e.to_string(),
                    })
                }
            }
        }
        let gzip = head[..n] == GZIP_MAGIC;
        let chained = io::Cursor::new(head).take(n as u64).chain(raw);
        let input: Box<dyn BufRead + 'a> = if gzip {
            Box::new(BufReader::with_capacity(
                BUFFER,
                flate2::read::MultiGzDecoder::new(chained),
            ))
        } else {
            Box::new(BufReader::with_capacity(BUFFER, chained))
        };
        Ok(Lines {
            input,
            gzip,
            buf: Vec::new(),
            max,
            number: 0,
        })
    }

    /// The next line.
    fn next(&mut self) -> Result<Option<(u64, &str)>, FormatError> {
        let line = self.number + 1;
        let got = read_line(&mut *self.input, &mut self.buf, self.max).map_err(|e| {
            if self.gzip {
                FormatError::Gzip(e.to_string())
            } else {
                FormatError::Read {
                    line,
                    message: e.to_string(),
                }
            }
        })?;
        match got {
            LineRead::End => return Ok(None),
            LineRead::TooLong => {
                return Err(FormatError::LineTooLong {
                    line,
                    max: self.max,
                })
            }
            LineRead::Line => {}
        }
        self.number = line;
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        let text = std::str::from_utf8(&self.buf).map_err(|e| FormatError::Utf8 {
            line,
            byte: e.valid_up_to() + 1,
        })?;
        Ok(Some((line, text)))
    }

    /// The next line that is not a comment.
    fn next_item(&mut self) -> Result<Option<(u64, &str)>, FormatError> {
        loop {
            // Two reads of the line: the borrow checker cannot yet see that
            // a line returned ends the loop.
            match self.next()? {
                None => return Ok(None),
                Some((_, text)) if text.starts_with('#') => continue,
                Some(_) => break,
            }
        }
        let text = std::str::from_utf8(&self.buf).unwrap_or_default();
        Ok(Some((self.number, text)))
    }
}

/// The value of the header field `name` on the next item line.
fn field(
    lines: &mut Lines<'_>,
    name: &str,
    expected: &'static str,
) -> Result<(u64, String), FormatError> {
    let Some((line, text)) = lines.next_item()? else {
        return Err(FormatError::EndOfHeader {
            line: lines.number + 1,
            expected,
        });
    };
    match text.strip_prefix(name).and_then(|t| t.strip_prefix(' ')) {
        Some(value) => Ok((line, value.to_owned())),
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

fn read(lines: &mut Lines<'_>, limits: &ReadLimits) -> Result<Strategy, Found> {
    let first = lines.next()?.map_or(String::new(), |(_, l)| l.to_owned());
    match first.strip_prefix("dalkon-strategy ") {
        Some("1") => {}
        Some(version) => return Err(FormatError::Version(excerpt(version)).into()),
        None => return Err(FormatError::NotStrategy(excerpt(&first)).into()),
    }

    let (line, game) = field(lines, "game", "game dakon")?;
    if game != "dakon" {
        return Err(FormatError::Game {
            line,
            game: excerpt(&game),
        }
        .into());
    }

    let (line, text_rules) = field(
        lines,
        "rules",
        "rules origin=sow|skip mikul=on|off nembak=keep|take",
    )?;
    // `Rules`' parser takes exactly the form it writes: all three options,
    // in this order, single spaces.
    let rules: Rules = text_rules.parse().map_err(|source| FormatError::Rules {
        line,
        text: excerpt(&text_rules),
        source,
    })?;

    let (line, text_root) = field(
        lines,
        "root",
        "root <row 0>/<row 1>/<store 0>,<store 1> <side>",
    )?;
    let root: Position = text_root.parse().map_err(|source| FormatError::Root {
        line,
        text: excerpt(&text_root),
        source,
    })?;

    let (line, text_player) = field(lines, "player", "player 0|1")?;
    let player = match text_player.as_str() {
        "0" => Side::South,
        "1" => Side::North,
        _ => {
            return Err(FormatError::Player {
                line,
                text: excerpt(&text_player),
            }
            .into())
        }
    };

    let (line, text_g) = field(lines, "guarantees", "guarantees <whole number>")?;
    let guarantees = Some(text_g.as_str())
        .filter(|t| is_number(t.strip_prefix('-').unwrap_or(t)))
        .and_then(|t| t.parse::<i32>().ok())
        .ok_or_else(|| FormatError::Guarantees {
            line,
            text: excerpt(&text_g),
        })?;

    let (lines_line, text_lines) = field(lines, "lines", "lines <count>")?;
    let declared = Some(text_lines.as_str())
        .filter(|t| is_number(t))
        .and_then(|t| t.parse::<u64>().ok())
        .ok_or_else(|| FormatError::LinesField {
            line: lines_line,
            text: excerpt(&text_lines),
        })?;
    let needed = table_bytes(declared);
    let too_much = || FormatError::LinesMemory {
        line: lines_line,
        declared,
        needed_mib: needed.div_ceil(1 << 20),
        usable_mib: limits.memory_bytes >> 20,
    };
    if needed > u128::from(limits.memory_bytes) {
        return Err(too_much().into());
    }

    let body_first_line = lines.number + 1;
    let holes = root.holes();
    let total = root.total_seeds();
    // The declared count fits in memory (checked above), so it fits a usize.
    let declared_len = usize::try_from(declared).map_err(|_| too_much())?;
    let mut moves = hashbrown::HashMap::new();
    moves
        .try_reserve(declared_len.min(FIRST_RESERVE))
        .map_err(|_| too_much())?;
    while let Some((line, text)) = lines.next_item()? {
        if moves.len() == declared_len {
            return Err(FormatError::ExtraLine {
                line,
                declared,
                lines_line,
            }
            .into());
        }
        let (key, hole) =
            strategy_line(text, holes, total, player).map_err(|problem| FormatError::Line {
                line,
                text: excerpt(text),
                problem,
            })?;
        if moves.len() == moves.capacity() {
            // Growth that fails is an error, not an abort.
            let more = moves.len().min(declared_len - moves.len()).max(1);
            moves.try_reserve(more).map_err(|_| too_much())?;
        }
        if moves.insert(key, hole).is_some() {
            return Err(Found::Duplicate {
                line,
                key,
                total,
                player,
                first_number: body_first_line,
            });
        }
    }
    let found = moves.len() as u64;
    if found != declared {
        return Err(FormatError::LineCount {
            line: lines_line,
            declared,
            found,
        }
        .into());
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

/// The number of the first strategy line, from line `first_number` on,
/// whose key is `key` (`None` if the file cannot be read again). Only
/// called for a duplicate, so the second reading costs nothing on a good
/// file.
fn first_line_of(
    lines: &mut Lines<'_>,
    first_number: u64,
    key: &Position,
    total: u32,
    player: Side,
) -> Option<u64> {
    while let Some((line, text)) = lines.next_item().ok()? {
        if line >= first_number
            && strategy_line(text, key.holes(), total, player).is_ok_and(|(k, _)| k == *key)
        {
            return Some(line);
        }
    }
    None
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
