//! `/api/daldos/*`: the Daldøs commands (`daldos best`, `moves`, `odds`,
//! `value`, `analyse`), each body the command's flags, each answer its JSON
//! (fields in the report's order as the CLI prints them; `analyse` keys
//! sorted, as the CLI's).
//!
//! The solved tables are the CLI's default folder
//! (`dalkon_daldos::request::tables_dir`, as if no `--db-dir` were given),
//! found when the server starts, mapped read-only the first time a board
//! and rules are asked and kept ([`Shelf`]). No request names a folder:
//! `db-dir` is an unknown field.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use dalkon_daldos::engine::{SearchOptions, HINT_DEPTH, HINT_MAX_NODES, MAX_DEPTH};
use dalkon_daldos::request::analyse::{DEFAULT_ANALYSE_MAX_NODES, DEFAULT_ANALYSE_SECONDS};
use dalkon_daldos::request::best::{DEFAULT_DEPTH, DEFAULT_MAX_NODES};
use dalkon_daldos::request::odds::DEFAULT_MAX_NODES as ODDS_MAX_NODES;
use dalkon_daldos::request::{
    tables_dir, AnalyseRequest, Analyst, BestError, BestRequest, MovesRequest, OddsError,
    OddsRequest, ValueRequest,
};
use dalkon_daldos::solved::TableError;
use dalkon_rules::daldos::{Board, Position, Record, Throw, VariantError, Variants};
use serde::Deserialize;

use super::{
    check_record, decision_seconds, out_of_time, quote, search, Answer, ApiError, Body, Server,
    Stop,
};
use crate::{SERVE_DALDOS_MAX_NODES, SERVE_ODDS_MAX_NODES};

/// The analysts (engine and tables) of each board and rules asked so far,
/// from the default tables folder.
#[derive(Debug)]
pub(crate) struct Shelf {
    /// The folder, or the one line of why there is none.
    dir: Result<PathBuf, String>,
    analysts: Mutex<HashMap<(Board, Variants), Analyst>>,
}

impl Shelf {
    /// The shelf of the CLI's default folder (none loaded yet).
    pub(crate) fn new() -> Shelf {
        Shelf {
            dir: tables_dir(None).map_err(|e| dalkon_render::one_line(&e)),
            analysts: Mutex::new(HashMap::new()),
        }
    }

    /// The analyst of `board` under `variants`, its tables mapped at the
    /// first ask; `context` names the folder in a table error, or not
    /// (as each CLI command does).
    fn analyst(
        &self,
        board: Board,
        variants: Variants,
        context: bool,
    ) -> Result<Analyst, ApiError> {
        let dir = self.dir.as_ref().map_err(|line| {
            ApiError::bad(line.clone()).with_status(StatusCode::INTERNAL_SERVER_ERROR)
        })?;
        let mut analysts = self.analysts.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(a) = analysts.get(&(board, variants)) {
            return Ok(a.clone());
        }
        let a = Analyst::load(dir, board, variants)
            .map_err(|e| table_error(&e, context.then_some(dir.as_path())))?;
        analysts.insert((board, variants), a.clone());
        Ok(a)
    }
}

/// A table error as the CLI's line ("reading the tables in DIR: ..." where
/// the command names the folder): bad input 400, the server's own 500.
fn table_error(e: &TableError, dir: Option<&Path>) -> ApiError {
    let context = dir.map_or(String::new(), |d| {
        format!("reading the tables in {}", d.display())
    });
    let err = ApiError::of(&context, e);
    if e.is_bad_input() {
        err
    } else {
        err.with_status(StatusCode::INTERNAL_SERVER_ERROR)
    }
}

/// `board`, `dal`, `capture`, `end` (the CLI's rule flags), each its
/// default when absent.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct RuleFields {
    #[serde(default)]
    pub(crate) board: Option<String>,
    #[serde(default)]
    dal: Option<String>,
    #[serde(default)]
    capture: Option<String>,
    #[serde(default)]
    end: Option<String>,
}

