//! The root functions: every play of one throw ([`analyse_throw`]) or of
//! every throw ([`analyse_position`]) searched by one fresh [`Searcher`]
//! each, in parallel, with windows fixed before the parallel part and the
//! node budget split into equal shares, so that the answer and the node
//! count are the same for any thread count.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::kept::{KeptTable, KEPT_MIN_DEPTH};
use super::searcher::{root_order, Searcher};
use super::{SearchError, SearchOptions, Stats, MAX_DEPTH};
use crate::engine::game::Game;
use crate::engine::tt::{Bounds, Table};

/// How the root of [`analyse_throw`] is searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootMode {
    /// Every play gets its exact value (the full window at every root play).
    AllExact,
    /// Only the best play is guaranteed exact: the first play in static order
    /// is searched alone, then the others in parallel with its value as the
    /// lower edge of their window; a play that cannot beat it gets an upper
    /// bound instead of its value.
    BestOnly,
}

/// One root play and what the search found for it.
#[derive(Debug, Clone)]
pub struct PlayValue<G: Game> {
    /// The play.
    pub play: G::Play,
    /// Its result.
    pub result: G::Pos,
    /// Its value for the mover at the search's depth, or only an upper
    /// bound on it (`bound`).
    pub value: f64,
    /// `value` is only an upper bound (in [`RootMode::BestOnly`], for a
    /// play that cannot beat the best).
    pub bound: bool,
    /// `value` is the play's value in the game, not only at this depth:
    /// it depends on no static evaluation (see "Exact values" in the module
    /// documentation). Never together with `bound`.
    pub exact: bool,
}

/// The search of one throw: plays ranked best first.
#[derive(Debug, Clone)]
pub struct ThrowAnalysis<G: Game> {
    /// The throw.
    pub throw: G::Throw,
    /// Value of the best play (never a bound) for the side to move.
    pub value: f64,
    /// `value` is the throw's value in the game: the best play's value is
    /// exact, and either it wins outright or no other play can be worth
    /// more in the game (each is exact, or a bound that holds for the game).
    pub exact: bool,
    /// Plays, best first: by value, ties by static order. `plays[0]` is the
    /// best play.
    pub plays: Vec<PlayValue<G>>,
    /// What the search did.
    pub stats: Stats,
}

/// The search of a position before the throw.
#[derive(Debug, Clone)]
pub struct PositionAnalysis<G: Game> {
    /// Expected value for the side to move, over the throws.
    pub value: f64,
    /// `value` is the position's value in the game: every throw's is.
    pub exact: bool,
    /// One analysis per distinct throw, in [`Game::throws`] order, with the
    /// throw's weight.
    pub throws: Vec<(ThrowAnalysis<G>, u32)>,
    /// What the search did, all throws together.
    pub stats: Stats,
}

fn check<G: Game>(game: &G, pos: &G::Pos, opts: &SearchOptions) -> Result<(), SearchError> {
    if opts.depth == 0 || opts.depth > MAX_DEPTH {
        return Err(SearchError::Depth(opts.depth));
    }
    if game.winner(pos).is_some() {
        return Err(SearchError::GameOver);
    }
    Ok(())
}

/// Each root play's node limit when `root_plays` plays share `opts.max_nodes`
/// (at least 1, so that a tiny budget fails rather than divides by zero).
fn share(opts: &SearchOptions, root_plays: usize) -> u64 {
    match opts.max_nodes {
        None => u64::MAX,
        Some(budget) => (budget / root_plays.max(1) as u64).max(1),
    }
}

/// Search every play of `throw` in `pos` to `opts.depth` (see the module
/// documentation for what depth counts). Root plays are searched in
/// parallel, each by its own [`Searcher`]; the result does not depend on the
/// number of threads. With a node budget, each root play may visit
/// `max_nodes / plays` nodes; [`SearchError::NodeLimit`] if one needed more.
pub fn analyse_throw<G: Game>(
    game: &G,
    pos: &G::Pos,
    throw: G::Throw,
    opts: SearchOptions,
    mode: RootMode,
) -> Result<ThrowAnalysis<G>, SearchError> {
    analyse_throw_with_progress(game, pos, throw, opts, mode, &|| {})
}

/// [`analyse_throw`], calling `progress` once per root play searched (from
/// any worker thread; for a progress bar, never for results).
pub fn analyse_throw_with_progress<G: Game>(
    game: &G,
    pos: &G::Pos,
    throw: G::Throw,
    opts: SearchOptions,
    mode: RootMode,
    progress: &(dyn Fn() + Sync),
) -> Result<ThrowAnalysis<G>, SearchError> {
    throw_root(game, pos, throw, opts, mode, progress, None)
}

/// [`analyse_throw_with_progress`], stopping with
/// [`SearchError::Interrupted`] once `stop` is raised (module
/// documentation, "Stopping").
pub fn analyse_throw_with_stop<G: Game>(
    game: &G,
    pos: &G::Pos,
    throw: G::Throw,
    opts: SearchOptions,
    mode: RootMode,
    progress: &(dyn Fn() + Sync),
    stop: &AtomicBool,
) -> Result<ThrowAnalysis<G>, SearchError> {
    throw_root(game, pos, throw, opts, mode, progress, Some(stop))
}

