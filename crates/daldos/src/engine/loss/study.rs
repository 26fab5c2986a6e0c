//! The study: the standard sets of decisions and every contender measured
//! on each, as `data/daldos/engine_vs_perfect.csv` holds them.

use std::fmt::Write as _;
use std::sync::Arc;

use super::decisions::check_layer;
use super::{
    decisions, losses, perfect_match, set_seed, summarise, Contender, LossRow, MatchRow, Source,
    StudyError,
};
use crate::engine::matchplay::MatchConfig;
use crate::solved::Tables;

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
    /// 2000 decisions a set, 1000-game matches, seed 1; greedy, the
    /// hand-fitted evaluation's hand:1 to hand:3 and the default engine's
    /// engine:1 to engine:3 measured and matched.
    fn default() -> Self {
        let mut players = vec![Contender::greedy()];
        players.extend((1..=3).map(Contender::hand));
        players.extend((1..=3).map(Contender::engine));
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
