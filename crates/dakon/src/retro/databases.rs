//! The set of retrograde databases of one board size and rule set: levels
//! `0..=max_k` (seeds on the board), built in memory or opened from (and
//! written to) a folder, probed by the search and by whole-board solves.

use std::path::{Path, PathBuf};

use dalkon_rules::dakon::{Position, Rules};
use dalkon_store::atomic;
use dalkon_store::checksum::fnv1a64;
use dalkon_store::memory::available_memory;
use dalkon_store::FileError;
use rayon::prelude::*;

use super::error::{DbError, FOLDER_FOR};
use super::file::{self, LevelKey, MappedLevel};
use super::level::{build_level, LevelInputs, RowTable, MAX_DB_HOLES};
use super::memory;
use crate::progress::Progress;
use crate::rank::{Ranker, MAX_LEVEL};

/// Where a level's entries live.
#[derive(Debug)]
enum Level {
    /// Built by this process.
    Built(Vec<u8>),
    /// Opened from a file (checked).
    Mapped(MappedLevel),
}

impl Level {
    fn entries(&self) -> &[u8] {
        match self {
            Level::Built(v) => v,
            Level::Mapped(m) => m.payload(),
        }
    }
}

/// The key of level `level` of `holes` holes a row under `rules`.
fn level_key(holes: usize, rules: Rules, level: u32) -> LevelKey {
    LevelKey {
        holes: holes as u32,
        rules: rules.code(),
        level,
    }
}

/// Exact future margins of every position of one board size and rule set
/// with at most `max_k` seeds on the board.
#[derive(Debug)]
pub struct Databases {
    holes: usize,
    rules: Rules,
    ranker: Ranker,
    levels: Vec<Level>,
    built: u64,
    loaded: u64,
    dir: Option<PathBuf>,
    unsaved: Option<String>,
}

/// The solution of a position from the databases.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetroSolution {
    /// Final store difference for the side to move under perfect play
    /// (stores already banked included, docs/rules.md §2.3).
    pub value: i32,
    /// Every move reaching `value`, ascending (empty when the game is over).
    pub best_moves: Vec<usize>,
    /// Each legal move with its value for the side to move.
    pub moves: Vec<(usize, i32)>,
    /// Database entries built or loaded to answer.
    pub positions: u64,
    /// Why the levels built were not saved ([`Databases::unsaved`]).
    pub unsaved: Option<String>,
}

impl Databases {
    /// Build levels `0..=max_k` in memory (nothing is written).
    pub fn build(
        holes: usize,
        rules: Rules,
        max_k: u32,
        progress: &dyn Progress,
    ) -> Result<Databases, DbError> {
        Databases::make(None, holes, rules, max_k, progress)
    }

    /// Open levels `0..=max_k` from `dir`, building (and writing, atomically)
    /// each one that is missing; a build interrupted earlier resumes after
    /// its last finished level. A file that is damaged or belongs to another
    /// board or rule set is refused, never silently rebuilt.
    pub fn open_or_build(
        dir: &Path,
        holes: usize,
        rules: Rules,
        max_k: u32,
        progress: &dyn Progress,
    ) -> Result<Databases, DbError> {
        Databases::make(Some(dir), holes, rules, max_k, progress)
    }

    /// Open levels `0..=max_k` from `dir` without building any: refused
    /// ([`DbError::NotBuilt`], naming the first missing level) unless all
    /// are there. For servers, which must not start a build in a request.
    pub fn open(dir: &Path, holes: usize, rules: Rules, max_k: u32) -> Result<Databases, DbError> {
        if (1..=MAX_DB_HOLES).contains(&holes) && max_k <= MAX_LEVEL {
            let missing =
                (0..=max_k).find(|&level| !level_key(holes, rules, level).path(dir).is_file());
            if let Some(missing) = missing {
                return Err(DbError::NotBuilt {
                    dir: dir.to_path_buf(),
                    holes,
                    max_k,
                    missing,
                });
            }
        }
        Databases::make(Some(dir), holes, rules, max_k, &crate::progress::NoProgress)
    }

