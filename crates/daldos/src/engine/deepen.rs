//! Iterative deepening within a node budget: how `dalkon daldos best` and
//! the Python `dalkon.daldos.best` turn a depth and a budget into one
//! answer. Kept in the library so that every front end answers alike, with
//! the same node counts.
//!
//! Depths 1, 2, … up to the depth asked are searched in turn, each with
//! what the earlier ones left of the budget ([`SearchOptions::max_nodes`]
//! is the remainder), and the answer is that of the deepest depth that
//! finished. The nodes of every depth searched, the one that ran out
//! included, are summed, so the whole answer costs at most the budget (or
//! one node per root play, if that is more: see "Node budget" in
//! [`crate::engine::search`]). Depth 1 always finishes, as every root play
//! is granted its first node, so with a budget there is always an answer.
//! Without a budget every depth finishes, so the search goes straight to
//! the depth asked.

use std::sync::atomic::AtomicBool;

use dalkon_rules::daldos::{EndRule, Position, Side, Throw};

use crate::engine::daldos::Daldos;
use crate::engine::game::Game;
use crate::engine::search::{
    analyse_position_with_progress, analyse_position_with_stop, analyse_throw_with_progress,
    analyse_throw_with_stop, PositionAnalysis, RootMode, SearchError, SearchOptions, Stats,
    ThrowAnalysis, MAX_DEPTH,
};

/// What [`deepen`] is asked for. The other [`SearchOptions`] are their
/// defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeepenOptions {
    /// The depth asked, in throws, `1..=MAX_DEPTH`.
    pub depth: u32,
    /// Nodes the whole answer may visit, all depths together; `None` for
    /// no limit (then only `depth` is searched).
    pub max_nodes: Option<u64>,
    /// Star1 / alpha-beta pruning ([`SearchOptions::prune`]).
    pub prune: bool,
    /// How the root plays are valued.
    pub mode: RootMode,
}

/// The search of the deepest depth that finished.
#[derive(Debug, Clone)]
pub enum Analysis {
    /// The plays of the throw asked.
    Throw(ThrowAnalysis<Daldos>),
    /// The position before the throw, every distinct throw analysed.
    Position(PositionAnalysis<Daldos>),
}

impl Analysis {
    /// The value for the side to move: after the best play of the throw,
    /// or expected over the throws.
    pub fn value(&self) -> f64 {
        match self {
            Analysis::Throw(a) => a.value,
            Analysis::Position(a) => a.value,
        }
    }

    /// Whether [`Analysis::value`] is the game's value, not an estimate.
    pub fn exact(&self) -> bool {
        match self {
            Analysis::Throw(a) => a.exact,
            Analysis::Position(a) => a.exact,
        }
    }

    /// What this depth's search did.
    pub fn stats(&self) -> Stats {
        match self {
            Analysis::Throw(a) => a.stats,
            Analysis::Position(a) => a.stats,
        }
    }
}

/// The answer of [`deepen`].
#[derive(Debug, Clone)]
pub struct Deepened {
    /// The search at `depth`.
    pub analysis: Analysis,
    /// The deepest depth that finished.
    pub depth: u32,
    /// `depth` is the depth asked (the budget did not cut the deepening
    /// short).
    pub complete: bool,
    /// Nodes of every depth searched, the one that ran out of the budget
    /// included.
    pub nodes_total: u64,
}

impl Deepened {
    /// Nodes of the search at `depth` alone.
    pub fn nodes(&self) -> u64 {
        self.analysis.stats().nodes()
    }
}

/// What [`deepen`] reports as it goes, for a progress bar (never for
/// results). Both methods do nothing unless overridden; `()` reports
/// nowhere.
pub trait DeepenProgress: Sync {
    /// The search of `depth` (of `depth_asked`) starts, with `root_plays`
    /// root plays to search (over all throws without a throw).
    fn depth_started(&self, _depth: u32, _depth_asked: u32, _root_plays: usize) {}

    /// One root play of the current depth has been searched (called from
    /// any worker thread).
    fn root_play_done(&self) {}
}

impl DeepenProgress for () {}

/// Why [`deepen`] has no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeepenError {
    /// The game in the position is already over: `winner` has won under
    /// the end rule `end`.
    #[error(
        "the game is already over in this position ({} has won under end={end})",
        winner.letter()
    )]
    GameOver {
        /// The side that has won.
        winner: Side,
        /// The end rule under which it has.
        end: EndRule,
    },
    /// Not even the first depth searched finished within the budget
    /// (after `nodes` nodes).
    #[error("the search found no answer within the node limit")]
    NoAnswer {
        /// Nodes visited, all depths together.
        nodes: u64,
    },
    /// A search failed otherwise: a depth out of range, or the stop flag
    /// raised ([`SearchError::Interrupted`]).
    #[error(transparent)]
    Search(#[from] SearchError),
}

/// The answer for `pos` (with `throw`: the plays of that throw; without:
/// the position before the throw) by iterative deepening within
/// `opts.max_nodes` (module documentation). `progress` hears of each depth
/// and root play; with `stop`, raising it ends the search with
/// [`SearchError::Interrupted`] (a flag never raised changes nothing).
pub fn deepen(
    game: &Daldos,
    pos: &Position,
    throw: Option<Throw>,
    opts: DeepenOptions,
    progress: &dyn DeepenProgress,
    stop: Option<&AtomicBool>,
) -> Result<Deepened, DeepenError> {
    if opts.depth == 0 || opts.depth > MAX_DEPTH {
        return Err(SearchError::Depth(opts.depth).into());
    }
    if let Some(winner) = pos.winner(&game.variants) {
        return Err(DeepenError::GameOver {
            winner,
            end: game.variants.end,
        });
    }
    let root_plays: usize = match throw {
        Some(t) => game.plays(pos, t).len(),
        None => game
            .throws()
            .iter()
            .map(|&(t, _)| game.plays(pos, t).len())
            .sum(),
    };
    let tick = || progress.root_play_done();
    let search = |search: SearchOptions| -> Result<Analysis, SearchError> {
        let mode = opts.mode;
        match (throw, stop) {
            (Some(t), None) => {
                analyse_throw_with_progress(game, pos, t, search, mode, &tick).map(Analysis::Throw)
            }
            (Some(t), Some(stop)) => {
                analyse_throw_with_stop(game, pos, t, search, mode, &tick, stop)
                    .map(Analysis::Throw)
            }
            (None, None) => analyse_position_with_progress(game, pos, search, mode, &tick)
                .map(Analysis::Position),
            (None, Some(stop)) => analyse_position_with_stop(game, pos, search, mode, &tick, stop)
                .map(Analysis::Position),
        }
    };
    let first = if opts.max_nodes.is_some() {
        1
    } else {
        opts.depth
    };
    let mut used = 0u64;
    let mut done: Option<(Analysis, u32)> = None;
    for depth in first..=opts.depth {
        progress.depth_started(depth, opts.depth, root_plays);
        let options = SearchOptions {
            depth,
            prune: opts.prune,
            max_nodes: opts.max_nodes.map(|m| m.saturating_sub(used)),
            ..SearchOptions::default()
        };
        match search(options) {
            Ok(a) => {
                used += a.stats().nodes();
                done = Some((a, depth));
            }
            Err(SearchError::NodeLimit { nodes }) => {
                used += nodes;
                break;
            }
            Err(e) => return Err(e.into()),
        }
    }
    let (analysis, depth) = done.ok_or(DeepenError::NoAnswer { nodes: used })?;
    Ok(Deepened {
        analysis,
        depth,
        complete: depth == opts.depth,
        nodes_total: used,
    })
}
