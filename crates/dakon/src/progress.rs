//! Progress reporting for long builds. Engines never print: they call a
//! [`Progress`] that the CLI implements (with a progress bar on a terminal).

/// Receives progress events from a database build. Called from worker
/// threads, hence `Sync`; every method has a do-nothing default.
pub trait Progress: Sync {
    /// Level `level` (seeds on the board) starts building; it has `entries`
    /// positions.
    fn level_started(&self, level: u32, entries: u64) {
        let _ = (level, entries);
    }

    /// `entries` more positions of the current level are solved.
    fn advance(&self, entries: u64) {
        let _ = entries;
    }

    /// Level `level` is solved (and written, when building into a folder).
    fn level_finished(&self, level: u32) {
        let _ = level;
    }

    /// Level `level` was found on disk and loaded instead of built.
    fn level_loaded(&self, level: u32, entries: u64) {
        let _ = (level, entries);
    }
}

/// A [`Progress`] that ignores everything.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoProgress;

impl Progress for NoProgress {}