    fn make(
        dir: Option<&Path>,
        holes: usize,
        rules: Rules,
        max_k: u32,
        progress: &dyn Progress,
    ) -> Result<Databases, DbError> {
        if holes == 0 || holes > MAX_DB_HOLES {
            return Err(DbError::Holes {
                holes,
                max: MAX_DB_HOLES,
            });
        }
        if max_k > MAX_LEVEL {
            return Err(DbError::LevelTooLarge {
                level: max_k,
                max: MAX_LEVEL,
            });
        }
        let key = |level| level_key(holes, rules, level);
        let on_disk = |k: u32| dir.is_some_and(|d| key(k).path(d).is_file());
        let to_build: Vec<u32> = (0..=max_k).filter(|&k| !on_disk(k)).collect();
        let needed = memory::bytes_needed(holes, max_k, to_build.iter().copied());
        memory::check(holes, max_k, needed, available_memory())?;
        let mut unsaved = None;
        if let Some(d) = dir {
            // Only now: a refused build leaves no empty folder behind.
            match dalkon_store::error::create_folder(d, FOLDER_FOR) {
                Err(FileError::Io { source, .. }) if unwritable(&source) => {
                    unsaved = Some(format!("cannot create {}: {source}", d.display()));
                }
                r => r?,
            }
            // A build killed mid-write (or stopped by a full disk) leaves
            // its temporary behind; nothing will ever rename it. Best
            // effort: a folder this process may not write can still be read.
            let _ = atomic::remove_stale(d, |name| key(0).same_board(name));
        }

        let ranker = Ranker::new(holes, max_k);
        let rows = RowTable::new(holes, max_k);
        let mut db = Databases {
            holes,
            rules,
            ranker,
            levels: Vec::with_capacity(max_k as usize + 1),
            built: 0,
            loaded: 0,
            dir: dir.map(Path::to_path_buf),
            unsaved,
        };
        // Levels on disk are checked (their checksums read every byte) in
        // parallel: 1.3 GB for 7×7 up to 20 seeds. Errors are taken in
        // level order below, so the first bad level is named, as before.
        let mut opened: Vec<Option<Result<MappedLevel, DbError>>> = (0..=max_k)
            .into_par_iter()
            .map(|k| match dir {
                Some(d) if on_disk(k) => {
                    Some(file::open_level(d, key(k), db.ranker.level_count(k)))
                }
                _ => None,
            })
            .collect();
        for k in 0..=max_k {
            let count = db.ranker.level_count(k);
            let level = match opened[k as usize].take() {
                Some(mapped) => {
                    let mapped = mapped?;
                    progress.level_loaded(k, count);
                    db.loaded += count;
                    Level::Mapped(mapped)
                }
                _ => {
                    let lower: Vec<&[u8]> = db.levels.iter().map(Level::entries).collect();
                    let inputs = LevelInputs {
                        rules,
                        ranker: &db.ranker,
                        rows: &rows,
                        lower: &lower,
                    };
                    let entries = build_level(inputs, progress);
                    db.built += count;
                    match dir {
                        Some(d) if db.unsaved.is_none() => {
                            match file::write_level(d, key(k), &entries) {
                                // Keep the level as the file just written,
                                // not as a private copy: page-cache pages
                                // can be dropped and re-read under memory
                                // pressure.
                                Ok(_) => {
                                    drop(entries);
                                    Level::Mapped(file::open_level(d, key(k), count)?)
                                }
                                // A folder we may read but not write: go on
                                // in memory, and say the levels were not
                                // saved.
                                Err(DbError::Io { path, source }) if unwritable(&source) => {
                                    db.unsaved =
                                        Some(format!("cannot write {}: {source}", path.display()));
                                    Level::Built(entries)
                                }
                                Err(e) => return Err(e),
                            }
                        }
                        _ => Level::Built(entries),
                    }
                }
            };
            db.levels.push(level);
        }
        Ok(db)
    }

    /// Why the levels built were kept in memory only, when the database
    /// folder could not be written (read-only, no permission); `None` when
    /// every level built is saved (or no folder was asked for).
    pub fn unsaved(&self) -> Option<&str> {
        self.unsaved.as_deref()
    }

    /// Whether these databases answer positions of `holes` holes a row
    /// under `rules` (a probe checks the holes only).
    pub fn serves(&self, holes: usize, rules: &Rules) -> bool {
        self.holes == holes && self.rules == *rules
    }

    /// Holes per side.
    pub fn holes(&self) -> usize {
        self.holes
    }

    /// The rule set.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The highest level (seeds on the board) held.
    pub fn max_k(&self) -> u32 {
        self.levels.len() as u32 - 1
    }

    /// Entries built or loaded (all levels).
    pub fn positions(&self) -> u64 {
        self.built + self.loaded
    }

    /// Entries built by this process.
    pub fn built(&self) -> u64 {
        self.built
    }

    /// Entries loaded from files.
    pub fn loaded(&self) -> u64 {
        self.loaded
    }

    /// The folder the levels live in, if any.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The entries of level `k` in rank order, as stored bytes (read an
    /// entry with `as i8`).
    pub fn level(&self, k: u32) -> Option<&[u8]> {
        self.levels.get(k as usize).map(Level::entries)
    }

    /// FNV-1a 64 of level `k`'s entries alone (not the file checksum,
    /// which covers the header too): the same whether built or loaded.
    pub fn checksum(&self, k: u32) -> Option<u64> {
        self.levels.get(k as usize).map(|l| match l {
            Level::Built(v) => fnv1a64(v),
            Level::Mapped(m) => m.checksum(),
        })
    }

