//! The Dakon play page's endpoints (docs/web.md, "The pages' endpoints"):
//! a game kept as its record (docs/formats.md), so that the server holds
//! no game between requests. `/api/dakon/state` reads a record (or starts
//! one), plays a hole of the side to move, and answers where the game
//! stands, from the rules crate; `/api/dakon/engine` plays the engine's
//! move and `/api/dakon/hint` gives the hint, both from the library's game
//! (`dalkon_dakon::game`, as `dakon game` plays), with its lines.

use axum::extract::State;
use axum::response::Response;
use dalkon_dakon::game::{Game, GameRequest, Player, GAME_MAX_NODES, MAX_GAME_ESTIMATE_DEPTH};
use dalkon_dakon::request::{PlayRequest, DEFAULT_ESTIMATE_DEPTH};
use dalkon_dakon::solve::start_position;
use dalkon_dakon::SolveError;
use dalkon_rules::dakon::{Position, Record, Side, STANDARD_BOARD};
use serde::{Deserialize, Serialize};

use super::dakon::{failed, position, RuleFields};
use super::{search, Answer, ApiError, Body, Server};
use crate::SERVE_GAME_MAX_NODES;

/// Where a game stands: the JSON of `/api/dakon/state` (keys sorted).
#[derive(Debug, Serialize)]
pub(crate) struct StateReport {
    /// The game's record, its `Result` tag set.
    record: String,
    /// The starting position.
    start: String,
    /// The position now.
    position: String,
    /// The holes played, in order.
    moves: Vec<usize>,
    /// Holes a row.
    holes: usize,
    /// The side to move, 0 (South) or 1 (North).
    side: usize,
    /// Its name, as the CLI writes it ("South (0)").
    side_name: String,
    /// The legal moves of the side to move (none when the game is over).
    legal: Vec<usize>,
    /// Whether the game is over.
    over: bool,
    /// The final stores, South's then North's, when the game is over.
    score: Option<[u32; 2]>,
    /// The result in words ("South (0) wins by 2"), when over.
    verdict: Option<String>,
    /// The PGN result: `1-0`, `0-1`, `1/2-1/2` or `*`.
    result: &'static str,
    /// The rules, as a record's `Rules` tag writes them.
    rules: String,
    /// Each rule by itself, as the rule fields spell it.
    origin: &'static str,
    mikul: &'static str,
    nembak: &'static str,
    /// The legal moves' holes by name (`S3`), as the picture names them.
    legal_holes: Vec<String>,
    /// What happened in the move just played (by `play` or the engine).
    events: Vec<String>,
    /// The picture, as `dakon show --format svg` draws it (each hole a
    /// circle of class `hole` with `data-hole="S3"`); with `mark`, those
    /// holes ringed.
    svg: String,
    /// The engine's move, from `/api/dakon/engine`.
    #[serde(skip_serializing_if = "Option::is_none")]
    engine: Option<EngineReport>,
}

/// The engine's move and why, as `dakon game` prints it.
#[derive(Debug, Serialize)]
struct EngineReport {
    /// The hole played.
    #[serde(rename = "move")]
    hole: usize,
    /// The CLI's line saying how it was chosen.
    why: String,
}

/// The game of a request: its record, or a new one from `position`, or
/// from `holes` and `seeds`, or the standard board, under the rule
/// fields.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct GameFields {
    #[serde(default)]
    record: Option<String>,
    #[serde(default)]
    position: Option<String>,
    #[serde(default)]
    holes: Option<usize>,
    #[serde(default)]
    seeds: Option<u32>,
    /// A hole of the side to move to play.
    #[serde(default)]
    play: Option<usize>,
    /// Holes to ring in the picture (e.g. an analysis's best moves), with
    /// their value for the side to move and whether it is exact, for the
    /// line under the picture.
    #[serde(default)]
    mark: Option<Vec<usize>>,
    #[serde(default)]
    mark_value: Option<i32>,
    #[serde(default)]
    mark_exact: bool,
    /// The engine's nodes for a move or a hint (`dakon game --max-nodes`).
    #[serde(default)]
    max_nodes: Option<u64>,
    /// Plies of its estimate (`dakon game --estimate-depth`).
    #[serde(default)]
    estimate_depth: Option<u32>,
    #[serde(flatten)]
    rules: RuleFields,
}

