//! Error rates, gnubg-style: how much win probability a player gives away
//! per decision, measured against the solved tables (docs/rules.md §1.8), and
//! matches against the `perfect` player.
//!
//! A *decision* is a position before its throw together with the throw,
//! taken only when the throw has at least two distinct plays (a choice).
//! Its *loss* for a player is `W(best play) − W(chosen play)`: the tables'
//! value, for the mover, of the best play of the throw minus that of the
//! play the player chose ([`play_value`]; both from the same bounds, so a
//! loss is never negative and the perfect player's is 0). A set of
//! decisions is summarised by the mean loss, the 99th percentile (nearest
//! rank: the `⌈0.99 n⌉`-th smallest) and the number of decisions with a
//! loss above [`ERROR_LOSS`] (wrong plays, in gnubg's sense of an error).
//!
//! Decisions come from one of two [`Source`]s: seeded games from the start
//! (so the mix of layers is what play reaches), or positions drawn
//! uniformly from one layer (each with a uniformly drawn throw). The games
//! are played by greedy with one play in four at random on both sides, so
//! the positions depend neither on the evaluation weights nor on the
//! search: any engine can be measured on the same decisions.
//!
//! Everything is a function of the tables, the configuration and the seed:
//! decisions are drawn one by one from `Rng::for_index(seed, k)`, games and
//! decisions are evaluated in parallel but collected in order, and sums
//! are taken in that order, so the rows are the same for any thread count.

use std::fmt::Write as _;
use std::sync::Arc;

use rayon::prelude::*;

use dalkon_rules::daldos::{plays, Board, Play, Position, Side, Throw};

use crate::engine::daldos::Daldos;
use crate::engine::eval::EvalWeights;
use crate::engine::game::{Game, Known};
use crate::engine::matchplay::{play_match, MatchConfig};
use crate::engine::perfect::{
    best_by_tables, check_coverage, check_layers, play_value, PerfectError,
};
use crate::engine::players::{EnginePlayer, GreedyPlayer, PerfectPlayer, Player, RandomPlayer};
use crate::engine::rng::{splitmix64, Rng};
use crate::solved::{LayerIndex, LayerKey, Tables};

/// A decision whose loss exceeds this is counted as an error (a wrong
/// play rather than one of equal value up to the tables' precision).
pub const ERROR_LOSS: f64 = 1e-9;

/// Throws after which a game that draws decisions is given up.
const GAME_TURN_CAP: u32 = 5000;

/// Games played in parallel at a time while drawing decisions from games.
const GAME_BATCH: u64 = 64;

/// Draws of a position and a throw before a layer is given up as offering
/// no choice (a side with one piece never has two distinct plays).
const LAYER_DRAWS: u32 = 100_000;

/// Why error rates cannot be measured.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StudyError {
    /// The tables do not cover the decisions.
    #[error(transparent)]
    Tables(#[from] PerfectError),
    /// No draw from the source gave a throw with two distinct plays.
    #[error(
        "no decision in {from} of board {board}: {draws} draws of a position and a throw \
         found none with two distinct plays (a side with one piece has no choice)"
    )]
    NoChoice {
        /// The board's name.
        board: String,
        /// `layer 1 v 2`, or `games`.
        from: String,
        /// Draws made.
        draws: u64,
    },
}

/// Where the decisions of a set come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Seeded games from the start of the tables' board (module
    /// documentation): the position before every `every`-th throw of a
    /// game (the first, the `every + 1`-th, …), with that throw.
    Games {
        /// Take one throw in this many (at least 1).
        every: u32,
    },
    /// Positions drawn uniformly from layer `a v b` (A to throw) of the
    /// tables' board, each with a throw drawn from the 16.
    Layer {
        /// Pieces of the side to throw.
        a: u8,
        /// Pieces of the other side.
        b: u8,
    },
}

impl Source {
    /// The `layer` column: `game`, or `2v2` for a layer.
    pub fn label(self) -> String {
        match self {
            Source::Games { .. } => "game".to_owned(),
            Source::Layer { a, b } => format!("{a}v{b}"),
        }
    }
}

