//! Solving a board's initial position: one entry point.
//!
//! A [`SolveRequest`] (what the user asked for) is turned by [`plan`] into a
//! validated [`Plan`] before any work: the method resolved, the probe level
//! chosen, the transposition table sized and checked against the memory.
//! [`Plan::run`] then does the work and returns one typed [`Solved`].
//! Database memory is checked by [`Databases`] before any level is built
//! (it depends on which levels are already on disk).

use std::fmt;
use std::path::PathBuf;
use std::time::Instant;

use dalkon_rules::dakon::{Position, Rules};
use dalkon_store::memory::available_memory;

use crate::error::SolveError;
use crate::progress::Progress;
use crate::rank::{binomial, MAX_LEVEL};
use crate::retro::{solve_retrograde, Databases, MAX_DB_HOLES};
use crate::search::{self, Goal, Limits, SearchProgress};

/// How the request asks to solve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MethodChoice {
    /// Retrograde when the whole databases are small, search otherwise.
    #[default]
    Auto,
    /// Build (or load) every database level up to the seeds on the board.
    Retrograde,
    /// Exact alpha-beta (MTD(f)) from the initial position.
    Search,
}

/// How a board was (or will be) solved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Retrograde databases up to the seeds on the board.
    Retrograde,
    /// Exact search, with database probes for small endgames.
    Search,
}

impl Method {
    /// "retrograde" or "search", as written in output and data files.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Retrograde => "retrograde",
            Method::Search => "search",
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The first player's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// A positive final store difference.
    Win,
    /// Equal stores.
    Draw,
    /// A negative final store difference.
    Loss,
}

impl Outcome {
    /// The outcome of a final store difference.
    pub fn of(value: i32) -> Outcome {
        match value.cmp(&0) {
            std::cmp::Ordering::Greater => Outcome::Win,
            std::cmp::Ordering::Equal => Outcome::Draw,
            std::cmp::Ordering::Less => Outcome::Loss,
        }
    }

    /// "win", "draw" or "loss".
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What to solve and with which resources, as asked (unvalidated).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolveRequest {
    /// Holes per row (n).
    pub holes: usize,
    /// Seeds per hole at the start (m).
    pub seeds: u32,
    /// The rule set.
    pub rules: Rules,
    /// How to solve.
    pub method: MethodChoice,
    /// Folder of the retrograde databases (loaded, or written when built);
    /// `None` builds them in memory only.
    pub db_dir: Option<PathBuf>,
    /// Transposition-table memory in MiB (`None`: half the available
    /// memory, at most 4096).
    pub tt_mb: Option<usize>,
    /// Search only: positions with at most this many seeds on the board are
    /// answered by databases (`None` or 0: no probes). The search settles
    /// every traditional start (5 to 9 holes, 5 to 9 seeds) in seconds
    /// without them, far less than building the databases would take.
    pub probe_seeds: Option<u32>,
}

impl SolveRequest {
    /// A request for a board's start with every option at its default.
    pub fn new(holes: usize, seeds: u32) -> SolveRequest {
        SolveRequest {
            holes,
            seeds,
            rules: Rules::default(),
            method: MethodChoice::Auto,
            db_dir: None,
            tt_mb: None,
            probe_seeds: None,
        }
    }
}

/// A validated request: everything decided, nothing done yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The initial position.
    pub start: Position,
    /// Holes per row.
    pub holes: usize,
    /// Seeds per hole at the start.
    pub seeds: u32,
    /// The rule set.
    pub rules: Rules,
    /// The method, `auto` resolved.
    pub method: Method,
    /// Database folder (`None`: in memory).
    pub db_dir: Option<PathBuf>,
    /// Search limits (the table is sized and checked whatever the method).
    pub limits: Limits,
    /// Search only: the probe level (0: no probes; 0 under retrograde).
    pub probe_seeds: u32,
}

