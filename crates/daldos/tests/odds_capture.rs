//! Capture odds on hand-worked positions (docs/rules.md §1.3), the variants that
//! change them, the truncation bound, and the cheap `f64` risk.

use dalkon_daldos::capture::{capture_odds, capture_odds_with, capture_risk_f64, OddsLimits};
use dalkon_daldos::engine::Rng;
use dalkon_daldos::ratio::{ratio, sixteenth_pow, to_f64};
use dalkon_daldos::tables::table_position;
use dalkon_rules::daldos::{
    plays, Board, CaptureRule, DalRule, EndRule, Position, Side, Throw, Variants,
};
use num_traits::Zero;

fn pos(s: &str) -> Position {
    s.parse().unwrap()
}

fn v(dal: DalRule, capture: CaptureRule) -> Variants {
    Variants {
        dal,
        capture,
        end: EndRule::Last,
    }
}

/// B's only piece, undalt on B16, three holes behind A's only piece on M14.
/// (1,2) and (2,1) dall it into M16 and go on to M14: 2/16. Any other throw
/// with a dal must be one added move (both dice can be used) and overshoots
/// or stops short. The dal-dal is forced too: B16-M16-M15, one behind, from
/// where every throw with a dal captures (the capture ends the game, so the
/// play may stop after that die): 7/16. Total 2/16 + 7/256 = 39/256, exact.
#[test]
fn undalt_piece_three_behind() {
    let p = pos("................/..............a../...............B b");
    let odds = capture_odds(&p, &Variants::default());
    assert_eq!(odds.side, Side::B);
    assert_eq!(odds.targets.len(), 1);
    assert_eq!(Board::DANISH.hole_name(odds.targets[0].hole), "M14");
    assert_eq!(odds.targets[0].probability, ratio(39, 256));
    assert_eq!(odds.any, ratio(39, 256));
    assert!(odds.exact);
    assert!(odds.bound.is_zero());
}

/// A's piece on M16, right where B16 is dalled to. Under `capture=final`
/// every throw with a dal is one forced added move that passes over it
/// (nothing within reach ever after); under `capture=path` the added move
/// captures on the hole it is dalled onto: 6/16 + the dal-dal 1/16 = 7/16.
#[test]
fn capture_path_takes_on_the_dal_hole() {
    let p = pos("................/................a/a..............B b");
    let path = capture_odds(&p, &v(DalRule::Any, CaptureRule::Path));
    assert_eq!(path.targets[0].probability, ratio(7, 16));
    assert!(path.exact);
    let fin = capture_odds(&p, &Variants::default());
    assert!(fin.targets[0].probability.is_zero());
    // The piece could only come back round the loop after many dal-dals:
    // not exact, but within the bound.
    assert!(!fin.exact);
    assert_eq!(fin.bound, sixteenth_pow(10));
}

/// B undalt on B3 and B16, A's piece on B4. Under `dal=any` a dal on B3
/// captures: 6/16 + 1/16. Under `dal=sternmost` only B16 may be dalled,
/// and B3 only after it: with the second dal of a dal-dal, 1/16.
#[test]
fn dal_sternmost_blocks_the_bow_piece() {
    let p = pos("................/................./..Ba...........B b");
    let any = capture_odds(&p, &Variants::default());
    assert_eq!(any.targets[0].probability, ratio(7, 16));
    let stern = capture_odds(&p, &v(DalRule::Sternmost, CaptureRule::Final));
    assert_eq!(stern.targets[0].probability, ratio(1, 16));
    assert!(any.exact && stern.exact);
}

/// Two targets and "any", where "both dice must be used" bites. B's dalt
/// b on M10 has A pieces 1 and 2 ahead (M9, M8); B's other pieces are
/// undalt on B1..B8 and can use nothing but a dal (on B8). So b may use one
/// die and stop only when the other die is a dal for B8: M8 falls to
/// (1,2), (2,1) and the dal-dal (1+1 added): 3/16; M9 needs b's 1 *and*
/// another 1 for B8: only the dal-dal, 1/16; "any" = 3/16. A dal-dal
/// captures both, so nothing is cut: exact.
#[test]
fn must_use_both_dice_limits_captures() {
    let p = pos("................/........aab....../BBBBBBBB........ b");
    let odds = capture_odds(&p, &Variants::default());
    assert_eq!(odds.targets.len(), 2);
    let names: Vec<String> = odds
        .targets
        .iter()
        .map(|t| Board::DANISH.hole_name(t.hole))
        .collect();
    assert_eq!(names, ["M8", "M9"]);
    assert_eq!(odds.targets[0].probability, ratio(3, 16));
    assert_eq!(odds.targets[1].probability, ratio(1, 16));
    assert_eq!(odds.any, ratio(3, 16));
    assert!(odds.exact);
}