impl GameFields {
    /// The record asked for (a new game has no moves).
    fn record(&self) -> Result<Record, ApiError> {
        let given = self.position.is_some() || self.holes.is_some() || self.seeds.is_some();
        if let Some(text) = &self.record {
            if given {
                return Err(ApiError::bad(
                    "record: give either a record or a new game's position, holes and seeds",
                ));
            }
            return text.parse().map_err(|e| ApiError::of("record", &e));
        }
        let rules = self.rules.rules()?;
        let start = match (&self.position, self.holes, self.seeds) {
            (Some(text), None, None) => position(text)?,
            (Some(_), _, _) => {
                return Err(ApiError::bad(
                    "--position cannot be used with --holes or --seeds",
                ))
            }
            (None, Some(h), Some(s)) => start_position(h, s).map_err(failed)?,
            (None, None, None) => {
                let (h, s) = STANDARD_BOARD;
                start_position(h, s).map_err(failed)?
            }
            _ => return Err(ApiError::bad("--holes and --seeds go together")),
        };
        Ok(Record::new(start, rules))
    }

    /// The library's game of `record` with the engine's budget asked,
    /// both sides the engine (the page says who plays), its moves replayed.
    fn game(&self, record: &Record) -> Result<Game, ApiError> {
        let depth = self.estimate_depth.unwrap_or(DEFAULT_ESTIMATE_DEPTH);
        if !(1..=MAX_GAME_ESTIMATE_DEPTH).contains(&depth) {
            return Err(failed(SolveError::OutOfRange {
                flag: "--estimate-depth",
                range: "1 to 12",
            }));
        }
        let nodes = match self.max_nodes.unwrap_or(GAME_MAX_NODES) {
            0 => SERVE_GAME_MAX_NODES,
            n => n.min(SERVE_GAME_MAX_NODES),
        };
        let mut game = Game::new(&GameRequest {
            first: Player::Engine,
            second: Player::Engine,
            max_nodes: nodes,
            estimate_depth: depth,
            ..GameRequest::new(record.start, record.rules)
        })
        .map_err(failed)?;
        game.replay(&record.moves)
            .map_err(|(k, e)| ApiError::bad(format!("record: move {}: {e}", k + 1)))?;
        Ok(game)
    }
}

/// `record` after `hole` (the library's `play` request: an illegal move
/// is the CLI's error) and what happened in it.
fn play(record: &mut Record, hole: usize) -> Result<Vec<String>, ApiError> {
    let report = PlayRequest {
        position: record.end(),
        moves: vec![hole],
        rules: record.rules,
    }
    .run()
    .map_err(failed)?;
    record.moves.push(hole);
    Ok(report.events.into_iter().next().unwrap_or_default())
}

/// Holes to ring in the picture, their value and whether it is exact.
#[derive(Debug, Clone, Copy, Default)]
struct Mark<'a> {
    moves: &'a [usize],
    value: i32,
    exact: bool,
}

/// Where `record` stands.
fn state(mut record: Record, events: Vec<String>, mark: Mark<'_>) -> StateReport {
    let pos: Position = record.end();
    record.set_tag("Result", record.result());
    let score = pos.final_score();
    let best = dalkon_render::dakon::Best {
        moves: mark.moves,
        value: mark.value,
        label: if mark.exact { "exact" } else { "NOT exact" }.to_owned(),
    };
    let svg = if mark.moves.is_empty() {
        dalkon_render::dakon::svg(&pos, None)
    } else {
        dalkon_render::dakon::svg(&pos, Some(&best))
    };
    StateReport {
        start: record.start.to_string(),
        position: pos.to_string(),
        moves: record.moves.clone(),
        holes: pos.holes(),
        side: pos.side_to_move().index(),
        side_name: pos.side_to_move().to_string(),
        legal: pos.moves().collect(),
        over: pos.is_over(),
        score: score.map(|s| [s.store(Side::South), s.store(Side::North)]),
        verdict: score.as_ref().map(dalkon_render::dakon::verdict),
        result: record.result(),
        rules: record.rules.to_string(),
        origin: record.rules.names().0,
        mikul: record.rules.names().1,
        nembak: record.rules.names().2,
        legal_holes: pos
            .moves()
            .map(|h| {
                format!(
                    "{}{h}",
                    dalkon_render::dakon::text::row_letter(pos.side_to_move())
                )
            })
            .collect(),
        events,
        svg,
        engine: None,
        record: record.to_string(),
    }
}

