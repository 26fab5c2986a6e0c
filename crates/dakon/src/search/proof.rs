//! Proofs of a value: the two strategies whose guarantees meet at it.
//!
//! After the root search has proved the value `v` of a position, the
//! strategy of one player `P` securing at least `G` (final store
//! difference, `P` minus opponent) is read off the search: walk every game
//! from the root in which `P` plays its strategy's move and the opponent
//! plays every legal move, carrying the **need** — the future margin (for
//! `P`) that `P` must still secure from that position. A move of either
//! side changes the need by what it banks: `need(child) = need − gain`,
//! `gain` the change of `P`'s store difference. Where `P` is to move, a move
//! whose child meets its need is chosen (a null-window search decides, the
//! table of the root search answering most of them at once); where the
//! opponent is to move, every move is followed.
//!
//! To keep the proof small the chooser prefers, among the moves that meet
//! the need, one that ends the game, then one whose child is already in the
//! proof with at least that need (reuse), then a bonus move (no reply to
//! cover), then the search's own best move; where the need is already
//! certain (at most minus the seeds on the board, which any play secures)
//! it tests nothing and takes the first preferred move.
//!
//! Positions are handled without their stores (what happens next never
//! depends on them), so one rows key has one move, as the strategy file
//! requires: when a position comes back with a higher need than it was
//! solved for, it is solved again for the higher need (its move may change;
//! the need of a position only ever rises, so this ends). A last walk keeps
//! only the lines the final strategy reaches.

use dalkon_rules::dakon::{Position, Side};
use hashbrown::{HashMap, HashSet};

use super::tt::PackedKey;
use super::{Engine, SearchError};

/// One player's strategy, as found: the move in every position (rows only,
/// stores emptied, `player` to move) that its games reach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lines {
    /// The player the strategy is for.
    pub player: Side,
    /// The final store difference (player minus opponent, root stores
    /// included) it secures against every reply.
    pub guarantees: i32,
    /// Position (stores emptied, `player` to move) → hole 1..n.
    pub moves: HashMap<Position, u8>,
    /// Positions of either side to move that the strategy's games reach.
    pub positions: u64,
    /// Of those, the ones where what `player` still needs is at most minus
    /// the seeds on the board: any play from there secures it, yet the file
    /// format asks a move in every one of them to the end of every game.
    pub settled: u64,
}

/// The key of a position in the strategy and in the walk: its rows and side.
fn bare(pos: &Position) -> Position {
    pos.without_stores()
}

/// The same, packed: the search's key of the rows (mover's row first) and
/// the side to move, which together tell the rows of either side apart.
/// Hashing and comparing it is far cheaper than a whole [`Position`] (68
/// bytes), and the walk does both for every move it follows.
fn key<K: PackedKey>(pos: &Position) -> (K, Side) {
    (K::pack(pos), pos.side_to_move())
}

/// The change of `player`'s store difference from `pos` to `child`.
pub(super) fn gain(pos: &Position, child: &Position, player: Side) -> i32 {
    let d = |p: &Position| i32::from(p.store(player)) - i32::from(p.store(player.other()));
    d(child) - d(pos)
}

