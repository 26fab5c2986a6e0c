//! Compact table keys for the verifier: the two rows of a position packed
//! one byte a hole into `W` 64-bit words, `W / 2` for each row. Comparing
//! and hashing two or four words is much cheaper than a whole `Position`
//! (68 bytes), and the verifier does it for every move it follows.

use dalkon_rules::dakon::{Position, Side};

/// The words a key needs for `holes` holes a row: 2 up to 8 holes, 4 up to
/// 16, 8 up to 32 (`MAX_HOLES`).
pub(crate) fn words_for(holes: usize) -> usize {
    match holes {
        0..=8 => 2,
        9..=16 => 4,
        _ => 8,
    }
}

/// The rows of `pos` as `W` words. Two positions of the same board have
/// the same key exactly when their rows are equal (the row arrays are zero
/// past the last hole); stores and side to move are not in the key.
#[inline]
pub(crate) fn pack<const W: usize>(pos: &Position) -> [u64; W] {
    let per_row = W / 2;
    let mut words = [0u64; W];
    for side in Side::BOTH {
        let row = pos.padded_row(side);
        for (w, bytes) in row.chunks_exact(8).take(per_row).enumerate() {
            let mut word = [0u8; 8];
            word.copy_from_slice(bytes);
            words[side.index() * per_row + w] = u64::from_le_bytes(word);
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_tell_rows_apart_and_ignore_stores_and_side() {
        let a: Position = "1,2,3/4,5,6/7,8 0".parse().unwrap();
        let b: Position = "1,2,3/4,5,6/0,0 1".parse().unwrap();
        let c: Position = "1,2,3/4,6,5/7,8 0".parse().unwrap();
        assert_eq!(pack::<2>(&a), pack::<2>(&b));
        assert_ne!(pack::<2>(&a), pack::<2>(&c));
        assert_eq!(pack::<2>(&a), [0x03_02_01, 0x06_05_04]);
        let wide: Position = format!("{}/{}/0,0 0", ["1"; 32].join(","), ["0"; 32].join(","))
            .parse()
            .unwrap();
        let key = pack::<8>(&wide);
        assert_eq!(key[..4], [0x0101_0101_0101_0101; 4]);
        assert_eq!(key[4..], [0; 4]);
        assert_eq!((words_for(8), words_for(9), words_for(32)), (2, 4, 8));
    }
}
