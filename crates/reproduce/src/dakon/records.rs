//! The typed records behind the Dakon data files: one per row of
//! `initial_values.csv`, `openings.csv`, `openings_first.csv` and
//! `proofs/manifest.csv`, read back by column name and merged by key
//! (board and rules).

use std::path::Path;

use dalkon_dakon::openings::Openings;
use dalkon_dakon::solve::{Method, Outcome};
use dalkon_rules::dakon::Rules;

use super::boards::{full_proof, opening_boards, value_jobs, FULL_OPENINGS};
use super::proofs::{ProofRecord, PROOF_COLUMNS};
use crate::csv::{self, Row, Table};
use crate::DamagedData;
use dalkon_render::dakon::chain;

/// The columns of `initial_values.csv`: docs/cli.md's, then `positions`
/// and `best_moves_complete`.
pub(super) const VALUE_COLUMNS: [&str; 11] = [
    "holes",
    "seeds",
    "origin",
    "mikul",
    "nembak",
    "value",
    "result",
    "best_moves",
    "method",
    "positions",
    "best_moves_complete",
];

/// One row of `initial_values.csv`: a solved initial position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ValueRecord {
    pub(super) holes: usize,
    pub(super) seeds: u32,
    pub(super) rules: Rules,
    /// The first player's final store difference under perfect play.
    pub(super) value: i32,
    pub(super) best_moves: Vec<usize>,
    pub(super) method: Method,
    /// Retrograde: database entries built (the same on every run). `None`
    /// for search, whose count of positions searched depends on thread
    /// timing and table size (it goes to `reproduce.log`).
    pub(super) positions: Option<u64>,
    /// Whether `best_moves` lists every best first move (not only one):
    /// always, for both methods, since the solver lists them all.
    pub(super) best_moves_complete: bool,
}

impl ValueRecord {
    pub(super) fn key(&self) -> (usize, u32, Rules) {
        (self.holes, self.seeds, self.rules)
    }

    /// Read a row; `result` must agree with `value`. Search rows have no
    /// `positions`. Only the tests read these rows back: every run
    /// recomputes every value.
    #[cfg(test)]
    pub(super) fn from_row(row: &Row) -> Result<ValueRecord, csv::CsvError> {
        let rules = super::boards::rules_of(row)?;
        let value: i32 = row.get("value")?;
        let result = row.text("result")?;
        if result != Outcome::of(value).as_str() {
            return Err(row.error(
                "result",
                format!("{result:?} does not agree with the value {value}"),
            ));
        }
        let method = match row.text("method")? {
            "retrograde" => Method::Retrograde,
            "search" => Method::Search,
            other => {
                return Err(row.error(
                    "method",
                    format!("{other:?} is neither retrograde nor search"),
                ))
            }
        };
        let positions = match method {
            Method::Retrograde => Some(row.get("positions")?),
            Method::Search => None,
        };
        Ok(ValueRecord {
            holes: row.get("holes")?,
            seeds: row.get("seeds")?,
            rules,
            value,
            best_moves: row.holes("best_moves")?,
            method,
            positions,
            best_moves_complete: row.get("best_moves_complete")?,
        })
    }

    /// The cells of the row, in [`VALUE_COLUMNS`] order; Markdown signs
    /// the value.
    pub(super) fn cells(&self, signed: bool) -> [String; 11] {
        let (o, m, n) = self.rules.names();
        [
            self.holes.to_string(),
            self.seeds.to_string(),
            o.into(),
            m.into(),
            n.into(),
            if signed {
                format!("{:+}", self.value)
            } else {
                self.value.to_string()
            },
            Outcome::of(self.value).as_str().into(),
            moves_text(&self.best_moves),
            self.method.as_str().into(),
            self.positions.map(|p| p.to_string()).unwrap_or_default(),
            self.best_moves_complete.to_string(),
        ]
    }
}

/// The columns of `openings.csv`: docs/cli.md's, then the two counts.
pub(super) const OPENING_COLUMNS: [&str; 8] = [
    "holes",
    "seeds",
    "winning_chains",
    "shortest",
    "best",
    "best_margin",
    "positions",
    "winning_positions",
];

