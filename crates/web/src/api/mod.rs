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
pub(crate) mod dakon_game;
pub(crate) mod daldos;
pub(crate) mod daldos_game;

use axum::body::Bytes;
use axum::extract::{FromRequest, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use serde::de::DeserializeOwned;
use serde::Serialize;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use dalkon_dakon::search::SearchProgress;

use crate::{
    Shared, MAX_ANALYSE_MOVES, MAX_BODY_BYTES, MAX_SEARCHES, SERVE_ANALYSE_SECONDS,
    SERVE_STOP_SECONDS,
};

/// The routes of the API.
pub(crate) fn routes() -> Router<Shared> {
    Router::new()
        .route("/api/dakon/best", post(dakon::best))
        .route("/api/dakon/play", post(dakon::play))
        .route("/api/dakon/analyse", post(dakon::analyse))
        .route("/api/daldos/best", post(daldos::best))
        .route("/api/daldos/moves", post(daldos::moves))
        .route("/api/daldos/odds", post(daldos::odds))
        .route("/api/daldos/value", post(daldos::value))
        .route("/api/daldos/analyse", post(daldos::analyse))
        .route("/api/dakon/state", post(dakon_game::state_of))
        .route("/api/dakon/engine", post(dakon_game::engine))
        .route("/api/dakon/hint", post(dakon_game::hint))
        .route("/api/daldos/state", post(daldos_game::state))
        .route("/api/daldos/hint", post(daldos::hint))
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

    /// A 400 with the CLI's one line of `err` (its causes joined), after
    /// `context` unless it is empty.
    pub(crate) fn of(context: &str, err: &(dyn std::error::Error + 'static)) -> ApiError {
        let line = dalkon_render::error_line::message(err);
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

/// The stop flags of one search, raised after [`SERVE_STOP_SECONDS`]
/// whatever the search's own budget: the Dakon searches read theirs in
/// their progress counters, the Daldøs ones a flag of their own.
#[derive(Debug, Default)]
pub(crate) struct Stop {
    /// The Dakon search's counters, `stop` among them.
    pub(crate) dakon: SearchProgress,
    /// The Daldøs search's stop flag.
    pub(crate) daldos: AtomicBool,
}

impl Stop {
    fn raise(&self) {
        self.dakon.stop.store(true, Ordering::Relaxed);
        self.daldos.store(true, Ordering::Relaxed);
    }

    /// Whether the backstop ended the search.
    pub(crate) fn raised(&self) -> bool {
        self.daldos.load(Ordering::Relaxed)
    }
}

/// Run `work` on a blocking thread within the search cap (503 over it),
/// its [`Stop`] raised after [`SERVE_STOP_SECONDS`].
pub(crate) async fn search<F>(shared: &Shared, work: F) -> Response
where
    F: FnOnce(&Stop) -> Result<Answer, ApiError> + Send + 'static,
{
    let Ok(permit) = shared.searches.clone().try_acquire_owned() else {
        return ApiError::bad(format!(
            "busy: {MAX_SEARCHES} searches are running, try again"
        ))
        .with_status(StatusCode::SERVICE_UNAVAILABLE)
        .into_response();
    };
    let stop = Arc::new(Stop::default());
    let backstop = tokio::spawn({
        let stop = Arc::clone(&stop);
        async move {
            tokio::time::sleep(Duration::from_secs_f64(SERVE_STOP_SECONDS)).await;
            stop.raise();
        }
    });
    let answer = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        work(&stop)
    })
    .await;
    backstop.abort();
    match answer {
        Ok(Ok(Answer(json))) => json_response(StatusCode::OK, json + "\n"),
        Ok(Err(e)) => e.into_response(),
        Err(_) => ApiError::bad("the search failed")
            .with_status(StatusCode::INTERNAL_SERVER_ERROR)
            .into_response(),
    }
}

/// The 503 of a search the backstop ended.
pub(crate) fn out_of_time() -> ApiError {
    ApiError::bad(format!(
        "the search took more than the server's {SERVE_STOP_SECONDS} s; ask for less"
    ))
    .with_status(StatusCode::SERVICE_UNAVAILABLE)
}

/// A record of `n` moves (or throws) is analysed only up to
/// [`MAX_ANALYSE_MOVES`].
pub(crate) fn check_record(n: usize, unit: &str) -> Result<(), ApiError> {
    if n > MAX_ANALYSE_MOVES {
        return Err(ApiError::bad(format!(
            "record: {n} {unit}; the server analyses at most {MAX_ANALYSE_MOVES}"
        )));
    }
    Ok(())
}

/// The time of each decision of an analysis of `n` moves: `asked` (0: no
/// limit) but at most its share of [`SERVE_ANALYSE_SECONDS`] (the moves
/// and the end are searched).
pub(crate) fn decision_seconds(asked: f64, n: usize) -> f64 {
    let share = SERVE_ANALYSE_SECONDS / (n + 1) as f64;
    if asked == 0.0 {
        share
    } else {
        asked.min(share)
    }
}

/// The handler's state, for the endpoints' signatures.
pub(crate) type Server = State<Shared>;

pub(crate) use dalkon_render::error_line::quote;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_over_the_cap_is_refused_with_its_length() {
        assert!(check_record(MAX_ANALYSE_MOVES, "moves").is_ok());
        let e = check_record(MAX_ANALYSE_MOVES + 1, "throws").unwrap_err();
        assert_eq!(e.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            e.message,
            format!(
                "record: {} throws; the server analyses at most {MAX_ANALYSE_MOVES}",
                MAX_ANALYSE_MOVES + 1
            )
        );
    }

    #[test]
    fn each_decision_gets_at_most_its_share_of_the_analysis_time() {
        assert_eq!(
            decision_seconds(3.0, 3),
            3.0f64.min(SERVE_ANALYSE_SECONDS / 4.0)
        );
        assert_eq!(decision_seconds(0.0, 99), SERVE_ANALYSE_SECONDS / 100.0);
        assert_eq!(decision_seconds(0.01, 99), 0.01);
        assert!(decision_seconds(-1.0, 9) < 0.0);
    }
}
