//! The value and best moves of any position: exact when the search
//! finishes within its limits, otherwise a depth-limited estimate, and the
//! answer says which.

use std::sync::atomic::Ordering;

use dalkon_rules::dakon::{Position, Rules};

use crate::error::SolveError;
use crate::search::answer::{answer, MoveBounds, Session};
use crate::search::{self, Limits, SearchError, SearchProgress};

/// The value of a position and of its moves.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    /// Final store difference for the side to move: exact, or else an
    /// estimate (a shallow search's) within the proved bounds.
    pub value: i32,
    /// The value is at least this (proved; minus the seeds on the board
    /// when nothing was).
    pub lower: i32,
    /// The value is at most this (proved).
    pub upper: i32,
    /// Exact: every move reaching `value`, ascending (empty when the game
    /// is over). Otherwise the one move judged best.
    pub best_moves: Vec<usize>,
    /// The moves whose value is known exactly, with it: the best moves of
    /// an exact answer (every move with `every_move`).
    pub moves: Vec<(usize, i32)>,
    /// Every legal move with its proved bounds.
    pub move_bounds: Vec<MoveBounds>,
    /// The principal variation (see [`search::answer::Answer::pv`]).
    pub pv: Vec<usize>,
    /// Whether `value` and `best_moves` are proved; `false` when the
    /// budget stopped the search first.
    pub exact: bool,
    /// Plies of the estimate that chose the move when the search proved
    /// nothing in its budget (`None` otherwise): the depth asked for, or
    /// fewer where that would pass [`search::ESTIMATE_MAX_NODES`].
    pub estimate_depth: Option<u32>,
    /// The shallow estimate of every move (final store difference for the
    /// side to move, not clamped) when the answer is not exact and the
    /// estimate ran; empty otherwise.
    pub estimates: Vec<(usize, i32)>,
    /// Nodes searched, the estimate's included. Within a node budget of
    /// `n`, at most `n` plus [`search::node_overshoot`] (once per search:
    /// twice with `every_move`, whose bounds then come from a second
    /// search) plus [`search::ESTIMATE_MAX_NODES`].
    pub nodes: u64,
    /// Positions in the table after the search.
    pub positions: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// How to analyse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Also solve every move that is not best exactly.
    pub every_move: bool,
    /// Plies of the fallback estimate (when the budget proves nothing).
    pub estimate_depth: u32,
}

/// Analyse `pos` within `limits` with a fresh table: [`analyse_with`].
pub fn analyse(
    pos: &Position,
    rules: &Rules,
    limits: &Limits,
    estimate_depth: u32,
    progress: Option<&SearchProgress>,
) -> Result<Analysis, SolveError> {
    let options = Options {
        every_move: false,
        estimate_depth,
    };
    analyse_with(pos, rules, limits, None, progress, options)
}

/// The part of a time limit the exact search may use; the shallow
/// estimate of an unfinished answer has the rest (it needs a few tenths of
/// a second at most, and stops at the limit).
pub const SEARCH_SHARE_OF_TIME: f64 = 0.9;

