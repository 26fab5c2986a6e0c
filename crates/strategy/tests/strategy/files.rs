//! Reading and writing: round trips, deterministic bytes, and every kind
//! of malformed file refused with a message naming its line.

use dalkon_rules::dakon::{Rules, Side};
use std::io::Read;

use dalkon_strategy::{
    read_file, table_bytes, FormatError, ReadError, ReadLimits, Strategy, MAX_LINE_BYTES,
};

use super::{brute, parse, pos, refusal, south_with, NORTH, SOUTH};

fn strategies() -> Vec<Strategy> {
    let mut out = vec![parse(SOUTH), parse(NORTH)];
    let rules: Rules = "origin=skip mikul=off nembak=take".parse().unwrap();
    for root in ["2,2,2/2,2,2/0,0 0", "3,0,1,2/1,1,0,2/4,5 1"] {
        for player in Side::BOTH {
            out.push(brute::optimal(&pos(root), &rules, player).0);
        }
    }
    out
}

#[test]
fn written_files_read_back_the_same() {
    for s in strategies() {
        let text = s.to_text();
        let mut streamed = Vec::new();
        assert_eq!(s.write_text(&mut streamed).unwrap(), text.len() as u64);
        assert_eq!(streamed, text);
        assert_eq!(Strategy::parse(&text).unwrap(), s);
        let gz = s.to_gzip().unwrap();
        assert_eq!(Strategy::parse(&gz).unwrap(), s);
    }
    // The documented file is in the written form already: sorted lines.
    assert_eq!(parse(SOUTH).to_text(), SOUTH.as_bytes());
    assert_eq!(parse(NORTH).to_text(), NORTH.as_bytes());
}

