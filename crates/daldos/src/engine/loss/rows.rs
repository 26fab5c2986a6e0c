//! A contender's losses on a set of decisions, their summary, and its
//! match against `perfect`: the rows of `data/daldos/engine_vs_perfect.csv`.

use std::sync::Arc;

use rayon::prelude::*;

use dalkon_rules::daldos::{Board, Position};

use super::{Contender, Decision, StudyError, ERROR_LOSS};
use crate::engine::daldos::Daldos;
use crate::engine::game::Game;
use crate::engine::matchplay::{play_match, MatchConfig};
use crate::engine::perfect::{best_by_tables, play_value, PerfectError};
use crate::engine::players::PerfectPlayer;
use crate::engine::rng::Rng;
use crate::solved::Tables;

/// The loss of `contender` on each decision (in order), with the player
/// for decision `k` given `Rng::for_index(seed, k)` for any choice it
/// draws. Refused when the tables do not cover a play of a decision.
pub fn losses(
    tables: &Arc<Tables>,
    contender: &Contender,
    decisions: &[Decision],
    seed: u64,
) -> Result<Vec<f64>, StudyError> {
    let game = Daldos::new(tables.variants());
    let player = contender.player(tables);
    decisions
        .par_iter()
        .enumerate()
        .map(|(k, d)| {
            let plays = game.plays(&d.pos, d.throw);
            let mut rng = Rng::for_index(seed, k as u64);
            let i = player.choose(&game, &d.pos, &plays, &mut rng);
            let not_covered = || PerfectError::NotCovered {
                position: d.pos.to_string(),
            };
            let best = best_by_tables(tables, &d.pos, &plays).1;
            let chosen = play_value(tables, d.pos.side_to_move(), &plays[i].1);
            match (best, chosen) {
                (Some(b), Some(c)) if plays.iter().all(|(_, r)| covered(tables, r)) => Ok(b - c),
                _ => Err(not_covered().into()),
            }
        })
        .collect()
}

/// Whether the tables value `result` (a finished game always).
pub(super) fn covered(tables: &Tables, result: &Position) -> bool {
    tables.bounds(result).is_some()
}

/// Mean, 99th percentile (nearest rank) and errors of `losses` (0 for
/// none).
pub fn summarise(losses: &[f64]) -> (f64, f64, usize) {
    if losses.is_empty() {
        return (0.0, 0.0, 0);
    }
    let mean = losses.iter().sum::<f64>() / losses.len() as f64;
    let mut sorted = losses.to_vec();
    sorted.sort_by(f64::total_cmp);
    let rank = (losses.len() * 99).div_ceil(100);
    let p99 = sorted[rank.max(1) - 1];
    let errors = losses.iter().filter(|&&l| l > ERROR_LOSS).count();
    (mean, p99, errors)
}

/// One row of `data/daldos/engine_vs_perfect.csv`.
#[derive(Debug, Clone, PartialEq)]
pub struct LossRow {
    /// The board.
    pub board: Board,
    /// `game`, or the layer such as `2v2`.
    pub layer: String,
    /// The contender's name.
    pub player: String,
    /// Decisions measured.
    pub decisions: usize,
    /// Mean loss of win probability per decision.
    pub mean_loss: f64,
    /// 99th percentile of the loss.
    pub p99_loss: f64,
    /// Decisions with a loss above [`ERROR_LOSS`].
    pub errors: usize,
}

/// A match of a contender (player a) against `perfect` (player b).
#[derive(Debug, Clone, PartialEq)]
pub struct MatchRow {
    /// The board (games from its start).
    pub board: Board,
    /// The contender's name.
    pub player: String,
    /// Games played.
    pub games: u32,
    /// Games the contender won.
    pub wins: u32,
    /// `wins / games`.
    pub win_rate: f64,
    /// Wilson 95% interval of the win rate.
    pub ci95: (f64, f64),
    /// Games stopped at the turn cap.
    pub capped: u32,
}

/// A match of `contender` against `perfect` from the start of the tables'
/// board (`contender` starts the even games), as [`play_match`] plays it.
pub fn perfect_match(
    tables: &Arc<Tables>,
    contender: &Contender,
    cfg: MatchConfig,
) -> Result<MatchRow, PerfectError> {
    let board = tables.board();
    let start = Position::start(board);
    let perfect = PerfectPlayer::for_game(Arc::clone(tables), &tables.variants(), &start)?;
    let game = Daldos::new(tables.variants());
    let player = contender.player(tables);
    let r = play_match(&game, &start, player.as_ref(), &perfect, cfg, &|| {});
    Ok(MatchRow {
        board,
        player: contender.name.clone(),
        games: r.games,
        wins: r.a_wins,
        win_rate: r.a_win_rate,
        ci95: r.ci95,
        capped: r.capped,
    })
}
