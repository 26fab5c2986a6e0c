//! The Dakon part of `dalkon reproduce`: `data/dakon/initial_values.csv`,
//! `openings.csv`, `openings_first.csv` and their Markdown summaries.
//!
//! The CSV files are the record: the default run reads them back, keeps
//! the rows of the boards only `--full` solves (merged by key), and writes
//! every file, Markdown included, from the merged records. Nothing that
//! varies from run to run goes into them (see [`super::log`]).

use std::path::Path;

use anyhow::Context;
use dalkon_rules::dakon::{Mikul, Nembak, Origin, Rules};

use super::csv::{self, Row, Table};
use super::log::RunLog;
use super::write_file;
use crate::dakon::draw::chain;
use crate::dakon::openings;
use crate::dakon::progress::CountBar;
use crate::dakon::solve::run_with_progress;
use dalkon_solver::openings::{board_first_chain, plan_count, CountLimits, CountRequest};
use dalkon_solver::solve::{plan, Method, MethodChoice, Outcome, SolveRequest};

/// One board to solve in `reproduce`.
#[derive(Debug, Clone, Copy)]
struct Job {
    holes: usize,
    seeds: u32,
    rules: Rules,
}

fn variant(origin: Origin, mikul: Mikul, nembak: Nembak) -> Rules {
    Rules {
        origin,
        mikul,
        nembak,
    }
}

/// The boards of `initial_values.csv` (docs/cli.md, "Data files"): default rules
/// on n = 1..4 × m = 1..10, 5 × m <= 6, 6 × m <= 4, 7 × m <= 3, then (with
/// `full`) further toward 7×7; one-option variants on n <= 4, m <= 6.
fn value_jobs(full: bool) -> Vec<Job> {
    let d = Rules::default();
    let mut jobs = Vec::new();
    let mut push = |holes: usize, seeds: u32, rules: Rules| {
        jobs.push(Job {
            holes,
            seeds,
            rules,
        })
    };
    for n in 1..=4 {
        for m in 1..=10 {
            push(n, m, d);
        }
    }
    for (n, max_m) in [(5, 6), (6, 4), (7, 3)] {
        for m in 1..=max_m {
            push(n, m, d);
        }
    }
    if full {
        for (n, m) in FULL_EXTRA {
            push(n, m, d);
        }
    }
    let variants = [
        variant(Origin::Skip, Mikul::On, Nembak::Keep),
        variant(Origin::Sow, Mikul::Off, Nembak::Keep),
        variant(Origin::Sow, Mikul::On, Nembak::Take),
    ];
    for rules in variants {
        for n in 1..=4 {
            for m in 1..=6 {
                push(n, m, rules);
            }
        }
    }
    jobs
}

/// Boards beyond the default list solved by `reproduce --full` (default
/// rules, by search).
const FULL_EXTRA: [(usize, u32); 13] = [
    (5, 7),
    (5, 8),
    (5, 9),
    (5, 10),
    (6, 5),
    (6, 6),
    (7, 4),
    (7, 5),
    (8, 2),
    (8, 3),
    (9, 2),
    (7, 6),
    (7, 7),
];

/// Distinct positions the openings count of 8×8 and 9×9 may hold. Their
/// first turns grow far beyond what this machine can count (7×7 alone holds
/// billions of positions, and each extra seed a hole multiplies the late
/// layers), so `--full` stops them here and lists them as not finished in
/// `openings.md`, with the layer reached.
const OPENINGS_BUDGET: u64 = 2_000_000_000;

/// Boards of `openings.csv`: every board up to 6×6, n <= 4 with m up to
/// 10, 5 × m <= 10, 6 × 7, 7 × m <= 6 and 8..10 × m <= 4 (7×6, 6×7, 9×4
/// and 10×4 take half a minute each, the others seconds at most); with
/// `full` also the m = n boards 7×7 (about an hour), 8×8 and 9×9 (the last
/// two under [`OPENINGS_BUDGET`]).
fn opening_boards(full: bool) -> Vec<(usize, u32)> {
    let max_m = |n: usize| match n {
        1..=5 => 10,
        6 => 7,
        7 => 6,
        _ => 4,
    };
    let mut v: Vec<(usize, u32)> = (1..=10)
        .flat_map(|n| (1..=max_m(n)).map(move |m| (n, m)))
        .collect();
    v.extend(FULL_OPENINGS.iter().filter(|_| full));
    v
}

