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

/// Endgame databases probed by the search, shared by `best`, `show`,
/// `game` and `analyse`.
#[derive(Debug, Clone, clap::Args)]
pub struct ProbeArgs {
    /// Answer positions with at most K seeds on the board from endgame
    /// databases (loaded from the database folder, or built into it once):
    /// the same answers, the hard positions of real games much faster
    /// (7×7: 18 takes about a minute and 450 MB once). Default 0: none.
    #[arg(long, value_name = "K")]
    pub probe_seeds: Option<u32>,
    #[command(flatten)]
    pub db: DbDirArgs,
}

impl ProbeArgs {
    /// The databases' folder asked for.
    pub fn db_dir(&self) -> Option<std::path::PathBuf> {
        self.db.db_dir.clone()
    }
}
