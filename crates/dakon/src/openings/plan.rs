//! One entry point for the openings of a board's start: a
//! [`CountRequest`] validated by [`plan_count`] into a [`CountPlan`] (the
//! position set up, the memory budget checked, the working folder named)
//! before any work, then [`CountPlan::count`] (every winning chain) or
//! [`CountPlan::first`] (the first winning chain only).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use dalkon_rules::dakon::{Position, Rules};
use dalkon_store::memory::{available_memory, usable};

use super::exchange::Exchange;
use super::{
    first_winning_chain, openings_partitioned, openings_with_progress, FirstChain, OpeningLimits,
    Openings, OpeningsError, OpeningsProgress,
};
use crate::error::SolveError;
use crate::paths::openings_dir_name;
use crate::solve::start_position;

/// Limits of one count, as asked (unvalidated).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountLimits {
    /// Memory the count may use, in MiB (`None`: all that a build may use,
    /// [`dalkon_store::memory::usable`]).
    pub memory_mb: Option<u64>,
    /// The count's working folder (`None`:
    /// `openings-<n>x<m>-<origin>-<mikul>-<nembak>` in the database folder
    /// of [`dalkon_store::data_dir`]).
    pub work_dir: Option<PathBuf>,
    /// Give up beyond this many distinct positions.
    pub max_positions: u64,
    /// Minutes between checkpoints (`None`: no checkpoints).
    pub checkpoint_minutes: Option<u64>,
}

impl Default for CountLimits {
    fn default() -> Self {
        CountLimits {
            memory_mb: None,
            work_dir: None,
            max_positions: u64::MAX,
            checkpoint_minutes: None,
        }
    }
}

/// The openings of which board, under which limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountRequest {
    /// Holes per row (n).
    pub holes: usize,
    /// Seeds per hole at the start (m).
    pub seeds: u32,
    /// The rule set.
    pub rules: Rules,
    /// Limits of the count.
    pub limits: CountLimits,
}

/// A validated count: everything decided, nothing done yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountPlan {
    /// Holes per row.
    pub holes: usize,
    /// Seeds per hole at the start.
    pub seeds: u32,
    /// The initial position.
    pub start: Position,
    /// The rule set.
    pub rules: Rules,
    /// The limits handed to the count.
    pub limits: OpeningLimits,
    /// The working folder.
    pub work_dir: PathBuf,
    /// Whether the working folder exists, so that the count resumes from
    /// it (or, without a checkpoint in it, refuses to start).
    pub resuming: bool,
}

/// The file of a count's checkpoint in its working folder.
const CHECKPOINT: &str = "state";

/// Bytes of memory a count may use: `memory_mb`, checked against what may
/// be used out of `available`, or by default all of that.
fn memory_budget(memory_mb: Option<u64>, available: Option<u64>) -> Result<u64, SolveError> {
    let usable = usable(available);
    match memory_mb {
        Some(0) => Err(SolveError::NoMemory),
        Some(mb) => {
            let bytes = mb.saturating_mul(1 << 20);
            if bytes > usable {
                return Err(SolveError::MemoryDoesNotFit {
                    mb,
                    usable_mib: usable >> 20,
                });
            }
            Ok(bytes)
        }
        None => Ok(usable),
    }
}

/// Validate a request and decide how to count; no work is done (the
/// working folder is only looked at).
pub fn plan_count(request: &CountRequest) -> Result<CountPlan, SolveError> {
    plan_with_memory(request, available_memory())
}

/// [`plan_count`] with the available memory given.
fn plan_with_memory(
    request: &CountRequest,
    available: Option<u64>,
) -> Result<CountPlan, SolveError> {
    let CountRequest {
        holes,
        seeds,
        rules,
        limits,
    } = request;
    let start = start_position(*holes, *seeds)?;
    let memory_bytes = memory_budget(limits.memory_mb, available)?;
    let work_dir = match &limits.work_dir {
        Some(dir) => dir.clone(),
        None => dalkon_store::data_dir(None)?.join(openings_dir_name(*holes, *seeds, rules)),
    };
    let resuming = work_dir.exists();
    let limits = OpeningLimits {
        memory_bytes,
        max_positions: limits.max_positions,
        work_dir: Some(work_dir.clone()),
        // Finished layers take one to three bytes a position; keep up to
        // a sixteenth of the budget of them in memory (all of them on any
        // board up to 7×6), the rest in files: the memory is needed by
        // the layers still being collected.
        layers_in_memory: memory_bytes / 16,
        checkpoint_every: limits
            .checkpoint_minutes
            .map(|m| Duration::from_secs(m.saturating_mul(60))),
        stop_after_checkpoints: None,
    };
    Ok(CountPlan {
        holes: *holes,
        seeds: *seeds,
        start,
        rules: *rules,
        limits,
        work_dir,
        resuming,
    })
}

impl CountPlan {
    /// Count every winning chain, with the seconds taken. A count that
    /// stops after a checkpoint says where the checkpoint is kept.
    /// A working folder that exists without a checkpoint is refused before
    /// any work.
    pub fn count(&self, progress: &dyn OpeningsProgress) -> Result<(Openings, f64), SolveError> {
        if self.resuming && !self.work_dir.join(CHECKPOINT).is_file() {
            return Err(SolveError::NotACheckpoint {
                dir: self.work_dir.clone(),
            });
        }
        let t0 = Instant::now();
        let o = openings_with_progress(&self.start, &self.rules, &self.limits, progress);
        let seconds = t0.elapsed().as_secs_f64();
        match o {
            Ok(o) => Ok((o, seconds)),
            Err(source) if source.resumable() && self.work_dir.join(CHECKPOINT).exists() => {
                Err(SolveError::CountStopped {
                    dir: self.work_dir.clone(),
                    source,
                })
            }
            Err(e) => Err(SolveError::Openings(e)),
        }
    }