/// The error of a root search that ran out after `stats`: interrupted if
/// `stop` was raised, else out of nodes.
fn ran_out(stats: &Stats, stop: Option<&AtomicBool>) -> SearchError {
    let nodes = stats.nodes();
    if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
        SearchError::Interrupted { nodes }
    } else {
        SearchError::NodeLimit { nodes }
    }
}

fn throw_root<G: Game>(
    game: &G,
    pos: &G::Pos,
    throw: G::Throw,
    opts: SearchOptions,
    mode: RootMode,
    progress: &(dyn Fn() + Sync),
    stop: Option<&AtomicBool>,
) -> Result<ThrowAnalysis<G>, SearchError> {
    check(game, pos, &opts)?;
    let plays = game.plays(pos, throw);
    let limit = share(&opts, plays.len());
    search_throw(
        game, pos, throw, plays, opts, mode, limit, progress, stop, None,
    )
    .0
    .map_err(|stats| ran_out(&stats, stop))
}

/// The root search of one throw whose plays are `plays`, each root play
/// limited to `limit` nodes: the analysis, or the counts of a search that
/// ran out. Which root plays are searched never depends on which finished
/// first (all of them, to their end or their limit; in
/// [`RootMode::BestOnly`] none after a first play that ran out), so
/// neither do the counts.
#[allow(clippy::too_many_arguments)] // internal: the two root functions' common part
fn search_throw<G: Game>(
    game: &G,
    pos: &G::Pos,
    throw: G::Throw,
    plays: Vec<(G::Play, G::Pos)>,
    opts: SearchOptions,
    mode: RootMode,
    limit: u64,
    progress: &(dyn Fn() + Sync),
    stop: Option<&AtomicBool>,
    kept: Option<&Table<G::Pos>>,
) -> (Result<ThrowAnalysis<G>, Stats>, Learnt<G>) {
    let mut learnt = Vec::new();
    let mover = game.to_move(pos);
    let mut stats = Stats::default();
    let order = {
        let mut s = Searcher::new(game, opts);
        let order = root_order(&mut s, mover, &plays);
        stats.add(&s.stats);
        order
    };
    // A root play's value, counts, whether it ran out of nodes and whether
    // its value is an estimate.
    // With a kept table, the searcher also reads it and hands back what it
    // learnt (nothing if it ran out: its last values mean nothing).
    let search_one = |i: usize, alpha: f64| {
        let mut s = Searcher::with_limit(game, opts, limit);
        if let Some(stop) = stop {
            s = s.with_stop(stop);
        }
        if let Some(kept) = kept {
            s = s.with_kept(kept);
        }
        let v = s.child_value(mover, &plays[i].1, opts.depth - 1, alpha, 1.0);
        progress();
        let learnt = if kept.is_some() && !s.out_of_nodes() {
            s.drain_table(KEPT_MIN_DEPTH)
        } else {
            Vec::new()
        };
        (v, s.stats, s.out_of_nodes(), s.take_estimated(), learnt)
    };
    let mut found: Vec<(f64, Stats, bool, bool)> = Vec::with_capacity(plays.len());
    let mut keep = |(v, st, out, est, l): Found<G>| {
        learnt.push(l);
        (v, st, out, est)
    };
    let alpha = match mode {
        RootMode::AllExact => 0.0,
        RootMode::BestOnly => {
            let first = keep(search_one(order[0], 0.0));
            // Without the first play's value there is no window for the
            // others: stop here (the same on any thread count).
            if first.2 {
                stats.add(&first.1);
                return (Err(stats), learnt);
            }
            let a = if opts.prune { first.0 } else { 0.0 };
            found.push(first);
            a
        }
    };
    let start = found.len();
    let rest: Vec<Found<G>> = order[start..]
        .par_iter()
        .map(|&i| search_one(i, alpha))
        .collect();
    found.extend(rest.into_iter().map(&mut keep));
    let mut out_of_nodes = false;
    for &(_, st, stopped, _) in &found {
        stats.add(&st);
        out_of_nodes |= stopped;
    }
    if out_of_nodes {
        return (Err(stats), learnt);
    }
    // Each play with whether its value (or bound) is an estimate.
    let mut ranked: Vec<(usize, PlayValue<G>, bool)> = order
        .iter()
        .zip(&found)
        .enumerate()
        .map(|(rank, (&i, &(v, _, _, estimated)))| {
            let bound = !(rank < start || alpha == 0.0 || v > alpha);
            (
                rank,
                PlayValue {
                    play: plays[i].0.clone(),
                    result: plays[i].1.clone(),
                    value: v,
                    bound,
                    exact: !bound && !estimated,
                },
                estimated,
            )
        })
        .collect();
    // Values first by value; a bound never outranks a value it does not
    // exceed (a bound <= alpha <= the best value).
    ranked.sort_by(|(ra, a, _), (rb, b, _)| b.value.total_cmp(&a.value).then(ra.cmp(rb)));
    let best = &ranked[0].1;
    let exact = best.exact && (best.value >= 1.0 || ranked.iter().all(|(_, _, e)| !e));
    let plays: Vec<PlayValue<G>> = ranked.into_iter().map(|(_, p, _)| p).collect();
    let analysis = ThrowAnalysis {
        throw,
        value: plays[0].value,
        exact,
        plays,
        stats,
    };
    (Ok(analysis), learnt)
}

