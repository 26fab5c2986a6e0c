//! Writing a strategy file: the same strategy gives the same bytes every
//! time, plain or gzip, so that a proof can be compared, hashed and cited.

use std::cmp::Ordering;
use std::io::{self, Write};

use dalkon_rules::dakon::{Position, Side};
use flate2::{Compression, GzBuilder};

use crate::strategy::Strategy;

/// Bytes gathered before they are handed to the writer.
const CHUNK: usize = 1 << 16;

impl Strategy {
    /// Write the file as text: the header, then one line per key, sorted
    /// by row 0 then row 1, hole by hole as numbers; `\n` line ends.
    /// Returns the number of bytes written.
    ///
    /// Each key is written as its rows: keys are expected to be in the form
    /// [`Strategy::key`] gives (two keys with the same rows would make a
    /// file that [`Strategy::parse`] refuses).
    pub fn write_text(&self, w: &mut dyn Write) -> io::Result<u64> {
        let header = format!(
            "dalkon-strategy 1\ngame dakon\nrules {}\nroot {}\nplayer {}\nguarantees {}\nlines {}\n",
            self.rules,
            self.root,
            self.player.index(),
            self.guarantees,
            self.moves.len(),
        );
        w.write_all(header.as_bytes())?;
        let mut written = header.len() as u64;

        let mut lines: Vec<(&Position, u8)> = self.moves.iter().map(|(k, &h)| (k, h)).collect();
        lines.sort_unstable_by(line_order);
        let mut buf = Vec::with_capacity(CHUNK + 256);
        for (key, hole) in lines {
            push_row(&mut buf, key.pits(Side::South));
            buf.push(b'/');
            push_row(&mut buf, key.pits(Side::North));
            buf.push(b' ');
            push_number(&mut buf, hole);
            buf.push(b'\n');
            if buf.len() >= CHUNK {
                w.write_all(&buf)?;
                written += buf.len() as u64;
                buf.clear();
            }
        }
        w.write_all(&buf)?;
        written += buf.len() as u64;
        Ok(written)
    }

    /// The text file in memory.
    pub fn to_text(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write_text(&mut out)
            .expect("writing to a vector cannot fail");
        out
    }

    /// The file gzip-compressed. The gzip header carries no file name and a
    /// zero time stamp, so the bytes depend on the strategy alone.
    pub fn to_gzip(&self) -> io::Result<Vec<u8>> {
        let mut gz = GzBuilder::new()
            .mtime(0)
            .write(Vec::new(), Compression::default());
        self.write_text(&mut gz)?;
        gz.finish()
    }
}

/// Row 0 then row 1, hole by hole; keys with the same rows (not normalised)
/// are ordered by stores, side and hole, so that the order never depends
/// on the hash map.
fn line_order(a: &(&Position, u8), b: &(&Position, u8)) -> Ordering {
    let (pa, pb) = (a.0, b.0);
    pa.pits(Side::South)
        .cmp(pb.pits(Side::South))
        .then_with(|| pa.pits(Side::North).cmp(pb.pits(Side::North)))
        .then_with(|| {
            let parts =
                |p: &Position| (p.store(Side::South), p.store(Side::North), p.side_to_move());
            parts(pa).cmp(&parts(pb))
        })
        .then(a.1.cmp(&b.1))
}

fn push_row(buf: &mut Vec<u8>, row: &[u8]) {
    for (i, &c) in row.iter().enumerate() {
        if i > 0 {
            buf.push(b',');
        }
        push_number(buf, c);
    }
}

fn push_number(buf: &mut Vec<u8>, n: u8) {
    if n >= 100 {
        buf.push(b'0' + n / 100);
    }
    if n >= 10 {
        buf.push(b'0' + n / 10 % 10);
    }
    buf.push(b'0' + n % 10);
}