#[test]
fn gzip_bytes_depend_on_the_strategy_alone() {
    let s = &strategies()[4];
    let a = s.to_gzip().unwrap();
    let b = s.clone().to_gzip().unwrap();
    assert_eq!(a, b);
    // Magic, deflate, no flags (so no file name), time stamp zero.
    assert_eq!(a[..8], [0x1f, 0x8b, 8, 0, 0, 0, 0, 0]);
    // Text lines are sorted row 0 first, hole by hole as numbers.
    let text = String::from_utf8(s.to_text()).unwrap();
    let keys: Vec<Vec<Vec<u8>>> = text
        .lines()
        .skip(7)
        .map(|l| {
            l.split(' ')
                .next()
                .unwrap()
                .split('/')
                .map(|row| row.split(',').map(|c| c.parse().unwrap()).collect())
                .collect()
        })
        .collect();
    assert!(keys.len() > 10);
    assert!(keys.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn comments_and_a_missing_last_line_end_are_accepted() {
    let commented = SOUTH
        .replace("game dakon\n", "# written by hand\ngame dakon\n")
        .replace("1,1/0,0 2\n", "1,1/0,0 2\n#1,1/0,0 1 would lose 2\n");
    assert_eq!(parse(&commented), parse(SOUTH));
    assert_eq!(parse(SOUTH.trim_end()), parse(SOUTH));
}

#[test]
fn header_errors_name_their_line() {
    assert_eq!(
        refusal(""),
        "line 1: expected `dalkon-strategy 1` (this is not a strategy file), got \"\""
    );
    assert_eq!(
        refusal(&format!("# a comment first\n{SOUTH}")),
        "line 1: expected `dalkon-strategy 1` (this is not a strategy file), got \"# a comment first\""
    );
    assert_eq!(
        refusal(&south_with("dalkon-strategy 1", "dalkon-strategy 2")),
        "line 1: format version \"2\" is not known (this reader reads `dalkon-strategy 1`)"
    );
    assert_eq!(
        refusal(&south_with("game dakon", "game daldos")),
        "line 2: the game is \"daldos\", but this reader checks `dakon` strategies only"
    );
    assert_eq!(
        refusal(&south_with("player 0", "player 2")),
        "line 5: the player must be 0 or 1, got \"2\""
    );
    assert_eq!(
        refusal(&south_with("guarantees 2", "guarantees +2")),
        "line 6: guarantees must be a whole number (e.g. 12 or -3), got \"+2\""
    );
    assert_eq!(
        refusal(&south_with("guarantees 2", "guarantees 99999999999")),
        "line 6: guarantees must be a whole number (e.g. 12 or -3), got \"99999999999\""
    );
    assert_eq!(
        refusal(&south_with("lines 4", "lines -4")),
        "line 7: lines must be a count (a whole number from 0), got \"-4\""
    );
    assert_eq!(
        refusal(&south_with("player 0\n", "")),
        "line 5: expected `player 0|1`, got \"guarantees 2\""
    );
    assert_eq!(
        refusal(&SOUTH[..SOUTH.find("guarantees").unwrap()]),
        "line 6: the file ends inside the header (expected `guarantees <whole number>`)"
    );
    assert_eq!(
        refusal(&south_with("root 1,1/0,2/0,0 0", "root 1,1/0,2,2/0,0 0")),
        "line 4: bad root \"1,1/0,2,2/0,0 0\": row 0 has 2 holes but row 1 has 3"
    );
}

#[test]
fn windows_line_ends_are_accepted() {
    // A file edited on Windows: `\r\n` line ends, the last one missing too.
    let crlf = SOUTH.replace('\n', "\r\n");
    assert_eq!(parse(&crlf), parse(SOUTH));
    assert_eq!(parse(crlf.trim_end()), parse(SOUTH));
    assert_eq!(
        dalkon_strategy::verify(&parse(&crlf)),
        dalkon_strategy::verify(&parse(SOUTH))
    );
    // Only one `\r` is a line end: a second is part of the line.
    assert_eq!(
        refusal(&SOUTH.replacen("game dakon\n", "game dakon\r\r\n", 1)),
        "line 2: the game is \"dakon\\r\", but this reader checks `dakon` strategies only"
    );
}

#[test]
fn the_rules_line_must_name_all_three_options_in_order() {
    assert_eq!(
        refusal(&south_with("origin=sow mikul=on nembak=keep", "origin=sow nembak=keep mikul=on")),
        "line 3: bad rules line \"origin=sow nembak=keep mikul=on\": expected `origin=… mikul=… nembak=…` (all three, in this order), got \"origin=sow nembak=keep mikul=on\""
    );
    assert_eq!(
        refusal(&south_with("origin=sow mikul=on nembak=keep", "origin=sow mikul=on")),
        "line 3: bad rules line \"origin=sow mikul=on\": expected `origin=… mikul=… nembak=…` (all three, in this order), got \"origin=sow mikul=on\""
    );
    assert_eq!(
        refusal(&south_with("origin=sow mikul=on nembak=keep", "origin=sow mikul=yes nembak=keep")),
        "line 3: bad rules line \"origin=sow mikul=yes nembak=keep\": mikul: \"yes\" is not a value of this option (expected on or off)"
    );
    assert_eq!(
        refusal(&south_with("rules origin=sow mikul=on nembak=keep\n", "")),
        "line 3: expected `rules origin=sow|skip mikul=on|off nembak=keep|take`, got \"root 1,1/0,2/0,0 0\""
    );
    let skip = parse(&south_with("origin=sow", "origin=skip"));
    assert_eq!(skip.rules.to_string(), "origin=skip mikul=on nembak=keep");
}

#[test]
fn malformed_strategy_lines_are_refused() {
    let bad = |line: &str| refusal(&south_with("1,1/0,2 1", line));
    assert_eq!(
        bad("1,1/0,2 x"),
        "line 11: bad strategy line \"1,1/0,2 x\": the move \"x\" is not a hole number from 1 to 2"
    );
    assert_eq!(
        bad("1,1/0,2 3"),
        "line 11: bad strategy line \"1,1/0,2 3\": the move \"3\" is not a hole number from 1 to 2"
    );
    assert_eq!(
        bad("1,1/0,2 0"),
        "line 11: bad strategy line \"1,1/0,2 0\": the move \"0\" is not a hole number from 1 to 2"
    );
    assert_eq!(
        bad("1,1/0,2"),
        "line 11: bad strategy line \"1,1/0,2\": expected `<row 0>/<row 1> <move>`"
    );
    assert_eq!(
        bad("1,1/0,2/0,0 1"),
        "line 11: bad strategy line \"1,1/0,2/0,0 1\": expected `<row 0>/<row 1> <move>`"
    );
    assert_eq!(
        bad("1,1,0/0,2 1"),
        "line 11: bad strategy line \"1,1,0/0,2 1\": row 0 has 3 holes, but the root's board has 2"
    );
    assert_eq!(
        bad("1,1/0,2a 1"),
        "line 11: bad strategy line \"1,1/0,2a 1\": row 1, item 2: \"2a\" is not a seed count (a whole number from 0 to 255)"
    );
    assert_eq!(
        bad("1,1/256,0 1"),
        "line 11: bad strategy line \"1,1/256,0 1\": row 1, item 1: \"256\" is not a seed count (a whole number from 0 to 255)"
    );
    assert_eq!(
        bad("1,1/0,3 1"),
        "line 11: bad strategy line \"1,1/0,3 1\": 5 seeds on the board, more than the 4 seeds of the root's game"
    );
    assert_eq!(
        bad(""),
        "line 11: bad strategy line \"\": empty line (comment lines start with `#`)"
    );
    // A long line is quoted short.
    let long = format!("{}/0,0 1", ["0"; 100].join(","));
    let message = bad(&long);
    assert!(
        message.starts_with(&format!(
            "line 11: bad strategy line \"{}…\": ",
            &long[..80]
        )),
        "{message}"
    );
    assert!(message.ends_with("row 0 has 100 holes, but the root's board has 2"));
}

#[test]
fn a_second_line_for_the_same_rows_is_refused_naming_both() {
    let text = south_with("lines 4", "lines 5") + "1,1/0,2 2\n";
    assert_eq!(
        refusal(&text),
        "line 12: the rows 1,1/0,2 already have a line (line 11); each position has at most one"
    );
    let text = south_with(
        "1,0/1,0 1\n",
        "1,0/1,0 1\n# same rows, other hole:\n1,0/1,0 2\n",
    )
    .replace("lines 4", "lines 5");
    assert_eq!(
        refusal(&text),
        "line 11: the rows 1,0/1,0 already have a line (line 9); each position has at most one"
    );
}

#[test]
fn the_line_count_must_match() {
    assert_eq!(
        refusal(&south_with("lines 4", "lines 5")),
        "line 7: the header says `lines 5` but 4 strategy lines follow"
    );
    // More lines than declared: refused at the first line beyond the count.
    assert_eq!(
        refusal(&south_with("lines 4", "lines 3")),
        "line 11: one strategy line more than the `lines 3` of line 7"
    );
    assert_eq!(
        refusal(&(south_with("lines 4", "lines 0") + "# more\n")),
        "line 8: one strategy line more than the `lines 0` of line 7"
    );
    // A count whose table would not fit in memory is refused before any
    // strategy line is read (the line after the header is not even looked at).
    let huge = south_with("lines 4", "lines 18446744073709551615").replace("1,0/0,0 1", "x");
    let message = refusal(&huge);
    assert!(
        message.starts_with(
            "line 7: `lines 18446744073709551615` would need 3694359069327360 MiB of memory to read, more than the "
        ) && message.ends_with(" MiB this machine can spare"),
        "{message}"
    );
}

#[test]
fn the_declared_count_is_charged_against_the_memory_given() {
    let limits = |memory_bytes| ReadLimits {
        line_bytes: MAX_LINE_BYTES,
        memory_bytes,
    };
    let text = SOUTH.as_bytes();
    // Four lines: eight buckets of an entry and a control byte, and half
    // as many again while the table grows.
    let entry = std::mem::size_of::<(dalkon_rules::dakon::Position, u8)>() as u128 + 1;
    assert_eq!(table_bytes(4), 8 * entry * 3 / 2);
    assert_eq!(table_bytes(1_000), 2048 * entry * 3 / 2);
    let need = table_bytes(4) as u64;
    assert_eq!(
        Strategy::read_with(|| Ok(text), &limits(need)).unwrap(),
        parse(SOUTH)
    );
    assert_eq!(
        Strategy::read_with(|| Ok(text), &limits(need - 1))
            .unwrap_err()
            .to_string(),
        "line 7: `lines 4` would need 1 MiB of memory to read, more than the 0 MiB this machine can spare"
    );
}

/// A reader that counts the bytes taken from it.
struct Counted<'a, R> {
    inner: R,
    taken: &'a std::cell::Cell<usize>,
}

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.taken.set(self.taken.get() + n);
        Ok(n)
    }
}

