//! Argument structs shared by several `dakon` commands.

/// Search resources, shared by `solve` and `best`.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct SearchArgs {
    /// Transposition-table memory in MiB (default: half the available
    /// memory, at most 4096).
    #[arg(long, value_name = "MIB")]
    pub tt_mb: Option<usize>,
    /// Search only: answer positions with at most K seeds on the board from
    /// retrograde databases (built in memory, or loaded from / written to
    /// the database folder). Default: from 6 holes up, the largest K whose
    /// databases have at most 20 million entries; 0 turns probing off.
    #[arg(long, value_name = "K")]
    pub probe_seeds: Option<u32>,
}