/// Analyse `pos`: the exact value and every best move when the search ends
/// within `limits` (node count, time), otherwise the bounds it proved and
/// the move with the best of them — or, when it proved nothing, the move a
/// plain search `estimate_depth` plies deep prefers. `session` keeps the
/// table between queries (batch mode, games).
///
/// The estimate visits at most [`search::ESTIMATE_MAX_NODES`] positions
/// (about 0.1 s on a 32-hole board, 0.3 s on 16 holes of 5 seeds), fewer
/// plies than `estimate_depth` where more would not fit. Under a time
/// limit the search may use [`SEARCH_SHARE_OF_TIME`] of it and the
/// estimate stops at the limit itself, so that a budget of a second, or of
/// one node, is answered in about that time on every board.
///
/// A search its caller stops ([`SearchProgress::stop`], e.g. on Ctrl-C)
/// answers at once: the bounds proved so far and the move with the best of
/// them, `value` their lower bound; the estimate is not run.
pub fn analyse_with(
    pos: &Position,
    rules: &Rules,
    limits: &Limits,
    session: Option<&Session>,
    progress: Option<&SearchProgress>,
    options: Options,
) -> Result<Analysis, SolveError> {
    let start = std::time::Instant::now();
    let deadline = limits.time.map(|t| start + t);
    let search_limits = Limits {
        time: limits.time.map(|t| t.mul_f64(SEARCH_SHARE_OF_TIME)),
        ..*limits
    };
    let a = match answer(
        pos,
        rules,
        &search_limits,
        session,
        progress,
        options.every_move,
    ) {
        Ok(a) => a,
        Err(SearchError::NodeLimit { nodes }) => {
            // Only `every_move` gives up without bounds: then answer as
            // without it, within what is left of the search's time (the
            // same node budget again), so that the best move is still
            // proved where `best` alone would prove it (the table keeps
            // what the first search proved).
            let again = Limits {
                time: search_limits.time.map(|t| {
                    t.saturating_sub(start.elapsed())
                        .max(std::time::Duration::from_millis(1))
                }),
                ..search_limits
            };
            let mut a =
                answer(pos, rules, &again, session, progress, false).map_err(SolveError::Search)?;
            a.nodes += nodes;
            a
        }
        Err(e) => return Err(SolveError::Search(e)),
    };
    let moves = a
        .moves
        .iter()
        .filter(|m| {
            m.is_exact() && (a.exact && (options.every_move || a.best_moves.contains(&m.hole)))
        })
        .map(|m| (m.hole, m.lower))
        .collect();
    let trivial = pos.store_diff() - pos.seeds_on_board() as i32;
    let mut analysis = Analysis {
        value: a.lower,
        lower: a.lower,
        upper: a.upper,
        best_moves: a.best_moves,
        moves,
        move_bounds: a.moves,
        pv: a.pv,
        exact: a.exact,
        estimate_depth: None,
        estimates: Vec::new(),
        nodes: a.nodes,
        positions: a.positions,
        seconds: a.seconds,
    };
    let stopped = progress.is_some_and(|p| p.stop.load(Ordering::Relaxed));
    if !a.exact && !pos.is_over() && !stopped {
        let est = search::estimate_until(
            pos,
            rules,
            options.estimate_depth,
            search::ESTIMATE_MAX_NODES,
            deadline,
        );
        analysis.nodes += est.nodes;
        let depth = est.depth;
        let est = est.moves;
        let refuted = analysis.move_bounds.iter().any(|m| m.upper < a.upper);
        if a.lower <= trivial && !refuted {
            // Nothing proved: let a shallow search choose the move.
            let top = est.iter().map(|m| m.1).max().expect("a move");
            let h = est.iter().find(|m| m.1 == top).expect("a move").0;
            analysis.best_moves = vec![h];
            analysis.pv = vec![h];
            analysis.estimate_depth = Some(depth);
        } else if a.lower < a.upper {
            // Some bounds proved: among the moves that may still be best,
            // the one the estimate prefers (measured in `benches/best.rs`).
            let h = pick_by_estimate(&analysis.move_bounds, &est);
            if h != analysis.best_moves[0] {
                analysis.best_moves = vec![h];
                analysis.pv = vec![h];
            }
        }
        // The value: the shallow estimate of the chosen move, within the
        // bounds proved.
        let h = analysis.best_moves[0];
        let guess = est.iter().find(|m| m.0 == h).expect("a legal move").1;
        analysis.value = guess.clamp(a.lower, a.upper);
        analysis.estimates = est;
    }
    analysis.seconds = start.elapsed().as_secs_f64();
    Ok(analysis)
}

