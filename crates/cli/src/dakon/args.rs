//! Argument structs shared by several `dakon` commands.

/// Search resources, shared by `solve` and `best`.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct SearchArgs {
    /// Transposition-table memory in MiB (default: half the available
    /// memory, at most 4096).
    #[arg(long, value_name = "MIB")]
    pub tt_mb: Option<usize>,
}

/// The folder of the retrograde databases, shared by `solve` and `best`.
#[derive(Debug, Clone, clap::Args)]
pub struct DbDirArgs {
    /// Folder of the retrograde databases (default: $DALKON_DB_DIR, else
    /// ./dalkon-db if it exists, else $XDG_DATA_HOME/dalkon, else ~/.local/share/dalkon).
    #[arg(long)]
    pub db_dir: Option<std::path::PathBuf>,
}
