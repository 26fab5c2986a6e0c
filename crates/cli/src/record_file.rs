//! Game-record files (docs/formats.md, "Game records") as the commands read
//! and write them: `game --save`/`--load`, the `save FILE` word at a game's
//! prompt, `match --records`, `analyse FILE`. A read is bounded (a record
//! is at most `MAX_RECORD_BYTES`); a write is atomic, so a game saved after
//! every move loses nothing when it is interrupted.

use std::path::{Path, PathBuf};

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

/// Where a game keeps its record: `--save`'s file, and the tags the record
/// carries beyond its rules and start (`dalkon_rules::record::continued_tags`
/// for a loaded game).
#[derive(Debug)]
pub struct Keeper {
    pub path: Option<PathBuf>,
    pub tags: Vec<(String, String)>,
}

impl Keeper {
    /// Write `text`, a record of `n` `unit`s (moves, throws), to `path`,
    /// and say so: `saved 3 moves to game.record`.
    pub fn save(
        &self,
        path: &Path,
        text: &str,
        (n, unit): (usize, &str),
    ) -> anyhow::Result<String> {
        save(path, text)?;
        let s = if n == 1 { "" } else { "s" };
        Ok(format!("saved {n} {unit}{s} to {}", path.display()))
    }

    /// The answer to `save FILE` at the prompt, `save` writing the record
    /// to a path: `file` empty saves to --save's file; a file that cannot
    /// be written is said, and the game goes on.
    pub fn answer(
        &self,
        file: &str,
        save: impl Fn(&Path) -> anyhow::Result<String>,
    ) -> anyhow::Result<String> {
        Ok(match (file, &self.path) {
            ("", None) => "save needs a file: save FILE".to_owned(),
            ("", Some(path)) => save(path)?,
            (file, _) => match save(Path::new(file)) {
                Ok(said) => said,
                Err(e) => format!("not saved: {}", dalkon_render::one_line(e.as_ref())),
            },
        })
    }
}
