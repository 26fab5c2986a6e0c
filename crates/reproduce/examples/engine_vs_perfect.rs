//! The error rates of the players against the solved tables
//! (`dalkon_daldos::engine::loss`, the rows of
//! `data/daldos/engine_vs_perfect.csv`), with timings:
//!
//!     cargo run --release -p dalkon-reproduce --example engine_vs_perfect -- DIR [--extra] [--no-matches]
//!
//! Builds (or loads) the tables of the whole L = 4 game and of the
//! Norwegian board up to 2 v 2 in `DIR`, and uses the Norwegian 3 v 3
//! layer too when its tables (and those it leads to) are in `DIR`. Prints
//! the Markdown tables, then the CSV; timings go to stderr. `--extra` also
//! measures `engine:N+tables` and `hand:N+tables` (the tables of every
//! smaller piece total at the search's leaves) and `hand:N(exact-fit)`, the hand-fitted
//! evaluation with the weights fitted to exact values
//! (`EvalWeights::EXACT_FIT`, not its default); `--danish` adds the
//! Danish 2 v 2 layer (a layer the learned evaluation was trained on;
//! Norwegian 2 v 2 is held out of its training, docs/daldos-eval.md);
//! `--decisions N` and `--games N` change the sizes (2000 and 1000); each
//! `--weights M,D,A,DALT,RACE` measures the hand-fitted evaluation with
//! those weights too.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use dalkon_daldos::engine::loss::{
    decisions, losses, perfect_match, standard_sets, summarise, Contender, ContenderKind,
};
use dalkon_daldos::engine::{EvalWeights, MatchConfig};
use dalkon_daldos::solved::{plan, NoProgress, Tables, EPS};
use dalkon_rules::daldos::{Board, Variants};

fn tables(board: Board, pieces: (u8, u8), dir: &std::path::Path) -> Arc<Tables> {
    let v = Variants::default();
    let t0 = Instant::now();
    let mut t = Tables::new(board, v, Some(dir));
    let p = plan(board, &v, pieces).expect("a plan");
    t.build(&p, EPS, &mut NoProgress).expect("tables build");
    let more = t.load_all().expect("tables load");
    eprintln!(
        "tables of board {} (up to {} v {}, {more} layers in {}): {:.1} s",
        board.name(),
        pieces.0,
        pieces.1,
        dir.display(),
        t0.elapsed().as_secs_f64()
    );
    Arc::new(t)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().expect("usage: engine_vs_perfect DIR [--extra]"));
    let (mut extra, mut matches, mut n, mut games) = (false, true, 2000usize, 1000u32);
    let mut danish = false;
    let mut weights: Vec<EvalWeights> = Vec::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--weights" => {
                let x: Vec<f64> = args
                    .next()
                    .expect("--weights material,defend,attack,dalt,race")
                    .split(',')
                    .map(|t| t.parse().expect("a number"))
                    .collect();
                weights.push(EvalWeights {
                    material: x[0],
                    defend: x[1],
                    attack: x[2],
                    dalt: x[3],
                    dalt_cap: 8,
                    race: x[4],
                });
            }
            "--extra" => extra = true,
            "--danish" => danish = true,
            "--no-matches" => matches = false,
            "--decisions" => n = args.next().and_then(|x| x.parse().ok()).expect("a number"),
            "--games" => games = args.next().and_then(|x| x.parse().ok()).expect("a number"),
            _ => panic!("unknown argument {a}"),
        }
    }
    let l4 = tables(Board::new(4).expect("L = 4"), (4, 4), &dir);
    let norwegian = tables(Board::NORWEGIAN, (2, 2), &dir);
    let mut cfg = dalkon_daldos::engine::StudyConfig {
        decisions: n,
        games,
        ..Default::default()
    };
    if extra {
        for d in 1..=3 {
            cfg.contenders.push(Contender::engine_with_tables(d));
            cfg.contenders.push(Contender {
                name: format!("hand:{d}+tables"),
                kind: ContenderKind::Engine {
                    depth: d,
                    weights: Some(EvalWeights::default()),
                    tables_below: true,
                },
            });
        }
        for d in 1..=3 {
            cfg.contenders.push(Contender {
                name: format!("hand:{d}(exact-fit)"),
                kind: ContenderKind::Engine {
                    depth: d,
                    weights: Some(EvalWeights::EXACT_FIT),
                    tables_below: false,
                },
            });
        }
    }
    for (k, w) in weights.iter().enumerate() {
        for d in 1..=3 {
            cfg.contenders.push(Contender {
                name: format!("hand:{d}(weights {})", k + 1),
                kind: ContenderKind::Engine {
                    depth: d,
                    weights: Some(*w),
                    tables_below: false,
                },
            });
        }
    }
    let mut sets = standard_sets(&l4, &norwegian, &[(2, 2), (3, 3)]);
    let base_sets = sets.len();
    if danish {
        let danish = tables(Board::DANISH, (2, 2), &dir);
        sets.extend(
            standard_sets(&danish, &danish, &[(2, 2)])
                .into_iter()
                .skip(1),
        );
    }
    if base_sets < 3 {
        eprintln!(
            "layer 3 v 3 of the Norwegian board left out: its tables (and those it leads to) \
             are not all in {} (dalkon daldos solve --board norwegian --pieces 3,3)",
            dir.display()
        );
    }
    // The study's pieces one by one, timed (`study` does the same in one
    // call).
    let mut study = dalkon_daldos::engine::Study {
        losses: Vec::new(),
        matches: Vec::new(),
    };
    for set in &sets {
        let board = set.tables.board();
        let t0 = Instant::now();
        let seed = dalkon_daldos::engine::loss::set_seed(cfg.seed, board, set.source);
        let ds = decisions(&set.tables, set.source, cfg.decisions, seed).expect("decisions");
        eprintln!(
            "{} {}: {} decisions drawn in {:.1} s",
            board.name(),
            set.source.label(),
            ds.len(),
            t0.elapsed().as_secs_f64()
        );
        for c in &cfg.contenders {
            let t0 = Instant::now();
            let l = losses(&set.tables, c, &ds, seed).expect("covered decisions");
            let (mean_loss, p99_loss, errors) = summarise(&l);
            eprintln!(
                "  {:<22} mean {mean_loss:.6} p99 {p99_loss:.6} errors {errors}: {:.1} s",
                c.name,
                t0.elapsed().as_secs_f64()
            );
            study.losses.push(dalkon_daldos::engine::LossRow {
                board,
                layer: set.source.label(),
                player: c.name.clone(),
                decisions: ds.len(),
                mean_loss,
                p99_loss,
                errors,
            });
        }
    }
    if matches {
        for c in &cfg.match_contenders {
            let t0 = Instant::now();
            let mc = MatchConfig {
                games: cfg.games,
                seed: cfg.seed,
                ..MatchConfig::default()
            };
            let m = perfect_match(&l4, c, mc).expect("L = 4 tables cover the game");
            eprintln!(
                "  {} vs perfect: {}/{} ({:.1} s)",
                c.name,
                m.wins,
                m.games,
                t0.elapsed().as_secs_f64()
            );
            study.matches.push(m);
        }
    }
    println!("{}", study.markdown());
    print!("{}", study.csv());
    if !study.matches.is_empty() {
        print!("\n{}", study.matches_csv());
    }
}
