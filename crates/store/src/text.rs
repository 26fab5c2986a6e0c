//! A small text file read whole with a bound on its size (game records):
//! a file named by a user may be anything, so the read stops one byte past
//! the bound and the text must be UTF-8.

use std::io::Read;
use std::path::Path;

/// Why a text file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TextFileError {
    /// It could not be opened (missing, a folder, not permitted): the
    /// user's to fix.
    #[error("{path}: {source}")]
    Open {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// Reading failed part way.
    #[error("{path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Larger than the bound.
    #[error("{path}: more than {max} bytes: {what} is at most {max} bytes")]
    TooLarge {
        /// The file.
        path: String,
        /// The bound.
        max: usize,
        /// What the file should have been.
        what: &'static str,
    },
    /// Not UTF-8.
    #[error("{path}: not UTF-8 text (at byte {valid_up_to})")]
    NotUtf8 {
        /// The file.
        path: String,
        /// The bytes before the first bad one.
        valid_up_to: usize,
    },
}

impl TextFileError {
    /// Whether the fault is the input's (exit code 2), not the system's.
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, TextFileError::Read { .. })
    }
}

/// The text of `path`, at most `max` bytes of UTF-8; `what` names the kind
/// of file in the error (e.g. "a game record").
pub fn read_text(path: &Path, max: usize, what: &'static str) -> Result<String, TextFileError> {
    let name = || path.display().to_string();
    let file = std::fs::File::open(path).map_err(|source| TextFileError::Open {
        path: name(),
        source,
    })?;
    let mut bytes = Vec::new();
    file.take(max as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| match source.kind() {
            // Reading a folder fails on the first read, not on open.
            std::io::ErrorKind::IsADirectory => TextFileError::Open {
                path: name(),
                source,
            },
            _ => TextFileError::Read {
                path: name(),
                source,
            },
        })?;
    if bytes.len() > max {
        return Err(TextFileError::TooLarge {
            path: name(),
            max,
            what,
        });
    }
    String::from_utf8(bytes).map_err(|e| TextFileError::NotUtf8 {
        path: name(),
        valid_up_to: e.utf8_error().valid_up_to(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_utf8_text_only() {
        let dir = std::env::temp_dir().join(format!("dalkon-text-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("t");
        std::fs::write(&f, "héllo").unwrap();
        assert_eq!(read_text(&f, 6, "x").unwrap(), "héllo");
        let e = read_text(&f, 5, "a game record").unwrap_err();
        assert!(e
            .to_string()
            .ends_with(": more than 5 bytes: a game record is at most 5 bytes"));
        assert!(e.is_bad_input());
        std::fs::write(&f, b"ab\xffc").unwrap();
        assert!(read_text(&f, 10, "x")
            .unwrap_err()
            .to_string()
            .ends_with("not UTF-8 text (at byte 2)"));
        let e = read_text(&dir, 10, "x").unwrap_err();
        assert!(e.is_bad_input(), "{e:?}");
        let e = read_text(&dir.join("none"), 10, "x").unwrap_err();
        assert!(matches!(e, TextFileError::Open { .. }));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
