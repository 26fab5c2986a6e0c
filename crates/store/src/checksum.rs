//! The checksum of dalkon's data files (the Dakon database levels, the
//! Daldøs solved tables and the openings layers): FNV-1a 64. It guards against damage
//! (truncation, a flipped bit, a stale file under the right name), not
//! against an adversary; it is byte-serial but far cheaper than the work
//! that made the bytes, and it can be fed in pieces, so a header and a
//! payload are hashed without being copied together.

const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a 64 fed piece by piece: `Fnv1a64::new().update(a).update(b)` is
/// the checksum of `a` followed by `b`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fnv1a64(u64);

impl Default for Fnv1a64 {
    fn default() -> Self {
        Fnv1a64::new()
    }
}

impl Fnv1a64 {
    /// The state before any byte.
    pub const fn new() -> Fnv1a64 {
        Fnv1a64(OFFSET_BASIS)
    }

    /// The state after `bytes` more.
    #[must_use]
    pub fn update(self, bytes: &[u8]) -> Fnv1a64 {
        let mut h = self.0;
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(PRIME);
        }
        Fnv1a64(h)
    }

    /// The checksum of every byte fed so far.
    pub const fn value(self) -> u64 {
        self.0
    }
}

/// The checksum of a file that carries it in its own header: the
/// payload's (`of_payload`, fed first so that it is also the fingerprint of
/// the payload alone), then every byte of `head` but the checksum's own
/// `field`. It covers the header too, so a header edited to pass as
/// another file's (other rules, another level) is caught.
pub fn seal(of_payload: Fnv1a64, head: &[u8], field: std::ops::Range<usize>) -> u64 {
    of_payload
        .update(&head[..field.start])
        .update(&head[field.end..])
        .value()
}

/// FNV-1a 64 of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    Fnv1a64::new().update(bytes).value()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_values() {
        // Published FNV-1a 64 test vectors.
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn pieces_hash_like_the_whole() {
        let whole = fnv1a64(b"foobar");
        assert_eq!(Fnv1a64::new().update(b"foo").update(b"bar").value(), whole);
        assert_eq!(Fnv1a64::new().update(b"").update(b"foobar").value(), whole);
    }

    #[test]
    fn the_seal_skips_its_own_field() {
        let head = *b"fooXXbar";
        let sealed = seal(Fnv1a64::new().update(b"data"), &head, 3..5);
        assert_eq!(sealed, fnv1a64(b"datafoobar"));
    }
}