/// A solved initial position.
#[derive(Debug, Clone, PartialEq)]
pub struct Solved {
    /// Holes per row.
    pub holes: usize,
    /// Seeds per hole at the start.
    pub seeds: u32,
    /// The rule set.
    pub rules: Rules,
    /// The first player's final store difference under perfect play.
    pub value: i32,
    /// Every first move reaching `value`, ascending.
    pub best_moves: Vec<usize>,
    /// How it was solved.
    pub method: Method,
    /// Database entries built or loaded (retrograde), or distinct positions
    /// searched (search).
    pub positions: u64,
    /// Wall-clock seconds (search: the search alone, without building the
    /// probe databases).
    pub seconds: f64,
    /// Search only: alpha-beta nodes.
    pub nodes: Option<u64>,
    /// Search only: MTD(f) passes.
    pub passes: Option<u64>,
    /// Search only: table hits and lookups.
    pub tt_hits: Option<(u64, u64)>,
    /// Why databases built for this answer were kept in memory only (the
    /// folder could not be written); `None` when they were saved or none
    /// were asked for.
    pub unsaved: Option<String>,
}

impl Solved {
    /// The first player's result.
    pub fn outcome(&self) -> Outcome {
        Outcome::of(self.value)
    }
}

/// Boards whose whole databases have at most this many entries are solved
/// by retrograde analysis under `auto` (a few seconds to build).
pub const AUTO_RETRO_ENTRIES: u128 = 20_000_000;

/// Entries of the databases of levels `0..=k` for `holes` holes per row.
pub fn retro_entries(holes: usize, k: u32) -> u128 {
    let parts = 2 * holes as u64;
    binomial(u64::from(k) + parts, parts).unwrap_or(u128::MAX)
}

/// Resolve `auto` for a board of `holes` × `seeds`.
pub fn choose(method: MethodChoice, holes: usize, seeds: u32) -> Method {
    match method {
        MethodChoice::Retrograde => Method::Retrograde,
        MethodChoice::Search => Method::Search,
        MethodChoice::Auto => {
            if holes <= MAX_DB_HOLES
                && retro_entries(holes, 2 * holes as u32 * seeds) <= AUTO_RETRO_ENTRIES
            {
                Method::Retrograde
            } else {
                Method::Search
            }
        }
    }
}

/// The initial position of `holes` × `seeds`, checked.
pub fn start_position(holes: usize, seeds: u32) -> Result<Position, SolveError> {
    let m = u8::try_from(seeds)
        .ok()
        .filter(|&m| m >= 1)
        .ok_or(SolveError::Seeds { seeds })?;
    Position::start(holes, m).map_err(|source| SolveError::Setup {
        holes,
        seeds,
        source,
    })
}

/// The root a request names: a position, or the start of `holes` ×
/// `seeds` — exactly one of the two (`prove` takes either, in every front
/// end).
pub fn root_position(
    position: Option<Position>,
    holes: Option<usize>,
    seeds: Option<u32>,
) -> Result<Position, SolveError> {
    match (position, holes, seeds) {
        (Some(p), None, None) => Ok(p),
        (None, Some(h), Some(s)) => start_position(h, s),
        _ => Err(SolveError::Root),
    }
}

/// Search limits for `holes` holes per row with a table of `tt_mb` MiB
/// (`None`: half the available memory, at most 4 GiB; 1 GiB where the
/// memory is unknown), checked: a table that does not fit in the available
/// memory less 256 MiB, or is below the smallest usable, is refused.
pub fn search_limits(
    holes: usize,
    tt_mb: Option<usize>,
    max_nodes: Option<u64>,
) -> Result<Limits, SolveError> {
    table_limits(holes, tt_mb, max_nodes, available_memory())
}

/// [`search_limits`] with the available memory given.
fn table_limits(
    holes: usize,
    tt_mb: Option<usize>,
    max_nodes: Option<u64>,
    available: Option<u64>,
) -> Result<Limits, SolveError> {
    let bytes = match tt_mb {
        Some(mb) => {
            let bytes = mb.saturating_mul(1 << 20);
            if let Some(avail) = available {
                if bytes as u64 > avail.saturating_sub(256 << 20) {
                    return Err(SolveError::TableDoesNotFit {
                        mb,
                        available_mib: avail >> 20,
                    });
                }
            }
            bytes
        }
        None => {
            let half = available.map_or(1 << 30, |a| (a / 2) as usize);
            half.min(4 << 30)
        }
    };
    let min = search::min_tt_bytes(holes);
    if bytes < min {
        return Err(SolveError::TableTooSmall {
            min_mib: min.div_ceil(1 << 20),
            mib: bytes >> 20,
        });
    }
    Ok(Limits {
        tt_bytes: bytes,
        max_nodes,
        time: None,
    })
}

