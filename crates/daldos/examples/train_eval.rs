//! Train the learned evaluation with the library's defaults, printing
//! epochs (the `dalkon daldos train` command is the front end):
//!
//!     cargo run --release -p dalkon-daldos --example train_eval -- DIR OUT [SEED [EPOCHS [HIDDEN [PER_LAYER]]]]

use dalkon_daldos::engine::learn::EpochReport;
use dalkon_daldos::request::train::{TrainProgress, TrainRequest};
use dalkon_daldos::solved::BuildProgress;

struct Print;
impl BuildProgress for Print {}
impl TrainProgress for Print {
    fn epoch(&mut self, e: &EpochReport) {
        eprintln!(
            "epoch {}/{}: loss {:.5} mae {:.5}",
            e.epoch, e.epochs, e.loss, e.mae
        );
    }
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let seed = a.get(2).map_or(1, |s| s.parse().expect("seed"));
    let mut r = TrainRequest::new(a[0].clone().into(), a[1].clone().into(), seed);
    if let Some(e) = a.get(3) {
        r.config.epochs = e.parse().expect("epochs");
    }
    if let Some(h) = a.get(4) {
        r.config.hidden = h.parse().expect("hidden");
    }
    if let Some(n) = a.get(5) {
        r.per_layer = n.parse().expect("per layer");
    }
    let rep = r.run(&mut Print).expect("training");
    print!("{}", rep.text());
}
