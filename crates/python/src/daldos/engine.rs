//! The engines of `dalkon.daldos`: what they share (the exception of a
//! position the tables do not cover, table errors as exceptions,
//! ``Fraction``s) and seeded matches (`match`). Each question is a library
//! request wrapped by its own file: `odds.rs`, `best.rs`, `value.rs`,
//! `solve.rs`. Long calls run without the GIL (`interrupt::run`); `best`,
//! `solve_tables` and `match` read the stop flag that Ctrl-C raises.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use dalkon_daldos::engine::PlayerSpec;
use dalkon_daldos::request::{
    MatchError, MatchRequest, DEFAULT_GAMES, DEFAULT_MATCH_SEED, DEFAULT_TURN_CAP,
};
use dalkon_daldos::solved::{TableError, Tables};
use pyo3::create_exception;
use pyo3::prelude::*;

use super::Rules;
use crate::{errors, interrupt};

create_exception!(
    dalkon,
    NotCoveredError,
    errors::InputError,
    "A position the solved tables do not cover; the message names the layer and the command that builds it."
);

/// A table error as its exception (files and memory: DataError, as the
/// CLI's exit code 1; a position not covered: NotCoveredError; the rest
/// bad input), `prefix` put before its message.
pub(crate) fn table_error(e: TableError, prefix: &str) -> PyErr {
    let message = format!("{prefix}{}", dalkon_render::one_line(&e));
    match e {
        TableError::NotCovered { .. } => NotCoveredError::new_err(message),
        e if e.is_bad_input() => errors::InputError::new_err(message),
        _ => errors::data(message),
    }
}

/// The tables folder ([`dalkon_store::data_dir`], as the CLI's
/// `--db-dir`): `db_dir`, else `$DALKON_DB_DIR`, else
/// `./dalkon-db` if it exists, else `$XDG_DATA_HOME/dalkon`, else `~/.local/share/dalkon`.
pub(crate) fn tables_dir(arg: Option<PathBuf>) -> PyResult<PathBuf> {
    dalkon_daldos::request::tables_dir(arg).map_err(|e| errors::InputError::new_err(e.to_string()))
}

/// Every layer of `rules` whose file is in `dir`.
fn load_tables(dir: &Path, rules: Rules) -> PyResult<Arc<Tables>> {
    dalkon_daldos::request::load_tables(dir, rules.board, rules.variants)
        .map(Arc::new)
        .map_err(|e| table_error(e, &format!("reading the tables in {}: ", dir.display())))
}

/// A `fractions.Fraction` from `7/16` (or `0`, `1`).
pub(super) fn fraction<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("fractions")?.getattr("Fraction")?.call1((text,))
}

// ---------------------------------------------------------------- match

/// What ``dalkon daldos match --format json`` answers.
#[pyclass(
    name = "MatchResult",
    module = "dalkon.daldos",
    frozen,
    skip_from_py_object
)]
#[derive(Debug, Clone)]
pub struct MatchOutcome {
    /// Games played.
    #[pyo3(get)]
    games: u32,
    /// Games won by ``a``.
    #[pyo3(get)]
    a_wins: u32,
    /// Games won by ``b``.
    #[pyo3(get)]
    b_wins: u32,
    /// Games stopped at the turn cap (won by neither).
    #[pyo3(get)]
    capped: u32,
    /// ``a_wins / games``.
    #[pyo3(get)]
    a_win_rate: f64,
    /// Wilson 95% interval of ``a``'s win rate.
    #[pyo3(get)]
    ci95: (f64, f64),
    /// Games won by the side that started.
    #[pyo3(get)]
    first_player_wins: u32,
    /// ``first_player_wins / games``.
    #[pyo3(get)]
    first_player_win_rate: f64,
    /// Mean throws per game.
    #[pyo3(get)]
    mean_turns: f64,
    /// Player a, e.g. ``"engine:2"``.
    #[pyo3(get)]
    a: String,
    /// Player b.
    #[pyo3(get)]
    b: String,
    /// The seed.
    #[pyo3(get)]
    seed: u64,
    /// The board's name.
    #[pyo3(get)]
    board: String,
    /// The rule options, ``"dal=any capture=final end=last"``.
    #[pyo3(get)]
    rules: String,
    /// Throws after which a game is stopped.
    #[pyo3(get)]
    turn_cap: u32,
    /// Wall time (the only field that changes between runs).
    #[pyo3(get)]
    seconds: f64,
    /// Every game in index order: ``(winner, a_first, throws)`` with winner
    /// 0 for ``a``, 1 for ``b``, None if capped.
    #[pyo3(get)]
    records: Vec<(Option<u8>, bool, u32)>,
}

