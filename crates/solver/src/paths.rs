//! Where the solver keeps its files: the database folder and the working
//! folders of openings counts inside it.

use std::ffi::OsString;
use std::path::PathBuf;

use dalkon_rules::dakon::Rules;

/// The environment variable naming the database folder.
pub const DB_DIR_ENV: &str = "DALKON_DB_DIR";

/// The database folder used when neither an argument nor
/// [`DB_DIR_ENV`] names one (relative to the working directory).
pub const DEFAULT_DB_DIR: &str = "dalkon-db";

/// The database folder: `arg` (`--db-dir`), else `$DALKON_DB_DIR` (an empty
/// value counts as unset), else `dalkon-db`.
pub fn db_dir(arg: Option<PathBuf>) -> PathBuf {
    db_dir_from(arg, std::env::var_os(DB_DIR_ENV))
}

/// [`db_dir`] with the environment's value given, for tests.
pub fn db_dir_from(arg: Option<PathBuf>, env: Option<OsString>) -> PathBuf {
    arg.or_else(|| env.filter(|v| !v.is_empty()).map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from(DEFAULT_DB_DIR))
}

/// The name of an openings count's working folder:
/// `openings-<n>x<m>-<origin>-<mikul>-<nembak>`.
pub fn openings_dir_name(holes: usize, seeds: u32, rules: &Rules) -> String {
    let (o, mi, ne) = rules.names();
    format!("openings-{holes}x{seeds}-{o}-{mi}-{ne}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_argument_wins_then_the_environment_then_the_default() {
        let arg = Some(PathBuf::from("a"));
        let env = Some(OsString::from("e"));
        assert_eq!(db_dir_from(arg.clone(), env.clone()), PathBuf::from("a"));
        assert_eq!(db_dir_from(None, env), PathBuf::from("e"));
        assert_eq!(db_dir_from(None, None), PathBuf::from("dalkon-db"));
    }

    #[test]
    fn an_empty_environment_value_is_unset() {
        assert_eq!(
            db_dir_from(None, Some(OsString::new())),
            PathBuf::from("dalkon-db")
        );
    }

    #[test]
    fn openings_folders_name_board_and_rules() {
        assert_eq!(
            openings_dir_name(7, 7, &Rules::default()),
            "openings-7x7-sow-on-keep"
        );
    }
}