/// One row of `openings.csv`: a board whose first turn was counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct OpeningRecord {
    pub(super) holes: usize,
    pub(super) seeds: u32,
    pub(super) winning_chains: u64,
    pub(super) shortest: Vec<usize>,
    pub(super) best: Vec<usize>,
    pub(super) best_margin: Option<i32>,
    pub(super) positions: u64,
    pub(super) winning_positions: u64,
}

impl OpeningRecord {
    pub(super) fn new(holes: usize, seeds: u32, o: &Openings) -> OpeningRecord {
        OpeningRecord {
            holes,
            seeds,
            winning_chains: o.winning_chains,
            shortest: o.shortest.clone(),
            best: o.best.clone(),
            best_margin: o.best_margin,
            positions: o.positions,
            winning_positions: o.winning_positions,
        }
    }

    pub(super) fn from_row(row: &Row) -> Result<OpeningRecord, csv::CsvError> {
        Ok(OpeningRecord {
            holes: row.get("holes")?,
            seeds: row.get("seeds")?,
            winning_chains: row.get("winning_chains")?,
            shortest: row.holes("shortest")?,
            best: row.holes("best")?,
            best_margin: row.get_opt("best_margin")?,
            positions: row.get("positions")?,
            winning_positions: row.get("winning_positions")?,
        })
    }

    pub(super) fn csv_cells(&self) -> [String; 8] {
        [
            self.holes.to_string(),
            self.seeds.to_string(),
            self.winning_chains.to_string(),
            moves_text(&self.shortest),
            moves_text(&self.best),
            self.best_margin.map(|v| v.to_string()).unwrap_or_default(),
            self.positions.to_string(),
            self.winning_positions.to_string(),
        ]
    }
}

/// The columns of `openings_first.csv`.
pub(super) const FIRST_COLUMNS: [&str; 7] = [
    "holes",
    "seeds",
    "first",
    "first_margin",
    "first_positions",
    "count_error",
    "first_error",
];

/// What the depth-first search for a first winning chain found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum FirstOutcome {
    /// The lexicographically first winning chain, its final margin and the
    /// distinct positions expanded to find it.
    Found {
        chain: Vec<usize>,
        margin: i32,
        positions: u64,
    },
    /// The search was complete and no chain wins.
    NoneWins { positions: u64 },
    /// The search stopped too, for this reason.
    Stopped { error: String },
}

/// One row of `openings_first.csv`: a board whose count did not finish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct FirstRecord {
    pub(super) holes: usize,
    pub(super) seeds: u32,
    /// Why the count stopped.
    pub(super) count_error: String,
    pub(super) first: FirstOutcome,
}

impl FirstRecord {
    pub(super) fn from_row(row: &Row) -> Result<FirstRecord, csv::CsvError> {
        let chain = row.holes("first")?;
        let margin: Option<i32> = row.get_opt("first_margin")?;
        let positions: Option<u64> = row.get_opt("first_positions")?;
        let error = row.text("first_error")?;
        let first = match (chain.is_empty(), margin, positions, error.is_empty()) {
            (false, Some(margin), Some(positions), true) => FirstOutcome::Found {
                chain,
                margin,
                positions,
            },
            (true, None, Some(positions), true) => FirstOutcome::NoneWins { positions },
            (true, None, None, false) => FirstOutcome::Stopped {
                error: error.to_owned(),
            },
            _ => {
                return Err(row.error(
                    "first",
                    "expected a chain with its margin and positions, or no chain with \
                     positions, or only first_error",
                ))
            }
        };
        Ok(FirstRecord {
            holes: row.get("holes")?,
            seeds: row.get("seeds")?,
            count_error: row.text("count_error")?.to_owned(),
            first,
        })
    }

