//! Work run with a search engine whose key type and move-list width suit
//! the board ([`with_engine`], [`with_table`]): a [`Job`] is written once,
//! generic over both, and the board picks the instance; [`solve`] and
//! [`future_margin`] are such jobs.

use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::Instant;

use dalkon_rules::dakon::{Position, Rules};

use super::engine::Engine;
use super::tt::{PackedKey, Table};
use super::{
    answer, min_tt_bytes, solve, Goal, Limits, Probe, SearchError, SearchProgress, SolveResult,
};

/// Work done with a search engine whose key and move-list types suit the
/// board (see [`with_engine`]).
pub(crate) trait Job {
    /// What the work returns.
    type Out;
    /// Do the work with `engine` (on a pool with deep stacks).
    fn run<K: PackedKey, const W: usize>(
        self,
        engine: &Engine<'_, K, W>,
    ) -> Result<Self::Out, SearchError>;
}

/// Run `job` with a fresh table sized by `limits`, on the current pool's
/// thread count with stacks deep enough for the longest games. The key type
/// and the width of the move list follow the board: the move list is a
/// stack array filled at every node, so a narrow board must not pay for the
/// widest.
pub(crate) fn with_engine<J: Job + Send>(
    pos: &Position,
    rules: &Rules,
    limits: &Limits,
    probe: Option<&dyn Probe>,
    progress: Option<&SearchProgress>,
    job: J,
) -> Result<J::Out, SearchError>
where
    J::Out: Send,
{
    with_table(pos, rules, limits, probe, progress, None, job)
}

/// [`with_engine`] with the table of a [`answer::Session`] (kept between
/// searches) instead of a fresh one, when given; it must suit the board.
pub(crate) fn with_table<J: Job + Send>(
    pos: &Position,
    rules: &Rules,
    limits: &Limits,
    probe: Option<&dyn Probe>,
    progress: Option<&SearchProgress>,
    table: Option<&answer::AnyTable>,
    job: J,
) -> Result<J::Out, SearchError>
where
    J::Out: Send,
{
    let min = min_tt_bytes(pos.holes());
    if limits.tt_bytes < min {
        return Err(SearchError::TableTooSmall {
            bytes: limits.tt_bytes,
            min,
        });
    }
    // As many workers as the pool the caller runs on (validated where it
    // was built), with deeper stacks.
    let threads = crate::threads::current_threads()?;
    let pool = crate::threads::pool(threads, Some(256 << 20))?;
    pool.install(|| {
        use answer::AnyTable;
        match table {
            Some(AnyTable::Narrow(t)) => {
                keyed::<K8, 8, J>(rules, limits, probe, progress, Some(t), job)
            }
            Some(AnyTable::Middle(t)) => {
                keyed::<[u128; 2], 16, J>(rules, limits, probe, progress, Some(t), job)
            }
            Some(AnyTable::Wide(t)) => {
                keyed::<[u64; 8], 32, J>(rules, limits, probe, progress, Some(t), job)
            }
            None if pos.holes() <= u128::MAX_HOLES => {
                keyed::<K8, 8, J>(rules, limits, probe, progress, None, job)
            }
            None if pos.holes() <= <[u128; 2]>::MAX_HOLES => {
                keyed::<[u128; 2], 16, J>(rules, limits, probe, progress, None, job)
            }
            None => keyed::<[u64; 8], 32, J>(rules, limits, probe, progress, None, job),
        }
    })
}

pub(super) type K8 = u128;

/// [`with_engine`] with keys `K` and move lists of `W` moves.
pub(super) fn keyed<K: PackedKey, const W: usize, J: Job>(
    rules: &Rules,
    limits: &Limits,
    probe: Option<&dyn Probe>,
    progress: Option<&SearchProgress>,
    table: Option<&Table<K>>,
    job: J,
) -> Result<J::Out, SearchError> {
    let own;
    let table = match table {
        Some(t) => t,
        None => {
            own = Table::<K>::with_bytes(limits.tt_bytes);
            &own
        }
    };
    let local_progress = SearchProgress::default();
    let engine = Engine::<K, W> {
        rules: *rules,
        tt: table,
        probe,
        progress: progress.unwrap_or(&local_progress),
        abort: AtomicBool::new(false),
        max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
        deadline: limits.time.map(|t| Instant::now() + t),
        tt_hits: AtomicU64::new(0),
        tt_probes: AtomicU64::new(0),
        probe_hits: AtomicU64::new(0),
        nodes: AtomicU64::new(0),
        passes: AtomicU64::new(0),
    };
    job.run(&engine)
}

