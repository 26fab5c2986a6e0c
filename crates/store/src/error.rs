//! The errors every data file and folder can meet, whatever its format: a
//! folder named that is not one, and a read or write the system refused.
//! The formats' own error enums keep variants of these names (front ends
//! match on them) and take their text and their conversion from here.

use std::io;
use std::path::{Path, PathBuf};

/// A file or folder operation of a table or database folder that failed.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The folder named exists and is not a folder.
    #[error("{}", not_a_folder(path, what))]
    NotAFolder {
        /// The path given.
        path: PathBuf,
        /// What the folder is for, e.g. `the databases`.
        what: &'static str,
    },
    /// The system refused a read or write. Its message is the source, not
    /// repeated here: the CLI prints the chain once.
    #[error("{}", io_failed(path))]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: io::Error,
    },
}

impl FileError {
    /// A closure for `map_err` that names `path` on an I/O error.
    pub fn io(path: &Path) -> impl FnOnce(io::Error) -> FileError + '_ {
        move |source| FileError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// The text of [`FileError::NotAFolder`].
pub fn not_a_folder(path: &Path, what: &str) -> String {
    format!(
        "{} is not a folder: name a folder for {what} (it is created if missing)",
        path.display()
    )
}

/// The text of [`FileError::Io`].
pub fn io_failed(path: &Path) -> String {
    format!("cannot read or write {}", path.display())
}

/// Refuse `dir` when it exists and is not a folder (it is then no place
/// for `what`); a missing one is fine, it is created when needed.
pub fn check_folder(dir: &Path, what: &'static str) -> Result<(), FileError> {
    if dir.exists() && !dir.is_dir() {
        return Err(FileError::NotAFolder {
            path: dir.to_path_buf(),
            what,
        });
    }
    Ok(())
}

/// [`check_folder`], then create `dir` and its parents if missing.
pub fn create_folder(dir: &Path, what: &'static str) -> Result<(), FileError> {
    check_folder(dir, what)?;
    std::fs::create_dir_all(dir).map_err(FileError::io(dir))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;

    #[test]
    fn a_file_in_place_of_the_folder_is_named() {
        let file = std::env::temp_dir().join(format!("dalkon-store-notdir-{}", std::process::id()));
        std::fs::write(&file, b"x").unwrap();
        let err = create_folder(&file, "the tables").unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "{} is not a folder: name a folder for the tables (it is created if missing)",
                file.display()
            )
        );
        std::fs::remove_file(&file).unwrap();
        let missing = file.join("a/b");
        create_folder(&missing, "the tables").unwrap();
        assert!(missing.is_dir());
        std::fs::remove_dir_all(&file).unwrap();
    }

    #[test]
    fn an_io_error_leaves_the_system_message_to_its_source() {
        let err = FileError::io(Path::new("/db/x.db"))(io::Error::other("disk on fire"));
        assert_eq!(err.to_string(), "cannot read or write /db/x.db");
        assert_eq!(err.source().unwrap().to_string(), "disk on fire");
    }
}
