//! Playing by the solved tables ([`crate::solved`], docs/rules.md §1.8): the
//! tables' value of a play, the best play by them (what the `perfect`
//! player of `players.rs` plays, and what the error rates of `loss/`
//! measure the other players against), and whether tables cover a game.
//!
//! A play's value is read for the side that made it: its result's `W` if
//! the same side throws again (a dal-dal), else `1 − W`, and 1 or 0 if the
//! play ended the game. The player takes the play of highest value, ties
//! going to the generator's first, so its own loss by this measure is 0 on
//! every decision. Before a game it checks that the tables cover every
//! position the game can reach: every layer with at most as many pieces a
//! side as the start (and its mirror), since captures only lower counts.

use dalkon_rules::daldos::{Board, Play, Position, Side, Variants};

use crate::solved::{layers_for, solve_flags, Tables};

/// Why the perfect player cannot play a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PerfectError {
    /// A layer that a game from the start can reach is not in the tables.
    #[error(
        "perfect needs the tables of board {board} up to {a} v {b} (layer {} v {} is {}): \
         run dalkon daldos solve --board {board} --pieces {a},{b}{flags}",
        missing.0,
        missing.1,
        match dir { Some(d) => format!("not in {d}"), None => "missing".to_owned() }
    )]
    Missing {
        /// The board's name.
        board: String,
        /// Pieces of A and of B at the start.
        a: u8,
        /// See `a`.
        b: u8,
        /// The first layer missing (pieces of the side to throw, then the
        /// other's).
        missing: (u8, u8),
        /// The tables' folder, if any.
        dir: Option<String>,
        /// The rule flags (beyond the defaults) and `--db-dir` of the
        /// command that builds them.
        flags: String,
    },
    /// The start has a dalt piece on its owner's first hole.
    #[error(
        "perfect cannot play from {position}: it has a dalt piece on its owner's first \
         hole, which no game reaches and no table holds"
    )]
    Unreachable {
        /// The start position.
        position: String,
    },
    /// A position whose plays the tables do not all cover.
    #[error("the tables do not cover every play of {position}")]
    NotCovered {
        /// The position.
        position: String,
    },
    /// The tables are of other rules than the game.
    #[error("perfect was given tables of the rules {tables} for a game under {game}")]
    Rules {
        /// The tables' rules.
        tables: String,
        /// The game's rules.
        game: String,
    },
}

/// Check that `tables` (if any) cover every position a game of `variants`
/// from `start` can reach: the error names the first layer missing, and
/// the command that builds them all.
pub fn check_coverage(
    tables: Option<&Tables>,
    variants: &Variants,
    start: &Position,
) -> Result<(), PerfectError> {
    if let Some(t) = tables {
        if t.variants() != *variants {
            return Err(PerfectError::Rules {
                tables: t.variants().to_string(),
                game: variants.to_string(),
            });
        }
    }
    if start.is_over(variants) {
        return Ok(());
    }
    let (a, b) = (start.count(Side::A) as u8, start.count(Side::B) as u8);
    check_layers(tables, start.board(), variants, (a, b))?;
    match tables.and_then(|t| t.bounds(start)) {
        Some(_) => Ok(()),
        None => Err(PerfectError::Unreachable {
            position: start.to_string(),
        }),
    }
}

/// Check that `tables` (if any) hold every layer of `board` with at most
/// `pieces.0` pieces of A and `pieces.1` of B, and their mirrors: all that
/// a game from such a position can reach, whichever side throws. The
/// error names the first layer missing.
pub fn check_layers(
    tables: Option<&Tables>,
    board: Board,
    variants: &Variants,
    pieces: (u8, u8),
) -> Result<(), PerfectError> {
    let (a, b) = pieces;
    for key in layers_for(board, variants, (a, b)) {
        for k in [key, key.swapped()] {
            let present = tables.is_some_and(|t| t.board() == board && t.has_layer(k.a, k.b));
            if !present {
                return Err(PerfectError::Missing {
                    board: board.name(),
                    a,
                    b,
                    missing: (k.a, k.b),
                    dir: tables
                        .and_then(|t| t.dir())
                        .map(|d| d.display().to_string()),
                    flags: solve_flags(variants, tables.and_then(|t| t.dir())),
                });
            }
        }
    }
    Ok(())
}

/// The tables' value for `mover` of `result`, the position after one of
/// its plays: 1 or 0 if the game is over, the result's `W` if `mover`
/// throws again, else `1 − W`; `None` where the tables do not cover it.
pub fn play_value(tables: &Tables, mover: Side, result: &Position) -> Option<f64> {
    if let Some(w) = result.winner(&tables.variants()) {
        return Some(if w == mover { 1.0 } else { 0.0 });
    }
    let b = tables.bounds(result)?;
    Some(if result.side_to_move() == mover {
        b.value()
    } else {
        b.flipped().value()
    })
}

/// The index of the best play of `plays` (made by the side to move of
/// `pos`) by the tables, ties to the first; plays whose result the tables
/// do not cover rank last. With its value (`None` if no play is covered).
pub fn best_by_tables(
    tables: &Tables,
    pos: &Position,
    plays: &[(Play, Position)],
) -> (usize, Option<f64>) {
    let mover = pos.side_to_move();
    let mut best = (0, None);
    for (i, (_, result)) in plays.iter().enumerate() {
        if let Some(v) = play_value(tables, mover, result) {
            if best.1.map_or(true, |b| v > b) {
                best = (i, Some(v));
            }
        }
    }
    best
}
