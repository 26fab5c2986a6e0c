//! The value of one position from the tables, and every play of each
//! throw ranked by its value (`dalkon daldos value`).

use dalkon_rules::daldos::{plays, Play, Position, Side, Throw};

use super::error::{solve_flags, TableError};
use super::{Bounds, LayerIndex, LayerKey, Tables};

/// One play and its value for the side that throws.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayValue {
    /// The play.
    pub play: Play,
    /// The position after it.
    pub result: Position,
    /// Bounds on the mover's win probability after it.
    pub bounds: Bounds,
}

/// The plays of one throw, best first.
#[derive(Debug, Clone, PartialEq)]
pub struct ThrowValues {
    /// The throw (larger die first).
    pub throw: Throw,
    /// Its weight out of 16 (1 for a double, else 2).
    pub weight: u32,
    /// Its plays, by falling value (the generator's order among equals).
    pub plays: Vec<PlayValue>,
}

/// A position's value and its ranked plays.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueReport {
    /// Bounds on `W` for the side to throw.
    pub bounds: Bounds,
    /// The ten throws.
    pub throws: Vec<ThrowValues>,
}

/// The error for a position the tables do not cover.
fn not_covered(tables: &Tables, pos: &Position) -> TableError {
    let key = LayerKey::of(pos);
    let q = if pos.side_to_move() == Side::A {
        *pos
    } else {
        pos.mirror()
    };
    let index = LayerIndex::new(key);
    TableError::NotCovered {
        position: pos.to_string(),
        dir: tables.dir().map(|d| d.to_path_buf()).unwrap_or_default(),
        a: key.a,
        b: key.b,
        board: tables.board().name(),
        unreachable: q.board() == tables.board() && !index.contains(&q),
        flags: solve_flags(&tables.variants(), tables.dir()),
    }
}

/// Bounds of `pos` for its side to throw, or the error naming the layer it
/// needs.
pub fn covered(tables: &Tables, pos: &Position) -> Result<Bounds, TableError> {
    tables.bounds(pos).ok_or_else(|| not_covered(tables, pos))
}

/// The value of `pos` and every play of each of the ten throws, valued
/// from the tables.
pub fn value_report(tables: &Tables, pos: &Position) -> Result<ValueReport, TableError> {
    let bounds = covered(tables, pos)?;
    let v = tables.variants();
    let mover = pos.side_to_move();
    let mut throws = Vec::new();
    for (throw, weight) in Throw::DISTINCT {
        let mut ranked = Vec::new();
        for out in plays(pos, &v, throw) {
            covered(tables, &out.result)?;
            let bounds = tables
                .bounds_for(&out.result, mover)
                .expect("covered just above");
            ranked.push(PlayValue {
                play: out.play,
                result: out.result,
                bounds,
            });
        }
        ranked.sort_by(|x, y| y.bounds.value().total_cmp(&x.bounds.value()));
        throws.push(ThrowValues {
            throw,
            weight,
            plays: ranked,
        });
    }
    Ok(ValueReport { bounds, throws })
}
