//! `daldos moves`: every distinct legal play for one throw, with the
//! position it leads to.

use dalkon_rules::daldos::{plays, Play, Position, Side, Throw, Variants};
use serde::Serialize;

/// The plays of one throw in one position.
#[derive(Debug, Clone, Copy)]
pub struct MovesRequest {
    pub pos: Position,
    pub variants: Variants,
    pub throw: Throw,
}

/// One distinct play and the position after it (its side the one that
/// throws next).
#[derive(Debug, Clone, Serialize)]
pub struct MoveRow {
    pub play: String,
    pub result: String,
    /// The play itself.
    #[serde(skip)]
    pub step: Play,
    /// The position after it.
    #[serde(skip)]
    pub after: Position,
}

/// docs/cli.md: `{"plays":[{"play":..., "result":POS}]}`.
#[derive(Debug, Clone, Serialize)]
pub struct MovesReport {
    pub plays: Vec<MoveRow>,
    /// The side that has won when the game is over (then no plays are
    /// listed).
    #[serde(skip)]
    pub winner: Option<Side>,
}

impl MovesRequest {
    /// One row per distinct play, in the rules engine's order.
    pub fn run(&self) -> MovesReport {
        let board = self.pos.board();
        MovesReport {
            plays: plays(&self.pos, &self.variants, self.throw)
                .into_iter()
                .map(|o| MoveRow {
                    play: o.play.notation(board),
                    result: o.result.to_string(),
                    step: o.play,
                    after: o.result,
                })
                .collect(),
            winner: self.pos.winner(&self.variants),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/cli.md: `{"plays":[{"play":..., "result":POS}]}`; from the
    /// Norwegian start, 3,1 has the one play A12-M12 M12-M9.
    #[test]
    fn json_shape() {
        let pos: Position = "AAAAAAAAAAAA/............./BBBBBBBBBBBB a".parse().unwrap();
        let ask = |dice: &str| MovesRequest {
            pos,
            variants: Variants::default(),
            throw: dice.parse().unwrap(),
        };
        assert_eq!(
            serde_json::to_string(&ask("3,1").run()).unwrap(),
            r#"{"plays":[{"play":"A12-M12 M12-M9","result":"AAAAAAAAAAA./.........a.../BBBBBBBBBBBB b"}]}"#
        );
        let pass = ask("2,2").run();
        assert_eq!(pass.plays.len(), 1);
        assert_eq!(pass.plays[0].play, "pass");
        assert_eq!(
            pass.plays[0].result,
            "AAAAAAAAAAAA/............./BBBBBBBBBBBB b"
        );
    }
}
