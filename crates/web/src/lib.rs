//! `dalkon serve` (docs/web.md): a JSON API on loopback whose answers are
//! the CLI's JSON for the same command, each endpoint running the same
//! library request as the CLI. Safe to leave running: bodies are bounded
//! ([`MAX_BODY_BYTES`]), searches are capped ([`MAX_SEARCHES`] at once,
//! others get 503) and bounded in time ([`SERVE_SECONDS`]), engine work runs
//! on blocking threads, and no request names a file.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use serde::Deserialize;
use tokio::sync::Semaphore;

mod pages;

/// The largest request body taken (1 MiB).
pub const MAX_BODY_BYTES: usize = 1 << 20;
/// Searches that run at once; a request over the cap is answered 503.
pub const MAX_SEARCHES: usize = 2;
/// Seconds a search may take, whatever the body asks.
pub const SERVE_SECONDS: f64 = 5.0;
/// Transposition-table memory of one Dakon search, in MiB.
pub const SERVE_TT_MB: usize = 64;

/// An answer that is not the report: its status and the CLI's one line.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    fn of(context: &str, err: &(dyn std::error::Error + 'static)) -> ApiError {
        let line = dalkon_render::one_line(err);
        ApiError::bad(if context.is_empty() {
            line
        } else {
            format!("{context}: {line}")
        })
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

/// The server's shared state: the cap on searches.
#[derive(Debug, Clone)]
struct Shared {
    searches: Arc<Semaphore>,
}

/// The API and pages as a router.
pub fn router() -> Router {
    let shared = Shared {
        searches: Arc::new(Semaphore::new(MAX_SEARCHES)),
    };
    Router::new()
        .route("/api/dakon/best", post(dakon_best))
        .route("/api/dakon/play", post(dakon_play))
        .route("/api/daldos/moves", post(daldos_moves))
        .merge(pages::routes())
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(shared)
}

/// Serve on `addr` until the process ends; `ready` hears the bound address
/// (port 0 picks a free one).
pub fn serve(addr: SocketAddr, ready: impl FnOnce(SocketAddr)) -> std::io::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_io()
        .enable_time()
        .build()?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        ready(listener.local_addr()?);
        axum::serve(listener, router()).await
    })
}

/// Parse a body, its error the one line of serde's.
fn body<T: for<'de> Deserialize<'de>>(bytes: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(bytes).map_err(|e| ApiError::bad(format!("bad request body: {e}")))
}

/// Run `work` on a blocking thread within the search cap (503 over it).
async fn search<F>(shared: &Shared, work: F) -> Response
where
    F: FnOnce() -> Result<String, ApiError> + Send + 'static,
{
    let Ok(permit) = shared.searches.clone().try_acquire_owned() else {
        return ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: format!("busy: {MAX_SEARCHES} searches are running, try again"),
        }
        .into_response();
    };
    let answer = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        work()
    })
    .await;
    match answer {
        Ok(Ok(json)) => json_response(StatusCode::OK, json + "\n"),
        Ok(Err(e)) => e.into_response(),
        Err(_) => ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: "the search failed".into(),
        }
        .into_response(),
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct DakonRules {
    #[serde(default)]
    origin: Option<String>,
    #[serde(default)]
    mikul: Option<String>,
    #[serde(default)]
    nembak: Option<String>,
}

