//! How much memory a database build needs, and the refusal of a build that
//! does not fit in what this machine lets it use (`dalkon_store::memory`).
//!
//! Every level up to the highest stays in memory while higher levels are
//! built (a capture can drop the seeds on the board to any lower level), so
//! a build of levels `0..=K` for `n` holes needs `C(K + 2n, 2n)` bytes of
//! entries, plus one more copy of the largest level being built (its working
//! array of atomics before it becomes plain bytes), plus the row tables.

use dalkon_store::memory::budget;

use super::error::DbError;
use crate::rank::binomial;

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

/// Refuse a build of `needed` bytes that does not fit in `available`
/// (when MemAvailable is unknown, [`dalkon_store::memory::ASSUMED_AVAILABLE`] is
/// assumed).
pub fn check(holes: usize, max_k: u32, needed: u64, available: Option<u64>) -> Result<(), DbError> {
    let available = available.unwrap_or(dalkon_store::memory::ASSUMED_AVAILABLE);
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
