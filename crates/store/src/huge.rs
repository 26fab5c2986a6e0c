//! Memory for tables far larger than the processor's caches (the Dakon
//! search's transposition table, the strategy checker's tables), asked of
//! the kernel on huge pages.
//!
//! A lookup in a table of gigabytes misses the translation buffer as well
//! as the caches: with 4 KiB pages every probe also walks the page tables.
//! Linux backs memory with 2 MiB pages when the program asks for them
//! (`madvise(MADV_HUGEPAGE)`; `madvise` is the default policy of most
//! distributions), and only for pages not yet touched, so a table asks
//! before it writes its first value. Measured on the search (a 7×7 game
//! position, one thread, 40 M nodes, 2.1 GB, runs alternated): 34–41 s on
//! 4 KiB pages, 24–26 s on huge pages. The request is a hint: where it is
//! refused (another system, huge pages turned off) the memory is the same,
//! on small pages.

/// Allocations at least this large ask for huge pages (smaller ones could
/// not hold one).
const HUGE: usize = 2 << 20;

/// A vector of `n` values made by `make`, its memory asked for on huge
/// pages before the first is written when it is large.
///
/// # Panics
///
/// When `n` values exceed the address space (running out of memory aborts,
/// as any allocation does).
pub fn vec_with<T>(n: usize, make: impl FnMut() -> T) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(n);
    let bytes = n * std::mem::size_of::<T>();
    if bytes >= HUGE {
        advise_huge(v.as_mut_ptr().cast(), bytes);
    }
    v.resize_with(n, make);
    v
}

/// Ask the kernel to back the whole pages of `bytes` bytes from `start`
/// with huge pages. Only a hint: nothing is read or written, and a refusal
/// is ignored.
fn advise_huge(start: *mut u8, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let first = (start as usize).div_ceil(PAGE) * PAGE;
        let end = (start as usize + bytes) / PAGE * PAGE;
        if end > first {
            #[allow(unsafe_code)]
            // SAFETY: the range lies inside one live allocation of ours, and
            // MADV_HUGEPAGE changes only how its pages are backed, never
            // their contents.
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, bytes);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_made_in_order_small_and_large() {
        for n in [0, 1, 7, 1 << 20] {
            let mut next = 0u64;
            let v = vec_with(n, || {
                next += 3;
                next
            });
            assert_eq!(v.len(), n);
            assert_eq!(v.capacity(), n);
            assert!(v.iter().enumerate().all(|(i, &x)| x == 3 * (i as u64 + 1)));
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_large_table_is_asked_on_huge_pages() {
        // The advice shows in the mapping's flags ("hg") whatever the
        // system's policy; whether pages are granted is the kernel's. A
        // kernel built without huge pages refuses the advice: nothing to
        // check there.
        if !std::path::Path::new("/sys/kernel/mm/transparent_hugepage/enabled").exists() {
            return;
        }
        let v = vec_with(8 << 20, || 0u8);
        let at = v.as_ptr() as usize + (4 << 20);
        let maps = std::fs::read_to_string("/proc/self/smaps").expect("Linux has smaps");
        let mut flags = None;
        let mut inside = false;
        for line in maps.lines() {
            if let Some((range, _)) = line.split_once(' ') {
                if let Some((a, b)) = range.split_once('-') {
                    if let (Ok(a), Ok(b)) =
                        (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16))
                    {
                        inside = a <= at && at < b;
                        continue;
                    }
                }
            }
            if inside {
                if let Some(f) = line.strip_prefix("VmFlags:") {
                    flags = Some(f.to_string());
                }
            }
        }
        let flags = flags.expect("the table's mapping is listed");
        assert!(flags.split_whitespace().any(|f| f == "hg"), "{flags}");
        drop(v);
    }
}
