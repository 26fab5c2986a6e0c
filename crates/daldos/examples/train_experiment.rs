//! `daldos train` with other settings than the committed weights', for
//! measuring a change to the learned evaluation's training before making
//! it the default (docs/daldos-eval.md):
//!
//!     cargo run --release -p dalkon-daldos --example train_experiment -- out=FILE [key=value ...]
//!
//! Keys: `seed`, `hidden` (units), `epochs` (on the tables), `rounds`,
//! `games` (a board and round), `lambda`, `explore`, `exact` (samples a
//! round), `round-epochs`, `lr` (a round's step), `play-depth`,
//! `target-depth`, `tables` (0 or 1: self-play searches with the solved
//! tables and takes their values as targets), `db` (the tables' folder,
//! default the CLI's). Prints each round and the report's table; compare
//! the weights with `dalkon-reproduce`'s `weights_match` example
//! (`net:FILE`).

use std::path::PathBuf;

use dalkon_daldos::engine::learn::{EpochReport, RoundReport, SelfPlayConfig};
use dalkon_daldos::request::tables_dir;
use dalkon_daldos::request::train::{TrainProgress, TrainRequest};
use dalkon_daldos::solved::BuildProgress;

struct Lines(std::time::Instant);

impl BuildProgress for Lines {}

impl TrainProgress for Lines {
    fn epoch(&mut self, e: &EpochReport) {
        eprintln!(
            "epoch {} loss {:.5} mae {:.4} ({:.0} s)",
            e.epoch,
            e.loss,
            e.mae,
            self.0.elapsed().as_secs_f64()
        );
    }
    fn round(&mut self, r: &RoundReport) {
        eprintln!(
            "round {} positions {} td {:.4} ({:.0} s)",
            r.round,
            r.positions,
            r.td_error,
            self.0.elapsed().as_secs_f64()
        );
    }
}

fn main() {
    let mut out = None;
    let mut db = None;
    let mut seed = 1u64;
    let mut sp = SelfPlayConfig {
        rounds: 40,
        ..SelfPlayConfig::default()
    };
    let mut hidden = None;
    let mut epochs = None;
    for a in std::env::args().skip(1) {
        let (k, v) = a.split_once('=').expect("key=value");
        match k {
            "out" => out = Some(PathBuf::from(v)),
            "db" => db = Some(PathBuf::from(v)),
            "seed" => seed = v.parse().expect("seed"),
            "hidden" => hidden = Some(v.parse().expect("hidden")),
            "epochs" => epochs = Some(v.parse().expect("epochs")),
            "rounds" => sp.rounds = v.parse().expect("rounds"),
            "games" => sp.games = v.parse().expect("games"),
            "lambda" => sp.lambda = v.parse().expect("lambda"),
            "explore" => sp.explore = v.parse().expect("explore"),
            "exact" => sp.exact = v.parse().expect("exact"),
            "round-epochs" => sp.epochs = v.parse().expect("round-epochs"),
            "lr" => sp.lr = v.parse().expect("lr"),
            "play-depth" => sp.play_depth = v.parse().expect("play-depth"),
            "target-depth" => sp.target_depth = v.parse().expect("target-depth"),
            "tables" => sp.use_tables = v == "1",
            _ => panic!("unknown key {k}"),
        }
    }
    sp.seed = seed;
    let dir = tables_dir(db).expect("a tables folder");
    let mut req = TrainRequest::new(dir, out.expect("out=FILE"), seed);
    if let Some(h) = hidden {
        req.config.hidden = h;
    }
    if let Some(e) = epochs {
        req.config.epochs = e;
    }
    if sp.rounds > 0 {
        req.self_play = Some(sp);
    }
    let report = req
        .run(&mut Lines(std::time::Instant::now()))
        .expect("training");
    print!("{}", report.text());
}