#[pymethods]
impl MatchOutcome {
    fn __repr__(&self) -> String {
        format!(
            "MatchResult(a={:?}, b={:?}, games={}, a_wins={}, b_wins={}, seed={})",
            self.a, self.b, self.games, self.a_wins, self.b_wins, self.seed
        )
    }
}

/// A seeded, replayable match of ``games`` games between players ``a`` and
/// ``b`` (``"random"``, ``"greedy"``, ``"engine:N"``, ``"perfect"``) from the
/// start position of ``rules``' board, as ``dalkon daldos match``: game i
/// depends on ``(seed, i)`` alone, ``a`` starts the even games. ``perfect``
/// plays from the solved tables in ``db_dir`` and is refused unless they
/// cover the whole game. Runs without the GIL; Ctrl-C stops it.
#[pyfunction(name = "match")]
#[pyo3(signature = (a, b, games = DEFAULT_GAMES, seed = DEFAULT_MATCH_SEED, rules = None, db_dir = None, turn_cap = DEFAULT_TURN_CAP))]
#[allow(clippy::too_many_arguments)] // the Python signature
fn match_(
    py: Python<'_>,
    a: &str,
    b: &str,
    games: u32,
    seed: u64,
    rules: Option<Rules>,
    db_dir: Option<PathBuf>,
    turn_cap: u32,
) -> PyResult<MatchOutcome> {
    let spec = |name: &str, text: &str| -> PyResult<PlayerSpec> {
        text.parse::<PlayerSpec>()
            .map_err(|e| errors::InputError::new_err(format!("{name}: {e}")))
    };
    let rules = rules.unwrap_or_default();
    let request = MatchRequest::new(
        (spec("a", a)?, spec("b", b)?),
        (rules.board, rules.variants),
        games,
        seed,
        turn_cap,
    )
    .map_err(|e| errors::InputError::new_err(e.to_string()))?;
    let tables = if request.needs_tables() {
        Some(load_tables(&tables_dir(db_dir)?, rules)?)
    } else {
        None
    };
    let outcome = interrupt::run(py, |stop| request.run(tables.as_ref(), &|| {}, stop))?.map_err(
        |e| match &e {
            MatchError::Player { player, .. } => {
                errors::InputError::new_err(format!("{player}: {}", dalkon_render::one_line(&e)))
            }
            _ => errors::InputError::new_err(e.to_string()),
        },
    )?;
    let Some(outcome) = outcome else {
        // Only a raised stop flag ends a match early, and then
        // `interrupt::run` raised KeyboardInterrupt above.
        return Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(
            "the match was interrupted",
        ));
    };
    let (r, report) = (outcome.result, outcome.report);
    Ok(MatchOutcome {
        games: r.games,
        a_wins: r.a_wins,
        b_wins: r.b_wins,
        capped: r.capped,
        a_win_rate: r.a_win_rate,
        ci95: r.ci95,
        first_player_wins: r.first_player_wins,
        first_player_win_rate: r.first_player_win_rate,
        mean_turns: r.mean_turns,
        a: report.a,
        b: report.b,
        seed,
        board: report.board,
        rules: report.rules,
        turn_cap,
        seconds: report.seconds,
        records: r
            .records
            .iter()
            .map(|g| (g.winner, g.a_first, g.turns))
            .collect(),
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("NotCoveredError", py.get_type::<NotCoveredError>())?;
    m.add_class::<MatchOutcome>()?;
    m.add_function(wrap_pyfunction!(match_, m)?)?;
    Ok(())
}