/// The move of an unfinished answer: among the moves that may still be
/// best (upper bound at least every move's lower bound), the one whose
/// estimate, clamped into its proved bounds, is highest; ties to the higher
/// upper bound, then lower bound, then the lower hole. On the 100 7×7 game
/// positions of `benches/best.rs` at one second (2 cores), this gives a
/// best move in 92 of 95 positions against 85 for the search's own
/// candidate (the move with the highest upper bound).
pub fn pick_by_estimate(bounds: &[MoveBounds], estimates: &[(usize, i32)]) -> usize {
    let floor = bounds.iter().map(|m| m.lower).max().expect("a move");
    bounds
        .iter()
        .filter(|m| m.upper >= floor)
        .max_by_key(|m| {
            let e = estimates
                .iter()
                .find(|x| x.0 == m.hole)
                .map_or(m.lower, |x| x.1);
            (
                e.clamp(m.lower, m.upper),
                m.upper,
                m.lower,
                std::cmp::Reverse(m.hole),
            )
        })
        .expect("the move of the highest lower bound is a candidate")
        .hole
}

/// How the engine chose its move ([`engine_move`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    /// The only legal move: played with no search.
    Forced,
    /// A best move, proved: `value` is the exact final store difference
    /// for the side to move.
    Exact {
        /// The position's value.
        value: i32,
    },
    /// The budget ended the proof first: the move with the best proved
    /// bounds, `value` its estimate within them.
    Bounds {
        /// The estimate of the move's value.
        value: i32,
        /// Proved lower bound of the position's value.
        lower: i32,
        /// Proved upper bound.
        upper: i32,
    },
    /// The budget proved nothing useful: the best move of an estimate
    /// `depth` plies deep, worth about `value`.
    Estimate {
        /// The estimate's value of the move (store difference included).
        value: i32,
        /// Plies of the estimate (fewer than asked where more would pass
        /// [`search::ESTIMATE_MAX_NODES`]).
        depth: u32,
    },
}

/// The engine's move in a game and how it was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineMove {
    /// The hole played.
    pub hole: usize,
    /// Why this hole.
    pub choice: Choice,
    /// Nodes searched, the estimate's included (0 for a forced move).
    pub nodes: u64,
}

