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
use dalkon_dakon::prove::{prove, ProveRequest, Proved, FILE_NAMES};
use dalkon_dakon::solve::start_position;
use dalkon_rules::dakon::Rules;
use sha2::{Digest, Sha256};

use super::boards::{full_proof, Job};
use crate::csv::{self, Row};

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
        let rules = super::boards::rules_of(row)?;
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
    crate::write_bytes(&path, bytes)
}
