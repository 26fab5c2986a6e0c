//! A hint to the processor's caches, for tables far larger than them
//! (the Dakon search's transposition table, the strategy checker's
//! tables): ask for a value's cache line before it is needed, so that
//! several lookups wait on memory together rather than one after another.

/// Ask the processor to bring the cache line holding `value` into every
/// cache level. A hint only: it never faults, reads nothing the program
/// sees and changes nothing; on other processors than x86_64 it does
/// nothing.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    // SAFETY: `_mm_prefetch` only hints the cache; SSE is part of the
    // x86_64 baseline, and the pointer is of a live value.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
