//! `/api/dakon/*`: the Dakon commands (`dakon best`, `dakon play`,
//! `dakon analyse`), each body the command's flags, each answer its JSON
//! (keys sorted, as the CLI's `print_json`).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use dalkon_dakon::request::analyse::{AnalyseRequest, DEFAULT_ANALYSE_SECONDS};
use dalkon_dakon::request::best::{seconds, Analyst, BestRequest};
use dalkon_dakon::request::{PlayRequest, DEFAULT_ESTIMATE_DEPTH};
use dalkon_dakon::Databases;
use dalkon_dakon::SolveError;
use dalkon_rules::dakon::{Position, Record, Rules, RulesError};
use serde::{Deserialize, Deserializer};

use super::{check_record, decision_seconds, quote, search, Answer, ApiError, Body, Server};
use crate::{SERVE_SECONDS, SERVE_TT_MB};

/// `origin`, `mikul`, `nembak` (the CLI's rule flags), each its default
/// when absent.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct RuleFields {
    #[serde(default)]
    origin: Option<String>,
    #[serde(default)]
    mikul: Option<String>,
    #[serde(default)]
    nembak: Option<String>,
}

impl RuleFields {
    pub(crate) fn rules(&self) -> Result<Rules, ApiError> {
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
pub(crate) fn position(text: &str) -> Result<Position, ApiError> {
    text.parse::<Position>()
        .map_err(|e| ApiError::of(&format!("bad --position {}", quote(text)), &e))
}

/// The library's error as the CLI's one line.
pub(crate) fn failed(e: SolveError) -> ApiError {
    ApiError::of("", &e)
}

/// The Dakon endgame databases the server has opened, each kept for later
/// requests. A request names the level (`probe-seeds`), never the folder:
/// the CLI's default; and a request never builds: levels missing from the
/// folder are refused, saying how to build them.
#[derive(Debug)]
pub(crate) struct DbShelf {
    /// The folder, or the one line of why there is none.
    dir: Result<PathBuf, String>,
    open: Mutex<HashMap<(usize, Rules, u32), Arc<Databases>>>,
}

impl DbShelf {
    /// The shelf of the CLI's default folder (none opened yet).
    pub(crate) fn new() -> DbShelf {
        DbShelf {
            dir: dalkon_store::data_dir(None).map_err(|e| dalkon_render::one_line(&e)),
            open: Mutex::new(HashMap::new()),
        }
    }

    /// The folder a request probing up to `k` seeds reads (`None` when it
    /// probes none).
    fn folder(&self, k: Option<u32>) -> Result<Option<PathBuf>, ApiError> {
        if !k.is_some_and(|k| k > 0) {
            return Ok(None);
        }
        self.dir
            .clone()
            .map(Some)
            .map_err(|line| ApiError::bad(line).with_status(StatusCode::INTERNAL_SERVER_ERROR))
    }

    /// The analyst of `request` (its probe checked and its folder this
    /// shelf's) on boards of `holes` holes a row, with its databases opened
    /// once and kept.
    fn analyst(&self, request: &BestRequest, holes: usize) -> Result<Analyst, ApiError> {
        let (Some(k), Some(dir)) = (request.probe_seeds, &request.db_dir) else {
            return Ok(Analyst::default());
        };
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        let key = (holes, request.rules, k);
        let db = match open.get(&key) {
            Some(db) => Arc::clone(db),
            None => {
                let db = Databases::open(dir, holes, request.rules, k)
                    .map(Arc::new)
                    .map_err(|e| failed(SolveError::Probe(e)))?;
                open.insert(key, Arc::clone(&db));
                db
            }
        };
        Ok(Analyst::probing(db, Some(dir.clone())))
    }
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
    #[serde(default)]
    probe_seeds: Option<u32>,
    #[serde(flatten)]
    rules: RuleFields,
}

/// `/api/dakon/best`: `dakon best`, its time cut to [`SERVE_SECONDS`]
/// with a [`SERVE_TT_MB`] table.
pub(crate) async fn best(State(shared): Server, Body(b): Body<BestFields>) -> Response {
    let databases = shared.databases.clone();
    search(&shared, move |stop| {
        let pos = position(&b.position)?;
        let dir = databases.folder(b.probe_seeds)?;
        let time = b.time.map_or(SERVE_SECONDS, |t| t.min(SERVE_SECONDS));
        let request = BestRequest {
            time: Some(seconds(time).map_err(failed)?),
            every_move: b.every_move,
            estimate_depth: b.estimate_depth.unwrap_or(DEFAULT_ESTIMATE_DEPTH),
            tt_mb: Some(SERVE_TT_MB),
            ..BestRequest::new(b.rules.rules()?)
                .max_nodes(b.max_nodes)
                .multipv(b.multipv)
                .and_then(|r| r.probe(b.probe_seeds, dir))
                .map_err(failed)?
        };
        let mut analyst = databases.analyst(&request, pos.holes())?;
        let report = analyst.run(&request, &pos, Some(&stop.dakon));
        Answer::sorted(&report.map_err(failed)?)
    })
    .await
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct PlayFields {
    position: String,
    moves: Moves,
    #[serde(flatten)]
    rules: RuleFields,
}

/// `/api/dakon/play`: `dakon play`.
pub(crate) async fn play(State(shared): Server, Body(b): Body<PlayFields>) -> Response {
    search(&shared, move |_| {
        let request = PlayRequest {
            position: position(&b.position)?,
            moves: b.moves.holes()?,
            rules: b.rules.rules()?,
        };
        Answer::sorted(&request.run().map_err(failed)?)
    })
    .await
}

/// `moves`: an array of holes, or the CLI's text `"3,1,2"`.
#[derive(Debug)]
enum Moves {
    List(Vec<usize>),
    Text(String),
}

impl Moves {
    /// The holes, the text read as the CLI reads `--moves`.
    fn holes(self) -> Result<Vec<usize>, ApiError> {
        match self {
            Moves::List(holes) => Ok(holes),
            Moves::Text(text) => text
                .split(',')
                .map(|h| h.trim().parse::<usize>())
                .collect::<Result<_, _>>()
                .map_err(|e| ApiError::of(&format!("--moves {}", quote(&text)), &e)),
        }
    }
}

impl<'de> Deserialize<'de> for Moves {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Moves, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Moves;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an array of holes or a text such as \"3,1,2\"")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Moves, E> {
                Ok(Moves::Text(text.to_owned()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Moves, A::Error> {
                let mut holes = Vec::new();
                while let Some(h) = seq.next_element()? {
                    holes.push(h);
                }
                Ok(Moves::List(holes))
            }
        }
        d.deserialize_any(Visitor)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct AnalyseFields {
    record: String,
    #[serde(default)]
    time: Option<f64>,
    #[serde(default)]
    max_nodes: Option<u64>,
    #[serde(default)]
    probe_seeds: Option<u32>,
}

/// `/api/dakon/analyse`: `dakon analyse` of the record in the body (at
/// most [`crate::MAX_ANALYSE_MOVES`] moves), each decision's time cut to
/// its share of [`crate::SERVE_ANALYSE_SECONDS`], with a [`SERVE_TT_MB`]
/// table.
pub(crate) async fn analyse(State(shared): Server, Body(b): Body<AnalyseFields>) -> Response {
    let databases = shared.databases.clone();
    search(&shared, move |stop| {
        let record: Record = b.record.parse().map_err(|e| ApiError::of("record", &e))?;
        check_record(record.moves.len(), "moves")?;
        let asked = b.time.unwrap_or(DEFAULT_ANALYSE_SECONDS);
        let time = decision_seconds(asked, record.moves.len());
        let request = AnalyseRequest {
            tt_mb: Some(SERVE_TT_MB),
            ..AnalyseRequest::new(record.rules)
                .time(Some(time))
                .map_err(failed)?
                .max_nodes(b.max_nodes)
                .probe(b.probe_seeds, databases.folder(b.probe_seeds)?)
                .map_err(failed)?
        };
        let mut analyst = databases.analyst(&request.best(), record.start.holes())?;
        let report = request
            .run_in(
                &mut analyst,
                &record.start,
                &record.moves,
                None,
                Some(&stop.dakon),
            )
            .map_err(failed)?;
        Answer::sorted(&report)
    })
    .await
}
