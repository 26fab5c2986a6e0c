//! The layer log of an openings count (the same `LayerDone` lines an MPI
//! build prints), as CSV on standard output: one line per layer and pass
//! with its positions, its hash and the seconds since the start. Used to
//! measure the positions per layer that `scripts/scale_model.py` fits
//! (`data/scale/openings_layers.csv`).
//!
//!     cargo run --release -p dalkon-dakon --example openings_layers -- HOLES SEEDS [--forward-only] [--max-positions N] [--memory-mb MIB] [--work-dir DIR]
//!
//! `--forward-only` exits as soon as the backward pass starts (the forward
//! pass alone finds every position); `--max-positions` abandons the count
//! beyond that many positions, and the log holds the layers finished
//! before (the error names the layer being added and its size).

use std::time::Instant;

use dalkon_dakon::openings::{
    openings_with_progress, LayerDone, OpeningLimits, OpeningsProgress, Pass,
};
use dalkon_dakon::solve::start_position;
use dalkon_rules::dakon::Rules;

struct Log {
    t0: Instant,
    forward_only: bool,
}

impl OpeningsProgress for Log {
    fn layer(&self, pass: Pass, _layer: u32, _layers: u32, _positions: u64) {
        if self.forward_only && pass == Pass::Backward {
            eprintln!(
                "forward pass done in {:.1} s",
                self.t0.elapsed().as_secs_f64()
            );
            std::process::exit(0);
        }
    }

    fn layer_done(&self, d: &LayerDone) {
        let pass = match d.pass {
            Pass::Forward => "forward",
            Pass::Backward => "backward",
        };
        println!(
            "{pass},{},{},{:016x},{:.3}",
            d.layer,
            d.positions,
            d.hash,
            self.t0.elapsed().as_secs_f64()
        );
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: openings_layers HOLES SEEDS [--forward-only] [--max-positions N] [--memory-mb MIB] [--work-dir DIR]";
    let holes: usize = args.first().ok_or(usage)?.parse()?;
    let seeds: u32 = args.get(1).ok_or(usage)?.parse()?;
    let mut limits = OpeningLimits {
        memory_bytes: 16 << 30,
        ..OpeningLimits::default()
    };
    let mut forward_only = false;
    let mut rest = args[2..].iter();
    while let Some(a) = rest.next() {
        match a.as_str() {
            "--forward-only" => forward_only = true,
            "--max-positions" => limits.max_positions = rest.next().ok_or(usage)?.parse()?,
            "--work-dir" => limits.work_dir = Some(rest.next().ok_or(usage)?.into()),
            "--memory-mb" => {
                limits.memory_bytes = rest.next().ok_or(usage)?.parse::<u64>()? << 20;
            }
            _ => return Err(usage.into()),
        }
    }
    limits.layers_in_memory = limits.memory_bytes / 16;
    let pos = start_position(holes, seeds)?;
    println!("pass,layer,positions,hash,seconds");
    let log = Log {
        t0: Instant::now(),
        forward_only,
    };
    let o = openings_with_progress(&pos, &Rules::default(), &limits, &log)?;
    eprintln!(
        "{holes}x{seeds}: {} positions, {} winning, peak {} bytes charged, {:.1} s",
        o.positions,
        o.winning_positions,
        o.peak_bytes,
        log.t0.elapsed().as_secs_f64()
    );
    Ok(())
}
