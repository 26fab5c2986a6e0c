//! Property tests over random Dakon games: seeds are conserved by every
//! move, the game always ends, and the notation round-trips.

use dalkon_rules::dakon::{Position, Rules, Side};
use proptest::prelude::*;

fn rules() -> impl Strategy<Value = Rules> {
    (0u8..8).prop_map(|c| Rules::from_code(c).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_games_conserve_seeds_and_end(
        n in 1usize..=9,
        m in 1u8..=9,
        rules in rules(),
        choices in prop::collection::vec(any::<u16>(), 2000),
    ) {
        let start = Position::start(n, m).unwrap();
        let total = start.total_seeds();
        let mut p = start;
        let mut plies = 0;
        // Each move either puts a seed in a store, captures, or raises the
        // mover's row potential, so a game is short; 2000 moves is ample.
        while !p.is_over() {
            prop_assert!(plies < choices.len(), "game did not end: {}", p);
            let legal: Vec<usize> = p.moves().collect();
            let h = legal[usize::from(choices[plies]) % legal.len()];
            let mover = p.side_to_move();
            let next = p.play(h, &rules).unwrap();
            prop_assert_eq!(next.total_seeds(), total);
            prop_assert!(next.store(mover) >= p.store(mover));
            prop_assert!(next.store(mover.other()) >= p.store(mover.other()));
            p = next;
            plies += 1;
        }
        prop_assert_eq!(p.seeds_on_board(), 0);
        prop_assert_eq!(u32::from(p.store(Side::South)) + u32::from(p.store(Side::North)), total);
    }

    #[test]
    fn notation_round_trips(
        south in prop::collection::vec(0u8..12, 1..=10),
        north_seed in any::<u64>(),
        stores in (0u8..20, 0u8..20),
        side in 0usize..2,
    ) {
        let north: Vec<u8> = (0..south.len()).map(|i| ((north_seed >> (i * 4)) & 0xf) as u8).collect();
        let p = Position::new(&south, &north, [stores.0, stores.1], Side::from_index(side).unwrap()).unwrap();
        let text = p.to_string();
        prop_assert_eq!(text.parse::<Position>().unwrap(), p);
        prop_assert_eq!(p.flipped().flipped(), p);
    }

    /// Boards wider than 16 holes (up to the 32 a position holds): games
    /// conserve seeds and end, and the rows past the board stay empty, so
    /// a position equals the one rebuilt from its rows.
    #[test]
    fn wide_board_games_conserve_seeds_and_keep_the_padding_empty(
        n in 17usize..=32,
        m in 1u8..=3,
        rules in rules(),
        seed in any::<u64>(),
    ) {
        let start = Position::start(n, m).unwrap();
        let total = start.total_seeds();
        let mut p = start;
        let mut rng = seed | 1;
        let mut plies = 0;
        while !p.is_over() {
            prop_assert!(plies < 100_000, "game did not end: {}", p);
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let legal: Vec<usize> = p.moves().collect();
            let h = legal[(rng % legal.len() as u64) as usize];
            p = p.play(h, &rules).unwrap();
            prop_assert_eq!(p.total_seeds(), total);
            for side in Side::BOTH {
                prop_assert!(p.padded_row(side)[n..].iter().all(|&c| c == 0), "{}", p);
            }
            let rebuilt = Position::new(
                p.pits(Side::South),
                p.pits(Side::North),
                [p.store(Side::South), p.store(Side::North)],
                p.side_to_move(),
            )
            .unwrap();
            prop_assert_eq!(rebuilt, p);
            plies += 1;
        }
        prop_assert_eq!(p.seeds_on_board(), 0);
    }

    #[test]
    fn wide_notation_round_trips(
        south in prop::collection::vec(0u8..4, 1..=32),
        north_seed in any::<u64>(),
        side in 0usize..2,
    ) {
        let north: Vec<u8> = (0..south.len()).map(|i| ((north_seed >> (2 * i)) & 3) as u8).collect();
        let p = Position::new(&south, &north, [0, 0], Side::from_index(side).unwrap()).unwrap();
        prop_assert_eq!(p.to_string().parse::<Position>().unwrap(), p);
        prop_assert_eq!(p.flipped().flipped(), p);
    }

    #[test]
    fn garbage_never_panics(s in "\\PC{0,40}") {
        let _ = s.parse::<Position>();
    }
}
