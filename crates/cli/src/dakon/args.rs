//! Argument structs shared by several `dakon` commands.

/// Search resources, shared by `solve` and `best`.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct SearchArgs {
    /// Transposition-table memory in MiB (default: half the available
    /// memory, at most 4096).
    #[arg(long, value_name = "MIB")]
    pub tt_mb: Option<usize>,
}