/// A position before its throw, and the throw (with at least two plays).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// The position.
    pub pos: Position,
    /// The throw.
    pub throw: Throw,
}

/// The seed of a set's draws, from the study's seed, the board and the
/// source (not the set's place in a list, so that adding a set changes no
/// other).
pub fn set_seed(seed: u64, board: Board, source: Source) -> u64 {
    let tag = match source {
        Source::Games { every } => (1 << 40) | u64::from(every),
        Source::Layer { a, b } => (2 << 40) | u64::from(a) << 8 | u64::from(b),
    };
    let mut s = seed ^ u64::from(board.len()) << 48 ^ tag;
    splitmix64(&mut s)
}

/// Check that `tables` hold layer `a v b` and every layer its plays lead
/// to.
fn check_layer(tables: &Tables, a: u8, b: u8) -> Result<(), PerfectError> {
    check_layers(Some(tables), tables.board(), &tables.variants(), (a, b))
}

/// `n` decisions from `source` on the tables' board, drawn from `seed`
/// (the same for any thread count). Refused when the tables do not cover
/// every play of them, or when the source offers no choice.
pub fn decisions(
    tables: &Tables,
    source: Source,
    n: usize,
    seed: u64,
) -> Result<Vec<Decision>, StudyError> {
    let v = tables.variants();
    let board = tables.board();
    match source {
        Source::Games { every } => {
            check_coverage(Some(tables), &v, &Position::start(board))?;
            let game = Daldos::new(v);
            let every = every.max(1);
            let mut out = Vec::with_capacity(n);
            let mut next = 0u64;
            // Every game of a board offers choices; the cap only guards
            // against a source that never does.
            let max_games = 100 + 100 * n as u64;
            while out.len() < n && next < max_games {
                let batch: Vec<Vec<Decision>> = (next..next + GAME_BATCH)
                    .into_par_iter()
                    .map(|k| game_decisions(&game, board, every, Rng::for_index(seed, k)))
                    .collect();
                next += GAME_BATCH;
                for d in batch {
                    out.extend(d);
                }
            }
            if out.len() < n.min(1) {
                return Err(StudyError::NoChoice {
                    board: board.name(),
                    from: "games".to_owned(),
                    draws: next,
                });
            }
            out.truncate(n);
            Ok(out)
        }
        Source::Layer { a, b } => {
            check_layer(tables, a, b)?;
            let index = LayerIndex::new(LayerKey { board, a, b });
            let size = index.size();
            let drawn: Option<Vec<Decision>> = (0..n as u64)
                .into_par_iter()
                .map(|k| {
                    let mut rng = Rng::for_index(seed, k);
                    (0..LAYER_DRAWS).find_map(|_| {
                        let pos = index.unrank(rng.below(size));
                        let throw = Throw::ALL[rng.below(16) as usize];
                        (plays(&pos, &v, throw).len() >= 2).then_some(Decision { pos, throw })
                    })
                })
                .collect();
            drawn.ok_or_else(|| StudyError::NoChoice {
                board: board.name(),
                from: format!("layer {a} v {b}"),
                draws: u64::from(LAYER_DRAWS),
            })
        }
    }
}

/// The decisions of one game from the start of `board` (module
/// documentation), its dice and choices drawn from `rng`.
fn game_decisions(game: &Daldos, board: Board, every: u32, mut rng: Rng) -> Vec<Decision> {
    let mut pos = Position::start(board);
    let mut out = Vec::new();
    let mut turn = 0;
    while game.winner(&pos).is_none() && turn < GAME_TURN_CAP {
        let throw = Throw::ALL[rng.below(16) as usize];
        let mut plays = game.plays(&pos, throw);
        if plays.len() >= 2 && turn % every == 0 {
            out.push(Decision { pos, throw });
        }
        let i = if plays.len() < 2 {
            0
        } else if rng.below(4) == 0 {
            RandomPlayer.choose(game, &pos, &plays, &mut rng)
        } else {
            GreedyPlayer.choose(game, &pos, &plays, &mut rng)
        };
        pos = plays.swap_remove(i).1;
        turn += 1;
    }
    out
}