impl DakonRules {
    fn rules(&self) -> Result<dalkon_rules::dakon::Rules, ApiError> {
        let mut r = dalkon_rules::dakon::Rules::default();
        let err = |e: dalkon_rules::dakon::RulesError| ApiError::of("", &e);
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

fn dakon_position(text: &str) -> Result<dalkon_rules::dakon::Position, ApiError> {
    text.parse::<dalkon_rules::dakon::Position>()
        .map_err(|e| ApiError::of(&format!("bad --position {}", quote(text)), &e))
}

fn quote(text: &str) -> String {
    format!("\"{}\"", text.chars().take(80).collect::<String>())
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct DakonBest {
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
    rules: DakonRules,
}

async fn dakon_best(State(shared): State<Shared>, bytes: axum::body::Bytes) -> Response {
    let b: DakonBest = match body(&bytes) {
        Ok(b) => b,
        Err(e) => return e.into_response(),
    };
    search(&shared, move || {
        use dalkon_dakon::request::best::{seconds, BestRequest};
        let pos = dakon_position(&b.position)?;
        let rules = b.rules.rules()?;
        let time = b.time.map_or(SERVE_SECONDS, |t| t.min(SERVE_SECONDS));
        let fail = |e: dalkon_dakon::SolveError| ApiError::of("", &e);
        let request = BestRequest {
            time: Some(seconds(time).map_err(fail)?),
            every_move: b.every_move,
            estimate_depth: b
                .estimate_depth
                .unwrap_or(dalkon_dakon::request::DEFAULT_ESTIMATE_DEPTH),
            tt_mb: Some(SERVE_TT_MB),
            ..BestRequest::new(rules)
                .max_nodes(b.max_nodes)
                .multipv(b.multipv)
                .map_err(fail)?
        };
        let report = request.run(&pos, None).map_err(fail)?;
        Ok(serde_json::to_value(report).map_or_else(|e| e.to_string(), |v| v.to_string()))
    })
    .await
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct DakonPlay {
    position: String,
    moves: Vec<usize>,
    #[serde(flatten)]
    rules: DakonRules,
}

async fn dakon_play(State(shared): State<Shared>, bytes: axum::body::Bytes) -> Response {
    let b: DakonPlay = match body(&bytes) {
        Ok(b) => b,
        Err(e) => return e.into_response(),
    };
    search(&shared, move || {
        let request = dalkon_dakon::request::PlayRequest {
            position: dakon_position(&b.position)?,
            moves: b.moves,
            rules: b.rules.rules()?,
        };
        let report = request.run().map_err(|e| ApiError::of("", &e))?;
        Ok(serde_json::to_value(report).map_or_else(|e| e.to_string(), |v| v.to_string()))
    })
    .await
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct DaldosMoves {
    position: String,
    dice: String,
    #[serde(default)]
    dal: Option<String>,
    #[serde(default)]
    capture: Option<String>,
    #[serde(default)]
    end: Option<String>,
}

async fn daldos_moves(State(shared): State<Shared>, bytes: axum::body::Bytes) -> Response {
    let b: DaldosMoves = match body(&bytes) {
        Ok(b) => b,
        Err(e) => return e.into_response(),
    };
    search(&shared, move || {
        use dalkon_rules::daldos::{Position, Throw, Variants};
        let throw: Throw = b.dice.parse().map_err(|e| ApiError::of("--dice", &e))?;
        let pos: Position = b
            .position
            .parse()
            .map_err(|e| ApiError::of(&format!("--position {}", quote(&b.position)), &e))?;
        let mut variants = Variants::default();
        let err = |e: dalkon_rules::daldos::VariantError| ApiError::of("", &e);
        if let Some(d) = &b.dal {
            variants.dal = d.parse().map_err(err)?;
        }
        if let Some(c) = &b.capture {
            variants.capture = c.parse().map_err(err)?;
        }
        if let Some(e) = &b.end {
            variants.end = e.parse().map_err(err)?;
        }
        let report = dalkon_daldos::request::MovesRequest {
            pos,
            variants,
            throw,
        }
        .run();
        serde_json::to_string(&report).map_err(|e| ApiError::bad(e.to_string()))
    })
    .await
}

/// The address `dalkon serve` binds without `--bind`: loopback only.
pub const DEFAULT_BIND: std::net::IpAddr = std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);
/// The port `dalkon serve` takes without `--port`.
pub const DEFAULT_PORT: u16 = 8080;
