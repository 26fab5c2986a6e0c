//! Game-record files (docs/formats.md, "Game records") as the commands read
//! and write them: `game --save`/`--load`, the `save FILE` word at a game's
//! prompt, `match --records`, `analyse FILE`. A read is bounded (a record
//! is at most `MAX_RECORD_BYTES`); a write is atomic, so a game saved after
//! every move loses nothing when it is interrupted.

use std::path::Path;

use anyhow::Context;
use dalkon_rules::MAX_RECORD_BYTES;
use dalkon_store::read_text;

/// The text of the record in `path`, bounded (exit 2 when it cannot be
/// opened, is too large or is not UTF-8).
pub fn read(path: &Path) -> anyhow::Result<String> {
    read_text(path, MAX_RECORD_BYTES, "a game record").map_err(|e| {
        if e.is_bad_input() {
            // Kept as text: an I/O error in the chain would mean exit 1.
            anyhow::anyhow!("{e}")
        } else {
            anyhow::Error::new(e)
        }
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
