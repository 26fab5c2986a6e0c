//! The seats of `daldos game`: a human, or a player the library builds
//! from its spec (`random`, `greedy`, `engine:N`, `perfect`).

use std::sync::Arc;

use anyhow::Context;
use dalkon_daldos::engine::{Daldos, Player, PlayerSpec, PlayerSpecError};
use dalkon_daldos::solved::Tables;
use dalkon_rules::daldos::Position;

use dalkon_render::error_line::quote;

/// Who plays a side.
pub(super) enum Seat {
    Human,
    Machine(PlayerSpec, Box<dyn Player<Daldos>>),
}

/// A side's player as typed, before it is built: a human, or a spec.
pub(super) fn parse_seat(flag: &str, text: &str) -> anyhow::Result<Option<PlayerSpec>> {
    if text == "human" {
        return Ok(None);
    }
    match text.parse::<PlayerSpec>() {
        Ok(spec) => Ok(Some(spec)),
        Err(PlayerSpecError::Unknown(_)) => anyhow::bail!(
            "{flag}: unknown player {}: expected human, random, greedy, engine:N, hand:N or perfect",
            quote(text)
        ),
        Err(e) => Err(e).context(flag.to_owned()),
    }
}

impl Seat {
    /// The seat of a parsed player, for games of `game` from `start`.
    pub(super) fn build(
        flag: &str,
        spec: Option<PlayerSpec>,
        game: &Daldos,
        start: &Position,
        tables: Option<&Arc<Tables>>,
    ) -> anyhow::Result<Seat> {
        Ok(match spec {
            None => Seat::Human,
            Some(spec) => Seat::Machine(
                spec,
                spec.build(game, start, tables)
                    .with_context(|| flag.to_owned())?,
            ),
        })
    }

    /// The machine playing this seat; `None` for a human.
    pub(super) fn player(&self) -> Option<&dyn Player<Daldos>> {
        match self {
            Seat::Human => None,
            Seat::Machine(_, p) => Some(p.as_ref()),
        }
    }

    pub(super) fn name(&self) -> String {
        match self {
            Seat::Human => "human".to_owned(),
            Seat::Machine(spec, _) => spec.to_string(),
        }
    }
}
