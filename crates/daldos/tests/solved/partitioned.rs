//! The tables built by a job partitioned across ranks (simulated by
//! threads) are the files of one process, byte for byte, for 1, 2 and 4
//! ranks; a job resumes from the files of finished layers with another
//! number of ranks; and the log's checksums are the files' own.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use dalkon_cluster::simulate;
use dalkon_daldos::solved::{
    build_partitioned, file, plan, LayerReport, NoProgress, PartLayerLog, Plan, Tables, EPS,
};
use dalkon_rules::daldos::{Board, Variants};

fn fresh(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dalkon-part-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Every table file of `dir`, by name, with its bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().into_string().unwrap(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

fn one_process(p: &Plan, dir: &Path) -> Vec<LayerReport> {
    let mut t = Tables::new(p.board, p.variants, Some(dir));
    t.build(p, EPS, &mut NoProgress).unwrap()
}

fn job(p: &Plan, dir: &Path, ranks: usize) -> Vec<(Vec<LayerReport>, Vec<PartLayerLog>)> {
    simulate(ranks, |ex| {
        let mut log = Vec::new();
        let reports = build_partitioned(
            p,
            dir,
            EPS,
            ex,
            &mut NoProgress,
            &mut |l| log.push(*l),
            &AtomicBool::new(false),
        )
        .unwrap();
        (reports, log)
    })
}

/// The reports but for the seconds.
fn timeless(r: &[LayerReport]) -> Vec<LayerReport> {
    r.iter()
        .map(|r| LayerReport { seconds: 0.0, ..*r })
        .collect()
}

fn same_as_one_process(board: Board, v: Variants, pieces: (u8, u8), name: &str) {
    let p = plan(board, &v, pieces).unwrap();
    let solo = fresh(&format!("{name}-solo"));
    let want = one_process(&p, &solo);
    let want_files = files(&solo);
    assert_eq!(want_files.len(), want.len());
    for ranks in [1, 2, 4] {
        let dir = fresh(&format!("{name}-{ranks}"));
        let out = job(&p, &dir, ranks);
        assert_eq!(files(&dir), want_files, "{ranks} ranks");
        for (reports, log) in &out {
            // Every rank reports what one process does, and logs every
            // layer with its file's checksum.
            assert_eq!(timeless(reports), timeless(&want), "{ranks} ranks");
            assert_eq!(log.len(), want.len());
            for (l, r) in log.iter().zip(&want) {
                assert_eq!(l.key, r.stats.key);
                assert!(!l.loaded);
                let m = file::open(&dir, l.key, &v, l.positions).unwrap().unwrap();
                assert_eq!(l.checksum, m.checksum());
            }
        }
        if ranks > 1 {
            // Components of some layer are exchanged between ranks.
            assert!(out[0].1.iter().any(|l| l.exchanged > 0));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
    std::fs::remove_dir_all(&solo).unwrap();
}

#[test]
fn board_4_up_to_3_v_3_partitioned_is_the_one_process_files() {
    same_as_one_process(Board::new(4).unwrap(), Variants::default(), (3, 3), "b4");
}

#[test]
fn norwegian_2_v_2_partitioned_is_the_one_process_files() {
    same_as_one_process(Board::NORWEGIAN, Variants::default(), (2, 2), "n22");
}

#[test]
fn a_partitioned_job_resumes_from_finished_layers_with_other_ranks() {
    let (board, v) = (Board::new(4).unwrap(), Variants::default());
    let small = plan(board, &v, (2, 2)).unwrap();
    let all = plan(board, &v, (3, 3)).unwrap();
    let solo = fresh("resume-solo");
    one_process(&all, &solo);
    let dir = fresh("resume");
    // A job of 2 ranks finishes the layers up to 2 v 2 ...
    job(&small, &dir, 2);
    // ... and one of 4 ranks takes them as built and does the rest.
    let out = job(&all, &dir, 4);
    let loaded: Vec<bool> = out[0].1.iter().map(|l| l.loaded).collect();
    let n_small = small
        .pairs
        .iter()
        .map(|k| if k.a == k.b { 1 } else { 2 })
        .sum::<usize>();
    assert_eq!(loaded.iter().filter(|&&l| l).count(), n_small);
    assert_eq!(files(&dir), files(&solo));
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&solo).unwrap();
}
