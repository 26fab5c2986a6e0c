//! A true upper bound on the length of a Dakon game, for front ends that
//! must state one before the game is played (OpenSpiel's
//! `max_game_length`). It lives with the rules because it is a fact about
//! them, proved from docs/rules.md §2.2, not a search limit.

/// A true (loose) upper bound on the moves of a game that starts with
/// `holes` holes a row and `seeds` seeds in each.
///
/// A move either puts at least one seed into a store (at most `T` such
/// moves, `T = 2 · holes · seeds`, the seeds in play) or only carries seeds
/// forward inside the mover's own row, raising the sum of the seeds' hole
/// numbers (at most `T · holes`) without lowering the other row's. So at
/// most `T · holes` such moves come between two scoring moves, and a game
/// has at most `T + (T + 1) · T · holes` moves.
pub fn max_game_length(holes: usize, seeds: u32) -> u64 {
    let holes = holes as u64;
    let total = 2 * holes * u64::from(seeds);
    total + (total + 1) * total * holes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_of_small_and_traditional_boards() {
        // T = 2·h·s: 2×1 → T = 4, 4 + 5·4·2 = 44; 7×7 → T = 98,
        // 98 + 99·98·7 = 68,012.
        assert_eq!(max_game_length(2, 1), 44);
        assert_eq!(max_game_length(7, 7), 68_012);
        assert_eq!(max_game_length(1, 0), 0);
    }
}
