//! `dalkon serve` (docs/web.md): a JSON API on loopback whose answers are
//! the CLI's JSON for the same command, each endpoint running the same
//! library request as the CLI ([`api`]), and the pages. Safe to leave
//! running: the server's limits are in one place ([`limits`]): bodies are
//! bounded, searches are capped (others get 503) and bounded in time,
//! engine work runs on blocking threads, and no request names a file.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::Router;
use tokio::sync::Semaphore;

mod api;
pub mod limits;
mod pages;

pub use limits::*;

/// The server's shared state: the cap on searches, the Daldøs tables read
/// so far and the Dakon databases opened.
#[derive(Debug, Clone)]
struct Shared {
    searches: Arc<Semaphore>,
    tables: Arc<api::daldos::Shelf>,
    databases: Arc<api::dakon::DbShelf>,
}

/// The API and pages as a router.
pub fn router() -> Router {
    let shared = Shared {
        searches: Arc::new(Semaphore::new(MAX_SEARCHES)),
        tables: Arc::new(api::daldos::Shelf::new()),
        databases: Arc::new(api::dakon::DbShelf::new()),
    };
    Router::new()
        .merge(api::routes())
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
