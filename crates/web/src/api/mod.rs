//! The JSON API (docs/web.md, "The JSON API"): each endpoint takes a `POST`
//! whose JSON body has the CLI flags' names (without `--`) as fields, runs
//! the library request the CLI command runs and answers with that
//! command's `--format json` line. Bad input is a 4xx with
//! `{"error": "..."}`, the CLI's one-line message.
//!
//! What every endpoint shares is here: the body as an extractor
//! ([`Body`]), the errors ([`ApiError`]), the JSON of a report as the CLI
//! prints it ([`Answer`]) and the run of engine work within the server's
//! limits ([`search`]).

pub(crate) mod dakon;
pub(crate) mod daldos;

use axum::body::Bytes;
use axum::extract::{FromRequest, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::{Shared, MAX_BODY_BYTES, MAX_SEARCHES};

/// The routes of the API.
pub(crate) fn routes() -> Router<Shared> {
    Router::new()
        .route("/api/dakon/best", post(dakon::best))
        .route("/api/dakon/play", post(dakon::play))
        .route("/api/daldos/moves", post(daldos::moves))
}

/// An answer that is not the report: its status and the CLI's one line.
#[derive(Debug)]
pub(crate) struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    /// A 400 with `message`.
    pub(crate) fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    /// A 400 with the one line of `err` (its causes joined), after
    /// `context` unless it is empty.
    pub(crate) fn of(context: &str, err: &(dyn std::error::Error + 'static)) -> ApiError {
        let line = dalkon_render::one_line(err);
        ApiError::bad(if context.is_empty() {
            line
        } else {
            format!("{context}: {line}")
        })
    }

    /// The same error with another status.
    pub(crate) fn with_status(self, status: StatusCode) -> ApiError {
        ApiError { status, ..self }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message }).to_string();
        json_response(self.status, body)
    }
}

fn json_response(status: StatusCode, body: String) -> Response {
    (
        status,
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        body,
    )
        .into_response()
}

/// A request body parsed as JSON into `T` (an endpoint's flags): over
/// [`MAX_BODY_BYTES`] a 413, not JSON or with an unknown field a 400, both
/// as `{"error": ...}`.
#[derive(Debug)]
pub(crate) struct Body<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            let status = e.status();
            if status == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::bad(format!(
                    "the request body is larger than {MAX_BODY_BYTES} bytes"
                ))
                .with_status(status)
            } else {
                ApiError::bad(e.body_text()).with_status(status)
            }
        })?;
        serde_json::from_slice(&bytes)
            .map(Body)
            .map_err(|e| ApiError::bad(format!("bad request body: {e}")))
    }
}

/// A report as the CLI prints it with `--format json` (one line; the
/// response adds the newline).
#[derive(Debug)]
pub(crate) struct Answer(String);

impl Answer {
    /// Through `serde_json::Value`, keys sorted: the Dakon commands'
    /// `print_json` and `daldos analyse`.
    pub(crate) fn sorted(report: &impl Serialize) -> Result<Answer, ApiError> {
        serde_json::to_value(report)
            .map(|v| Answer(v.to_string()))
            .map_err(|e| ApiError::bad(e.to_string()))
    }

    /// Straight, fields in the report's order: the other Daldøs commands.
    pub(crate) fn in_order(report: &impl Serialize) -> Result<Answer, ApiError> {
        serde_json::to_string(report)
            .map(Answer)
            .map_err(|e| ApiError::bad(e.to_string()))
    }
}

/// Run `work` on a blocking thread within the search cap (503 over it).
pub(crate) async fn search<F>(shared: &Shared, work: F) -> Response
where
    F: FnOnce() -> Result<Answer, ApiError> + Send + 'static,
{
    let Ok(permit) = shared.searches.clone().try_acquire_owned() else {
        return ApiError::bad(format!(
            "busy: {MAX_SEARCHES} searches are running, try again"
        ))
        .with_status(StatusCode::SERVICE_UNAVAILABLE)
        .into_response();
    };
    let answer = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        work()
    })
    .await;
    match answer {
        Ok(Ok(Answer(json))) => json_response(StatusCode::OK, json + "\n"),
        Ok(Err(e)) => e.into_response(),
        Err(_) => ApiError::bad("the search failed")
            .with_status(StatusCode::INTERNAL_SERVER_ERROR)
            .into_response(),
    }
}

/// The handler's state, for the endpoints' signatures.
pub(crate) type Server = State<Shared>;

/// Input quoted in an error message as the CLI quotes it: at most
/// [`QUOTE_MAX`] characters.
pub(crate) fn quote(text: &str) -> String {
    let n = text.chars().count();
    if n <= QUOTE_MAX {
        format!("{text:?}")
    } else {
        let head: String = text.chars().take(QUOTE_MAX).collect();
        format!("{head:?}… ({n} characters)")
    }
}

/// The most characters of input an error message quotes (the CLI's).
const QUOTE_MAX: usize = 80;