impl RuleFields {
    pub(crate) fn variants(&self) -> Result<Variants, ApiError> {
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
    pub(crate) fn position(&self, text: &str) -> Result<Position, ApiError> {
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
pub(crate) fn throw(dice: &str) -> Result<Throw, ApiError> {
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
    search(&shared, move |_| {
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

/// `top`: a number of plays from 1, or `"all"`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Top {
    Plays(usize),
    Word(String),
}

impl Top {
    /// The CLI's `--top`: `all` is every play.
    fn plays(&self) -> Result<usize, ApiError> {
        match self {
            Top::Plays(k) if *k >= 1 => Ok(*k),
            Top::Word(w) if w == "all" => Ok(usize::MAX),
            other => {
                let text = match other {
                    Top::Plays(k) => k.to_string(),
                    Top::Word(w) => w.clone(),
                };
                Err(ApiError::bad(format!(
                    "invalid value '{text}' for '--top <K|all>': expected a number of plays from 1, or `all`"
                )))
            }
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct BestFields {
    position: String,
    #[serde(default)]
    dice: Option<String>,
    #[serde(default)]
    depth: Option<u32>,
    #[serde(default)]
    max_nodes: Option<u64>,
    #[serde(default)]
    fast: bool,
    #[serde(default)]
    top: Option<Top>,
    #[serde(default)]
    no_prune: bool,
    #[serde(flatten)]
    rules: RuleFields,
}

/// `request` on `position` under `rules`, with the server's tables: the
/// answer of `/api/daldos/best` and `/api/daldos/hint`.
fn run_best(
    tables: &Shelf,
    request: &BestRequest,
    rules: &RuleFields,
    position: &str,
    stop: &Stop,
) -> Result<Answer, ApiError> {
    let variants = rules.variants()?;
    let pos = rules.position(position)?;
    let analyst = tables.analyst(pos.board(), variants, true)?;
    match request.run(&analyst, &pos, &(), Some(&stop.daldos)) {
        Ok(report) => Answer::in_order(&report),
        Err(_) if stop.raised() => Err(out_of_time()),
        Err(e) => Err(ApiError::of("", &e)),
    }
}

/// `/api/daldos/best`: `daldos best`, its nodes cut to
/// [`SERVE_DALDOS_MAX_NODES`].
pub(crate) async fn best(State(shared): Server, Body(b): Body<BestFields>) -> Response {
    let tables = shared.tables.clone();
    search(&shared, move |stop| {
        let throw = b.dice.as_deref().map(throw).transpose()?;
        let depth = b.depth.unwrap_or(DEFAULT_DEPTH);
        let nodes = match b.max_nodes.unwrap_or(DEFAULT_MAX_NODES) {
            0 => SERVE_DALDOS_MAX_NODES,
            n => n.min(SERVE_DALDOS_MAX_NODES),
        };
        let top = b.top.as_ref().map(Top::plays).transpose()?;
        let request = BestRequest::new(throw, depth, Some(nodes), b.fast, !b.no_prune, top)
            .map_err(|e| match e {
                BestError::Depth(d) => {
                    ApiError::bad(format!("--depth {d} is out of range 1..={MAX_DEPTH}"))
                }
                e => ApiError::of("", &e),
            })?;
        run_best(&tables, &request, &b.rules, &b.position, stop)
    })
    .await
}

/// The body of `/api/daldos/hint`: the position, its throw and the rules.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct HintFields {
    position: String,
    dice: String,
    #[serde(flatten)]
    rules: RuleFields,
}

/// `/api/daldos/hint`: the hint of `daldos game` — `daldos best --dice`
/// at the game's hint depth and node budget ([`HINT_DEPTH`],
/// [`HINT_MAX_NODES`]), every play valued — so that the play page holds
/// no budget of its own.
pub(crate) async fn hint(State(shared): Server, Body(b): Body<HintFields>) -> Response {
    let tables = shared.tables.clone();
    search(&shared, move |stop| {
        let throw = throw(&b.dice)?;
        let request = BestRequest::new(
            Some(throw),
            HINT_DEPTH,
            Some(HINT_MAX_NODES.min(SERVE_DALDOS_MAX_NODES)),
            false,
            SearchOptions::default().prune,
            Some(usize::MAX),
        )
        .map_err(|e| ApiError::of("", &e))?;
        run_best(&tables, &request, &b.rules, &b.position, stop)
    })
    .await
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct OddsFields {
    position: String,
    #[serde(default)]
    target: Option<String>,
    #[serde(default)]
    max_nodes: Option<usize>,
    #[serde(flatten)]
    rules: RuleFields,
}

/// `/api/daldos/odds`: `daldos odds`, its nodes cut to
/// [`SERVE_ODDS_MAX_NODES`].
pub(crate) async fn odds(State(shared): Server, Body(b): Body<OddsFields>) -> Response {
    search(&shared, move |_| {
        let pos = b.rules.position(&b.position)?;
        let nodes = b
            .max_nodes
            .unwrap_or(ODDS_MAX_NODES)
            .min(SERVE_ODDS_MAX_NODES);
        let target = b.target.as_deref();
        let request = OddsRequest::new(pos, b.rules.variants()?, target, nodes).map_err(|e| {
            let what = match &e {
                OddsError::NoEnemy { hole, .. } => hole.clone(),
                OddsError::Hole(_) => quote(target.unwrap_or_default()),
            };
            ApiError::bad(format!("--target {what}: {e}"))
        })?;
        Answer::in_order(&request.run())
    })
    .await
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct ValueFields {
    position: String,
    #[serde(flatten)]
    rules: RuleFields,
}

/// `/api/daldos/value`: `daldos value` from the tables.
pub(crate) async fn value(State(shared): Server, Body(b): Body<ValueFields>) -> Response {
    let tables = shared.tables.clone();
    search(&shared, move |_| {
        let variants = b.rules.variants()?;
        let pos = b.rules.position(&b.position)?;
        let analyst = tables.analyst(pos.board(), variants, false)?;
        let report = ValueRequest { pos, variants }
            .run(analyst.tables())
            .map_err(|e| table_error(&e, None))?;
        Answer::in_order(&report)
    })
    .await
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct AnalyseFields {
    record: String,
    #[serde(default)]
    time: Option<f64>,
    #[serde(default)]
    max_nodes: Option<u64>,
}

/// `/api/daldos/analyse`: `daldos analyse` of the record in the body (at
/// most [`crate::MAX_ANALYSE_MOVES`] throws), each throw's time cut to its
/// share of [`crate::SERVE_ANALYSE_SECONDS`].
pub(crate) async fn analyse(State(shared): Server, Body(b): Body<AnalyseFields>) -> Response {
    let tables = shared.tables.clone();
    search(&shared, move |stop| {
        let record: Record = b.record.parse().map_err(|e| ApiError::of("record", &e))?;
        let n = record.turns.len();
        check_record(n, "throws")?;
        let analyst = tables.analyst(record.start.board(), record.variants, true)?;
        let asked = b.time.unwrap_or(DEFAULT_ANALYSE_SECONDS);
        // Not positive: the library's error names the time asked.
        let time = if asked > 0.0 {
            decision_seconds(asked, n)
        } else {
            asked
        };
        let request = AnalyseRequest::new()
            .time(Some(time))
            .map_err(|e| ApiError::of("", &e))?
            .max_nodes(Some(b.max_nodes.unwrap_or(DEFAULT_ANALYSE_MAX_NODES)));
        let report = request
            .run_record(&analyst, &record, &(), Some(&stop.daldos))
            .map_err(|e| ApiError::of("", &e))?;
        Answer::sorted(&report)
    })
    .await
}