/// The published d = 3 row: the `f64` risk counts one throw (and a capture
/// made with a dal-dal), so it gives 9/16 where the full odds give 3/5; at
/// d = 1 the dal-dal captures at once and both give 7/16.
#[test]
fn cheap_risk_is_the_one_throw_lower_bound() {
    for (d, risk) in [(1, 7.0 / 16.0), (3, 9.0 / 16.0), (5, 4.0 / 16.0)] {
        let p = table_position(Board::DANISH, &Variants::default(), d, None).unwrap();
        let r = capture_risk_f64(&p, &Variants::default());
        let a1 = r
            .iter()
            .find(|(h, _)| Board::DANISH.hole_name(*h) == "A16")
            .unwrap();
        assert_eq!(a1.1, risk, "d={d}");
        let full = capture_odds(&p, &Variants::default());
        let exact = to_f64(&full.targets[0].probability);
        assert!(a1.1 <= exact && exact <= a1.1 + 1.0 / 16.0 + 1e-12);
    }
}

/// Deterministic pseudo-random positions by quiet random play.
fn random_positions(board: Board, n: usize, turns: usize) -> Vec<Position> {
    let vars = Variants::default();
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut out = Vec::new();
    for _ in 0..n {
        let mut p = Position::start(board);
        for _ in 0..turns {
            let t = Throw::ALL[rng.below(16) as usize];
            let moves = plays(&p, &vars, t);
            if moves.is_empty() {
                break;
            }
            p = moves[rng.below(moves.len() as u64) as usize].result;
        }
        if !p.is_over(&vars) {
            out.push(p);
        }
    }
    out
}

/// Following one more rethrow can only raise a value, and never by more
/// than the bound the shallower search gave.
#[test]
fn deeper_rethrows_stay_within_the_bound() {
    for p in random_positions(Board::new(6).unwrap(), 12, 14) {
        let mut prev = None;
        for k in 0..4 {
            let limits = OddsLimits {
                max_daldals: k,
                max_nodes: 1_000_000,
                certify: false,
            };
            let o = capture_odds_with(&p, &Variants::default(), limits);
            if let Some(prev) = prev.replace(o.clone()) {
                let prev: dalkon_daldos::CaptureOdds = prev;
                for (a, b) in prev.targets.iter().zip(&o.targets) {
                    assert!(a.probability <= b.probability, "{p}");
                    assert!(b.probability <= &a.probability + &a.bound, "{p}");
                }
                assert!(prev.any <= o.any && o.any <= &prev.any + &prev.any_bound);
            }
            if o.exact {
                break;
            }
            assert_eq!(o.daldals, k);
            assert_eq!(o.bound, sixteenth_pow(k + 1));
        }
    }
}

/// The relaxed-model certificate against the full search, both cut after
/// three rethrows, on random positions of a small board: a certified
/// target has exactly the full search's value, and every interval the
/// certificates give contains it.
#[test]
fn certificates_agree_with_the_full_search() {
    let mut certified = 0;
    for p in random_positions(Board::new(7).unwrap(), 30, 24) {
        let limits = |certify| OddsLimits {
            max_daldals: 3,
            max_nodes: 2_000_000,
            certify,
        };
        let full = capture_odds_with(&p, &Variants::default(), limits(false));
        assert_eq!(full.daldals.min(3), full.daldals);
        let cert = capture_odds_with(&p, &Variants::default(), limits(true));
        for (f, c) in full.targets.iter().zip(&cert.targets) {
            assert_eq!(f.hole, c.hole);
            if f.exact {
                assert_eq!(c.probability, f.probability, "{p}");
                continue;
            }
            if full.daldals == 3 && c.certified {
                certified += 1;
                assert_eq!(c.probability, f.probability, "{p}");
            }
            assert!(c.probability <= &f.probability + &f.bound, "{p}");
            assert!(f.probability <= &c.probability + &c.bound, "{p}");
        }
        assert_eq!(cert.any, full.any);
    }
    assert!(certified > 20, "only {certified} certified targets");
}

