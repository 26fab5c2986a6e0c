//! How much memory a database build needs, and whether this machine has it.
//!
//! Every level up to the highest stays in memory while higher levels are
//! built (a capture can drop the seeds on the board to any lower level), so
//! a build of levels `0..=K` for `n` holes needs `C(K + 2n, 2n)` bytes of
//! entries, plus one more copy of the largest level being built (its working
//! array of atomics before it becomes plain bytes), plus the row tables.

use crate::db_error::DbError;
use crate::rank::binomial;

/// Headroom left to everything else: a tenth of MemAvailable, at least this.
pub const MIN_HEADROOM: u64 = 512 << 20;

/// Bytes a build of levels `0..=max_k` needs, `building` being the levels
/// to build (the rest are loaded from files). Saturates at `u64::MAX`.
pub fn bytes_needed(holes: usize, max_k: u32, building: impl Iterator<Item = u32>) -> u64 {
    let parts = 2 * holes as u64;
    let entries = binomial(u64::from(max_k) + parts, parts).unwrap_or(u128::MAX);
    let largest_built = building
        .map(|k| binomial(u64::from(k) + parts - 1, parts - 1).unwrap_or(u128::MAX))
        .max()
        .unwrap_or(0);
    // Row tables: every composition of up to max_k into n parts, n bytes
    // plus a 4-byte index each.
    let rows = binomial(u64::from(max_k) + holes as u64, holes as u64).unwrap_or(u128::MAX);
    let row_bytes = rows.saturating_mul(holes as u128 + 4);
    let total = entries
        .saturating_add(largest_built)
        .saturating_add(row_bytes);
    u64::try_from(total).unwrap_or(u64::MAX)
}

/// MemAvailable from `/proc/meminfo`, in bytes; `None` where there is no
/// such file (not Linux) or it cannot be read.
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_meminfo(&text)
}

/// The MemAvailable line of a `/proc/meminfo` text, in bytes.
pub fn parse_meminfo(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line
        .trim_start_matches("MemAvailable:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    kib.checked_mul(1024)
}

/// Bytes a build may use out of `available`.
pub fn budget(available: u64) -> u64 {
    available.saturating_sub((available / 10).max(MIN_HEADROOM))
}

/// MemAvailable assumed where it is unknown (not Linux).
pub const ASSUMED_AVAILABLE: u64 = 4 << 30;

/// Bytes a build or count may use out of MemAvailable, `available` (`None`:
/// unknown, [`ASSUMED_AVAILABLE`] is assumed).
pub fn usable(available: Option<u64>) -> u64 {
    budget(available.unwrap_or(ASSUMED_AVAILABLE))
}

/// Refuse a build of `needed` bytes that does not fit in `available`
/// (when MemAvailable is unknown, [`ASSUMED_AVAILABLE`] is assumed).
pub fn check(holes: usize, max_k: u32, needed: u64, available: Option<u64>) -> Result<(), DbError> {
    let available = available.unwrap_or(ASSUMED_AVAILABLE);
    let budget = budget(available);
    if needed > budget {
        return Err(DbError::OutOfMemory {
            holes,
            level: max_k,
            needed,
            budget,
            available,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meminfo_is_parsed() {
        let text = "MemTotal:       24684096 kB\nMemFree:        22523032 kB\nMemAvailable:   24328436 kB\n";
        assert_eq!(parse_meminfo(text), Some(24_328_436 * 1024));
        assert_eq!(parse_meminfo("MemTotal: 5 kB\n"), None);
    }

    #[test]
    fn needs_are_binomial() {
        // n = 4 up to 32 seeds: C(40, 8) entries + the level-32 working copy
        // C(39, 7) + C(36, 4) rows of 8 bytes.
        assert_eq!(
            bytes_needed(4, 32, 32..=32),
            76_904_685 + 15_380_937 + 58_905 * 8
        );
        // The standard board is far beyond any machine.
        let needed = bytes_needed(7, 98, 0..=98);
        assert!(needed > 1 << 50);
        assert!(matches!(
            check(7, 98, needed, Some(24 << 30)),
            Err(DbError::OutOfMemory { .. })
        ));
        assert!(check(4, 32, bytes_needed(4, 32, 0..=32), Some(24 << 30)).is_ok());
        assert!(check(4, 32, bytes_needed(4, 32, 0..=32), Some(64 << 20)).is_err());
    }
}