/// What one root play's searcher found: its value, counts, whether it ran
/// out of nodes, whether its value is an estimate, and the entries it
/// learnt for a kept table.
type Found<G> = (f64, Stats, bool, bool, Vec<(<G as Game>::Pos, u32, Bounds)>);

/// The entries the searchers of one throw learnt, one batch per searcher.
type Learnt<G> = Vec<Vec<(<G as Game>::Pos, u32, Bounds)>>;

/// Search `pos` before its throw to `opts.depth`: the expected value for the
/// side to move and the analysis of each distinct throw. Independent of the
/// number of threads. With a node budget, each root play of every throw may
/// visit `max_nodes / (root plays of all throws)` nodes.
pub fn analyse_position<G: Game>(
    game: &G,
    pos: &G::Pos,
    opts: SearchOptions,
    mode: RootMode,
) -> Result<PositionAnalysis<G>, SearchError> {
    analyse_position_with_progress(game, pos, opts, mode, &|| {})
}

/// [`analyse_position`], calling `progress` once per root play searched
/// (over all throws).
pub fn analyse_position_with_progress<G: Game>(
    game: &G,
    pos: &G::Pos,
    opts: SearchOptions,
    mode: RootMode,
    progress: &(dyn Fn() + Sync),
) -> Result<PositionAnalysis<G>, SearchError> {
    position_root(game, pos, opts, mode, progress, None, None)
}

/// [`analyse_position_with_progress`], stopping with
/// [`SearchError::Interrupted`] once `stop` is raised (module
/// documentation, "Stopping").
pub fn analyse_position_with_stop<G: Game>(
    game: &G,
    pos: &G::Pos,
    opts: SearchOptions,
    mode: RootMode,
    progress: &(dyn Fn() + Sync),
    stop: &AtomicBool,
) -> Result<PositionAnalysis<G>, SearchError> {
    position_root(game, pos, opts, mode, progress, Some(stop), None)
}

/// [`analyse_position_with_stop`] (`stop` optional) reading and adding to
/// `kept`, a table kept across the searches of one game with the same game
/// and options (see `kept.rs`): the answer is the same as without it, the
/// node counts smaller where the searches meet positions searched before,
/// and both the same for any thread count.
pub fn analyse_position_keeping<G: Game>(
    game: &G,
    pos: &G::Pos,
    opts: SearchOptions,
    mode: RootMode,
    progress: &(dyn Fn() + Sync),
    stop: Option<&AtomicBool>,
    kept: &mut KeptTable<G::Pos>,
) -> Result<PositionAnalysis<G>, SearchError> {
    position_root(game, pos, opts, mode, progress, stop, Some(kept))
}

fn position_root<G: Game>(
    game: &G,
    pos: &G::Pos,
    opts: SearchOptions,
    mode: RootMode,
    progress: &(dyn Fn() + Sync),
    stop: Option<&AtomicBool>,
    kept: Option<&mut KeptTable<G::Pos>>,
) -> Result<PositionAnalysis<G>, SearchError> {
    check(game, pos, &opts)?;
    let total: u32 = game.throws().iter().map(|&(_, w)| w).sum();
    // Every throw's plays first: the budget's share needs their number.
    let all_plays: Vec<_> = game
        .throws()
        .iter()
        .map(|&(t, w)| (t, w, game.plays(pos, t)))
        .collect();
    let limit = share(&opts, all_plays.iter().map(|(_, _, p)| p.len()).sum());
    let read = kept.as_deref().map(|k| &k.table);
    let (results, learnt): (Vec<_>, Vec<_>) = all_plays
        .into_par_iter()
        .map(|(t, w, plays)| {
            let (r, l) = search_throw(game, pos, t, plays, opts, mode, limit, progress, stop, read);
            ((r, w), l)
        })
        .unzip();
    if let Some(k) = kept {
        k.add(learnt.into_iter().flatten().collect());
    }
    let mut throws = Vec::with_capacity(results.len());
    let mut value = 0.0;
    let mut exact = true;
    let mut stats = Stats::default();
    let mut out_of_nodes = false;
    for (r, w) in results {
        match r {
            Ok(a) => {
                value += w as f64 / total as f64 * a.value;
                exact &= a.exact;
                stats.add(&a.stats);
                throws.push((a, w));
            }
            Err(st) => {
                stats.add(&st);
                out_of_nodes = true;
            }
        }
    }
    if out_of_nodes {
        return Err(ran_out(&stats, stop));
    }
    Ok(PositionAnalysis {
        value,
        exact,
        throws,
        stats,
    })
}
