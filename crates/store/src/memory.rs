//! How much memory this machine lets a build use. Shared by the table
//! builders: the solver's retrograde databases (its `retro/memory.rs`
//! charges a build against it), its openings count and its search table
//! limits, so it sits outside any one of them.

/// Headroom left to everything else: a tenth of MemAvailable, at least this.
pub const MIN_HEADROOM: u64 = 512 << 20;

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
    fn the_budget_keeps_headroom() {
        assert_eq!(budget(10 << 30), 9 << 30);
        assert_eq!(budget(1 << 30), (1 << 30) - MIN_HEADROOM);
        assert_eq!(budget(100), 0);
    }
}
