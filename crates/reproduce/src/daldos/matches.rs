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
    /// Played by `reproduce --full` only (minutes); the default run keeps
    /// the result an earlier `--full` run wrote.
    pub full_only: bool,
}

/// The engine benchmark of the README: 1000-game matches, seed 1, Danish
/// board, default rules, `a` and `b` alternating as the starting side.
/// Targets: engine:2 wins at least 95% against random and 70% against
/// greedy; engine:2 against itself measures the value of starting;
/// engine:3 against greedy what one more throw of depth buys.
pub const MATCHES: [BenchMatch; 4] = [
    BenchMatch {
        key: "engine2_vs_random",
        a: "engine:2",
        b: "random",
        full_only: false,
    },
    BenchMatch {
        key: "engine2_vs_greedy",
        a: "engine:2",
        b: "greedy",
        full_only: false,
    },
    BenchMatch {
        key: "engine2_vs_engine2",
        a: "engine:2",
        b: "engine:2",
        full_only: false,
    },
    BenchMatch {
        key: "engine3_vs_greedy",
        a: "engine:3",
        b: "greedy",
        full_only: true,
    },
];

/// The benchmark's match settings.
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
        let result = play(&a, &b, progress)?;
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

/// Play one benchmark match (Danish board, default rules, [`MATCH_CONFIG`])
/// between players that need no tables, its games shown on `progress`.
fn play(a: &PlayerSpec, b: &PlayerSpec, progress: &dyn Progress) -> anyhow::Result<MatchReport> {
    let board = Board::DANISH;
    let game = Daldos::new(Default::default());
    let start = Position::start(board);
    let pa = a.build(&game, &start, None)?;
    let pb = b.build(&game, &start, None)?;
    let bar = progress.games(u64::from(MATCH_CONFIG.games), &format!("{a} vs {b}"));
    let started = std::time::Instant::now();
    let r = play_match(
        &game,
        &start,
        pa.as_ref(),
        pb.as_ref(),
        MATCH_CONFIG,
        &|| bar.inc(),
    );
    drop(bar);
    Ok(MatchReport::new(
        (a, b),
        board,
        &game.variants,
        MATCH_CONFIG,
        &r,
        started.elapsed().as_secs_f64(),
    ))
}
