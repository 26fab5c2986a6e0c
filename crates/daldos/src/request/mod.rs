//! Every Daldøs question a user can ask, as a request and its report
//! (docs/cli.md, "Daldøs"): the CLI turns flags into a request, Python its
//! keyword arguments; both run it and print or wrap the same report, whose
//! serde serialization is the CLI's JSON. A request is validated when it is
//! made and carries its defaults as the named constants below, so that no
//! front end holds a default, a limit or a policy of its own.
//!
//! - [`odds`]: capture odds of every enemy piece this turn (`daldos odds`).
//! - [`table`]: the capture tables, closed form beside the board (`daldos table`).
//! - [`moves`]: every distinct play of a throw (`daldos moves`).
//! - [`best`]: the best play or value by expectiminimax within a node
//!   budget, with the solved tables wherever they cover a position
//!   (`daldos best`, `daldos show --best`, the game's hint and Python's `best`).
//! - [`rollout`]: each play's value by seeded games of the engine against
//!   itself, with its standard error (`daldos best --rollouts`).
//! - [`value`]: the exact value from the solved tables (`daldos value`).
//! - [`solve`]: build (or load) and check the solved tables (`daldos solve`).
//! - [`matches`]: a seeded match between two players and its report (`daldos match`).
//! - [`analyse`]: every throw of a whole game judged, with its luck
//!   (`daldos analyse`).

pub mod analyse;
pub mod best;
pub mod matches;
pub mod moves;
pub mod odds;
pub mod rollout;
pub mod solve;
pub mod table;
pub mod train;
pub mod value;

use std::path::{Path, PathBuf};

use dalkon_rules::daldos::{Board, Variants};
use dalkon_store::data_dir::NoDataDir;

use crate::solved::{TableError, Tables};

pub use analyse::{
    AnalyseError, AnalyseProgress, AnalyseReport, AnalyseRequest, Decision, Mark, Marks,
    SideSummary, Summary, BLUNDER_W, DEFAULT_ANALYSE_MAX_NODES, DEFAULT_ANALYSE_SECONDS,
    INACCURACY_W, MISTAKE_W,
};
pub use best::{Analyst, BestError, BestReport, BestRequest};
pub use matches::{
    record_file_name, MatchError, MatchOutcome, MatchReport, MatchRequest, DEFAULT_GAMES,
    DEFAULT_MATCH_SEED, DEFAULT_TURN_CAP,
};
pub use moves::{MovesReport, MovesRequest};
pub use odds::{OddsError, OddsReport, OddsRequest};
pub use rollout::{
    RolloutError, RolloutProgress, RolloutReport, RolloutRequest, RolloutSettings, MAX_ROLLOUTS,
};
pub use solve::{SolveError, SolveProgress, SolveReport, SolveRequest};
pub use table::{TableReport, TableRequest};
pub use value::{ValueReport, ValueRequest};

/// The folder of the solved tables: `arg`, else `$DALKON_DB_DIR`, else
/// `./dalkon-db` if it exists, else `$XDG_DATA_HOME/dalkon`, else `~/.local/share/dalkon`
/// ([`dalkon_store::data_dir()`]), the same for every command and front end.
pub fn tables_dir(arg: Option<PathBuf>) -> Result<PathBuf, NoDataDir> {
    dalkon_store::data_dir(arg)
}

/// Every layer of `board` under `variants` whose table is in `dir` (none
/// when the folder is missing or holds none: the tables are then empty,
/// and know their folder for the messages that name it).
pub fn load_tables(dir: &Path, board: Board, variants: Variants) -> Result<Tables, TableError> {
    let mut t = Tables::new(board, variants, Some(dir));
    t.load_all()?;
    Ok(t)
}