impl<K: PackedKey, const W: usize> Engine<'_, K, W> {
    /// Whether `player` secures a future margin of at least `need` from
    /// `pos` (a position after a move: over, or either side to move).
    pub(super) fn secures(
        &self,
        pos: &Position,
        player: Side,
        need: i32,
    ) -> Result<bool, SearchError> {
        if let Some(t) = pos.terminal_value() {
            let margin = t - pos.store_diff();
            let mine = if pos.side_to_move() == player {
                margin
            } else {
                -margin
            };
            return Ok(mine >= need);
        }
        if need <= -(pos.seeds_on_board() as i32) {
            return Ok(true);
        }
        if pos.side_to_move() == player {
            Ok(self.test(pos, need)? >= need)
        } else {
            // The opponent's margin must stay at most -need, i.e. below 1 - need.
            Ok(self.test(pos, 1 - need)? < 1 - need)
        }
    }

    /// The strategy of `player` securing `guarantees` from `root`, which
    /// must hold (the caller proved it); every position of it checked.
    pub(crate) fn strategy(
        &self,
        root: &Position,
        player: Side,
        guarantees: i32,
        max_lines: Option<u64>,
    ) -> Result<Lines, SearchError> {
        let mut lines = Lines {
            player,
            guarantees,
            moves: HashMap::new(),
            positions: 0,
            settled: 0,
        };
        if guarantees <= -(root.total_seeds() as i32) {
            // Any play secures it: the file may have no lines.
            return Ok(lines);
        }
        let root_diff = {
            let d = root.store_diff();
            if root.side_to_move() == player {
                d
            } else {
                -d
            }
        };
        // The highest need each position was solved for, and the moves
        // chosen, by packed key.
        let mut solved: HashMap<(K, Side), i32> = HashMap::new();
        let mut chosen: HashMap<(K, Side), u8> = HashMap::new();
        let mut stack = vec![(bare(root), guarantees - root_diff)];
        while let Some((pos, need)) = stack.pop() {
            if pos.is_over() {
                assert!(
                    self.secures(&pos, player, need)?,
                    "a proof reached a finished game short of its need"
                );
                continue;
            }
            let k = key::<K>(&pos);
            match solved.get_mut(&k) {
                Some(done) if *done >= need => continue,
                Some(done) => *done = need,
                None => {
                    solved.insert(k, need);
                }
            }
            if pos.side_to_move() == player {
                let h = self.choose(&pos, player, need, &solved, chosen.get(&k))?;
                chosen.insert(k, h as u8);
                if let Some(max) = max_lines.filter(|&m| chosen.len() as u64 > m) {
                    return Err(SearchError::ProofTooLarge { max });
                }
                let child = pos.play_unchecked(h, &self.rules);
                stack.push((bare(&child), need - gain(&pos, &child, player)));
            } else {
                for h in pos.moves() {
                    let child = pos.play_unchecked(h, &self.rules);
                    stack.push((bare(&child), need - gain(&pos, &child, player)));
                }
            }
        }
        self.keep_reached(root, &solved, &chosen, &mut lines);
        Ok(lines)
    }

    /// A move of `player` at `pos` whose child meets `need`, preferring the
    /// ones that keep the proof small (module docs).
    fn choose(
        &self,
        pos: &Position,
        player: Side,
        need: i32,
        solved: &HashMap<(K, Side), i32>,
        previous: Option<&u8>,
    ) -> Result<usize, SearchError> {
        let certain = need <= -(pos.seeds_on_board() as i32);
        let mut order: Vec<(u32, usize, Position, i32)> = pos
            .moves()
            .map(|h| {
                let child = pos.play_unchecked(h, &self.rules);
                let child_need = need - gain(pos, &child, player);
                let rank = if child.is_over() {
                    0
                } else if solved
                    .get(&key::<K>(&child))
                    .is_some_and(|&d| d >= child_need)
                {
                    1
                } else if previous == Some(&(h as u8)) {
                    2
                } else if child.side_to_move() == player {
                    3
                } else {
                    // Fewest replies to cover, then fewest seeds left to
                    // the opponent.
                    4 + 256 * child.moves().count() as u32 + child.row_seeds(player.other())
                };
                (rank, h, child, child_need)
            })
            .collect();
        order.sort_by_key(|&(rank, h, _, _)| (rank, h));
        for &(_, h, child, child_need) in &order {
            if certain || self.secures(&child, player, child_need)? {
                return Ok(h);
            }
        }
        unreachable!("a position of a proved strategy has no move meeting its need")
    }

    /// Keep the lines the final strategy reaches (a position solved again
    /// for a higher need may have changed its move), and count the
    /// positions its games reach, and those of them already settled (their
    /// highest need in `solved` at most minus the seeds on the board).
    fn keep_reached(
        &self,
        root: &Position,
        solved: &HashMap<(K, Side), i32>,
        chosen: &HashMap<(K, Side), u8>,
        lines: &mut Lines,
    ) {
        let mut seen: HashSet<(K, Side)> = HashSet::new();
        let mut stack = vec![bare(root)];
        while let Some(pos) = stack.pop() {
            let k = key::<K>(&pos);
            if pos.is_over() || !seen.insert(k) {
                continue;
            }
            if solved
                .get(&k)
                .is_some_and(|&need| need <= -(pos.seeds_on_board() as i32))
            {
                lines.settled += 1;
            }
            if pos.side_to_move() == lines.player {
                let h = chosen[&k];
                lines.moves.insert(pos, h);
                stack.push(bare(&pos.play_unchecked(usize::from(h), &self.rules)));
            } else {
                stack.extend(
                    pos.moves()
                        .map(|h| bare(&pos.play_unchecked(h, &self.rules))),
                );
            }
        }
        lines.positions = seen.len() as u64;
    }
}

/// A proved value: the root search and the two strategies meeting at it.
#[derive(Debug, Clone)]
pub struct Proof {
    /// The root search ([`super::Goal::BestMoves`]): value, best moves, work.
    pub search: super::SolveResult,
    /// The side to move's strategy, securing at least `search.value`.
    pub mover: Lines,
    /// The other side's strategy, securing at least `-search.value`.
    pub opponent: Lines,
    /// Seconds spent reading the strategies off the search.
    pub extract_seconds: f64,
}

/// Solve `pos` exactly and read off the proof of its value (module docs).
/// Same arguments as [`super::solve`], and a limit on each strategy's
/// lines ([`SearchError::ProofTooLarge`] past it). The strategies do not
/// depend on the thread count: the chooser's tests are exact and its order
/// fixed.
pub fn prove(
    pos: &Position,
    rules: &dalkon_rules::dakon::Rules,
    limits: &super::Limits,
    probe: Option<&dyn super::Probe>,
    progress: Option<&super::SearchProgress>,
    max_lines: Option<u64>,
) -> Result<Proof, SearchError> {
    let start = std::time::Instant::now();
    let job = ProveJob { pos, max_lines };
    let mut proof = super::with_engine(pos, rules, limits, probe, progress, job)?;
    proof.search.seconds = start.elapsed().as_secs_f64() - proof.extract_seconds;
    Ok(proof)
}

struct ProveJob<'p> {
    pos: &'p Position,
    max_lines: Option<u64>,
}

impl super::Job for ProveJob<'_> {
    type Out = Proof;
    fn run<K: PackedKey, const W: usize>(
        self,
        engine: &Engine<'_, K, W>,
    ) -> Result<Proof, SearchError> {
        let pos = self.pos;
        let root = engine.best_moves(pos)?;
        if root.partial.is_some() {
            engine.check_abort()?;
        }
        let search = engine.result(pos, root);
        let t0 = std::time::Instant::now();
        let me = pos.side_to_move();
        let mover = engine.strategy(pos, me, search.value, self.max_lines)?;
        let opponent = engine.strategy(pos, me.other(), -search.value, self.max_lines)?;
        Ok(Proof {
            search,
            mover,
            opponent,
            extract_seconds: t0.elapsed().as_secs_f64(),
        })
    }
}