    /// The future margin of `pos` for its side to move: what it will still
    /// gain in its store minus what the opponent will, under perfect play.
    /// `None` when the board size differs or more than `max_k` seeds are on
    /// the board.
    #[inline]
    pub fn probe(&self, pos: &Position) -> Option<i32> {
        if pos.holes() != self.holes {
            return None;
        }
        let k = pos.seeds_on_board();
        let entries = self.levels.get(k as usize)?.entries();
        let me = pos.side_to_move();
        let idx = self.ranker.rank(pos.pits(me), pos.pits(me.other()), k);
        Some(i32::from(entries[idx as usize] as i8))
    }

    /// The value of `pos` (store difference plus future margin, docs/rules.md
    /// §2.3) for its side to move; `None` as for [`Databases::probe`].
    pub fn value(&self, pos: &Position) -> Option<i32> {
        Some(pos.store_diff() + self.probe(pos)?)
    }

    /// Every legal move of `pos` with its value for the side to move, best
    /// moves from the entries of the successors; `None` as for
    /// [`Databases::probe`].
    pub fn move_values(&self, pos: &Position) -> Option<Vec<(usize, i32)>> {
        if pos.holes() != self.holes || pos.seeds_on_board() > self.max_k() {
            return None;
        }
        let me = pos.side_to_move();
        pos.moves()
            .map(|hole| {
                let next = pos.play_unchecked(hole, &self.rules);
                let stores = i32::from(next.store(me)) - i32::from(next.store(me.other()));
                let future = if next.seeds_on_board() == 0 {
                    0
                } else if next.side_to_move() == me {
                    self.probe(&next)?
                } else {
                    -self.probe(&next)?
                };
                Some((hole, stores + future))
            })
            .collect()
    }

    /// Value, best moves and move values of `pos`, checked against each
    /// other: a position with a move has at least one best move, whose
    /// value is the position's own.
    ///
    /// # Errors
    /// [`DbError::NotCovered`] where [`Databases::probe`] gives `None`;
    /// [`DbError::Inconsistent`] when the position's entry is not the best
    /// of its moves' values (levels that each pass their own checks but
    /// disagree: forged or damaged files).
    pub fn solve(&self, pos: &Position) -> Result<RetroSolution, DbError> {
        let not_covered = || DbError::NotCovered {
            holes: self.holes,
            max_k: self.max_k(),
            position: pos.to_string(),
        };
        let value = self.value(pos).ok_or_else(not_covered)?;
        let moves = self.move_values(pos).ok_or_else(not_covered)?;
        if let Some(best) = moves.iter().map(|&(_, v)| v).max() {
            if best != value {
                let where_ = match &self.dir {
                    Some(d) => self.key(pos.seeds_on_board()).path(d).display().to_string(),
                    None => "the databases in memory".to_owned(),
                };
                return Err(DbError::Inconsistent {
                    where_,
                    position: pos.to_string(),
                    value,
                    best,
                });
            }
        }
        let best_moves = moves
            .iter()
            .filter(|&&(_, v)| v == value)
            .map(|&(h, _)| h)
            .collect();
        Ok(RetroSolution {
            value,
            best_moves,
            moves,
            positions: self.positions(),
            unsaved: self.unsaved.clone(),
        })
    }

    /// The file key of level `level` of these databases.
    fn key(&self, level: u32) -> LevelKey {
        LevelKey {
            holes: self.holes as u32,
            rules: self.rules.code(),
            level,
        }
    }
}

/// Solve `pos` exactly by retrograde analysis: build (or open, with `dir`)
/// every level up to its seeds on the board and read off its value and best
/// moves. `positions` counts the entries built or loaded. Damaged levels
/// are refused ([`Databases::solve`]).
pub fn solve_retrograde(
    pos: &Position,
    rules: Rules,
    dir: Option<&Path>,
    progress: &dyn Progress,
) -> Result<RetroSolution, DbError> {
    let k = pos.seeds_on_board();
    let db = match dir {
        Some(d) => Databases::open_or_build(d, pos.holes(), rules, k, progress)?,
        None => Databases::build(pos.holes(), rules, k, progress)?,
    };
    db.solve(pos)
}

/// A write refused by the folder itself (read-only file system, no
/// permission): the build can go on in memory.
fn unwritable(e: &std::io::Error) -> bool {
    // EROFS: `ErrorKind::ReadOnlyFilesystem` is newer than this crate's
    // minimum Rust.
    const EROFS: i32 = 30;
    e.kind() == std::io::ErrorKind::PermissionDenied || e.raw_os_error() == Some(EROFS)
}
