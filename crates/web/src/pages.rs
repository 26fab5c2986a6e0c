//! The pages (play, analyse, position), their files built into the binary
//! from `crates/web/assets/`.

use axum::routing::get;
use axum::Router;

use crate::Shared;

/// The routes of the pages.
pub(crate) fn routes() -> Router<Shared> {
    Router::new().route("/", get(index))
}

async fn index() -> axum::response::Html<&'static str> {
    axum::response::Html(include_str!("../assets/index.html"))
}
