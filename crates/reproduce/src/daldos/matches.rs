//! `matches.json`: the engine benchmark, [`MATCHES`] being the one list of
//! its matches (`scripts/daldos_matches.sh` runs them all through
//! `reproduce --only daldos --full`).

use std::path::Path;

use anyhow::Context;

use dalkon_daldos::engine::{play_match, Daldos, MatchConfig, PlayerSpec};
use dalkon_daldos::request::MatchReport;
use dalkon_rules::daldos::{Board, Position};

use crate::log::RunLog;
use crate::progress::Progress;
use crate::write_file as write;

/// One match of the engine benchmark.
#[derive(Debug, Clone, Copy)]
pub struct BenchMatch {
    /// Its key in `matches.json`.
    pub key: &'static str,
    /// Player a (who starts game 0) and player b.
    pub a: &'static str,
    pub b: &'static str,
    /// The board, from its start.
    pub board: Board,
    /// Games played.
    pub games: u32,
    /// Played by `reproduce --full` only (minutes); the default run keeps
    /// the result an earlier `--full` run wrote.
    pub full_only: bool,
}

/// The engine benchmark of the README: seeded matches (seed 1) from the
/// start, default rules, `a` and `b` alternating as the starting side.
/// Targets: engine:2 wins at least 95% against random and 70% against
/// greedy; engine:2 against itself measures the value of starting;
/// engine:3 against greedy what one more throw of depth buys; the default
/// engine (learned evaluation) against the hand-fitted one at depths 2
/// and 3 what the learned evaluation buys (issue 21's target: engine:3
/// wins at least 58% of 2,000 games against hand:3 on either board).
pub const MATCHES: [BenchMatch; 8] = [
    bench(
        "engine2_vs_random",
        "engine:2",
        "random",
        Board::DANISH,
        1000,
        false,
    ),
    bench(
        "engine2_vs_greedy",
        "engine:2",
        "greedy",
        Board::DANISH,
        1000,
        false,
    ),
    bench(
        "engine2_vs_engine2",
        "engine:2",
        "engine:2",
        Board::DANISH,
        1000,
        false,
    ),
    bench(
        "engine2_vs_hand2",
        "engine:2",
        "hand:2",
        Board::DANISH,
        1000,
        false,
    ),
    bench(
        "engine3_vs_greedy",
        "engine:3",
        "greedy",
        Board::DANISH,
        1000,
        true,
    ),
    bench(
        "hand3_vs_greedy",
        "hand:3",
        "greedy",
        Board::DANISH,
        1000,
        true,
    ),
    bench(
        "engine3_vs_hand3",
        "engine:3",
        "hand:3",
        Board::DANISH,
        2000,
        true,
    ),
    bench(
        "engine3_vs_hand3_norwegian",
        "engine:3",
        "hand:3",
        Board::NORWEGIAN,
        2000,
        true,
    ),
];

const fn bench(
    key: &'static str,
    a: &'static str,
    b: &'static str,
    board: Board,
    games: u32,
    full_only: bool,
) -> BenchMatch {
    BenchMatch {
        key,
        a,
        b,
        board,
        games,
        full_only,
    }
}

/// The benchmark's match settings (each match its own number of games).
pub(super) const MATCH_CONFIG: MatchConfig = MatchConfig {
    games: 1000,
    seed: 1,
    turn_cap: 5000,
};

/// A match result as `matches.json` holds it: the `match` JSON of docs/cli.md
/// without `seconds`, the one field that changes from run to run.
pub(super) fn without_seconds(mut v: serde_json::Value) -> serde_json::Value {
    if let Some(map) = v.as_object_mut() {
        map.remove("seconds");
    }
    v
}

/// Write `out/daldos/matches.json`: the [`MATCHES`] (those marked
/// `full_only` with `full`; else kept from the file when an earlier
/// `--full` run wrote them).
pub(super) fn reproduce_matches(
    out: &Path,
    full: bool,
    log: &mut RunLog,
    progress: &dyn Progress,
    say: &mut dyn std::io::Write,
) -> anyhow::Result<()> {
    let dir = out.join("daldos");
    let path = dir.join("matches.json");
    let earlier = if full {
        serde_json::Map::new()
    } else {
        match std::fs::read_to_string(&path) {
            Ok(text) => match serde_json::from_str(&text)
                .with_context(|| format!("cannot read {} as JSON", path.display()))?
            {
                serde_json::Value::Object(map) => map,
                _ => anyhow::bail!("{}: not a JSON object", path.display()),
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => serde_json::Map::new(),
            Err(e) => {
                return Err(anyhow::Error::new(e).context(format!("cannot read {}", path.display())))
            }
        }
    };
    let mut json = serde_json::Map::new();
    let mut full_keys = Vec::new();
    for m in MATCHES {
        if m.full_only {
            full_keys.push(m.key);
        }
        if m.full_only && !full {
            match earlier.get(m.key) {
                Some(v) if v.is_object() => {
                    json.insert(m.key.into(), without_seconds(v.clone()));
                }
                Some(_) => anyhow::bail!("{}: {} is not a JSON object", path.display(), m.key),
                None => {}
            }
            continue;
        }
        let (a, b): (PlayerSpec, PlayerSpec) = (m.a.parse()?, m.b.parse()?);
        let result = play(&m, &a, &b, progress)?;
        writeln!(
            say,
            "daldos match {a} vs {b}: a wins {}/{}, {:.1} s",
            result.a_wins, result.games, result.seconds
        )?;
        log.note(format!(
            "daldos match {} ({a} vs {b}): seconds={:.3}",
            m.key, result.seconds
        ));
        json.insert(
            m.key.into(),
            without_seconds(serde_json::to_value(&result)?),
        );
    }
    // Which command wrote the file depends only on which matches it holds.
    let present: Vec<&str> = full_keys
        .into_iter()
        .filter(|k| json.contains_key(*k))
        .collect();
    let command = if present.is_empty() {
        "dalkon reproduce".to_owned()
    } else {
        format!(
            "dalkon reproduce ({}: dalkon reproduce --full)",
            present.join(", ")
        )
    };
    json.insert("command".into(), command.into());
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    write(&path, &(serde_json::to_string_pretty(&json)? + "\n"))
}

/// Play one benchmark match (its board and games, default rules,
/// [`MATCH_CONFIG`]) between players that need no tables, its games shown
/// on `progress`.
fn play(
    m: &BenchMatch,
    a: &PlayerSpec,
    b: &PlayerSpec,
    progress: &dyn Progress,
) -> anyhow::Result<MatchReport> {
    let board = m.board;
    let config = MatchConfig {
        games: m.games,
        ..MATCH_CONFIG
    };
    let game = Daldos::new(Default::default());
    let start = Position::start(board);
    let pa = a.build(&game, &start, None)?;
    let pb = b.build(&game, &start, None)?;
    let bar = progress.games(u64::from(config.games), &format!("{a} vs {b}"));
    let started = std::time::Instant::now();
    let r = play_match(&game, &start, pa.as_ref(), pb.as_ref(), config, &|| {
        bar.inc()
    });
    drop(bar);
    Ok(MatchReport::new(
        (a, b),
        board,
        &game.variants,
        config,
        &r,
        started.elapsed().as_secs_f64(),
    ))
}