    pub(super) fn csv_cells(&self) -> [String; 7] {
        let (first, margin, positions, error) = match &self.first {
            FirstOutcome::Found {
                chain,
                margin,
                positions,
            } => (
                moves_text(chain),
                margin.to_string(),
                positions.to_string(),
                String::new(),
            ),
            FirstOutcome::NoneWins { positions } => (
                String::new(),
                String::new(),
                positions.to_string(),
                String::new(),
            ),
            FirstOutcome::Stopped { error } => {
                (String::new(), String::new(), String::new(), error.clone())
            }
        };
        [
            self.holes.to_string(),
            self.seeds.to_string(),
            first,
            margin,
            positions,
            self.count_error.clone(),
            error,
        ]
    }

    /// The line of `openings.md` under "Not in the table".
    pub(super) fn markdown(&self) -> String {
        let (n, m) = (self.holes, self.seeds);
        let found = match &self.first {
            FirstOutcome::Found {
                chain,
                margin,
                positions,
            } => format!(
                " A winning chain exists: the lexicographically first is {} ({} moves, final \
                 margin +{margin}; found after {positions} positions by `dalkon dakon openings \
                 --holes {n} --seeds {m} --first`).",
                moves_text(chain),
                chain.len()
            ),
            FirstOutcome::NoneWins { positions } => {
                format!(" No chain wins (a complete depth-first search of {positions} positions).")
            }
            FirstOutcome::Stopped { error } => {
                format!(" The search for a first winning chain stopped too: {error}.")
            }
        };
        format!("- {n}×{m}: not finished: {}.{found}\n", self.count_error)
    }
}

/// The records of the Dakon CSV files in a folder (empty where a file is
/// missing), every row checked.
#[derive(Debug, Default)]
pub(super) struct Records {
    pub(super) values: Vec<ValueRecord>,
    pub(super) openings: Vec<OpeningRecord>,
    pub(super) firsts: Vec<FirstRecord>,
    pub(super) proofs: Vec<ProofRecord>,
}

/// Every row of `path` read by `parse`, refusing a key seen twice.
pub(super) fn read_records<R, K: PartialEq + std::fmt::Debug>(
    path: &Path,
    required: &[&str],
    parse: impl Fn(&Row) -> Result<R, csv::CsvError>,
    key: impl Fn(&R) -> K,
) -> anyhow::Result<Vec<R>> {
    let Some(table) = Table::read(path, required)? else {
        return Ok(Vec::new());
    };
    let mut out: Vec<(R, Row)> = Vec::new();
    for row in table.rows() {
        let r = parse(&row)?;
        if out.iter().any(|(o, _)| key(o) == key(&r)) {
            return Err(row
                .error("holes", format!("a second row for {:?}", key(&r)))
                .into());
        }
        out.push((r, row));
    }
    Ok(out.into_iter().map(|(r, _)| r).collect())
}

impl Records {
    /// Every record of the folder's CSV files (the tests').
    #[cfg(test)]
    pub(super) fn read(dir: &Path) -> anyhow::Result<Records> {
        Ok(Records {
            values: read_records(
                &dir.join("initial_values.csv"),
                &VALUE_COLUMNS,
                ValueRecord::from_row,
                ValueRecord::key,
            )?,
            ..Records::read_kept(dir)?
        })
    }

    /// The records a default run may keep: the openings files and the
    /// proofs manifest (`initial_values.csv`, which it recomputes whole,
    /// is not read).
    pub(super) fn read_kept(dir: &Path) -> anyhow::Result<Records> {
        let r = Records {
            values: Vec::new(),
            openings: read_records(
                &dir.join("openings.csv"),
                &OPENING_COLUMNS[..6],
                OpeningRecord::from_row,
                |o| (o.holes, o.seeds),
            )?,
            firsts: read_records(
                &dir.join("openings_first.csv"),
                &FIRST_COLUMNS,
                FirstRecord::from_row,
                |f| (f.holes, f.seeds),
            )?,
            proofs: read_records(
                &dir.join("proofs/manifest.csv"),
                &PROOF_COLUMNS,
                ProofRecord::from_row,
                ProofRecord::key,
            )?,
        };
        if let Some(f) = r.firsts.iter().find(|f| {
            r.openings
                .iter()
                .any(|o| (o.holes, o.seeds) == (f.holes, f.seeds))
        }) {
            anyhow::bail!(
                "{}×{} is both counted in openings.csv and listed as not finished in \
                 openings_first.csv under {}",
                f.holes,
                f.seeds,
                dir.display()
            );
        }
        Ok(r)
    }