/// Openings boards only `--full` counts.
const FULL_OPENINGS: [(usize, u32); 3] = [(7, 7), (8, 8), (9, 9)];

/// The rule set whose CLI names are `(origin, mikul, nembak)`.
fn rules_named(names: (&str, &str, &str)) -> Option<Rules> {
    (0..8)
        .filter_map(Rules::from_code)
        .find(|r| r.names() == names)
}

/// The columns of `initial_values.csv`: docs/cli.md's, then `positions`.
const VALUE_COLUMNS: [&str; 10] = [
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
];

/// One row of `initial_values.csv`: a solved initial position.
#[derive(Debug, Clone, PartialEq, Eq)]
struct ValueRecord {
    holes: usize,
    seeds: u32,
    rules: Rules,
    /// The first player's final store difference under perfect play.
    value: i32,
    best_moves: Vec<usize>,
    method: Method,
    /// Retrograde: database entries built (the same on every run). `None`
    /// for search, whose count of positions searched depends on thread
    /// timing and table size (it goes to `reproduce.log`).
    positions: Option<u64>,
}

impl ValueRecord {
    fn key(&self) -> (usize, u32, Rules) {
        (self.holes, self.seeds, self.rules)
    }

    /// Read a row; `result` must agree with `value`. A `positions` column
    /// is optional (files written before it was kept deterministic hold
    /// one for search rows too: ignored).
    fn from_row(row: &Row) -> Result<ValueRecord, csv::CsvError> {
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
        })
    }

    /// The cells of the row, in [`VALUE_COLUMNS`] order; Markdown signs
    /// the value.
    fn cells(&self, signed: bool) -> [String; 10] {
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
        ]
    }
}

