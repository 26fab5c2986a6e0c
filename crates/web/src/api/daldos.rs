//! `/api/daldos/*`: the Daldøs commands, each body the command's flags,
//! each answer its JSON (fields in the report's order, as the CLI prints
//! them).

use axum::extract::State;
use axum::response::Response;
use dalkon_daldos::request::MovesRequest;
use dalkon_rules::daldos::{Board, Position, Throw, VariantError, Variants};
use serde::Deserialize;

use super::{quote, search, Answer, ApiError, Body, Server};

/// `board`, `dal`, `capture`, `end` (the CLI's rule flags), each its
/// default when absent.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RuleFields {
    #[serde(default)]
    board: Option<String>,
    #[serde(default)]
    dal: Option<String>,
    #[serde(default)]
    capture: Option<String>,
    #[serde(default)]
    end: Option<String>,
}

impl RuleFields {
    fn variants(&self) -> Result<Variants, ApiError> {
        let mut v = Variants::default();
        let err = |e: VariantError| ApiError::of("", &e);
        if let Some(d) = &self.dal {
            v.dal = d.parse().map_err(err)?;
        }
        if let Some(c) = &self.capture {
            v.capture = c.parse().map_err(err)?;
        }
        if let Some(e) = &self.end {
            v.end = e.parse().map_err(err)?;
        }
        Ok(v)
    }

    /// `position` parsed; its board must agree with `board` when both are
    /// given (the CLI's `RuleArgs::position`).
    fn position(&self, text: &str) -> Result<Position, ApiError> {
        let pos: Position = text
            .parse()
            .map_err(|e| ApiError::of(&format!("--position {}", quote(text)), &e))?;
        if let Some(name) = &self.board {
            let board = Board::from_name(name).map_err(|e| ApiError::of("--board", &e))?;
            if board != pos.board() {
                return Err(ApiError::bad(format!(
                    "--board {} (L={}) disagrees with --position, whose rows give L={}",
                    board,
                    board.len(),
                    pos.board().len()
                )));
            }
        }
        Ok(pos)
    }
}

/// `dice`, parsed as the CLI does.
fn throw(dice: &str) -> Result<Throw, ApiError> {
    dice.parse().map_err(|e| ApiError::of("--dice", &e))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct MovesFields {
    position: String,
    dice: String,
    #[serde(flatten)]
    rules: RuleFields,
}

/// `/api/daldos/moves`: `daldos moves`.
pub(crate) async fn moves(State(shared): Server, Body(b): Body<MovesFields>) -> Response {
    search(&shared, move || {
        let throw = throw(&b.dice)?;
        let request = MovesRequest {
            pos: b.rules.position(&b.position)?,
            variants: b.rules.variants()?,
            throw,
        };
        Answer::in_order(&request.run())
    })
    .await
}
