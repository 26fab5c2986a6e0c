//! The Daldøs play page's endpoint (docs/web.md, "The pages' endpoints"):
//! a game kept as its record, so that the server holds no game between
//! requests. `/api/daldos/state` reads a record (or starts one), plays a
//! play of the throw, and answers where the game stands with the next
//! throw and its legal plays (the `daldos moves` request). The throws of a
//! game with a seed are the engine's seeded dice: throw `k` (from 0) is
//! drawn by the throws' weights from `Rng::for_index(seed, k)`, so a record
//! and its seed give the same dice again.

use axum::extract::State;
use axum::response::Response;
use dalkon_daldos::engine::{draw_throw, Daldos, Rng};
use dalkon_daldos::request::MovesRequest;
use dalkon_rules::daldos::{
    Board, Play, Position, Record, Throw, Turn, DEFAULT_MAX_THROWS, RECORD_DEFAULT_BOARD,
};
use serde::{Deserialize, Serialize};

use super::daldos::{throw as read_throw, RuleFields};
use super::{search, Answer, ApiError, Body, Server};

/// The game of a request: its record, or a new one from `position` (or
/// the start of `board`), under the rule fields.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct StateFields {
    #[serde(default)]
    record: Option<String>,
    #[serde(default)]
    position: Option<String>,
    /// The seed of the dice (else the record's `Seed` tag; neither: no
    /// throw is drawn).
    #[serde(default)]
    seed: Option<u64>,
    /// The throw to answer for instead of a drawn one.
    #[serde(default)]
    dice: Option<String>,
    /// A play of the throw, in the notation of `daldos moves`, to make.
    #[serde(default)]
    play: Option<String>,
    /// A play of the throw to draw on the picture as arrows.
    #[serde(default)]
    mark: Option<String>,
    #[serde(flatten)]
    rules: RuleFields,
}

/// Where a game stands: the JSON of `/api/daldos/state` (fields in this
/// order).
#[derive(Debug, Serialize)]
struct StateReport {
    /// The record, its `Result` (and `Seed`) tags set.
    record: String,
    /// The starting position.
    start: String,
    /// The position before the next throw.
    position: String,
    /// The board's name and the rules.
    board: String,
    dal: String,
    capture: String,
    end: String,
    /// Throws played.
    throws: usize,
    /// The side to throw, `A` or `B`.
    side: String,
    /// Whether the game is over (won, or the turn cap reached).
    over: bool,
    /// The winner, when won.
    winner: Option<String>,
    /// The PGN result: `1-0`, `0-1` or `*`.
    result: &'static str,
    /// The seed of the dice.
    seed: Option<u64>,
    /// The next throw (none when the game is over, or without a seed or
    /// `dice`).
    dice: Option<[u8; 2]>,
    /// Its legal plays, as `daldos moves` lists them, each with the holes
    /// of the pieces it moves (an added move's piece once).
    plays: Vec<PlayRow>,
    /// The last throw and play, as the record writes it.
    last: Option<String>,
    /// The picture, as `daldos show --format svg` draws it with the throw
    /// (each hole a circle of class `hole` with `data-hole`); with `mark`,
    /// that play drawn as arrows.
    svg: String,
}

#[derive(Debug, Serialize)]
struct PlayRow {
    play: String,
    result: String,
    from: Vec<String>,
}

impl StateFields {
    fn record(&self) -> Result<Record, ApiError> {
        if let Some(text) = &self.record {
            if self.position.is_some() {
                return Err(ApiError::bad(
                    "record: give either a record or a new game's position",
                ));
            }
            return text.parse().map_err(|e| ApiError::of("record", &e));
        }
        let variants = self.rules.variants()?;
        let start = match (&self.position, &self.rules.board) {
            (Some(text), _) => self.rules.position(text)?,
            (None, Some(name)) => {
                Position::start(Board::from_name(name).map_err(|e| ApiError::of("--board", &e))?)
            }
            (None, None) => Position::start(RECORD_DEFAULT_BOARD),
        };
        Ok(Record::new(start, variants))
    }
}

/// The throw after `record`'s turns: `dice` if given, else drawn from the
/// seed; none when the game is over.
fn next_throw(record: &Record, seed: Option<u64>, dice: Option<Throw>) -> Option<Throw> {
    let pos = record.end();
    if pos.is_over(&record.variants) || record.turns.len() >= DEFAULT_MAX_THROWS as usize {
        return None;
    }
    dice.or_else(|| {
        let seed = seed?;
        let mut rng = Rng::for_index(seed, record.turns.len() as u64);
        Some(draw_throw(&Daldos::new(record.variants), &mut rng))
    })
}

