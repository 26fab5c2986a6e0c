//! Game-record files (docs/formats.md, "Game records") as the commands read
//! and write them: `game --save`/`--load`, the `save FILE` word at a game's
//! prompt, `match --records`, `analyse FILE`. A read is bounded (a record
//! is at most `MAX_RECORD_BYTES`); a write is atomic, so a game saved after
//! every move loses nothing when it is interrupted.

use std::io::Read;
use std::path::Path;

use anyhow::Context;
use dalkon_rules::MAX_RECORD_BYTES;

/// The text of the record in `path` (`-`: standard input is not read
/// here; the commands take a file).
pub fn read(path: &Path) -> anyhow::Result<String> {
    // A file that cannot be opened is the user's to fix (exit 2): the
    // error is kept as text, not as an I/O failure.
    let file = std::fs::File::open(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(MAX_RECORD_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("{}", path.display()))?;
    if bytes.len() > MAX_RECORD_BYTES {
        anyhow::bail!(
            "{}: more than {MAX_RECORD_BYTES} bytes: not a game record",
            path.display()
        );
    }
    String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{}: not UTF-8 text (byte {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// Read and parse the record in `path`, its errors prefixed with the file.
pub fn load<R>(path: &Path) -> anyhow::Result<R>
where
    R: std::str::FromStr<Err = dalkon_rules::RecordError>,
{
    let text = read(path)?;
    text.parse::<R>()
        .with_context(|| format!("{}", path.display()))
}

/// Write `text` to `path` atomically.
pub fn save(path: &Path, text: &str) -> anyhow::Result<()> {
    dalkon_store::atomic::write(path, text.as_bytes())
        .with_context(|| format!("saving the game to {}", path.display()))
}