#[test]
fn an_overlong_line_is_refused_without_reading_on() {
    let long = "1".repeat(10 << 20);
    assert_eq!(
        refusal(&long),
        "line 1 is longer than 65536 bytes, the most a line of a strategy file may have"
    );
    assert_eq!(
        refusal(&south_with("1,0/1,0 1\n", &format!("#{long}\n1,0/1,0 1\n"))),
        "line 9 is longer than 65536 bytes, the most a line of a strategy file may have"
    );
    // The longest line accepted is the bound itself.
    let at_bound = format!("#{}\n", "x".repeat(MAX_LINE_BYTES - 1));
    assert_eq!(
        parse(&south_with(
            "game dakon\n",
            &format!("{at_bound}game dakon\n")
        )),
        parse(SOUTH)
    );

    // Endless input (as /dev/zero is): refused after the bound, not read on.
    let taken = std::cell::Cell::new(0);
    let err = Strategy::read_with(
        || {
            Ok(Counted {
                inner: std::io::repeat(b'1'),
                taken: &taken,
            })
        },
        &ReadLimits::of_this_machine(),
    );
    assert_eq!(
        err.unwrap_err(),
        FormatError::LineTooLong {
            line: 1,
            max: MAX_LINE_BYTES
        }
    );
    // The bound and at most one buffer of read-ahead.
    assert!(
        taken.get() <= 2 * MAX_LINE_BYTES,
        "{} bytes read",
        taken.get()
    );
}