/// The node budget stops the deepening at the last complete depth and
/// says so; the same limits always give the same answer.
#[test]
fn budget_gives_an_honest_bound() {
    let p = pos("AAAAAAAA.b.A..b./a..b.a.b.b.ba.b.a/BBBBBBB.a.BB.a.a b");
    let limits = OddsLimits {
        max_daldals: 9,
        max_nodes: 200,
        certify: false,
    };
    let a = capture_odds_with(&p, &Variants::default(), limits);
    let b = capture_odds_with(&p, &Variants::default(), limits);
    assert_eq!(a, b);
    assert!(!a.exact);
    assert!(a.daldals < 9);
    assert_eq!(a.bound, sixteenth_pow(a.daldals + 1));
    assert_eq!(a.targets.len(), 16);
    // One throw alone: the one-throw risk, exactly.
    let one = capture_odds_with(
        &p,
        &Variants::default(),
        OddsLimits {
            max_daldals: 0,
            max_nodes: 1,
            certify: false,
        },
    );
    let risk = capture_risk_f64(&p, &Variants::default());
    for (t, (h, r)) in one.targets.iter().zip(&risk) {
        assert_eq!(t.hole, *h);
        assert_eq!(to_f64(&t.probability), *r);
    }
}

/// Targets are certified in parallel: one thread gives the same answer.
#[test]
fn odds_do_not_depend_on_the_thread_count() {
    let p = pos("AAAAAAAA.b.A..b./a..b.a.b.b.ba.b.a/BBBBBBB.a.BB.a.a b");
    let many = capture_odds(&p, &Variants::default());
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| capture_odds(&p, &Variants::default()));
    assert_eq!(many, one);
    assert_eq!(many.certified, 16);
    assert_eq!(many.bound, sixteenth_pow(10));
}

/// With almost no budget the certificates still give valid intervals (the
/// unexplored rest bounded by the relaxed value): each overlaps the full
/// search's interval after two rethrows.
#[test]
fn starved_certificates_stay_valid() {
    let p = pos("AAAAAAA.a.a...ba/ba..b..a.ab..a.bb/BBBBBBB.b.b.aab. a");
    let starved = capture_odds_with(
        &p,
        &Variants::default(),
        OddsLimits {
            max_daldals: 9,
            max_nodes: 40,
            certify: true,
        },
    );
    let full = capture_odds_with(
        &p,
        &Variants::default(),
        OddsLimits {
            max_daldals: 2,
            max_nodes: 1_000_000,
            certify: false,
        },
    );
    assert_eq!(full.daldals, 2);
    for (s, f) in starved.targets.iter().zip(&full.targets) {
        assert!(s.probability <= &f.probability + &f.bound, "{}", s.hole.0);
        assert!(f.probability <= &s.probability + &s.bound, "{}", s.hole.0);
        assert!(s.bound < ratio(1, 1));
    }
}

