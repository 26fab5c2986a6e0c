//! The proofs of `initial_values.csv`: for every board, the two strategy
//! files of `dalkon dakon prove` (gzip), and `proofs/manifest.csv`, one row
//! per file with its size and sha256.
//!
//! A board whose two files together take less than [`COMMIT_LIMIT`] bytes
//! keeps them under `proofs/<board>/`, committed; a larger one under
//! `proofs-large/<board>/`, which git ignores (only its manifest rows are
//! committed). The default run proves every board but the
//! [`full_proof`] ones, whose rows it carries from the earlier manifest
//! (their files, committed or not, are left as they are); no run proves
//! the [`super::boards::unproved`] ones.

use std::path::Path;

use anyhow::Context;
use dalkon_rules::dakon::Rules;
use dalkon_solver::prove::{prove, ProveRequest, Proved, FILE_NAMES};
use dalkon_solver::solve::start_position;
use sha2::{Digest, Sha256};

use super::boards::{full_proof, Job};
use super::records::rules_named;
use crate::reproduce::csv::{self, Row};

/// A board's two proof files are committed when together they take fewer
/// bytes than this (gzip); larger ones are left to `reproduce --full`.
pub(super) const COMMIT_LIMIT: u64 = 2_000_000;

/// Strategy lines the default run allows a proof: every proof it makes is
/// far below this, and a proof past it cannot be committed anyway.
pub(super) const DEFAULT_MAX_LINES: u64 = 1_000_000;

/// The folder of committed proofs, under `data/dakon/`.
pub(super) const COMMITTED_DIR: &str = "proofs";

/// The folder of the proofs too large to commit, under `data/dakon/`
/// (git-ignored; written by `reproduce --full`).
pub(super) const LARGE_DIR: &str = "proofs-large";

/// The columns of `proofs/manifest.csv`.
pub(super) const PROOF_COLUMNS: [&str; 13] = [
    "holes",
    "seeds",
    "origin",
    "mikul",
    "nembak",
    "player",
    "guarantees",
    "lines",
    "bytes",
    "sha256",
    "path",
    "committed",
    "regenerated_by",
];

/// The folder name of a board's proof: `7x7-sow-on-keep`.
pub(super) fn board_dir(holes: usize, seeds: u32, rules: Rules) -> String {
    let (o, m, n) = rules.names();
    format!("{holes}x{seeds}-{o}-{m}-{n}")
}

/// One row of `proofs/manifest.csv`: a strategy file of a board's start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ProofRecord {
    pub(super) holes: usize,
    pub(super) seeds: u32,
    pub(super) rules: Rules,
    /// 0: the first player (the start's side to move, `mover.strategy`);
    /// 1: the other (`opponent.strategy`).
    pub(super) player: u8,
    /// The final store difference (player minus opponent) it secures.
    pub(super) guarantees: i32,
    /// Strategy lines.
    pub(super) lines: u64,
    /// Bytes of the gzip file.
    pub(super) bytes: u64,
    /// sha256 of the gzip file, lowercase hex.
    pub(super) sha256: String,
    /// Under `proofs/` (committed) or `proofs-large/` (not).
    pub(super) committed: bool,
}

impl ProofRecord {
    pub(super) fn key(&self) -> (usize, u32, Rules, u8) {
        (self.holes, self.seeds, self.rules, self.player)
    }

    /// The file, relative to `data/dakon/`.
    pub(super) fn path(&self) -> String {
        format!(
            "{}/{}/{}.gz",
            if self.committed {
                COMMITTED_DIR
            } else {
                LARGE_DIR
            },
            board_dir(self.holes, self.seeds, self.rules),
            FILE_NAMES[usize::from(self.player)]
        )
    }