/// The holes whose pieces `play` moves: each step's `from`, but for the
/// second step of an added move (the same piece again).
fn moved_from(play: &Play, board: Board) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (i, s) in play.steps.iter().enumerate() {
        if i > 0 && play.steps[i - 1].to == s.from {
            continue;
        }
        let name = board.hole_name(s.from);
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// A turn as the record writes it: the last line of the record's moves.
fn turn_text(record: &Record) -> Option<String> {
    let turn = record.turns.last()?;
    let before = record.positions()[record.turns.len() - 1];
    let one = Record {
        turns: vec![turn.clone()],
        tags: Vec::new(),
        ..Record::new(before, record.variants)
    };
    // The moves of a one-turn record: its last non-empty line.
    let text = one.to_string();
    text.lines()
        .rev()
        .find(|l| !l.trim().is_empty() && !l.starts_with('['))
        .map(|l| l.trim().to_owned())
}

/// `/api/daldos/state`: the game of the body, after `play` if given.
pub(crate) async fn state(State(shared): Server, Body(b): Body<StateFields>) -> Response {
    search(&shared, move |_| {
        let mut record = b.record()?;
        let seed = match b.seed {
            Some(s) => Some(s),
            None => match record.tag("Seed") {
                Some(t) => Some(t.parse::<u64>().map_err(|e| {
                    ApiError::bad(format!("record: tag Seed {}: {e}", super::quote(t)))
                })?),
                None => None,
            },
        };
        let dice = b.dice.as_deref().map(read_throw).transpose()?;
        let mut throw = next_throw(&record, seed, dice);
        if let Some(text) = &b.play {
            let Some(t) = throw else {
                return Err(ApiError::bad(format!(
                    "--play {}: there is no throw to play (the game is over, or no seed or dice)",
                    super::quote(text)
                )));
            };
            let moves = MovesRequest {
                pos: record.end(),
                variants: record.variants,
                throw: t,
            }
            .run();
            let Some(row) = moves.plays.iter().find(|r| r.play == *text) else {
                return Err(ApiError::bad(format!(
                    "--play {}: not a play of the throw {t} here",
                    super::quote(text)
                )));
            };
            record.turns.push(Turn {
                throw: t,
                play: row.step.clone(),
            });
            // An explicit throw is used once.
            throw = next_throw(&record, seed, None);
        }
        let pos = record.end();
        let board = pos.board();
        let plays = match throw {
            Some(t) => MovesRequest {
                pos,
                variants: record.variants,
                throw: t,
            }
            .run()
            .plays
            .into_iter()
            .map(|r| PlayRow {
                from: moved_from(&r.step, board),
                play: r.play,
                result: r.result,
            })
            .collect(),
            None => Vec::new(),
        };
        let marked = match (&b.mark, throw) {
            (Some(text), Some(t)) => {
                let moves = MovesRequest {
                    pos,
                    variants: record.variants,
                    throw: t,
                }
                .run();
                let row = moves.plays.into_iter().find(|r| r.play == *text);
                match row {
                    Some(r) => Some(r.step),
                    None => {
                        return Err(ApiError::bad(format!(
                            "--mark {}: not a play of the throw {t} here",
                            super::quote(text)
                        )))
                    }
                }
            }
            _ => None,
        };
        let footer = b.mark.as_deref().map(|m| format!("best play {m}"));
        let svg = dalkon_render::daldos::svg(&pos, throw, marked.as_ref().zip(footer.as_deref()));
        if let Some(s) = seed {
            record.set_tag("Seed", s.to_string());
        }
        record.set_tag("Result", record.result());
        let winner = pos.winner(&record.variants);
        Answer::in_order(&StateReport {
            start: record.start.to_string(),
            position: pos.to_string(),
            board: board.name(),
            dal: record.variants.dal.to_string(),
            capture: record.variants.capture.to_string(),
            end: record.variants.end.to_string(),
            throws: record.turns.len(),
            side: pos.side_to_move().to_string(),
            over: winner.is_some() || record.turns.len() >= DEFAULT_MAX_THROWS as usize,
            winner: winner.map(|w| w.to_string()),
            result: record.result(),
            seed,
            dice: throw.map(|t| [t.first, t.second]),
            plays,
            last: turn_text(&record),
            svg,
            record: record.to_string(),
        })
    })
    .await
}