/// What a contender is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ContenderKind {
    /// [`GreedyPlayer`].
    Greedy,
    /// [`EnginePlayer`] to `depth` with these evaluation weights; with
    /// `tables_below`, its search also takes the tables' value of every
    /// position with fewer pieces in total than the position it decides
    /// (the tables at the leaves, as a game with tables of the smaller
    /// layers only would have them).
    Engine {
        /// Search depth in throws.
        depth: u32,
        /// Evaluation weights.
        weights: EvalWeights,
        /// Tables below the decision's piece total in the search.
        tables_below: bool,
    },
    /// [`PerfectPlayer`] (its loss is 0: a check).
    Perfect,
}

/// A player measured, with its name in the rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Contender {
    /// The `player` column.
    pub name: String,
    /// What plays.
    pub kind: ContenderKind,
}

impl Contender {
    /// `greedy`.
    pub fn greedy() -> Contender {
        Contender {
            name: "greedy".to_owned(),
            kind: ContenderKind::Greedy,
        }
    }

    /// `engine:N` with the default weights.
    pub fn engine(depth: u32) -> Contender {
        Contender {
            name: format!("engine:{depth}"),
            kind: ContenderKind::Engine {
                depth,
                weights: EvalWeights::default(),
                tables_below: false,
            },
        }
    }

    /// `engine:N+tables`: the default weights and the tables below the
    /// decision's piece total.
    pub fn engine_with_tables(depth: u32) -> Contender {
        Contender {
            name: format!("engine:{depth}+tables"),
            kind: ContenderKind::Engine {
                depth,
                weights: EvalWeights::default(),
                tables_below: true,
            },
        }
    }

    /// `perfect`.
    pub fn perfect() -> Contender {
        Contender {
            name: "perfect".to_owned(),
            kind: ContenderKind::Perfect,
        }
    }

    /// The player, using `tables` where it plays from them.
    fn player(&self, tables: &Arc<Tables>) -> Box<dyn Player<Daldos>> {
        match self.kind {
            ContenderKind::Greedy => Box::new(GreedyPlayer),
            ContenderKind::Perfect => Box::new(PerfectPlayer::new(Arc::clone(tables))),
            ContenderKind::Engine {
                depth,
                weights,
                tables_below,
            } => {
                let game = if tables_below {
                    Daldos::with_tables(Arc::clone(tables))
                } else {
                    Daldos::new(tables.variants())
                }
                .with_weights(weights);
                Box::new(StudyEngine {
                    engine: EnginePlayer::new(depth),
                    game,
                    tables_below,
                })
            }
        }
    }
}

/// An engine that searches its own game (its weights, its tables) whatever
/// game it is handed.
#[derive(Debug)]
struct StudyEngine {
    engine: EnginePlayer,
    game: Daldos,
    tables_below: bool,
}

impl Player<Daldos> for StudyEngine {
    fn choose(
        &self,
        _: &Daldos,
        pos: &Position,
        plays: &[(Play, Position)],
        rng: &mut Rng,
    ) -> usize {
        if self.tables_below {
            let below = Below {
                game: &self.game,
                total: pieces(pos),
            };
            self.engine.choose(&below, pos, plays, rng)
        } else {
            self.engine.choose(&self.game, pos, plays, rng)
        }
    }
}

/// Pieces on the board, both sides.
fn pieces(pos: &Position) -> usize {
    pos.count(Side::A) + pos.count(Side::B)
}

/// Daldøs whose tables count only for positions with fewer than `total`
/// pieces.
#[derive(Debug)]
struct Below<'a> {
    game: &'a Daldos,
    total: usize,
}

