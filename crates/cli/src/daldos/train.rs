//! `dalkon daldos train --out FILE [--seed N] [--db-dir DIR]`
//! (docs/daldos-eval.md): train the learned evaluation on the solved
//! tables (built in the table folder if missing) and write its weights.
//! The library (`dalkon_daldos::request::train`) holds the scopes, the
//! held-out layer and the net's settings; this file prints progress lines
//! on stderr and the report.

use std::path::PathBuf;

use dalkon_daldos::engine::learn::{EpochReport, RoundReport, SelfPlayConfig};
use dalkon_daldos::request::tables_dir;
use dalkon_daldos::request::train::{TrainError, TrainProgress, TrainRequest, DEFAULT_TRAIN_SEED};
use dalkon_daldos::solved::{BuildProgress, LayerKey};
use dalkon_render::daldos::train as lines;
use dalkon_rules::daldos::Board;

use super::solve::table_error;
use crate::common::{Format, Global};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The weights file to write (the committed one is
    /// crates/daldos/weights/eval.net).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// The seed of the samples, the initial weights and their order.
    #[arg(long, default_value_t = DEFAULT_TRAIN_SEED)]
    pub seed: u64,
    /// Folder of the tables (default: $DALKON_DB_DIR, else ./dalkon-db if
    /// it exists, else $XDG_DATA_HOME/dalkon, else ~/.local/share/dalkon);
    /// the missing ones are built there.
    #[arg(long, value_name = "DIR")]
    pub db_dir: Option<PathBuf>,
    /// After the tables, refine by this many rounds of self-play on the
    /// full Danish and Norwegian boards (docs/daldos-eval.md; 0: none).
    #[arg(long, default_value_t = 0, value_name = "ROUNDS")]
    pub self_play: u32,
}

/// Progress lines on stderr.
struct Lines;

impl BuildProgress for Lines {
    fn pair_started(&mut self, key: LayerKey, positions: u64, loaded: bool) {
        if !loaded {
            eprintln!("{}", lines::solving(key, positions));
        }
    }
}

impl TrainProgress for Lines {
    fn scope(&mut self, board: Board, pieces: (u8, u8)) {
        eprintln!("{}", lines::scope(board, pieces));
    }
    fn sampled(&mut self, key: LayerKey, samples: usize, held_out: bool) {
        eprintln!("{}", lines::sampled(key, samples, held_out));
    }
    fn round(&mut self, r: &RoundReport) {
        eprintln!("{}", lines::round(r));
    }
    fn epoch(&mut self, e: &EpochReport) {
        eprintln!("{}", lines::epoch(e));
    }
}

pub fn run(global: &Global, args: Args, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    let dir = tables_dir(args.db_dir)?;
    let mut request = TrainRequest::new(dir, args.out, args.seed);
    if args.self_play > 0 {
        request.self_play = Some(SelfPlayConfig {
            rounds: args.self_play,
            seed: args.seed,
            ..SelfPlayConfig::default()
        });
    }
    let report = request.run(&mut Lines).map_err(|e| match e {
        TrainError::Table(e) => table_error(e),
        e => anyhow::Error::new(e),
    })?;
    if format == Format::Json {
        writeln!(out, "{}", serde_json::to_string(&report)?)?;
    } else {
        write!(out, "{}", report.text())?;
    }
    Ok(())
}
