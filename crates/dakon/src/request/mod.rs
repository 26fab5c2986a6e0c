//! Every Dakon question as a request and its answer as a report
//! (`docs/cli.md`, "Dakon"): the CLI turns flags into a request and prints
//! the report (its serde serialization is the CLI's JSON), Python turns
//! keyword arguments into the same request and builds its objects from the
//! same report. Defaults are the named constants here.

pub mod analyse;
pub mod best;
pub mod play;
pub mod reports;
pub mod show;
pub mod verify;

pub use analyse::{
    AnalyseReport, AnalyseRequest, Decision, Mark, Marks, SideSummary, Summary, BLUNDER_SEEDS,
    DEFAULT_ANALYSE_SECONDS, INACCURACY_SEEDS, MISTAKE_SEEDS,
};
pub use best::{Analyst, BestReport, BestRequest, MoveReport, DEFAULT_ESTIMATE_DEPTH};
pub use play::{PlayReport, PlayRequest, Step};
pub use reports::{
    FirstReport, OpeningsReport, ProofFile, ProveReport, SolveReport, DEFAULT_CHECKPOINT_MINUTES,
    DEFAULT_MAX_POSITIONS,
};
pub use show::{ShowReport, ShowRequest, SHOW_MAX_NODES};
pub use verify::{verify_file, VerifyError, VerifyReport};
