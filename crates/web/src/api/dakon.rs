//! `/api/dakon/*`: the Dakon commands (`dakon best`, `dakon play`), each
//! body the command's flags, each answer its JSON (keys sorted, as the
//! CLI's `print_json`).

use axum::extract::State;
use axum::response::Response;
use dalkon_dakon::request::best::{seconds, BestRequest};
use dalkon_dakon::request::{PlayRequest, DEFAULT_ESTIMATE_DEPTH};
use dalkon_dakon::SolveError;
use dalkon_rules::dakon::{Position, Rules, RulesError};
use serde::Deserialize;

use super::{quote, search, Answer, ApiError, Body, Server};
use crate::{SERVE_SECONDS, SERVE_TT_MB};

/// `origin`, `mikul`, `nembak` (the CLI's rule flags), each its default
/// when absent.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RuleFields {
    #[serde(default)]
    origin: Option<String>,
    #[serde(default)]
    mikul: Option<String>,
    #[serde(default)]
    nembak: Option<String>,
}

impl RuleFields {
    fn rules(&self) -> Result<Rules, ApiError> {
        let mut r = Rules::default();
        let err = |e: RulesError| ApiError::of("", &e);
        if let Some(o) = &self.origin {
            r.origin = o.parse().map_err(err)?;
        }
        if let Some(m) = &self.mikul {
            r.mikul = m.parse().map_err(err)?;
        }
        if let Some(n) = &self.nembak {
            r.nembak = n.parse().map_err(err)?;
        }
        Ok(r)
    }
}

/// `position`, parsed as the CLI does, the input quoted in the error.
fn position(text: &str) -> Result<Position, ApiError> {
    text.parse::<Position>()
        .map_err(|e| ApiError::of(&format!("bad --position {}", quote(text)), &e))
}

/// The library's error as the CLI's one line.
fn failed(e: SolveError) -> ApiError {
    ApiError::of("", &e)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct BestFields {
    position: String,
    #[serde(default)]
    time: Option<f64>,
    #[serde(default)]
    max_nodes: Option<u64>,
    #[serde(default)]
    every_move: bool,
    #[serde(default)]
    multipv: Option<usize>,
    #[serde(default)]
    estimate_depth: Option<u32>,
    #[serde(flatten)]
    rules: RuleFields,
}

/// `/api/dakon/best`: `dakon best`, its time cut to [`SERVE_SECONDS`]
/// with a [`SERVE_TT_MB`] table.
pub(crate) async fn best(State(shared): Server, Body(b): Body<BestFields>) -> Response {
    search(&shared, move || {
        let pos = position(&b.position)?;
        let time = b.time.map_or(SERVE_SECONDS, |t| t.min(SERVE_SECONDS));
        let request = BestRequest {
            time: Some(seconds(time).map_err(failed)?),
            every_move: b.every_move,
            estimate_depth: b.estimate_depth.unwrap_or(DEFAULT_ESTIMATE_DEPTH),
            tt_mb: Some(SERVE_TT_MB),
            ..BestRequest::new(b.rules.rules()?)
                .max_nodes(b.max_nodes)
                .multipv(b.multipv)
                .map_err(failed)?
        };
        Answer::sorted(&request.run(&pos, None).map_err(failed)?)
    })
    .await
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct PlayFields {
    position: String,
    moves: Vec<usize>,
    #[serde(flatten)]
    rules: RuleFields,
}

/// `/api/dakon/play`: `dakon play`.
pub(crate) async fn play(State(shared): Server, Body(b): Body<PlayFields>) -> Response {
    search(&shared, move || {
        let request = PlayRequest {
            position: position(&b.position)?,
            moves: b.moves,
            rules: b.rules.rules()?,
        };
        Answer::sorted(&request.run().map_err(failed)?)
    })
    .await
}
