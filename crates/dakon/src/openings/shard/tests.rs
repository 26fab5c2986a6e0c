//! The partitioned count in a simulated job of K ranks gives the
//! single-process answer, resumes from its checkpoints with any number of
//! ranks, and stops every rank when one fails.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use dalkon_rules::dakon::{Position, Rules};

use crate::openings::exchange::simulate;
use crate::openings::{
    openings, openings_partitioned, LayerDone, OpeningLimits, Openings, OpeningsError,
    OpeningsProgress,
};

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!("dalkon-shard-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Records the layers done (rank 0's).
#[derive(Default)]
struct Log(Mutex<Vec<LayerDone>>);

impl OpeningsProgress for Log {
    fn layer_done(&self, done: &LayerDone) {
        self.0.lock().unwrap().push(*done);
    }
}

fn run(k: usize, pos: &Position, limits: &OpeningLimits) -> Vec<Result<Openings, OpeningsError>> {
    simulate(k, |ex| {
        openings_partitioned(
            pos,
            &Rules::default(),
            limits,
            ex,
            &crate::openings::NoOpeningsProgress,
        )
    })
}

/// Everything but the memory and disk used.
fn answer(o: &Openings) -> (u64, Vec<usize>, Vec<usize>, Option<i32>, u64, u64) {
    (
        o.winning_chains,
        o.shortest.clone(),
        o.best.clone(),
        o.best_margin,
        o.positions,
        o.winning_positions,
    )
}

#[test]
fn one_two_and_four_ranks_count_as_one_process() {
    for (n, m) in [(5, 5), (6, 6), (4, 6)] {
        let pos = Position::start(n, m).unwrap();
        let plain_log = Log::default();
        let plain = crate::openings::openings_with_progress(
            &pos,
            &Rules::default(),
            &OpeningLimits::default(),
            &plain_log,
        )
        .unwrap();
        let plain_log = plain_log.0.into_inner().unwrap();
        let mut logs = vec![plain_log
            .iter()
            .map(|d| (d.pass, d.layer, d.positions, d.hash))
            .collect::<Vec<_>>()];
        for k in [1, 2, 4] {
            let log = Log::default();
            let got = simulate(k, |ex| {
                let progress: &dyn OpeningsProgress = if ex.rank() == 0 {
                    &log
                } else {
                    &crate::openings::NoOpeningsProgress
                };
                openings_partitioned(
                    &pos,
                    &Rules::default(),
                    &OpeningLimits::default(),
                    ex,
                    progress,
                )
            });
            for o in got {
                assert_eq!(answer(&o.unwrap()), answer(&plain), "{n}x{m}, {k} ranks");
            }
            let log = log.0.into_inner().unwrap();
            let bytes: u64 = log.iter().map(|d| d.exchanged_bytes).sum();
            assert_eq!(
                bytes == 0,
                k == 1,
                "{n}x{m}, {k} ranks: {bytes} bytes exchanged"
            );
            let forward: u64 = log
                .iter()
                .filter(|d| d.pass == crate::openings::Pass::Forward)
                .map(|d| d.positions)
                .sum();
            assert_eq!(forward, plain.positions);
            logs.push(
                log.iter()
                    .map(|d| (d.pass, d.layer, d.positions, d.hash))
                    .collect::<Vec<_>>(),
            );
        }
        assert!(
            logs.windows(2).all(|w| w[0] == w[1]),
            "{n}x{m}: the layer hashes differ"
        );
    }
}

fn checkpointed(dir: &Path, stop: Option<u32>) -> OpeningLimits {
    OpeningLimits {
        work_dir: Some(dir.to_path_buf()),
        checkpoint_every: Some(Duration::ZERO),
        stop_after_checkpoints: stop,
        layers_in_memory: 1 << 12,
        ..OpeningLimits::default()
    }
}

#[test]
fn a_stopped_job_resumes_with_any_number_of_ranks() {
    let pos = Position::start(5, 6).unwrap();
    let plain = openings(&pos, &Rules::default(), &OpeningLimits::default()).unwrap();
    // Stops in the forward pass (after 10 of its ~60 layers) and in the
    // backward pass (after 80 checkpoints).
    for (stop, k, k2) in [(10, 2, 2), (10, 2, 3), (80, 4, 1), (80, 1, 2), (30, 3, 4)] {
        let tmp = TempDir::new(&format!("resume-{stop}-{k}-{k2}"));
        for r in run(k, &pos, &checkpointed(&tmp.0, Some(stop))) {
            assert!(
                matches!(r, Err(OpeningsError::Stopped(s)) if s == stop),
                "{r:?}"
            );
        }
        assert!(tmp.0.join("job").is_file());
        for o in run(k2, &pos, &checkpointed(&tmp.0, None)) {
            assert_eq!(
                answer(&o.unwrap()),
                answer(&plain),
                "stop {stop}, {k} then {k2} ranks"
            );
        }
        assert!(!tmp.0.exists(), "a complete count removes its folder");
    }
}

#[test]
fn a_failing_rank_stops_every_rank_with_its_error() {
    let pos = Position::start(5, 6).unwrap();
    let tmp = TempDir::new("fail");
    let out = simulate(3, |ex| {
        let mut limits = checkpointed(&tmp.0, None);
        if ex.rank() == 1 {
            limits.memory_bytes = 20_000;
        }
        openings_partitioned(
            &pos,
            &Rules::default(),
            &limits,
            ex,
            &crate::openings::NoOpeningsProgress,
        )
    });
    assert!(
        matches!(out[1], Err(OpeningsError::TooMuchMemory { .. })),
        "{:?}",
        out[1]
    );
    for r in [&out[0], &out[2]] {
        assert!(
            matches!(r, Err(OpeningsError::RankFailed { rank: 1 })),
            "{r:?}"
        );
    }
    assert_eq!(
        out[0].as_ref().unwrap_err().to_string(),
        "rank 1 of the job failed (its error is reported by that rank); every rank stopped"
    );
    // The checkpoints written before the failure are whole: the job
    // resumes (with enough memory) to the right count.
    let plain = openings(&pos, &Rules::default(), &OpeningLimits::default()).unwrap();
    for o in run(2, &pos, &checkpointed(&tmp.0, None)) {
        assert_eq!(answer(&o.unwrap()), answer(&plain));
    }
}

#[test]
fn damaged_checkpoints_are_refused_on_every_rank() {
    let pos = Position::start(5, 6).unwrap();
    let tmp = TempDir::new("damaged");
    for r in run(2, &pos, &checkpointed(&tmp.0, Some(12))) {
        assert!(matches!(r, Err(OpeningsError::Stopped(12))), "{r:?}");
    }
    let dir = tmp.0.join("rank-001-of-002");
    let victim = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .find(|e| e.file_name().to_string_lossy().starts_with("pending-"))
        .unwrap()
        .path();
    let mut bytes = std::fs::read(&victim).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&victim, &bytes).unwrap();
    let out = run(2, &pos, &checkpointed(&tmp.0, None));
    assert!(
        matches!(out[1], Err(OpeningsError::CorruptLayer { .. })),
        "{:?}",
        out[1]
    );
    assert!(
        matches!(out[0], Err(OpeningsError::RankFailed { rank: 1 })),
        "{:?}",
        out[0]
    );
    // A single-process checkpoint is not taken up by a job of several.
    let single = TempDir::new("single");
    let r = openings(&pos, &Rules::default(), &checkpointed(&single.0, Some(3)));
    assert!(matches!(r, Err(OpeningsError::Stopped(3))));
    for r in run(2, &pos, &checkpointed(&single.0, None)) {
        assert!(
            matches!(r, Err(OpeningsError::SingleProcessCheckpoint { .. })),
            "{r:?}"
        );
    }
}