    /// [`CountPlan::count`] as one rank of the job `ex` (every rank makes
    /// the same call): a job of several ranks, or a working folder holding
    /// the checkpoint of one, runs the count partitioned across the ranks
    /// ([`openings_partitioned`]); a job of one rank runs the
    /// single-process count. Every rank returns the same answer.
    pub fn count_on(
        &self,
        ex: &dyn Exchange,
        progress: &dyn OpeningsProgress,
    ) -> Result<(Openings, f64), SolveError> {
        let job = self.work_dir.join(super::shard::JOB);
        if ex.size() == 1 && !job.is_file() {
            return self.count(progress);
        }
        let t0 = Instant::now();
        let o = openings_partitioned(&self.start, &self.rules, &self.limits, ex, progress);
        let seconds = t0.elapsed().as_secs_f64();
        match o {
            Ok(o) => Ok((o, seconds)),
            Err(source) if source.resumable() && job.is_file() => Err(SolveError::CountStopped {
                dir: self.work_dir.clone(),
                source,
            }),
            Err(OpeningsError::NotACheckpoint { dir }) => Err(SolveError::NotACheckpoint { dir }),
            Err(e) => Err(SolveError::Openings(e)),
        }
    }

    /// Only the lexicographically first winning chain, with the seconds
    /// taken (the working folder is not used).
    pub fn first(&self) -> Result<(FirstChain, f64), SolveError> {
        let t0 = Instant::now();
        let f = first_winning_chain(
            &self.start,
            &self.rules,
            self.limits.max_positions,
            self.limits.memory_bytes,
        )
        .map_err(SolveError::Openings)?;
        Ok((f, t0.elapsed().as_secs_f64()))
    }
}

/// [`plan_count`] then [`CountPlan::count`].
pub fn board_openings(
    request: &CountRequest,
    progress: &dyn OpeningsProgress,
) -> Result<(Openings, f64), SolveError> {
    plan_count(request)?.count(progress)
}

/// [`plan_count`] then [`CountPlan::first`].
pub fn board_first_chain(request: &CountRequest) -> Result<(FirstChain, f64), SolveError> {
    plan_count(request)?.first()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::NoOpeningsProgress;

    const GIB: u64 = 1 << 30;

    fn request(holes: usize, seeds: u32, work_dir: PathBuf) -> CountRequest {
        CountRequest {
            holes,
            seeds,
            rules: Rules::default(),
            limits: CountLimits {
                work_dir: Some(work_dir),
                ..CountLimits::default()
            },
        }
    }

    #[test]
    fn one_budget_rule_with_one_fallback() {
        assert_eq!(memory_budget(None, Some(10 * GIB)).unwrap(), 9 * GIB);
        assert_eq!(
            memory_budget(None, None).unwrap(),
            dalkon_store::memory::usable(Some(dalkon_store::memory::ASSUMED_AVAILABLE))
        );
        let e = memory_budget(Some(10 * 1024), Some(10 * GIB)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--memory-mb 10240 does not fit: 9216 MiB of memory are available, \
             and at least a tenth is left free"
        );
        assert!(e.is_bad_input());
    }

    #[test]
    fn bad_boards_are_refused_before_any_work() {
        let dir = PathBuf::from("/nonexistent/dalkon-test");
        let e = plan_with_memory(&request(5, 0, dir.clone()), Some(GIB)).unwrap_err();
        assert_eq!(e.to_string(), "--seeds 0 must be between 1 and 255");
        let e = plan_with_memory(&request(0, 3, dir), Some(GIB)).unwrap_err();
        assert!(matches!(e, SolveError::Setup { holes: 0, .. }), "{e}");
    }

    #[test]
    fn a_folder_without_a_checkpoint_is_refused() {
        let dir = std::env::temp_dir();
        let plan = plan_with_memory(&request(3, 3, dir), Some(GIB)).unwrap();
        assert!(plan.resuming);
        let e = plan.count(&NoOpeningsProgress).unwrap_err();
        assert!(matches!(e, SolveError::NotACheckpoint { .. }), "{e}");
        assert!(e.is_bad_input());
    }

    #[test]
    fn counts_and_first_chains_of_a_small_board() {
        let dir = std::env::temp_dir().join(format!("dalkon-plan-{}", std::process::id()));
        let plan = plan_with_memory(&request(5, 6, dir.clone()), Some(GIB)).unwrap();
        assert!(!plan.resuming);
        assert_eq!(plan.limits.layers_in_memory, plan.limits.memory_bytes / 16);
        let (o, _) = plan.count(&NoOpeningsProgress).unwrap();
        assert_eq!(o.winning_chains, 148);
        assert_eq!(o.best_margin, Some(60));
        let (f, _) = plan.first().unwrap();
        assert_eq!(f.margin, Some(36));
        assert_eq!(f.positions, 300);
        assert!(!dir.exists());
    }
}