/// The engine's move in `pos`, or `None` when the game is over: the only
/// legal move at once (no search: nothing to choose, and on a big board
/// even an estimate costs time); else the first of the best moves of
/// [`analyse_with`] under the same `limits` (the move `dakon best` names
/// first: proved when the proof fits, else the best proved bounds, else an
/// estimate `estimate_depth` plies deep within
/// [`search::ESTIMATE_MAX_NODES`]). `session` keeps the table between the
/// moves of a game.
pub fn engine_move(
    pos: &Position,
    rules: &Rules,
    limits: &Limits,
    session: Option<&Session>,
    estimate_depth: u32,
) -> Result<Option<EngineMove>, SolveError> {
    let mut moves = pos.moves();
    let Some(first) = moves.next() else {
        return Ok(None);
    };
    if moves.next().is_none() {
        return Ok(Some(EngineMove {
            hole: first,
            choice: Choice::Forced,
            nodes: 0,
        }));
    }
    // The request of `dakon best` with the same budget, so that the engine
    // plays what `best` (and the game's hint) names first.
    let options = Options {
        every_move: false,
        estimate_depth,
    };
    let a = analyse_with(pos, rules, limits, session, None, options)?;
    let hole = *a
        .best_moves
        .first()
        .expect("a game not over has a best move");
    // As `crate::label` labels the analysis.
    let choice = match (a.exact, a.estimate_depth) {
        (true, _) => Choice::Exact { value: a.value },
        (false, None) => Choice::Bounds {
            value: a.value,
            lower: a.lower,
            upper: a.upper,
        },
        (false, Some(depth)) => Choice::Estimate {
            value: a.value,
            depth,
        },
    };
    Ok(Some(EngineMove {
        hole,
        choice,
        nodes: a.nodes,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn limits(max_nodes: Option<u64>) -> Limits {
        Limits {
            tt_bytes: 16 << 20,
            max_nodes,
            time: None,
        }
    }

    /// Replaying an exact answer's principal variation ends the game at
    /// exactly its value.
    fn replay_ends_at_value(pos: &Position, rules: &Rules, a: &Analysis) {
        let mut p = *pos;
        for &h in &a.pv {
            p = p.play(h, rules).unwrap();
        }
        assert!(p.is_over(), "{pos}: the pv {:?} stops before the end", a.pv);
        let me = pos.side_to_move();
        let end = i32::from(p.store(me)) - i32::from(p.store(me.other()));
        assert_eq!(end, a.value, "{pos}: pv {:?}", a.pv);
    }

    #[test]
    fn small_boards_are_exact() {
        let rules = Rules::default();
        for (holes, value) in [(4, 32), (5, 48)] {
            let pos = Position::start(holes, holes as u8).unwrap();
            let a = analyse(&pos, &rules, &limits(None), 6, None).unwrap();
            assert!(a.exact);
            assert_eq!(a.estimate_depth, None);
            assert_eq!((a.value, &a.best_moves), (value, &vec![1]));
            assert_eq!((a.lower, a.upper), (value, value));
            assert_eq!(a.moves, vec![(1, value)]);
            assert_eq!(a.move_bounds.len(), holes);
            assert!(a.move_bounds.iter().skip(1).all(|m| m.upper < value));
            replay_ends_at_value(&pos, &rules, &a);
        }
    }

    #[test]
    fn every_move_solves_every_move() {
        let rules = Rules::default();
        let pos = Position::start(4, 4).unwrap();
        let options = Options {
            every_move: true,
            estimate_depth: 4,
        };
        let a = analyse_with(&pos, &rules, &limits(None), None, None, options).unwrap();
        assert!(a.exact);
        assert_eq!(a.moves.len(), 4);
        assert!(a.move_bounds.iter().all(|m| m.is_exact()));
        let fast = analyse(&pos, &rules, &limits(None), 4, None).unwrap();
        assert_eq!((fast.value, &fast.best_moves), (a.value, &a.best_moves));
    }

    #[test]
    fn a_node_limit_gives_bounds_or_an_estimate() {
        let rules = Rules::default();
        let pos = Position::start(6, 4).unwrap();
        let a = analyse(&pos, &rules, &limits(Some(1000)), 6, None).unwrap();
        assert!(!a.exact);
        assert_eq!(a.best_moves.len(), 1);
        assert_eq!(a.move_bounds.len(), 6);
        assert!(a.lower <= a.value && a.value <= a.upper);
        // The exact value lies within the bounds proved.
        let exact = analyse(&pos, &rules, &limits(None), 6, None).unwrap();
        assert!(a.lower <= exact.value && exact.value <= a.upper, "{a:?}");
        for (m, e) in a.move_bounds.iter().zip(&exact.move_bounds) {
            assert!(m.lower <= e.upper && e.lower <= m.upper);
        }
    }

    #[test]
    fn a_time_limit_stops_the_search_with_bounds() {
        let rules = Rules::default();
        // 92 s to solve exactly on this machine.
        let pos: Position = "0,9,0,5,6,20,4/3,4,3,1,1,9,0/27,6 0".parse().unwrap();
        let lim = Limits {
            time: Some(Duration::from_millis(300)),
            ..limits(None)
        };
        let t = std::time::Instant::now();
        let a = analyse(&pos, &rules, &lim, 4, None).unwrap();
        assert!(t.elapsed() < Duration::from_secs(10));
        assert!(!a.exact);
        assert!(a.lower <= a.upper);
        assert_eq!(a.best_moves.len(), 1);
    }

    /// Stopped by its caller, the analysis answers at once with what the
    /// search proved: no estimate, whose 6 plies on a 15-hole board would
    /// take seconds.
    #[test]
    fn a_stopped_search_answers_at_once_without_the_estimate() {
        let pos = Position::start(15, 8).unwrap();
        let progress = SearchProgress::default();
        progress.stop.store(true, Ordering::Relaxed);
        let options = Options {
            every_move: false,
            estimate_depth: 6,
        };
        let t = std::time::Instant::now();
        let lim = limits(None);
        let a = analyse_with(
            &pos,
            &Rules::default(),
            &lim,
            None,
            Some(&progress),
            options,
        )
        .unwrap();
        assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
        assert!(!a.exact);
        assert_eq!(a.estimate_depth, None);
        assert_eq!(a.value, a.lower);
        assert_eq!(a.best_moves.len(), 1);
    }

    /// A session's table serves later queries: the same answers, less work.
    #[test]
    fn a_session_keeps_its_work() {
        let rules = Rules::default();
        let pos = Position::start(5, 4).unwrap();
        let session = Session::new(5, rules, &limits(None));
        let options = Options {
            every_move: false,
            estimate_depth: 4,
        };
        let first =
            analyse_with(&pos, &rules, &limits(None), Some(&session), None, options).unwrap();
        let again =
            analyse_with(&pos, &rules, &limits(None), Some(&session), None, options).unwrap();
        assert_eq!(
            (first.value, &first.best_moves, &first.pv),
            (again.value, &again.best_moves, &again.pv)
        );
        assert!(
            again.nodes < first.nodes / 2,
            "{} vs {}",
            again.nodes,
            first.nodes
        );
        let after = pos.play(first.best_moves[0], &rules).unwrap();
        let next =
            analyse_with(&after, &rules, &limits(None), Some(&session), None, options).unwrap();
        replay_ends_at_value(&after, &rules, &next);
    }

    #[test]
    fn a_table_below_the_minimum_is_bad_input() {
        let pos = Position::start(4, 4).unwrap();
        let tiny = Limits {
            tt_bytes: 1,
            max_nodes: None,
            time: None,
        };
        let e = analyse(&pos, &Rules::default(), &tiny, 6, None).unwrap_err();
        assert!(e.is_bad_input(), "{e}");
    }

    /// 32 fours on South's row, 31 threes and a 2 on North's: a budget of
    /// one node took 28 s here, all of it in an unbounded 6-ply estimate.
    fn widest() -> Position {
        let south = [4u8; 32];
        let mut north = [3u8; 32];
        north[31] = 2;
        Position::new(&south, &north, [0, 0], dalkon_rules::dakon::Side::South).unwrap()
    }

    fn one_thread<R: Send>(work: impl FnOnce() -> R + Send) -> R {
        rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(work)
    }

    /// The work of an answer within a node budget is the budget plus the
    /// documented overshoot and the estimate's bound, on the widest board,
    /// with and without `every_move`.
    #[test]
    fn a_node_budget_bounds_the_work_on_the_widest_board() {
        let pos = widest();
        let rules = Rules::default();
        for (every_move, searches) in [(false, 1), (true, 2)] {
            let options = Options {
                every_move,
                estimate_depth: 6,
            };
            let a = one_thread(|| {
                analyse_with(&pos, &rules, &limits(Some(1)), None, None, options).unwrap()
            });
            assert!(!a.exact);
            assert_eq!(a.best_moves.len(), 1);
            assert!(a.lower <= a.value && a.value <= a.upper);
            let bound = 1 + searches * search::node_overshoot(1) + search::ESTIMATE_MAX_NODES;
            assert!(a.nodes <= bound, "{} nodes, bound {bound}", a.nodes);
        }
    }

    /// The estimate stops at the deepest depth that fits its budget: all 6
    /// plies on the 4 × 4 start (the same values as the unbounded
    /// estimate), fewer on the widest board, one ply with a budget of 1.
    #[test]
    fn the_estimate_stays_within_its_budget() {
        let rules = Rules::default();
        let small = Position::start(4, 4).unwrap();
        let e = search::estimate_within(&small, &rules, 6, search::ESTIMATE_MAX_NODES);
        assert_eq!(e.depth, 6);
        assert_eq!(e.moves, search::estimate_moves(&small, &rules, 6));
        let pos = widest();
        for budget in [1, 1000, search::ESTIMATE_MAX_NODES] {
            let e = search::estimate_within(&pos, &rules, 6, budget);
            assert!(e.nodes <= budget.max(32), "{} nodes for {budget}", e.nodes);
            assert_eq!(e.moves.len(), 32);
            assert_eq!(e.moves, search::estimate_moves(&pos, &rules, e.depth));
        }
        assert_eq!(search::estimate_within(&pos, &rules, 6, 1).depth, 1);
        // 4 plies fit a million positions (many moves end in a bonus move
        // or a capture that empties holes), 5 plies (some 30 million) do not.
        assert_eq!(
            search::estimate_within(&pos, &rules, 6, search::ESTIMATE_MAX_NODES).depth,
            4
        );
    }

    /// Under a deadline the estimate gives up the depth it is in: with a
    /// deadline already past, only the one ply that is always done; with
    /// none, the same as within the node budget alone.
    #[test]
    fn the_estimate_stops_at_its_deadline() {
        let rules = Rules::default();
        let pos = widest();
        let past = std::time::Instant::now();
        let e = search::estimate_until(&pos, &rules, 6, search::ESTIMATE_MAX_NODES, Some(past));
        assert_eq!((e.depth, e.nodes), (1, 32));
        assert_eq!(e.moves, search::estimate_moves(&pos, &rules, 1));
        let free = search::estimate_until(&pos, &rules, 3, 1000, None);
        assert_eq!(free, search::estimate_within(&pos, &rules, 3, 1000));
    }

    /// Hand-made bounds: move 3 is refuted (its upper bound is below move
    /// 1's lower bound) however good its estimate; of the others the
    /// estimate decides, clamped into the bounds (move 2's +40 counts as
    /// its upper bound +12, under move 4's +15).
    #[test]
    fn an_unfinished_answer_picks_by_estimate_among_the_candidates() {
        let b = |hole, lower, upper| MoveBounds { hole, lower, upper };
        let bounds = [b(1, -5, 30), b(2, -20, 12), b(3, -40, -6), b(4, -30, 20)];
        let est = [(1, -10), (2, 40), (3, 50), (4, 15)];
        assert_eq!(pick_by_estimate(&bounds, &est), 4);
        let est = [(1, 16), (2, 40), (3, 50), (4, 15)];
        assert_eq!(pick_by_estimate(&bounds, &est), 1);
        // Equal clamped estimates: the higher upper bound.
        let est = [(1, 12), (2, 12), (3, 50), (4, 12)];
        assert_eq!(pick_by_estimate(&bounds, &est), 1);
    }

    /// A forced move is played with no search, however big the board.
    #[test]
    fn a_forced_move_needs_no_search() {
        let mut south = [0u8; 32];
        south[31] = 1;
        let pos =
            Position::new(&south, &[3; 32], [0, 0], dalkon_rules::dakon::Side::South).unwrap();
        let m = engine_move(&pos, &Rules::default(), &limits(Some(1)), None, 6)
            .unwrap()
            .unwrap();
        assert_eq!(
            m,
            EngineMove {
                hole: 32,
                choice: Choice::Forced,
                nodes: 0
            }
        );
    }

    #[test]
    fn the_engine_move_is_exact_or_an_estimate() {
        let rules = Rules::default();
        let pos = Position::start(4, 4).unwrap();
        let m = engine_move(&pos, &rules, &limits(None), None, 6)
            .unwrap()
            .unwrap();
        assert_eq!((m.hole, m.choice), (1, Choice::Exact { value: 32 }));
        // Past the budget: the move `best` names first under the same
        // budget, labelled as it labels it (here the bounds it proved).
        // One thread, so that both searches stop at the same node.
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let (m, a) = one.install(|| {
            let m = engine_move(&widest(), &rules, &limits(Some(1)), None, 6)
                .unwrap()
                .unwrap();
            let a = analyse(&widest(), &rules, &limits(Some(1)), 6, None).unwrap();
            (m, a)
        });
        assert_eq!(m.hole, a.best_moves[0]);
        assert_eq!(
            m.choice,
            Choice::Bounds {
                value: a.value,
                lower: a.lower,
                upper: a.upper
            },
            "{m:?}"
        );
        assert!(!a.exact && a.lower > -223 && a.upper <= 223, "{a:?}");
        let over: Position = "0,0/1,1/0,0 0".parse().unwrap();
        assert_eq!(
            engine_move(&over, &rules, &limits(None), None, 6).unwrap(),
            None
        );
    }
}
