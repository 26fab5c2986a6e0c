//! The pages (docs/web.md, "The pages"): plain HTML, CSS and JavaScript
//! built into the binary from `crates/web/assets/`. They hold no game
//! rules: they call the JSON API and draw what it answers.

use axum::http::header::CONTENT_TYPE;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use crate::Shared;

/// The routes of the pages and their files.
pub(crate) fn routes() -> Router<Shared> {
    Router::new()
        .route("/", get(|| page(include_str!("../assets/index.html"))))
        .route("/dakon", get(|| page(include_str!("../assets/dakon.html"))))
        .route(
            "/daldos",
            get(|| page(include_str!("../assets/daldos.html"))),
        )
        .route(
            "/analyse",
            get(|| page(include_str!("../assets/analyse.html"))),
        )
        .route(
            "/position",
            get(|| page(include_str!("../assets/position.html"))),
        )
        .route(
            "/assets/style.css",
            get(|| css(include_str!("../assets/style.css"))),
        )
        .route(
            "/assets/app.js",
            get(|| js(include_str!("../assets/app.js"))),
        )
        .route(
            "/assets/dakon.js",
            get(|| js(include_str!("../assets/dakon.js"))),
        )
        .route(
            "/assets/daldos.js",
            get(|| js(include_str!("../assets/daldos.js"))),
        )
        .route(
            "/assets/analyse.js",
            get(|| js(include_str!("../assets/analyse.js"))),
        )
        .route(
            "/assets/position.js",
            get(|| js(include_str!("../assets/position.js"))),
        )
}

async fn page(html: &'static str) -> Html<&'static str> {
    Html(html)
}

async fn css(text: &'static str) -> Response {
    ([(CONTENT_TYPE, "text/css; charset=utf-8")], text).into_response()
}

async fn js(text: &'static str) -> Response {
    ([(CONTENT_TYPE, "text/javascript; charset=utf-8")], text).into_response()
}
