//! Which rank owns a position ([`owner`]), the hash of a layer that does
//! not depend on the partition ([`key_hash`]), and the bytes the ranks
//! exchange: sets of positions as (layer, rank) keys, and summaries.

use crate::openings::board::Summary;
use crate::openings::layer_set::{Decoder, Encoder};

/// The splitmix64 finaliser: every bit of the output depends on every bit
/// of the input.
fn mix(mut h: u64) -> u64 {
    h ^= h >> 30;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^= h >> 27;
    h = h.wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

/// A 64-bit hash of the position of rank `rank` in layer `layer`.
pub(crate) fn key_hash(layer: usize, rank: u128) -> u64 {
    let lo = rank as u64;
    let hi = (rank >> 64) as u64;
    mix(mix(lo ^ (layer as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)) ^ hi)
}

/// The rank (of `ranks`) that owns the position (`layer`, `rank`): fixed
/// by the position and the number of ranks alone, so every rank finds the
/// same owner, and a checkpoint can be partitioned again for another
/// number of ranks.
pub(crate) fn owner(layer: usize, rank: u128, ranks: usize) -> usize {
    ((u128::from(key_hash(layer, rank)) * ranks as u128) >> 64) as usize
}

fn push_varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn read_varint(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    let mut shift = 0;
    loop {
        let b = *bytes.get(*at)?;
        *at += 1;
        if shift >= 64 {
            return None;
        }
        v |= u64::from(b & 0x7f) << shift;
        shift += 7;
        if b & 0x80 == 0 {
            return Some(v);
        }
    }
}

/// The keys, sorted and deduplicated in place, as bytes: per layer
/// (ascending) the layer, the number of ranks, the bytes of their
/// encoding and the ranks encoded as a finished layer's are.
pub(crate) fn encode_keys(keys: &mut Vec<(usize, u128)>) -> Vec<u8> {
    keys.sort_unstable();
    keys.dedup();
    let mut out = Vec::new();
    let mut i = 0;
    while i < keys.len() {
        let layer = keys[i].0;
        let mut enc = Encoder::default();
        while i < keys.len() && keys[i].0 == layer {
            enc.push(keys[i].1);
            i += 1;
        }
        push_varint(&mut out, layer as u64);
        push_varint(&mut out, enc.count);
        push_varint(&mut out, enc.bytes.len() as u64);
        out.extend_from_slice(&enc.bytes);
    }
    out
}

/// The inverse of [`encode_keys`]: the ranks of each layer, ascending;
/// `None` when the bytes are not such an encoding.
pub(crate) fn decode_keys(bytes: &[u8]) -> Option<Vec<(usize, Vec<u128>)>> {
    let mut at = 0;
    let mut out = Vec::new();
    while at < bytes.len() {
        let layer = read_varint(bytes, &mut at)? as usize;
        let count = read_varint(bytes, &mut at)?;
        let len = read_varint(bytes, &mut at)? as usize;
        let body = bytes.get(at..at.checked_add(len)?)?;
        at += len;
        let mut dec = Decoder::new(body);
        let mut ranks = Vec::with_capacity(count.min(1 << 20) as usize);
        while let Some(r) = dec.next_rank().ok()? {
            ranks.push(r);
        }
        if ranks.len() as u64 != count {
            return None;
        }
        out.push((layer, ranks));
    }
    Some(out)
}

/// Bytes of a summary.
pub(crate) const SUMMARY_BYTES: usize = 14;

/// A summary as bytes (the layout of a winners file's entries).
pub(crate) fn push_summary(out: &mut Vec<u8>, s: &Summary) {
    out.extend_from_slice(&s.count.to_le_bytes());
    out.extend_from_slice(&s.short_len.to_le_bytes());
    out.push(s.short_first);
    out.extend_from_slice(&s.best_margin.to_le_bytes());
    out.push(s.best_first);
}

/// The summary at the start of `b` (at least [`SUMMARY_BYTES`] long).
pub(crate) fn read_summary(b: &[u8]) -> Option<Summary> {
    Some(Summary {
        count: u64::from_le_bytes(b.get(0..8)?.try_into().ok()?),
        short_len: u16::from_le_bytes(b.get(8..10)?.try_into().ok()?),
        short_first: *b.get(10)?,
        best_margin: i16::from_le_bytes(b.get(11..13)?.try_into().ok()?),
        best_first: *b.get(13)?,
    })
}

/// The hash of a winning position with its summary.
pub(crate) fn winner_hash(layer: usize, rank: u128, s: &Summary) -> u64 {
    let mut b = Vec::with_capacity(SUMMARY_BYTES);
    push_summary(&mut b, s);
    let word = u64::from_le_bytes(b[0..8].try_into().expect("8 bytes"));
    let rest = u64::from_le_bytes([b[8], b[9], b[10], b[11], b[12], b[13], 0, 0]);
    mix(key_hash(layer, rank) ^ mix(word) ^ rest.rotate_left(17))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_sorted_and_distinct() {
        let mut keys = vec![(7, 5u128), (3, u128::MAX - 1), (7, 5), (3, 0), (7, 1 << 90)];
        let bytes = encode_keys(&mut keys);
        assert_eq!(
            decode_keys(&bytes).unwrap(),
            vec![(3, vec![0, u128::MAX - 1]), (7, vec![5, 1 << 90])]
        );
        assert!(decode_keys(&bytes[..bytes.len() - 1]).is_none());
        assert_eq!(decode_keys(&[]).unwrap(), Vec::new());
    }

    #[test]
    fn owners_spread_evenly_and_do_not_depend_on_the_caller() {
        let mut per = [0u32; 4];
        for r in 0..40_000u128 {
            per[owner(12, r, 4)] += 1;
        }
        assert!(per.iter().all(|&n| (9_500..10_500).contains(&n)), "{per:?}");
        assert_eq!(owner(12, 17, 1), 0);
        // Pinned: a checkpoint written by one build is partitioned the same
        // by the next.
        assert_eq!(key_hash(3, 17), key_hash(3, 17));
        assert_ne!(key_hash(3, 17), key_hash(4, 17));
        assert_eq!(
            (0..8).map(|r| owner(5, r, 4)).collect::<Vec<_>>(),
            OWNERS_PINNED
        );
    }

    /// Owners of ranks 0..8 of layer 5 among 4 ranks.
    const OWNERS_PINNED: [usize; 8] = [0, 0, 3, 3, 3, 2, 0, 0];

    #[test]
    fn summaries_round_trip() {
        let s = Summary {
            count: 1 << 40,
            short_len: 9,
            short_first: 3,
            best_margin: -7,
            best_first: 5,
        };
        let mut b = Vec::new();
        push_summary(&mut b, &s);
        assert_eq!(b.len(), SUMMARY_BYTES);
        let t = read_summary(&b).unwrap();
        assert_eq!(
            (
                t.count,
                t.short_len,
                t.short_first,
                t.best_margin,
                t.best_first
            ),
            (
                s.count,
                s.short_len,
                s.short_first,
                s.best_margin,
                s.best_first
            )
        );
    }
}