/// The root search of [`solve`].
pub(super) struct SolveJob<'p> {
    pub(super) pos: &'p Position,
    pub(super) goal: Goal,
}

impl Job for SolveJob<'_> {
    type Out = SolveResult;
    fn run<K: PackedKey, const W: usize>(
        self,
        engine: &Engine<'_, K, W>,
    ) -> Result<SolveResult, SearchError> {
        let pos = self.pos;
        assert!(
            pos.holes() <= W && W <= K::MAX_HOLES,
            "a board of {} holes searched with move lists of {W} and keys of {}",
            pos.holes(),
            K::MAX_HOLES
        );
        let root = match self.goal {
            Goal::EveryMove => engine.every_move(pos),
            Goal::BestMoves => engine.best_moves(pos),
        }?;
        if root.partial.is_some() {
            engine.check_abort()?;
        }
        Ok(engine.result(pos, root))
    }
}

/// The exact future margin of `pos` for its side to move (0 for a finished
/// game after the sweep). A convenience for tests and tools; single thread.
pub fn future_margin(
    pos: &Position,
    rules: &Rules,
    limits: &Limits,
    probe: Option<&dyn Probe>,
) -> Result<i32, SearchError> {
    let r = solve(pos, rules, limits, probe, None, Goal::BestMoves)?;
    Ok(r.value - pos.store_diff())
}

#[cfg(test)]
mod tests {
    use super::*;
    use dalkon_rules::dakon::Side;

