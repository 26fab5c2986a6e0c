//! The per-user folder of dalkon's databases and solved tables (Dakon's
//! retrograde databases and openings counts, Daldøs's solved tables): one
//! folder whatever the working directory, so that a table built once is
//! found by every command run from anywhere.
//!
//! The folder is the first of: the argument (`--db-dir`, Python's
//! `db_dir=`), `$DALKON_DB_DIR`, a `dalkon-db` folder in the working
//! directory when one exists (the command-line contract's folder, so that
//! tables other tools put there are found), `$XDG_DATA_HOME/dalkon`,
//! `$HOME/.local/share/dalkon` (the XDG base directory default). A
//! variable set to the empty string counts as unset, as the XDG
//! specification asks. No `dalkon-db` folder is ever created in the
//! working directory: without one, new tables go to the per-user folder.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The environment variable naming the folder.
pub const DB_DIR_ENV: &str = "DALKON_DB_DIR";

/// The folder in the working directory that is used when it exists.
pub const LOCAL_DIR: &str = "dalkon-db";

/// The folder's name inside `$XDG_DATA_HOME` (or `~/.local/share`).
pub const APP_DIR: &str = "dalkon";

/// No folder could be chosen: no argument, and neither `$DALKON_DB_DIR`,
/// `$XDG_DATA_HOME` nor `$HOME` is set (a relative fallback would put the
/// tables wherever the command happens to run).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "no folder for the databases: set {DB_DIR_ENV} or pass --db-dir \
     (neither XDG_DATA_HOME nor HOME is set)"
)]
pub struct NoDataDir;

/// The folder: `arg`, else `$DALKON_DB_DIR`, else `./dalkon-db` if it is a
/// folder, else `$XDG_DATA_HOME/dalkon`, else `$HOME/.local/share/dalkon`.
pub fn data_dir(arg: Option<PathBuf>) -> Result<PathBuf, NoDataDir> {
    data_dir_from(
        arg,
        |name| std::env::var_os(name),
        Path::new(LOCAL_DIR).is_dir(),
    )
}

/// [`data_dir`] with the environment given as a lookup and whether the
/// working directory holds a `dalkon-db` folder (for tests).
pub fn data_dir_from(
    arg: Option<PathBuf>,
    env: impl Fn(&str) -> Option<OsString>,
    local: bool,
) -> Result<PathBuf, NoDataDir> {
    let var = |name: &str| env(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = arg {
        return Ok(dir);
    }
    if let Some(dir) = var(DB_DIR_ENV) {
        return Ok(dir);
    }
    if local {
        return Ok(PathBuf::from(LOCAL_DIR));
    }
    if let Some(xdg) = var("XDG_DATA_HOME") {
        return Ok(xdg.join(APP_DIR));
    }
    if let Some(home) = var("HOME") {
        return Ok(home.join(".local").join("share").join(APP_DIR));
    }
    Err(NoDataDir)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lookup holding `vars`.
    fn env(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<OsString> {
        let vars: Vec<(String, OsString)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), OsString::from(v)))
            .collect();
        move |name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
    }

    const ALL: &[(&str, &str)] = &[
        ("DALKON_DB_DIR", "/e"),
        ("XDG_DATA_HOME", "/x"),
        ("HOME", "/h"),
    ];

    #[test]
    fn the_argument_wins_over_every_variable() {
        let got = data_dir_from(Some(PathBuf::from("a")), env(ALL), true);
        assert_eq!(got, Ok(PathBuf::from("a")));
    }

    #[test]
    fn then_dalkon_db_dir_then_xdg_data_home_then_home() {
        assert_eq!(data_dir_from(None, env(ALL), true), Ok(PathBuf::from("/e")));
        assert_eq!(
            data_dir_from(None, env(&ALL[1..]), false),
            Ok(PathBuf::from("/x/dalkon"))
        );
        assert_eq!(
            data_dir_from(None, env(&ALL[2..]), false),
            Ok(PathBuf::from("/h/.local/share/dalkon"))
        );
    }

    #[test]
    fn a_dalkon_db_folder_here_comes_after_the_variable_before_the_user_folder() {
        assert_eq!(
            data_dir_from(None, env(&ALL[1..]), true),
            Ok(PathBuf::from("dalkon-db"))
        );
        assert_eq!(
            data_dir_from(None, env(&[]), true),
            Ok(PathBuf::from("dalkon-db"))
        );
    }

    #[test]
    fn an_empty_variable_counts_as_unset() {
        let empty = env(&[("DALKON_DB_DIR", ""), ("XDG_DATA_HOME", ""), ("HOME", "/h")]);
        assert_eq!(
            data_dir_from(None, empty, false),
            Ok(PathBuf::from("/h/.local/share/dalkon"))
        );
    }

    #[test]
    fn no_home_and_no_variable_is_an_error_not_a_relative_folder() {
        assert_eq!(data_dir_from(None, env(&[]), false), Err(NoDataDir));
        let e = data_dir_from(None, env(&[("HOME", "")]), false).unwrap_err();
        assert_eq!(
            e.to_string(),
            "no folder for the databases: set DALKON_DB_DIR or pass --db-dir \
             (neither XDG_DATA_HOME nor HOME is set)"
        );
    }
}