    /// The command that writes the file: the default run, or only `--full`.
    pub(super) fn regenerated_by(&self) -> &'static str {
        if full_proof(self.holes, self.seeds, self.rules) {
            "reproduce --full"
        } else {
            "reproduce"
        }
    }

    /// Read a row: `path` must be where the row's board, player and
    /// `committed` put the file.
    pub(super) fn from_row(row: &Row) -> Result<ProofRecord, csv::CsvError> {
        let names = (row.text("origin")?, row.text("mikul")?, row.text("nembak")?);
        let rules = rules_named(names).ok_or_else(|| {
            row.error(
                "origin",
                format!(
                    "no rule set is named origin={} mikul={} nembak={}",
                    names.0, names.1, names.2
                ),
            )
        })?;
        let player: u8 = row.get("player")?;
        if player > 1 {
            return Err(row.error("player", format!("{player} is neither 0 nor 1")));
        }
        let (guarantees, lines, bytes) =
            (row.get("guarantees")?, row.get("lines")?, row.get("bytes")?);
        let sha256 = row.text("sha256")?;
        if sha256.len() != 64
            || !sha256
                .bytes()
                .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        {
            return Err(row.error(
                "sha256",
                format!("{sha256:?} is not 64 lowercase hexadecimal digits"),
            ));
        }
        let r = ProofRecord {
            holes: row.get("holes")?,
            seeds: row.get("seeds")?,
            rules,
            player,
            guarantees,
            lines,
            bytes,
            sha256: sha256.to_owned(),
            committed: row.get("committed")?,
        };
        let path = row.text("path")?;
        if path != r.path() {
            return Err(row.error(
                "path",
                format!("{path:?} is not where this proof goes ({})", r.path()),
            ));
        }
        Ok(r)
    }

    pub(super) fn csv_cells(&self) -> [String; 13] {
        let (o, m, n) = self.rules.names();
        [
            self.holes.to_string(),
            self.seeds.to_string(),
            o.into(),
            m.into(),
            n.into(),
            self.player.to_string(),
            self.guarantees.to_string(),
            self.lines.to_string(),
            self.bytes.to_string(),
            self.sha256.clone(),
            self.path(),
            self.committed.to_string(),
            self.regenerated_by().into(),
        ]
    }
}