/// The columns of `openings.csv`: docs/cli.md's, then the two counts.
const OPENING_COLUMNS: [&str; 8] = [
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
struct OpeningRecord {
    holes: usize,
    seeds: u32,
    winning_chains: u64,
    shortest: Vec<usize>,
    best: Vec<usize>,
    best_margin: Option<i32>,
    positions: u64,
    winning_positions: u64,
}

impl OpeningRecord {
    fn new(holes: usize, seeds: u32, o: &dalkon_solver::openings::Openings) -> OpeningRecord {
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

    fn from_row(row: &Row) -> Result<OpeningRecord, csv::CsvError> {
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

    fn csv_cells(&self) -> [String; 8] {
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
const FIRST_COLUMNS: [&str; 7] = [
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
enum FirstOutcome {
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
struct FirstRecord {
    holes: usize,
    seeds: u32,
    /// Why the count stopped.
    count_error: String,
    first: FirstOutcome,
}

impl FirstRecord {
    fn from_row(row: &Row) -> Result<FirstRecord, csv::CsvError> {
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

    fn csv_cells(&self) -> [String; 7] {
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
    fn markdown(&self) -> String {
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
struct Records {
    values: Vec<ValueRecord>,
    openings: Vec<OpeningRecord>,
    firsts: Vec<FirstRecord>,
}

/// Every row of `path` read by `parse`, refusing a key seen twice.
fn read_records<R, K: PartialEq + std::fmt::Debug>(
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
    fn read(dir: &Path) -> anyhow::Result<Records> {
        let r = Records {
            values: read_records(
                &dir.join("initial_values.csv"),
                &VALUE_COLUMNS[..9],
                ValueRecord::from_row,
                ValueRecord::key,
            )?,
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

    /// Add the records of `earlier` for boards only `--full` solves that
    /// this run did not, then put every list in the order of the `--full`
    /// run. Returns how many were carried.
    fn carry(&mut self, earlier: Records) -> usize {
        let before = self.values.len() + self.openings.len() + self.firsts.len();
        let d = Rules::default();
        let counted = |s: &Records, key: (usize, u32)| {
            s.openings.iter().any(|o| (o.holes, o.seeds) == key)
                || s.firsts.iter().any(|f| (f.holes, f.seeds) == key)
        };
        for v in earlier.values {
            let full_only = v.rules == d && FULL_EXTRA.contains(&(v.holes, v.seeds));
            if full_only && !self.values.iter().any(|s| s.key() == v.key()) {
                self.values.push(v);
            }
        }
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
        self.sort();
        self.values.len() + self.openings.len() + self.firsts.len() - before
    }

    /// The order of a `--full` run's job lists.
    fn sort(&mut self) {
        let jobs = value_jobs(true);
        self.values.sort_by_key(|s| {
            jobs.iter()
                .position(|j| (j.holes, j.seeds, j.rules) == s.key())
                .unwrap_or(usize::MAX)
        });
        let boards = opening_boards(true);
        let at = |key: (usize, u32)| boards.iter().position(|&b| b == key).unwrap_or(usize::MAX);
        self.openings.sort_by_key(|o| at((o.holes, o.seeds)));
        self.firsts.sort_by_key(|f| at((f.holes, f.seeds)));
    }
}

/// Write the Dakon solved boards under `out/dakon/`: `initial_values.csv`
/// (+ `.md`), `openings.csv` and `openings_first.csv` (+ `openings.md`).
/// Without `full`, the rows an earlier `--full` run wrote there for its own
/// boards are kept.
pub fn reproduce(
    out: &Path,
    full: bool,
    log: &mut RunLog,
    say: &mut dyn std::io::Write,
) -> anyhow::Result<()> {
    let started = std::time::Instant::now();
    let dir = out.join("dakon");
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    // Read the earlier files before any work: a malformed row stops the
    // run at once, and nothing is written.
    let earlier = if full {
        Records::default()
    } else {
        Records::read(&dir)?
    };
    let mut records = Records::default();
    let jobs = value_jobs(full);
    let bar = CountBar::new(jobs.len() as u64, "Dakon boards");
    for job in &jobs {
        bar.message(format!("{}x{} {}", job.holes, job.seeds, job.rules));
        let s = run_with_progress(&plan(&SolveRequest {
            holes: job.holes,
            seeds: job.seeds,
            rules: job.rules,
            method: MethodChoice::Auto,
            db_dir: None,
            tt_mb: None,
            // The two largest boards need endgame probes to finish in
            // minutes (7x7: about 3.5 minutes with probes up to 12 seeds);
            // `None` lets the solver choose the level.
            probe_seeds: (job.holes < 7 || job.seeds < 6).then_some(0),
        })?)?;
        let mut line = format!(
            "dakon value {}x{} {}: {} positions={} seconds={:.3}",
            s.holes, s.seeds, s.rules, s.method, s.positions, s.seconds
        );
        if let (Some(nodes), Some(passes), Some((hits, probes))) = (s.nodes, s.passes, s.tt_hits) {
            line.push_str(&format!(
                " nodes={nodes} mtd_passes={passes} tt_hits={hits}/{probes}"
            ));
        }
        log.note(line);
        let method = s.method;
        records.values.push(ValueRecord {
            holes: s.holes,
            seeds: s.seeds,
            rules: s.rules,
            value: s.value,
            best_moves: s.best_moves,
            method,
            positions: (method == Method::Retrograde).then_some(s.positions),
        });
        bar.inc();
    }
    bar.finish();

    let boards = opening_boards(full);
    let bar = CountBar::new(boards.len() as u64, "Dakon openings");
    for &(n, m) in &boards {
        bar.message(format!("{n}x{m}"));
        let budget = if n >= 8 && m >= 8 {
            OPENINGS_BUDGET
        } else {
            u64::MAX
        };
        // 7x7 takes about an hour: checkpoint it, so that an interrupted
        // `reproduce --full` resumes it (from dalkon-db/). The boards under
        // a budget stop anyway and keep nothing.
        let request = CountRequest {
            holes: n,
            seeds: m,
            rules: Rules::default(),
            limits: CountLimits {
                max_positions: budget,
                checkpoint_minutes: ((n, m) == (7, 7)).then_some(10),
                ..Default::default()
            },
        };
        match plan_count(&request).and_then(|p| openings::count(&p)) {
            Ok((o, secs)) => {
                log.note(format!(
                    "dakon openings {n}x{m}: positions={} seconds={secs:.3} peak_bytes={} disk_bytes={}",
                    o.positions, o.peak_bytes, o.disk_bytes
                ));
                records.openings.push(OpeningRecord::new(n, m, &o));
            }
            Err(e) => {
                // The count is out of reach: still find out whether a
                // winning chain exists (a depth-first search in move order).
                let request = CountRequest {
                    limits: CountLimits {
                        max_positions: OPENINGS_BUDGET,
                        ..Default::default()
                    },
                    ..request
                };
                let first = match board_first_chain(&request) {
                    Ok((f, secs)) => {
                        log.note(format!(
                            "dakon openings {n}x{m}: not finished; first chain after {} positions, seconds={secs:.3}",
                            f.positions
                        ));
                        match (f.chain, f.margin) {
                            (Some(chain), Some(margin)) => FirstOutcome::Found {
                                chain,
                                margin,
                                positions: f.positions,
                            },
                            _ => FirstOutcome::NoneWins {
                                positions: f.positions,
                            },
                        }
                    }
                    Err(e2) => FirstOutcome::Stopped {
                        error: format!("{e2:#}"),
                    },
                };
                records.firsts.push(FirstRecord {
                    holes: n,
                    seeds: m,
                    count_error: format!("{e:#}"),
                    first,
                });
            }
        }
        bar.inc();
    }
    bar.finish();

    let carried = records.carry(earlier);
    for (name, text) in records.render() {
        write_file(&dir.join(name), &text)?;
    }

    let wins = records.values.iter().filter(|s| s.value > 0).count();
    let secs = started.elapsed().as_secs_f64();
    log.note(format!("dakon: seconds={secs:.1}"));
    writeln!(
        say,
        "dakon: {} boards solved ({wins} first-player wins), {} openings counted, {} not \
         finished ({carried} rows kept from an earlier --full run), {secs:.1} s, under {}",
        records.values.len(),
        records.openings.len(),
        records.firsts.len(),
        dir.display()
    )?;
    Ok(())
}

fn moves_text(h: &[usize]) -> String {
    chain(h, " ")
}

/// `initial_values.csv` and `.md` from their records.
fn render_values(solved: &[ValueRecord]) -> (String, String) {
    let mut csv = csv::line(&VALUE_COLUMNS);
    csv.push('\n');
    let mut md = String::from(
        "# Dakon: solved initial positions\n\n\
         Generated by `dalkon reproduce`. `value` is the first player's final store \
         difference under perfect play by both sides (docs/rules.md §2.3); `result` is the \
         first player's. `positions` counts database entries built (retrograde); it is \
         empty for search, whose count of distinct positions searched depends on thread \
         timing and table size. Those counts and the seconds taken are in the \
         `reproduce.log` of the run, not here.\n\n\
         | holes | seeds | origin | mikul | nembak | value | result | best moves | method | positions |\n\
         |---:|---:|---|---|---|---:|---|---|---|---:|\n",
    );
    for s in solved {
        csv.push_str(&csv::line(&s.cells(false)));
        csv.push('\n');
        md.push_str(&format!("| {} |\n", s.cells(true).join(" | ")));
    }
    md.push_str(
        "\nValue for the first player, default rules (rows: holes, columns: seeds per hole):\n\n",
    );
    let d = Rules::default();
    let default: Vec<&ValueRecord> = solved.iter().filter(|s| s.rules == d).collect();
    let max_m = default.iter().map(|s| s.seeds).max().unwrap_or(0);
    let max_n = default.iter().map(|s| s.holes).max().unwrap_or(0);
    md.push_str("| n \\ m |");
    for m in 1..=max_m {
        md.push_str(&format!(" {m} |"));
    }
    md.push_str("\n|---|");
    md.push_str(&"---:|".repeat(max_m as usize));
    md.push('\n');
    for n in 1..=max_n {
        md.push_str(&format!("| {n} |"));
        for m in 1..=max_m {
            let cell = default
                .iter()
                .find(|s| s.holes == n && s.seeds == m)
                .map(|s| format!("{:+}", s.value))
                .unwrap_or_default();
            md.push_str(&format!(" {cell} |"));
        }
        md.push('\n');
    }
    md.push_str("\nFirst player, default rules:\n\n");
    for word in ["win", "draw", "loss"] {
        let boards: Vec<String> = default
            .iter()
            .filter(|s| Outcome::of(s.value).as_str() == word)
            .map(|s| format!("{}×{}", s.holes, s.seeds))
            .collect();
        md.push_str(&format!(
            "- {word}: {}\n",
            if boards.is_empty() {
                "none".to_owned()
            } else {
                boards.join(", ")
            }
        ));
    }
    (csv, md)
}

/// `openings.csv`, `openings_first.csv` and `openings.md` from their
/// records.
fn render_openings(rows: &[OpeningRecord], firsts: &[FirstRecord]) -> [String; 3] {
    let mut csv = csv::line(&OPENING_COLUMNS);
    csv.push('\n');
    let mut md = String::from(
        "# Dakon: openings that win outright\n\n\
         Generated by `dalkon reproduce` (default rules); the 7×7, 8×8 and 9×9 rows by \
         `dalkon reproduce --full`, and the default run keeps them. A winning chain is a \
         sequence of moves of the first player's first turn (bonus moves keep the turn) that \
         ends the game with the first player ahead before the opponent ever moves. \
         `shortest` is a shortest such chain, `best` one with the largest final margin \
         (ties: the lexicographically smallest chain). `positions` counts the distinct \
         positions of the first turn, every one of which was evaluated; `winning positions` \
         those from which the turn can still be won. The seconds each count took are in the \
         `reproduce.log` of the run, not here.\n\n\
         | holes | seeds | winning chains | shortest | best | best margin | positions | winning positions |\n\
         |---:|---:|---:|---|---|---:|---:|---:|\n",
    );
    for o in rows {
        csv.push_str(&csv::line(&o.csv_cells()));
        csv.push('\n');
        let (shortest, best) = if o.winning_chains == 0 {
            ("none".to_owned(), "none".to_owned())
        } else {
            (moves_text(&o.shortest), moves_text(&o.best))
        };
        let margin = o.best_margin.map(|v| v.to_string()).unwrap_or_default();
        md.push_str(&format!(
            "| {} | {} | {} | {shortest} | {best} | {margin} | {} | {} |\n",
            o.holes, o.seeds, o.winning_chains, o.positions, o.winning_positions
        ));
    }
    let mut first_csv = csv::line(&FIRST_COLUMNS);
    first_csv.push('\n');
    if !firsts.is_empty() {
        md.push_str("\nNot in the table:\n\n");
    }
    for f in firsts {
        first_csv.push_str(&csv::line(&f.csv_cells()));
        first_csv.push('\n');
        md.push_str(&f.markdown());
    }
    md.push_str(
        "\nThe boards not in the table are in `openings_first.csv`, one row each: `holes`, \
         `seeds`; `first`, the lexicographically first winning chain (empty when none wins \
         or the search stopped), `first_margin` its final margin and `first_positions` the \
         distinct positions the depth-first search expanded (empty when it stopped); \
         `count_error`, why the count did not finish; `first_error`, why the search for a \
         first chain stopped (empty when it finished).\n",
    );
    [csv, first_csv, md]
}

impl Records {
    /// Every Dakon file, by name, from the records.
    fn render(&self) -> [(&'static str, String); 5] {
        let (values_csv, values_md) = render_values(&self.values);
        let [openings_csv, first_csv, openings_md] = render_openings(&self.openings, &self.firsts);
        [
            ("initial_values.csv", values_csv),
            ("initial_values.md", values_md),
            ("openings.csv", openings_csv),
            ("openings_first.csv", first_csv),
            ("openings.md", openings_md),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn committed() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/dakon")
    }

    /// The committed CSV files read as records and written again are the
    /// same bytes, Markdown included: the Markdown is derived from them.
    #[test]
    fn the_committed_files_are_derived_from_their_records() {
        let dir = committed();
        let mut r = Records::read(&dir).unwrap();
        r.sort();
        for (name, text) in r.render() {
            let want = std::fs::read_to_string(dir.join(name)).unwrap();
            assert!(text == want, "{name} is not what its records give");
        }
    }

    /// The default run keeps exactly the rows of the `--full`-only boards.
    #[test]
    fn only_full_only_rows_are_carried() {
        let earlier = Records::read(&committed()).unwrap();
        let mut now = Records::default();
        let carried = now.carry(earlier);
        let d = Rules::default();
        assert!(now
            .values
            .iter()
            .all(|v| v.rules == d && FULL_EXTRA.contains(&(v.holes, v.seeds))));
        assert_eq!(now.values.len(), FULL_EXTRA.len());
        let boards: Vec<(usize, u32)> = now
            .openings
            .iter()
            .map(|o| (o.holes, o.seeds))
            .chain(now.firsts.iter().map(|f| (f.holes, f.seeds)))
            .collect();
        assert_eq!(boards, FULL_OPENINGS);
        assert_eq!(carried, FULL_EXTRA.len() + FULL_OPENINGS.len());
    }

    #[test]
    fn a_malformed_row_names_file_line_and_column() {
        let dir = std::env::temp_dir().join(format!("dalkon-reproduce-csv-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("openings.csv"),
            "holes,seeds,winning_chains,shortest,best,best_margin,positions,winning_positions\n\
             1,1,0,,,,1,0\n1,2,0,,,,x,0\n",
        )
        .unwrap();
        let e = Records::read(&dir).unwrap_err().to_string();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(
            e.ends_with("openings.csv: line 3, column 7 (positions): cannot read \"x\""),
            "{e}"
        );
    }
}