    /// One thread, so that the work counters are deterministic.
    fn keyed<K: PackedKey, const W: usize>(pos: &Position, rules: &Rules) -> SolveResult {
        let limits = Limits {
            tt_bytes: 64 << 20,
            max_nodes: None,
            time: None,
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let job = SolveJob {
            pos,
            goal: Goal::EveryMove,
        };
        pool.install(|| super::keyed::<K, W, _>(rules, &limits, None, None, None, job).unwrap())
    }

    fn same(a: &SolveResult, b: &SolveResult) -> bool {
        (
            a.value,
            &a.moves,
            a.nodes,
            a.positions,
            a.passes,
            a.tt_replaced,
        ) == (
            b.value,
            &b.moves,
            b.nodes,
            b.positions,
            b.passes,
            b.tt_replaced,
        )
    }

    /// The wide key and move list (used from 17 holes on) search narrow
    /// boards exactly like the narrow ones: same values and the very same
    /// nodes, positions and table replacements, so the key packs the same
    /// positions apart, every width hashes a position to the same bucket,
    /// and the move order does not depend on the list's width.
    #[test]
    fn every_key_width_does_the_same_search() {
        let rules = Rules::default();
        let mut boards = vec![
            Position::start(4, 3).unwrap(),
            Position::start(5, 2).unwrap(),
            Position::start(8, 1).unwrap(),
        ];
        boards.push(
            Position::new(
                &[0, 3, 0, 1, 2, 0, 0, 1],
                &[1, 0, 2, 0, 0, 3, 1, 0],
                [4, 2],
                Side::North,
            )
            .unwrap(),
        );
        for pos in &boards {
            let narrow = keyed::<u128, 8>(pos, &rules);
            let middle = keyed::<[u128; 2], 16>(pos, &rules);
            let wide = keyed::<[u64; 8], 32>(pos, &rules);
            assert!(same(&narrow, &middle), "{pos}: {narrow:?} vs {middle:?}");
            assert!(same(&narrow, &wide), "{pos}: {narrow:?} vs {wide:?}");
        }
        let pos = Position::new(
            &[0, 2, 0, 1, 0, 0, 3, 0, 1, 1],
            &[1, 0, 0, 2, 1, 0, 0, 1, 0, 2],
            [0, 0],
            Side::South,
        )
        .unwrap();
        let middle = keyed::<[u128; 2], 16>(&pos, &rules);
        let wide = keyed::<[u64; 8], 32>(&pos, &rules);
        assert!(same(&middle, &wide), "{pos}: {middle:?} vs {wide:?}");
    }

    #[test]
    fn keys_tell_positions_apart_in_every_word() {
        // A seed in hole i of either row lands in its own byte of the key.
        for n in [8usize, 16, 32] {
            let mut keys = std::collections::HashSet::new();
            for row in 0..2 {
                for i in 0..n {
                    let mut rows = [vec![0u8; n], vec![0u8; n]];
                    rows[row][i] = 1;
                    let p = Position::new(&rows[0], &rows[1], [0, 0], Side::South).unwrap();
                    assert!(keys.insert(<[u64; 8]>::pack(&p)));
                    if n <= 16 {
                        let k = <[u128; 2]>::pack(&p);
                        assert_eq!(k[row], 1u128 << (8 * i));
                    }
                    if n <= 8 {
                        assert_eq!(u128::pack(&p), 1u128 << (64 * row + 8 * i));
                    }
                }
            }
        }
    }

    /// Value, best moves, exact move values, refuted moves with their bounds.
    type Answer = (i32, Vec<usize>, Vec<(usize, i32)>, Vec<(usize, i32)>);

    /// Threads share each root move's search (`Engine::shared`: helpers
    /// race the thread on a move when no move is left to start): the
    /// values, every move's exact value, the best moves and the refuted
    /// moves with their bounds (one below the value: a fail-soft bound
    /// differed between runs on 2 threads, even on `1,1,1/1,1,1/0,0 0`)
    /// are those of one thread, on 2 and 4 threads (more threads than the
    /// passes' moves), for both goals. The 7×7
    /// positions are from the strong-game benchmark
    /// (`benches/best_7x7_strong.txt`, values pinned there).
    #[test]
    fn every_thread_count_gives_the_same_answer() {
        let rules = Rules::default();
        let limits = Limits {
            tt_bytes: 64 << 20,
            max_nodes: None,
            time: None,
        };
        let cases: [(&str, i32, &[usize]); 5] = [
            ("1,1,1/1,1,1/0,0 0", 6, &[1, 2]),
            ("5,5,5,5,5/5,5,5,5,5/0,0 0", 48, &[1]),
            ("0,2,2,3,1,0,3/13,2,8,1,2,3,1/48,9 0", 66, &[2]),
            ("0,0,2,4,0,3,4/2,11,3,4,2,11,1/28,23 0", 24, &[4]),
            ("1,0,0,0,3,1,2/4,1,2,7,5,2,0/46,24 0", 40, &[6]),
        ];
        for (text, value, best) in cases {
            let pos: Position = text.parse().unwrap();
            for goal in [Goal::BestMoves, Goal::EveryMove] {
                let answers: Vec<Answer> = [1, 2, 4]
                    .into_iter()
                    .map(|threads| {
                        let pool = rayon::ThreadPoolBuilder::new()
                            .num_threads(threads)
                            .build()
                            .unwrap();
                        let r = pool
                            .install(|| solve(&pos, &rules, &limits, None, None, goal))
                            .unwrap();
                        (r.value, r.best_moves, r.moves, r.refuted)
                    })
                    .collect();
                assert_eq!((answers[0].0, &answers[0].1[..]), (value, best), "{text}");
                assert!(answers[0].3.iter().all(|m| m.1 == value - 1), "{text}");
                if goal == Goal::BestMoves {
                    assert!(!answers[0].3.is_empty(), "{text}: a move is refuted");
                }
                let mut one = answers[0].clone();
                one.3.sort_unstable();
                for a in &answers[1..] {
                    let mut a = a.clone();
                    a.3.sort_unstable();
                    assert_eq!(a, one, "{text} {goal:?}");
                }
            }
        }
    }
}
