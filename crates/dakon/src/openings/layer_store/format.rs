//! The layout of the working folder's files: the 64-byte header every
//! file starts with (the table in the module documentation of
//! `layer_store`), and the payload of a winners file.

use dalkon_store::checksum::fnv1a64;
use dalkon_store::header::{self as store_header};
use hashbrown::HashMap;

use crate::openings::board::Summary;

pub(super) const MAGIC: [u8; 8] = *b"DKOPENLY";
pub(super) const VERSION: u32 = 2;
pub(crate) const HEADER_LEN: usize = 64;
/// Where the payload's checksum sits in the header.
pub(super) const CHECKSUM_AT: usize = 48;

/// What every file of one count must say in its header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LayerTag {
    pub(crate) holes: u32,
    pub(crate) rules: u32,
    pub(crate) seeds: u32,
    pub(crate) opp_store: u32,
    /// The position whose turn is counted, as (layer, rank): checked by
    /// the checkpoint only (files of one count share it).
    pub(crate) root: (u32, u128),
}

/// The kinds of file in a working folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Finished = 0,
    Pending = 1,
    Winners = 2,
}

impl Kind {
    pub(crate) fn prefix(self) -> &'static str {
        match self {
            Kind::Finished => "layer",
            Kind::Pending => "pending",
            Kind::Winners => "winners",
        }
    }
}

pub(crate) struct Header {
    pub(crate) tag: LayerTag,
    pub(crate) layer: u32,
    pub(crate) count: u64,
    pub(crate) kind: Kind,
    pub(crate) checkpoint: u32,
}

pub(crate) fn header(h: &Header, payload: &[u8]) -> [u8; HEADER_LEN] {
    let mut b = store_header::Header::<HEADER_LEN>::new(MAGIC, VERSION);
    b.u32(12, h.tag.holes)
        .u32(16, h.tag.rules)
        .u32(20, h.tag.seeds)
        .u32(24, h.tag.opp_store)
        .u32(28, h.layer)
        .u64(32, h.count)
        .u64(40, payload.len() as u64)
        .u64(CHECKSUM_AT, fnv1a64(payload))
        .u32(56, h.kind as u32)
        .u32(60, h.checkpoint);
    b.to_bytes()
}

/// Bytes of one winning position in a winners file: its rank and summary.
pub(super) const WINNER_BYTES: usize = 30;

/// A layer's winning positions as bytes, in rank order (so the file does
/// not depend on the hash table's order), with their number.
pub(crate) fn encode_winners(table: &HashMap<u128, Summary>) -> (Vec<u8>, u64) {
    let mut entries: Vec<(&u128, &Summary)> = table.iter().collect();
    entries.sort_unstable_by_key(|e| *e.0);
    let mut out = Vec::with_capacity(entries.len() * WINNER_BYTES);
    for (r, s) in entries {
        out.extend_from_slice(&r.to_le_bytes());
        out.extend_from_slice(&s.count.to_le_bytes());
        out.extend_from_slice(&s.short_len.to_le_bytes());
        out.push(s.short_first);
        out.extend_from_slice(&s.best_margin.to_le_bytes());
        out.push(s.best_first);
    }
    (out, table.len() as u64)
}

/// The inverse of [`encode_winners`]; `None` when the bytes are not `n`
/// entries.
pub(crate) fn decode_winners(bytes: &[u8], n: u64) -> Option<HashMap<u128, Summary>> {
    if bytes.len() as u64 != n * WINNER_BYTES as u64 {
        return None;
    }
    let mut table = HashMap::with_capacity(n as usize);
    for e in bytes.chunks_exact(WINNER_BYTES) {
        let r = u128::from_le_bytes(e[0..16].try_into().ok()?);
        let s = Summary {
            count: u64::from_le_bytes(e[16..24].try_into().ok()?),
            short_len: u16::from_le_bytes(e[24..26].try_into().ok()?),
            short_first: e[26],
            best_margin: i16::from_le_bytes(e[27..29].try_into().ok()?),
            best_first: e[29],
        };
        table.insert(r, s);
    }
    Some(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winners_round_trip_in_rank_order() {
        let mut table = HashMap::new();
        for (r, count) in [(u128::MAX - 3, 7u64), (5, 1), (1 << 70, u64::MAX)] {
            let s = Summary {
                count,
                short_len: 3,
                short_first: 2,
                best_margin: -4,
                best_first: 9,
            };
            table.insert(r, s);
        }
        let (bytes, n) = encode_winners(&table);
        assert_eq!((bytes.len(), n), (3 * WINNER_BYTES, 3));
        assert_eq!(bytes[..16], 5u128.to_le_bytes(), "rank order");
        let back = decode_winners(&bytes, n).unwrap();
        assert_eq!(back.len(), 3);
        for (r, s) in &table {
            let b = back[r];
            assert_eq!(
                (
                    b.count,
                    b.short_len,
                    b.short_first,
                    b.best_margin,
                    b.best_first
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
        assert!(decode_winners(&bytes[1..], n).is_none());
    }
}