impl Game for Below<'_> {
    type Pos = Position;
    type Throw = Throw;
    type Play = Play;

    fn throws(&self) -> &[(Throw, u32)] {
        self.game.throws()
    }

    fn to_move(&self, pos: &Position) -> u8 {
        self.game.to_move(pos)
    }

    fn winner(&self, pos: &Position) -> Option<u8> {
        self.game.winner(pos)
    }

    fn plays(&self, pos: &Position, throw: Throw) -> Vec<(Play, Position)> {
        self.game.plays(pos, throw)
    }

    fn results(&self, pos: &Position, throw: Throw, out: &mut Vec<Position>) {
        self.game.results(pos, throw, out)
    }

    fn evaluate(&self, pos: &Position) -> f64 {
        self.game.evaluate(pos)
    }

    fn known(&self, pos: &Position) -> Option<Known> {
        if pieces(pos) < self.total {
            self.game.known(pos)
        } else {
            None
        }
    }
}

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
fn covered(tables: &Tables, result: &Position) -> bool {
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

/// One set of decisions: the tables that value them and where they come
/// from.
#[derive(Debug, Clone)]
pub struct StudySet {
    /// Tables covering every play of the decisions.
    pub tables: Arc<Tables>,
    /// Where the decisions come from.
    pub source: Source,
}

/// What [`study`] measures.
#[derive(Debug, Clone, PartialEq)]
pub struct StudyConfig {
    /// Decisions per set.
    pub decisions: usize,
    /// Games per match against `perfect`.
    pub games: u32,
    /// The seed of everything.
    pub seed: u64,
    /// Players whose losses are measured on every set.
    pub contenders: Vec<Contender>,
    /// Players that play a match against `perfect`.
    pub match_contenders: Vec<Contender>,
}

impl Default for StudyConfig {
    /// 2000 decisions a set, 1000-game matches, seed 1; greedy and
    /// engine:1 to engine:3 measured and matched.
    fn default() -> Self {
        let players = vec![
            Contender::greedy(),
            Contender::engine(1),
            Contender::engine(2),
            Contender::engine(3),
        ];
        StudyConfig {
            decisions: 2000,
            games: 1000,
            seed: 1,
            contenders: players.clone(),
            match_contenders: players,
        }
    }
}

/// The sets of `data/daldos/engine_vs_perfect.csv`: decisions from games
/// on `game_tables`' board (one throw in three), and from each layer of
/// `layers` of `layer_tables`' board that those tables cover (the others
/// are left out: a layer's set is there only when its tables are).
pub fn standard_sets(
    game_tables: &Arc<Tables>,
    layer_tables: &Arc<Tables>,
    layers: &[(u8, u8)],
) -> Vec<StudySet> {
    let mut sets = vec![StudySet {
        tables: Arc::clone(game_tables),
        source: Source::Games { every: 3 },
    }];
    for &(a, b) in layers {
        if check_layer(layer_tables, a, b).is_ok() {
            sets.push(StudySet {
                tables: Arc::clone(layer_tables),
                source: Source::Layer { a, b },
            });
        }
    }
    sets
}

/// The losses of every contender on every set, and the matches against
/// `perfect` on `match_tables`' board (none without them).
#[derive(Debug, Clone, PartialEq)]
pub struct Study {
    /// One row per set and contender, sets in order, contenders in order.
    pub losses: Vec<LossRow>,
    /// One row per match contender.
    pub matches: Vec<MatchRow>,
}

/// Measure `cfg` on `sets`, and play the matches on `match_tables` (module
/// documentation). The same rows for any thread count.
///
/// With the default configuration on the standard sets (L = 4 games and
/// Norwegian 2 v 2) it takes about 6 s on 2 cores once the tables are
/// there (engine:3's decisions most of it, the matches 1.5 s), and about
/// 35 s with building the tables (15 s for the L = 4 game, 15 s for the
/// Norwegian layers up to 2 v 2; `crates/reproduce/examples/engine_vs_perfect.rs` prints
/// the times). The Norwegian 3 v 3 set, when its tables are there, adds
/// the same kind of work on positions with more plays: some seconds to a
/// minute, not measured yet.
pub fn study(
    sets: &[StudySet],
    match_tables: Option<&Arc<Tables>>,
    cfg: &StudyConfig,
) -> Result<Study, StudyError> {
    let mut rows = Vec::new();
    for set in sets {
        let board = set.tables.board();
        let seed = set_seed(cfg.seed, board, set.source);
        let ds = decisions(&set.tables, set.source, cfg.decisions, seed)?;
        for c in &cfg.contenders {
            let (mean_loss, p99_loss, errors) = summarise(&losses(&set.tables, c, &ds, seed)?);
            rows.push(LossRow {
                board,
                layer: set.source.label(),
                player: c.name.clone(),
                decisions: ds.len(),
                mean_loss,
                p99_loss,
                errors,
            });
        }
    }
    let mut matches = Vec::new();
    if let Some(t) = match_tables {
        for c in &cfg.match_contenders {
            let mc = MatchConfig {
                games: cfg.games,
                seed: cfg.seed,
                turn_cap: MatchConfig::default().turn_cap,
            };
            matches.push(perfect_match(t, c, mc)?);
        }
    }
    Ok(Study {
        losses: rows,
        matches,
    })
}

impl Study {
    /// `data/daldos/engine_vs_perfect.csv`:
    /// `board,layer,player,decisions,mean_loss,p99_loss,errors` (docs/cli.md;
    /// `errors` is the extra column of decisions with a loss above
    /// [`ERROR_LOSS`]), losses to nine decimals.
    pub fn csv(&self) -> String {
        let mut s = String::from("board,layer,player,decisions,mean_loss,p99_loss,errors\n");
        for r in &self.losses {
            let _ = writeln!(
                s,
                "{},{},{},{},{:.9},{:.9},{}",
                r.board.len(),
                r.layer,
                r.player,
                r.decisions,
                r.mean_loss,
                r.p99_loss,
                r.errors
            );
        }
        s
    }

    /// The matches as CSV: `board,player,games,wins,win_rate,ci95_lo,ci95_hi,capped`.
    pub fn matches_csv(&self) -> String {
        let mut s = String::from("board,player,games,wins,win_rate,ci95_lo,ci95_hi,capped\n");
        for m in &self.matches {
            let _ = writeln!(
                s,
                "{},{},{},{},{:.4},{:.4},{:.4},{}",
                m.board.len(),
                m.player,
                m.games,
                m.wins,
                m.win_rate,
                m.ci95.0,
                m.ci95.1,
                m.capped
            );
        }
        s
    }

    /// Both tables in Markdown: the losses (in points of win probability,
    /// i.e. percent) and the matches.
    pub fn markdown(&self) -> String {
        let mut s = String::from(
            "| board | decisions from | player | decisions | mean loss (%) | p99 loss (%) | errors |\n\
             |---|---|---|---:|---:|---:|---:|\n",
        );
        for r in &self.losses {
            let from = if r.layer == "game" {
                "games".to_owned()
            } else {
                format!("layer {}", r.layer.replace('v', " v "))
            };
            let _ = writeln!(
                s,
                "| {} | {from} | {} | {} | {:.3} | {:.3} | {} ({:.1}%) |",
                r.board.name(),
                r.player,
                r.decisions,
                100.0 * r.mean_loss,
                100.0 * r.p99_loss,
                r.errors,
                100.0 * r.errors as f64 / r.decisions.max(1) as f64
            );
        }
        if !self.matches.is_empty() {
            s.push_str(
                "\n| board | player (a) vs perfect (b) | games | a wins | a win rate | 95% CI |\n\
                 |---|---|---:|---:|---:|---|\n",
            );
            for m in &self.matches {
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | {} | {:.3} | [{:.3}, {:.3}] |",
                    m.board.name(),
                    m.player,
                    m.games,
                    m.wins,
                    m.win_rate,
                    m.ci95.0,
                    m.ci95.1
                );
            }
        }
        s
    }
}