    /// Every proof row is of a solved board and guarantees what its value
    /// says (the first player the value, the other its negation), and a
    /// board has both rows or none. A row carried from an earlier run that
    /// no longer agrees asks for `reproduce --full`; like a damaged data
    /// file, that is exit code 1 (docs/cli.md), not bad input.
    pub(super) fn check_proofs(&self) -> anyhow::Result<()> {
        let damaged = |message: String| -> anyhow::Result<()> { Err(DamagedData(message).into()) };
        for p in &self.proofs {
            let (holes, seeds, rules, player) = p.key();
            let board = format!("{holes}x{seeds} {rules}");
            let Some(v) = self
                .values
                .iter()
                .find(|v| v.key() == (holes, seeds, rules))
            else {
                return damaged(format!(
                    "proofs/manifest.csv has a proof of {board}, a board not solved"
                ));
            };
            let want = if player == 0 { v.value } else { -v.value };
            if p.guarantees != want {
                return damaged(format!(
                    "the proof of {board} for player {player} in proofs/manifest.csv guarantees \
                     {}, but the value is {}: run `dalkon reproduce --full`",
                    p.guarantees, v.value
                ));
            }
            if !self
                .proofs
                .iter()
                .any(|q| q.key() == (holes, seeds, rules, 1 - player))
            {
                return damaged(format!(
                    "proofs/manifest.csv has a proof of {board} for player {player} only"
                ));
            }
        }
        Ok(())
    }

    /// Add the records of `earlier` for what only `--full` computes and
    /// this run did not (the openings of [`FULL_OPENINGS`], the proofs of
    /// [`full_proof`] boards), then put every list in the order of the
    /// `--full` run. Returns how many were carried.
    pub(super) fn carry(&mut self, earlier: Records) -> usize {
        let before = self.openings.len() + self.firsts.len() + self.proofs.len();
        let counted = |s: &Records, key: (usize, u32)| {
            s.openings.iter().any(|o| (o.holes, o.seeds) == key)
                || s.firsts.iter().any(|f| (f.holes, f.seeds) == key)
        };
        for o in earlier.openings {
            let key = (o.holes, o.seeds);
            if FULL_OPENINGS.contains(&key) && !counted(self, key) {
                self.openings.push(o);
            }
        }
        for f in earlier.firsts {
            let key = (f.holes, f.seeds);
            if FULL_OPENINGS.contains(&key) && !counted(self, key) {
                self.firsts.push(f);
            }
        }
        for p in earlier.proofs {
            let (holes, seeds, rules, _) = p.key();
            if full_proof(holes, seeds, rules) && !self.proofs.iter().any(|s| s.key() == p.key()) {
                self.proofs.push(p);
            }
        }
        self.sort();
        self.openings.len() + self.firsts.len() + self.proofs.len() - before
    }

    /// The order of a `--full` run's job lists.
    pub(super) fn sort(&mut self) {
        let jobs = value_jobs();
        let at_job = |key: (usize, u32, Rules)| {
            jobs.iter()
                .position(|j| (j.holes, j.seeds, j.rules) == key)
                .unwrap_or(usize::MAX)
        };
        self.values.sort_by_key(|s| at_job(s.key()));
        self.proofs.sort_by_key(|p| {
            let (holes, seeds, rules, player) = p.key();
            (at_job((holes, seeds, rules)), player)
        });
        let boards = opening_boards(true);
        let at = |key: (usize, u32)| boards.iter().position(|&b| b == key).unwrap_or(usize::MAX);
        self.openings.sort_by_key(|o| at((o.holes, o.seeds)));
        self.firsts.sort_by_key(|f| at((f.holes, f.seeds)));
    }
}

pub(super) fn moves_text(h: &[usize]) -> String {
    chain(h, " ")
}
