//! What `reproduce` solves: the default run's scopes (about a minute on
//! two cores) and the larger ones only `--full` adds.

use dalkon_rules::daldos::{Board, EndRule, Variants};

/// One board and rule set, and the `daldos solve --pieces` builds whose
/// layers together make it.
#[derive(Debug, Clone)]
pub(super) struct Scope {
    pub board: Board,
    pub variants: Variants,
    /// The `--pieces A,B` of each build (a later build loads the layers an
    /// earlier one made).
    pub pieces: &'static [(u8, u8)],
}

fn board(len: u8) -> Board {
    Board::new(len).expect("a board length the rules take")
}

/// The default run: the whole game of board 4 under the default rules and
/// under `end=one`; the Norwegian board up to 2 v 2, the Danish board with
/// at most three pieces in all.
pub(super) fn default_scopes() -> Vec<Scope> {
    let one = Variants {
        end: EndRule::One,
        ..Variants::default()
    };
    vec![
        Scope {
            board: board(4),
            variants: Variants::default(),
            pieces: &[(4, 4)],
        },
        Scope {
            board: board(4),
            variants: one,
            pieces: &[(4, 4)],
        },
        Scope {
            board: Board::NORWEGIAN,
            variants: Variants::default(),
            pieces: &[(2, 2)],
        },
        Scope {
            board: Board::DANISH,
            variants: Variants::default(),
            pieces: &[(2, 1)],
        },
    ]
}

/// `--full` only: the whole game of board 5, the Norwegian board up to
/// 3 v 3, the Danish board with at most four pieces in all.
pub(super) fn full_scopes() -> Vec<Scope> {
    vec![
        Scope {
            board: board(5),
            variants: Variants::default(),
            pieces: &[(5, 5)],
        },
        Scope {
            board: Board::NORWEGIAN,
            variants: Variants::default(),
            pieces: &[(3, 3)],
        },
        Scope {
            board: Board::DANISH,
            variants: Variants::default(),
            pieces: &[(2, 2), (3, 1)],
        },
    ]
}
