//! Where solved tables would answer a position exactly but their file is
//! not in the folder: the layer, and the command that builds it (for
//! `daldos best`, which otherwise answers with an estimate and no word of
//! the tables it did not find).

use dalkon_rules::daldos::Position;
use dalkon_store::memory;

use super::error::solve_flags;
use super::{approx_size, layers_for, LayerKey, Tables};

/// A layer missing from the tables' folder that would cover a position.
#[derive(Debug, Clone, PartialEq)]
pub struct MissingLayer {
    /// The layer (pieces of the side to throw v the other).
    pub key: LayerKey,
    /// The command that builds it and every layer below it.
    pub command: String,
}

/// The layer of `pos` when its table is not loaded in `tables` and a build
/// of it would fit in the memory a build may use (`available`: the
/// machine's available bytes, as `daldos solve` checks them); `None` when
/// the position is finished, of another board, already covered, or its
/// layer is too large to build here (then no table could answer it and no
/// command is worth printing). Building the layer of the position also
/// builds every layer below it, so this covers every position a search
/// from `pos` reaches (captures only lower the counts).
pub fn missing_layer(
    tables: &Tables,
    pos: &Position,
    available: Option<u64>,
) -> Option<MissingLayer> {
    let v = tables.variants();
    if pos.board() != tables.board() || pos.is_over(&v) {
        return None;
    }
    let key = LayerKey::of(pos);
    if tables.has_layer(key.a, key.b) {
        return None;
    }
    // The sizes in floating point: cheap even where building the indices
    // of a layer is not.
    let positions: f64 = layers_for(key.board, &v, (key.a, key.b))
        .into_iter()
        .map(|k| {
            if k.a == k.b {
                approx_size(k)
            } else {
                approx_size(k) + approx_size(k.swapped())
            }
        })
        .sum();
    if positions * 16.0 > memory::usable(available) as f64 {
        return None;
    }
    Some(MissingLayer {
        key,
        command: format!(
            "dalkon daldos solve --board {} --pieces {},{}{}",
            key.board.name(),
            key.a,
            key.b,
            solve_flags(&v, tables.dir())
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use dalkon_rules::daldos::{Board, Variants};
    use std::path::Path;

    fn tables(l: u8) -> Tables {
        Tables::new(
            Board::new(l).expect("a board"),
            Variants::default(),
            Some(Path::new("/t")),
        )
    }

    #[test]
    fn an_uncovered_endgame_names_its_layer_and_the_build_command() {
        let pos: Position = "...A/..b../.... a".parse().expect("a position");
        let got = missing_layer(&tables(4), &pos, Some(8 << 30)).expect("missing");
        assert_eq!((got.key.a, got.key.b), (1, 1));
        assert_eq!(
            got.command,
            "dalkon daldos solve --board 4 --pieces 1,1 --db-dir /t"
        );
    }

    #[test]
    fn b_to_throw_is_named_by_the_pieces_of_the_side_to_throw_first() {
        let pos: Position = "AA../..b../.... b".parse().expect("a position");
        let got = missing_layer(&tables(4), &pos, Some(8 << 30)).expect("missing");
        assert_eq!((got.key.a, got.key.b), (1, 2));
    }

    #[test]
    fn a_finished_game_or_a_layer_too_large_to_build_is_not_reported() {
        let over: Position = "...A/...../.... b".parse().expect("a position");
        assert_eq!(missing_layer(&tables(4), &over, Some(8 << 30)), None);
        let start = Position::start(Board::new(32).expect("a board"));
        assert_eq!(missing_layer(&tables(32), &start, Some(8 << 30)), None);
    }
}
