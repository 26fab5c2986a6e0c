//! The per-user folder of dalkon's databases and solved tables (Dakon's
//! retrograde databases and openings counts, Daldøs's solved tables): one
//! folder whatever the working directory, so that a table built once is
//! found by every command run from anywhere.
//!
//! The folder is the first of: the argument (`--db-dir`, Python's
//! `db_dir=`), `$DALKON_DB_DIR`, `$XDG_DATA_HOME/dalkon`,
//! `$HOME/.local/share/dalkon` (the XDG base directory default). A
//! variable set to the empty string counts as unset, as the XDG
//! specification asks.

use std::ffi::OsString;
use std::path::PathBuf;

/// The environment variable naming the folder.
pub const DB_DIR_ENV: &str = "DALKON_DB_DIR";

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

/// The folder: `arg`, else `$DALKON_DB_DIR`, else `$XDG_DATA_HOME/dalkon`,
/// else `$HOME/.local/share/dalkon`.
pub fn data_dir(arg: Option<PathBuf>) -> Result<PathBuf, NoDataDir> {
    data_dir_from(arg, |name| std::env::var_os(name))
}

/// [`data_dir`] with the environment given as a lookup (for tests).
pub fn data_dir_from(
    arg: Option<PathBuf>,
    env: impl Fn(&str) -> Option<OsString>,
) -> Result<PathBuf, NoDataDir> {
    let var = |name: &str| env(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = arg {
        return Ok(dir);
    }
    if let Some(dir) = var(DB_DIR_ENV) {
        return Ok(dir);
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
        let got = data_dir_from(Some(PathBuf::from("a")), env(ALL));
        assert_eq!(got, Ok(PathBuf::from("a")));
    }

    #[test]
    fn then_dalkon_db_dir_then_xdg_data_home_then_home() {
        assert_eq!(data_dir_from(None, env(ALL)), Ok(PathBuf::from("/e")));
        assert_eq!(
            data_dir_from(None, env(&ALL[1..])),
            Ok(PathBuf::from("/x/dalkon"))
        );
        assert_eq!(
            data_dir_from(None, env(&ALL[2..])),
            Ok(PathBuf::from("/h/.local/share/dalkon"))
        );
    }

    #[test]
    fn an_empty_variable_counts_as_unset() {
        let empty = env(&[("DALKON_DB_DIR", ""), ("XDG_DATA_HOME", ""), ("HOME", "/h")]);
        assert_eq!(
            data_dir_from(None, empty),
            Ok(PathBuf::from("/h/.local/share/dalkon"))
        );
    }

    #[test]
    fn no_home_and_no_variable_is_an_error_not_a_relative_folder() {
        assert_eq!(data_dir_from(None, env(&[])), Err(NoDataDir));
        let e = data_dir_from(None, env(&[("HOME", "")])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "no folder for the databases: set DALKON_DB_DIR or pass --db-dir \
             (neither XDG_DATA_HOME nor HOME is set)"
        );
    }
}