#[test]
fn a_gzip_bomb_fails_on_its_first_line_before_it_is_inflated() {
    use flate2::{write::GzEncoder, Compression};
    use std::io::Write;
    // 200 MB of zeros, about 200 KB compressed: one endless line.
    let mut gz = GzEncoder::new(Vec::new(), Compression::default());
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..200 {
        gz.write_all(&zeros).unwrap();
    }
    let bomb = gz.finish().unwrap();
    assert!(bomb.len() > 150_000, "{} bytes", bomb.len());
    let taken = std::cell::Cell::new(0);
    let err = Strategy::read_with(
        || {
            Ok(Counted {
                inner: &bomb[..],
                taken: &taken,
            })
        },
        &ReadLimits::of_this_machine(),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 1 is longer than 65536 bytes, the most a line of a strategy file may have"
    );
    // 64 KiB of zeros inflate from under a hundred bytes; what was taken is
    // the decoder's read-ahead, a small part of the bomb.
    assert!(
        taken.get() < bomb.len() / 2,
        "{} of {} bytes read",
        taken.get(),
        bomb.len()
    );
}

#[test]
fn only_regular_files_are_read() {
    let dir = std::env::temp_dir().join(format!("dalkon-strategy-files-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("south.strategy");
    std::fs::write(&file, SOUTH.replace('\n', "\r\n")).unwrap();
    assert_eq!(read_file(&file).unwrap(), parse(SOUTH));
    let message = |p: &std::path::Path| read_file(p).unwrap_err().to_string();
    assert_eq!(message(&dir), "it is a folder, not a regular file");
    assert_eq!(
        message(std::path::Path::new("/dev/zero")),
        "it is a device, not a regular file"
    );
    let fifo = dir.join("fifo.strategy");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        // Opening a FIFO with no writer would block: it is refused first.
        assert_eq!(
            message(&fifo),
            "it is a FIFO (named pipe), not a regular file"
        );
    }
    assert!(matches!(
        read_file(&dir.join("none")),
        Err(ReadError::Open(_))
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn damaged_gzip_and_bad_text_are_refused() {
    let gz = parse(SOUTH).to_gzip().unwrap();
    assert_eq!(
        Strategy::parse(&gz[..gz.len() / 2])
            .unwrap_err()
            .to_string(),
        "the gzip stream cannot be read to its end: incomplete deflate stream"
    );
    assert!(matches!(
        Strategy::parse(&gz[..gz.len() - 4]),
        Err(FormatError::Gzip(_))
    ));
    let mut flipped = gz.clone();
    let last = flipped.len() - 5;
    flipped[last] ^= 0xff;
    assert_eq!(
        Strategy::parse(&flipped).unwrap_err().to_string(),
        "the gzip stream cannot be read to its end: corrupt gzip stream does not have a matching checksum"
    );
    let mut bytes = SOUTH.as_bytes().to_vec();
    let at = SOUTH.find("1,0/1,0").unwrap() + 2;
    bytes[at] = 0xff;
    assert_eq!(
        Strategy::parse(&bytes).unwrap_err(),
        FormatError::Utf8 { line: 9, byte: 3 }
    );
    assert_eq!(
        Strategy::parse(&bytes).unwrap_err().to_string(),
        "line 9: not UTF-8 text (byte 3 of the line is not valid UTF-8)"
    );
}