/// Validate a request and decide how to carry it out; no work is done.
pub fn plan(request: &SolveRequest) -> Result<Plan, SolveError> {
    plan_with_memory(request, available_memory())
}

/// [`plan`] with the available memory given.
fn plan_with_memory(request: &SolveRequest, available: Option<u64>) -> Result<Plan, SolveError> {
    let &SolveRequest {
        holes,
        seeds,
        rules,
        method,
        ..
    } = request;
    let start = start_position(holes, seeds)?;
    let limits = table_limits(holes, request.tt_mb, None, available)?;
    // Checked whatever the method: an option out of range is bad input
    // even where this method would not use it.
    if let Some(k) = request.probe_seeds.filter(|&k| k > MAX_LEVEL) {
        return Err(SolveError::ProbeSeeds { k, max: MAX_LEVEL });
    }
    let method = choose(method, holes, seeds);
    let probe_seeds = match method {
        Method::Retrograde => 0,
        Method::Search => request.probe_seeds.unwrap_or(0),
    };
    Ok(Plan {
        start,
        holes,
        seeds,
        rules,
        method,
        db_dir: request.db_dir.clone(),
        limits,
        probe_seeds,
    })
}

impl Plan {
    /// Solve: `build` hears about database levels (the retrograde solve or
    /// the probe databases), `search` is updated while a search runs.
    pub fn run(
        &self,
        build: &dyn Progress,
        search: Option<&SearchProgress>,
    ) -> Result<Solved, SolveError> {
        let dir = self.db_dir.as_deref();
        let solved = |value, best_moves, method, positions, seconds| Solved {
            holes: self.holes,
            seeds: self.seeds,
            rules: self.rules,
            value,
            best_moves,
            method,
            positions,
            seconds,
            nodes: None,
            passes: None,
            tt_hits: None,
            unsaved: None,
        };
        match self.method {
            Method::Retrograde => {
                let t0 = Instant::now();
                let r = solve_retrograde(&self.start, self.rules, dir, build)
                    .map_err(SolveError::Retrograde)?;
                let seconds = t0.elapsed().as_secs_f64();
                Ok(Solved {
                    unsaved: r.unsaved,
                    ..solved(
                        r.value,
                        r.best_moves,
                        Method::Retrograde,
                        r.positions,
                        seconds,
                    )
                })
            }
            Method::Search => {
                let db = if self.probe_seeds > 0 {
                    let (holes, rules, k) = (self.holes, self.rules, self.probe_seeds);
                    let db = match dir {
                        Some(d) => Databases::open_or_build(d, holes, rules, k, build),
                        None => Databases::build(holes, rules, k, build),
                    };
                    Some(db.map_err(SolveError::Probe)?)
                } else {
                    None
                };
                let probe = db.as_ref().map(|d| d as &dyn search::Probe);
                let r = search::solve(
                    &self.start,
                    &self.rules,
                    &self.limits,
                    probe,
                    search,
                    Goal::BestMoves,
                )
                .map_err(SolveError::Search)?;
                Ok(Solved {
                    unsaved: db.as_ref().and_then(|d| d.unsaved().map(str::to_owned)),
                    nodes: Some(r.nodes),
                    passes: Some(r.passes),
                    tt_hits: Some((r.tt_hits, r.tt_probes)),
                    ..solved(
                        r.value,
                        r.best_moves,
                        Method::Search,
                        r.positions,
                        r.seconds,
                    )
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::NoProgress;

    const GIB: u64 = 1 << 30;

    #[test]
    fn a_root_is_a_position_or_a_board_never_both_nor_neither() {
        let start = Position::start(3, 2).unwrap();
        assert_eq!(root_position(Some(start), None, None).unwrap(), start);
        assert_eq!(root_position(None, Some(3), Some(2)).unwrap(), start);
        for (p, h, s) in [
            (None, None, None),
            (None, Some(3), None),
            (Some(start), Some(3), Some(2)),
        ] {
            let e = root_position(p, h, s).unwrap_err();
            assert_eq!(
                e.to_string(),
                "give either a position or both holes and seeds"
            );
            assert!(e.is_bad_input());
        }
    }

    fn request(holes: usize, seeds: u32) -> SolveRequest {
        SolveRequest::new(holes, seeds)
    }

    #[test]
    fn small_boards_go_retrograde_large_ones_search() {
        let p = plan_with_memory(&request(3, 3), Some(8 * GIB)).unwrap();
        assert_eq!(p.method, Method::Retrograde);
        assert_eq!(p.probe_seeds, 0);
        let p = plan_with_memory(&request(7, 7), Some(8 * GIB)).unwrap();
        assert_eq!(p.method, Method::Search);
        assert_eq!(p.probe_seeds, 0);
        assert_eq!(p.limits.tt_bytes, 4 << 30);
        let mut r = request(7, 7);
        r.probe_seeds = Some(12);
        assert_eq!(plan_with_memory(&r, Some(8 * GIB)).unwrap().probe_seeds, 12);
        let mut r = request(3, 3);
        r.method = MethodChoice::Search;
        let p = plan_with_memory(&r, Some(8 * GIB)).unwrap();
        assert_eq!((p.method, p.probe_seeds), (Method::Search, 0));
    }

    #[test]
    fn the_auto_method_is_pinned() {
        // The auto threshold: C(32, 8) = 10.5 M entries, C(40, 8) = 76.9 M.
        assert_eq!(choose(MethodChoice::Auto, 4, 3), Method::Retrograde);
        assert_eq!(choose(MethodChoice::Auto, 4, 4), Method::Search);
    }

    #[test]
    fn a_table_that_does_not_fit_is_refused_with_the_numbers() {
        let mut r = request(4, 4);
        r.tt_mb = Some(4096);
        let e = plan_with_memory(&r, Some(2 * GIB)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--tt-mb 4096 does not fit: only 2048 MiB of memory are available"
        );
        assert!(e.is_bad_input());
        r.tt_mb = Some(0);
        let e = plan_with_memory(&r, Some(2 * GIB)).unwrap_err();
        assert!(matches!(e, SolveError::TableTooSmall { mib: 0, .. }), "{e}");
    }

    #[test]
    fn empty_boards_are_refused() {
        let e = plan_with_memory(&request(4, 0), Some(8 * GIB)).unwrap_err();
        assert_eq!(e.to_string(), "--seeds 0 must be between 1 and 255");
        let e = plan_with_memory(&request(0, 4), Some(8 * GIB)).unwrap_err();
        assert!(matches!(e, SolveError::Setup { holes: 0, .. }), "{e}");
        assert!(e.to_string().starts_with("cannot set up 0 holes × 4 seeds"));
        assert!(e.is_bad_input());
    }

    #[test]
    fn both_methods_agree_on_small_boards() {
        for (holes, seeds, value) in [(3, 3, 10), (2, 4, 0)] {
            let mut r = request(holes, seeds);
            r.tt_mb = Some(64);
            let retro = plan_with_memory(&r, Some(8 * GIB))
                .unwrap()
                .run(&NoProgress, None)
                .unwrap();
            r.method = MethodChoice::Search;
            let search = plan_with_memory(&r, Some(8 * GIB))
                .unwrap()
                .run(&NoProgress, None)
                .unwrap();
            assert_eq!(retro.method, Method::Retrograde);
            assert_eq!(search.method, Method::Search);
            assert_eq!(retro.value, search.value);
            if holes == 3 {
                assert_eq!(retro.value, value);
            }
            assert_eq!(retro.best_moves, search.best_moves);
            assert_eq!(retro.outcome(), Outcome::of(retro.value));
        }
    }

    #[test]
    fn words_are_the_output_words() {
        assert_eq!(Method::Retrograde.to_string(), "retrograde");
        assert_eq!(Method::Search.as_str(), "search");
        assert_eq!(Outcome::of(3).to_string(), "win");
        assert_eq!(Outcome::of(0).as_str(), "draw");
        assert_eq!(Outcome::of(-1).as_str(), "loss");
    }
}
