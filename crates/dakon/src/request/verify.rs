//! `verify`: a strategy file checked against the rules it names.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use dalkon_strategy::{verify_until, Failure, FailureKind, ReadError, Strategy, Verdict};
use serde::Serialize;

/// A strategy file that cannot be read (`cannot read NAME: …`) or is
/// malformed (`NAME: line …`).
#[derive(Debug, thiserror::Error)]
#[error("{}", match source.as_ref() { ReadError::Format(e) => format!("{}: {e}", path.display()), e => format!("cannot read {}: {e}", path.display()) })]
pub struct VerifyError {
    /// The file.
    pub path: PathBuf,
    /// What went wrong (boxed: a read error is large, and rare).
    pub source: Box<ReadError>,
}

/// Where a strategy breaks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FailureReport {
    /// `missing_line`, `illegal_move` or `below_guarantee`.
    pub kind: &'static str,
    /// The moves from the root to the failing position.
    pub path: Vec<usize>,
    /// The failing position, where a line is missing or illegal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// The illegal hole.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hole: Option<u8>,
    /// The message.
    pub message: String,
    /// The failing position, parsed.
    #[serde(skip)]
    pub at: Option<dalkon_rules::dakon::Position>,
}

impl From<&Failure> for FailureReport {
    fn from(f: &Failure) -> FailureReport {
        let (kind, at, hole) = match &f.kind {
            FailureKind::MissingLine { position } => ("missing_line", Some(*position), None),
            FailureKind::IllegalMove { position, hole } => {
                ("illegal_move", Some(*position), Some(*hole))
            }
            FailureKind::BelowGuarantee { .. } => ("below_guarantee", None, None),
        };
        FailureReport {
            kind,
            path: f.path.clone(),
            position: at.map(|p| p.to_string()),
            hole,
            message: f.to_string(),
            at,
        }
    }
}

/// What the check found; serialized, the JSON of `dakon verify`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VerifyReport {
    /// The strategy secures what it claims.
    pub valid: bool,
    /// Whose strategy.
    pub player: usize,
    /// What it claims.
    pub guarantees: i32,
    /// The worst final store difference over every game it allows.
    pub proved: i32,
    /// Positions checked.
    pub positions_checked: u64,
    /// Strategy lines.
    pub lines: u64,
    /// Lines never reached.
    pub unused_lines: u64,
    /// The rules the file names.
    pub rules: String,
    /// The position it proves.
    pub root: String,
    /// Seconds of the check.
    pub seconds: f64,
    /// Positions a second (`None` when too fast to time).
    pub positions_per_second: Option<u64>,
    /// Where it breaks.
    pub failure: Option<FailureReport>,
    /// The strategy read.
    #[serde(skip)]
    pub strategy: Strategy,
    /// The check's verdict.
    #[serde(skip)]
    pub verdict: Verdict,
}

impl VerifyReport {
    /// Whether the strategy claims no more than the trivial bound, so
    /// there was nothing to check.
    pub fn nothing_to_check(&self) -> bool {
        self.positions_checked == 0 && self.guarantees <= self.strategy.trivial_bound()
    }
}

/// Read `path` and check it; `None` when `stop` was set first.
pub fn verify_file(path: &Path, stop: &AtomicBool) -> Result<Option<VerifyReport>, VerifyError> {
    let strategy = dalkon_strategy::read_file(path).map_err(|source| VerifyError {
        path: path.to_owned(),
        source: Box::new(source),
    })?;
    let started = Instant::now();
    let Some(verdict) = verify_until(&strategy, stop) else {
        return Ok(None);
    };
    let seconds = started.elapsed().as_secs_f64();
    let rate = (seconds > 0.0).then(|| verdict.positions_checked as f64 / seconds);
    Ok(Some(VerifyReport {
        valid: verdict.valid,
        player: strategy.player.index(),
        guarantees: strategy.guarantees,
        proved: verdict.proved,
        positions_checked: verdict.positions_checked,
        lines: strategy.lines(),
        unused_lines: verdict.unused_lines,
        rules: strategy.rules.to_string(),
        root: strategy.root.to_string(),
        seconds,
        positions_per_second: rate.map(|r| r.round() as u64),
        failure: verdict.failure.as_ref().map(FailureReport::from),
        strategy,
        verdict,
    }))
}