/// `/api/dakon/state`: the game of the body, after `play` if given.
pub(crate) async fn state_of(State(shared): Server, Body(b): Body<GameFields>) -> Response {
    search(&shared, move |_| {
        let mut record = b.record()?;
        let events = match b.play {
            Some(hole) => play(&mut record, hole)?,
            None => Vec::new(),
        };
        let mark = Mark {
            moves: b.mark.as_deref().unwrap_or(&[]),
            value: b.mark_value.unwrap_or(0),
            exact: b.mark_exact,
        };
        Answer::sorted(&state(record, events, mark))
    })
    .await
}

/// `/api/dakon/engine`: the engine's move in the game of the body, as
/// `dakon game` chooses it (`max-nodes`, `estimate-depth`; nodes cut to
/// [`SERVE_GAME_MAX_NODES`]), played; a game that is over is answered as
/// it stands, without `engine`.
pub(crate) async fn engine(State(shared): Server, Body(b): Body<GameFields>) -> Response {
    search(&shared, move |_| {
        let mut record = b.record()?;
        let mut game = b.game(&record)?;
        let Some((played, m)) = game.engine_move().map_err(failed)? else {
            return Answer::sorted(&state(record, Vec::new(), Mark::default()));
        };
        let why = dalkon_render::dakon::game::why(&game, &played, &m);
        record.moves.push(played.hole);
        let events = played.events.iter().map(ToString::to_string).collect();
        let mut report = state(record, events, Mark::default());
        report.engine = Some(EngineReport {
            hole: played.hole,
            why,
        });
        Answer::sorted(&report)
    })
    .await
}

/// The JSON of `/api/dakon/hint`.
#[derive(Debug, Serialize)]
struct HintReport {
    /// The value for the side to move (final store difference).
    value: i32,
    /// Whether it is proved.
    exact: bool,
    /// The CLI's label of the value (`exact`, `NOT exact: proved between
    /// …`, `ESTIMATE … plies deep, NOT exact: …`).
    label: String,
    /// The best moves.
    best_moves: Vec<usize>,
    /// Every legal move, best first, with its value as the CLI's table
    /// writes it (`+3`, `<= -1`, `-2 .. +4 (not proved)`).
    ranked: Vec<RankedRow>,
    /// The hint as `dakon game` prints it.
    text: String,
}

#[derive(Debug, Serialize)]
struct RankedRow {
    #[serde(rename = "move")]
    hole: usize,
    value: String,
    exact: bool,
}

/// `/api/dakon/hint`: the hint of `dakon game` (`dakon best --every-move`
/// under the game's budget) in the game of the body.
pub(crate) async fn hint(State(shared): Server, Body(b): Body<GameFields>) -> Response {
    search(&shared, move |_| {
        let record = b.record()?;
        let mut game = b.game(&record)?;
        if game.position().is_over() {
            return Err(ApiError::bad("the game is over: there is no move to hint"));
        }
        let report = game.hint().map_err(failed)?;
        let text = dalkon_render::dakon::game::hint(&game, &report);
        Answer::sorted(&HintReport {
            value: report.value,
            exact: report.exact,
            label: report.label().to_string(),
            best_moves: report.best_moves.clone(),
            ranked: report
                .ranked()
                .iter()
                .map(|m| RankedRow {
                    hole: m.hole,
                    value: m.value.to_string(),
                    exact: m.value.is_exact(),
                })
                .collect(),
            text,
        })
    })
    .await
}