/// The engine's 16-against-16 middle game, A to move: every target and
/// "any" settled within `1e-12` (the cut after 9 rethrows, `16^-10`) by
/// the certificates, with the board values pinned. A15 and M10 need the
/// relaxed model to keep the own pieces just past the target (they block
/// a jump over it): without them the certificate fails there.
#[test]
fn middle_game_every_target_within_1e_12() {
    let p = pos("AAAAAAA.a.a...ba/ba..b..a.ab..a.bb/BBBBBBB.b.b.aab. a");
    let odds = capture_odds(&p, &Variants::default());
    assert_eq!(odds.targets.len(), 16);
    assert_eq!(odds.certified, 16);
    assert_eq!(odds.bound, sixteenth_pow(10));
    assert!(to_f64(&odds.bound) < 1e-12);
    assert!(odds.any_bound.is_zero());
    for t in &odds.targets {
        assert!(t.exact || t.bound <= sixteenth_pow(10), "{}", t.hole.0);
    }
    let get = |name: &str| {
        let h = Board::DANISH.parse_hole(name).unwrap();
        odds.targets.iter().find(|t| t.hole == h).unwrap().clone()
    };
    assert_eq!(get("A15").probability, ratio(43_691, 65_536));
    assert_eq!(get("M10").probability, ratio(629_419, 1_048_576));
    assert_eq!(get("B1").probability, ratio(1, 2));
    assert!(get("B1").exact);
    assert_eq!(odds.any, ratio(1, 1));
    // The full search alone, cut after three rethrows, lies within the
    // bound it gives.
    let full = capture_odds_with(
        &p,
        &Variants::default(),
        OddsLimits {
            max_daldals: 3,
            max_nodes: usize::MAX,
            certify: false,
        },
    );
    for (f, c) in full.targets.iter().zip(&odds.targets) {
        assert!(f.probability <= c.probability, "{}", c.hole.0);
        assert!(c.probability <= &f.probability + &f.bound, "{}", c.hole.0);
    }
}

/// Sparse positions of random play where "any" is the hard part: the
/// full search alone runs out of budget (bound 16^-8 here), the
/// relaxed-model certificate for "any" settles it within `16^-10`, and
/// agrees with the full search cut after two rethrows.
#[test]
fn any_is_certified_where_the_search_runs_out() {
    for s in [
        "..AAAAAAA.AAAA../b.....a......a.../BBB.bBBBB.bBBB.. b",
        "A.b.....aAA...../..........ba...../..B...B.b.BBB... b",
    ] {
        let p = pos(s);
        let odds = capture_odds(&p, &Variants::default());
        assert!(odds.any_bound <= sixteenth_pow(10), "{s}");
        assert!(odds.bound <= sixteenth_pow(10), "{s}");
        let full = capture_odds_with(
            &p,
            &Variants::default(),
            OddsLimits {
                max_daldals: 2,
                max_nodes: usize::MAX,
                certify: false,
            },
        );
        assert!(full.any <= odds.any, "{s}");
        assert!(odds.any <= &full.any + &full.any_bound, "{s}");
    }
    let p = pos("..AAAAAAA.AAAA../b.....a......a.../BBB.bBBBB.bBBB.. b");
    let alone = capture_odds_with(
        &p,
        &Variants::default(),
        OddsLimits {
            certify: false,
            ..OddsLimits::default()
        },
    );
    assert!(alone.any_bound > sixteenth_pow(10));
}

/// Issue 24: on this crowded L = 32 position the relaxed model of "any"
/// (every enemy piece a target) has as many states as the full search and
/// ignored the budget: `--max-nodes 1` ran for minutes and took 800 MB.
/// Its states now count against the budget: the answer comes at once, with
/// the one-throw odds and the wide bound of an exhausted budget.
#[test]
fn the_budget_bounds_the_relaxed_model_of_any() {
    let p = pos("..a.b.......bb.b...bbb.b...aa.../...b...bb.....b.b.a..b...bb....b./a..b...bb..........b.B..B..aBBb. b");
    let limits = OddsLimits {
        max_nodes: 1,
        ..OddsLimits::default()
    };
    let odds = capture_odds_with(&p, &Variants::default(), limits);
    assert_eq!(odds.targets.len(), 6);
    // One position for each certificate's board search and one relaxed
    // state of "any": the rest was refused.
    assert!(odds.nodes <= odds.targets.len() + 2, "{}", odds.nodes);
    assert!(!odds.exact);
    assert_eq!(odds.daldals, 0);
    assert_eq!(odds.any, ratio(15, 16));
    assert_eq!(odds.any_bound, ratio(1, 16));
    assert_eq!(odds, capture_odds_with(&p, &Variants::default(), limits));
    // A budget of 1000 is spent within 1000 positions (plus the one each
    // certificate always gets).
    let thousand = capture_odds_with(
        &p,
        &Variants::default(),
        OddsLimits {
            max_nodes: 1000,
            ..OddsLimits::default()
        },
    );
    assert!(thousand.nodes <= 1000 + 7, "{}", thousand.nodes);
}