/// The sha256 of `bytes`, lowercase hex.
pub(super) fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A board proved: the proof, and its two files (manifest row and gzip
/// bytes), mover first.
#[derive(Debug)]
pub(super) struct BoardProof {
    pub(super) proved: Proved,
    pub(super) files: Vec<(ProofRecord, Vec<u8>)>,
}

/// Prove the start of `job` (at most `max_lines` lines a strategy) and
/// make its two files.
pub(super) fn prove_board(job: &Job, max_lines: Option<u64>) -> anyhow::Result<BoardProof> {
    let proved = prove(
        &ProveRequest {
            root: start_position(job.holes, job.seeds)?,
            rules: job.rules,
            tt_mb: None,
            max_lines,
        },
        None,
    )?;
    let mut files = Vec::new();
    for (player, s) in [&proved.mover, &proved.opponent].into_iter().enumerate() {
        let bytes = s.to_gzip()?;
        let record = ProofRecord {
            holes: job.holes,
            seeds: job.seeds,
            rules: job.rules,
            player: player as u8,
            guarantees: s.guarantees,
            lines: s.moves.len() as u64,
            bytes: bytes.len() as u64,
            sha256: sha256_hex(&bytes),
            committed: false,
        };
        files.push((record, bytes));
    }
    let committed = files.iter().map(|(r, _)| r.bytes).sum::<u64>() < COMMIT_LIMIT;
    for (r, _) in &mut files {
        r.committed = committed;
    }
    Ok(BoardProof { proved, files })
}

/// Write a proof file under `dir` (the `data/dakon` folder), atomically.
pub(super) fn write_proof(dir: &Path, record: &ProofRecord, bytes: &[u8]) -> anyhow::Result<()> {
    let path = dir.join(record.path());
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    super::super::write_bytes(&path, bytes)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use dalkon_strategy::{verify, Strategy};

    use super::super::boards::unproved;
    use super::super::records::Records;
    use super::*;

    fn committed() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/dakon")
    }

    /// Every committed proof file is what the manifest says (bytes, sha256,
    /// lines, player, guarantees), of the start and rules it names, and
    /// holds: the rules-only checker finds that it secures exactly its
    /// guarantee (or that the guarantee is the trivial bound, minus every
    /// seed). A board's two guarantees meet at its value in
    /// `initial_values.csv`, so together they prove it.
    #[test]
    fn every_committed_proof_verifies_and_meets_the_value() {
        let dir = committed();
        let r = Records::read(&dir).unwrap();
        let mut checked = 0;
        for p in r.proofs.iter().filter(|p| p.committed) {
            let file = p.path();
            let bytes = std::fs::read(dir.join(&file)).unwrap();
            assert_eq!(bytes.len() as u64, p.bytes, "{file}: bytes");
            assert_eq!(sha256_hex(&bytes), p.sha256, "{file}: sha256");
            let s = Strategy::parse(&bytes).unwrap();
            assert_eq!(s.moves.len() as u64, p.lines, "{file}: lines");
            assert_eq!(
                (s.player.index(), s.guarantees, s.rules),
                (usize::from(p.player), p.guarantees, p.rules),
                "{file}: header"
            );
            assert_eq!(
                s.root,
                start_position(p.holes, p.seeds).unwrap(),
                "{file}: root"
            );
            let v = verify(&s);
            assert!(v.valid, "{file}: {:?}", v.failure);
            let trivial = -(2 * p.holes as i32 * p.seeds as i32);
            if p.guarantees > trivial {
                assert_eq!(v.proved, p.guarantees, "{file}: proved");
            }
            checked += 1;
        }
        assert!(checked >= 200, "only {checked} committed proofs");
        // Both files of every board (but those out of reach), meeting at
        // its value.
        let proved: Vec<_> = r
            .values
            .iter()
            .filter(|v| !unproved(v.holes, v.seeds, v.rules))
            .collect();
        for v in &proved {
            let of = |player: u8| {
                r.proofs
                    .iter()
                    .find(|p| p.key() == (v.holes, v.seeds, v.rules, player))
                    .unwrap_or_else(|| {
                        panic!(
                            "no proof of {}x{} {} for player {player}",
                            v.holes, v.seeds, v.rules
                        )
                    })
            };
            assert_eq!(
                of(0).guarantees,
                v.value,
                "{}x{} {}",
                v.holes,
                v.seeds,
                v.rules
            );
            assert_eq!(
                of(1).guarantees,
                -v.value,
                "{}x{} {}",
                v.holes,
                v.seeds,
                v.rules
            );
            assert_eq!(of(0).committed, of(1).committed);
            assert_eq!(
                of(0).committed,
                of(0).bytes + of(1).bytes < COMMIT_LIMIT,
                "{}x{} {}: committed exactly when under the limit",
                v.holes,
                v.seeds,
                v.rules
            );
        }
        assert_eq!(r.proofs.len(), 2 * proved.len());
        r.check_proofs().unwrap();
    }

    /// The folder of committed proofs holds the manifest and the files it
    /// lists as committed, nothing else; and only `--full` writes a proof
    /// too large to commit (the default run never spends minutes on one).
    #[test]
    fn the_proofs_folder_holds_what_the_manifest_lists() {
        let dir = committed();
        let r = Records::read(&dir).unwrap();
        let mut listed: BTreeSet<String> = r
            .proofs
            .iter()
            .filter(|p| p.committed)
            .map(ProofRecord::path)
            .collect();
        listed.insert(format!("{COMMITTED_DIR}/manifest.csv"));
        let mut found = BTreeSet::new();
        for board in std::fs::read_dir(dir.join(COMMITTED_DIR)).unwrap() {
            let board = board.unwrap();
            let name = board.file_name().to_string_lossy().into_owned();
            if board.file_type().unwrap().is_dir() {
                for f in std::fs::read_dir(board.path()).unwrap() {
                    let f = f.unwrap().file_name().to_string_lossy().into_owned();
                    found.insert(format!("{COMMITTED_DIR}/{name}/{f}"));
                }
            } else {
                found.insert(format!("{COMMITTED_DIR}/{name}"));
            }
        }
        assert_eq!(found, listed);
        for p in r.proofs.iter().filter(|p| !p.committed) {
            assert!(
                full_proof(p.holes, p.seeds, p.rules),
                "{}: too large to commit, so only --full may prove it",
                p.path()
            );
        }
    }

    #[test]
    fn a_proof_row_names_its_path() {
        let r = ProofRecord {
            holes: 7,
            seeds: 7,
            rules: Rules::default(),
            player: 1,
            guarantees: -98,
            lines: 0,
            bytes: 1,
            sha256: sha256_hex(b""),
            committed: true,
        };
        assert_eq!(r.path(), "proofs/7x7-sow-on-keep/opponent.strategy.gz");
        assert_eq!(
            r.sha256,
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(r.regenerated_by(), "reproduce");
    }
}
