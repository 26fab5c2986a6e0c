//! The text form of each Daldøs report (`--format text` of `daldos odds`,
//! `moves`, `table`, `best`, `match`, `value` and `solve`): the printer of the
//! reports of `dalkon_daldos::request`, so that every front end words an
//! answer the same way. Each function returns the lines as printed.

use std::fmt::{self, Write};

use dalkon_daldos::ratio::{fraction_string, to_f64};
use dalkon_daldos::request::best::{BestReport, PlayRow};
use dalkon_daldos::request::odds::OddsReport;
use dalkon_daldos::request::{MatchReport, MovesReport, MovesRequest};
use dalkon_daldos::tables::{published_daldal_use, target_hole, CaptureTable, TableRow};
use dalkon_rules::daldos::{Position, Throw, Variants};

use super::text::draw;

/// The lines `write` makes, as one string.
pub(crate) fn lines(write: impl FnOnce(&mut String) -> fmt::Result) -> String {
    let mut s = String::new();
    write(&mut s).expect("writing to a String cannot fail");
    s
}

/// `daldos odds`: the drawing, then one row per piece (and `any` without
/// a target; `one`: the request named a target).
pub fn odds(pos: &Position, variants: &Variants, r: &OddsReport, one: bool) -> String {
    let mut s = draw(pos);
    s.push('\n');
    if let Some(w) = pos.winner(variants) {
        let _ = writeln!(
            s,
            "the game is over ({} has won under end={}): nothing to capture",
            w.letter(),
            variants.end
        );
        return s;
    }
    let (me, them) = (r.mover.letter(), r.mover.other().letter());
    let _ = writeln!(s, "{me} to move, {variants}");
    if one {
        let hole = r.targets.first().map_or("", |t| t.hole.as_str());
        let _ = writeln!(
            s,
            "chance that {me} captures the {them} piece on {hole} this turn"
        );
    } else {
        let _ = writeln!(s, "chance that {me} captures each {them} piece this turn");
    }
    let _ = writeln!(
        s,
        "(extra throws after a dal-dal included; {me} plays for each capture on its own)"
    );
    let _ = writeln!(
        s,
        "{:<5} {:>16}  {:>8}  {:>9}  fraction",
        "piece", "probability", "%", "accuracy"
    );
    let row = |name: &str, p: f64, bound: f64, exact: bool, fraction: &str| {
        let (accuracy, fraction) = if exact {
            ("exact".to_owned(), fraction)
        } else {
            (format!("+{bound:.1e}"), "")
        };
        let line = format!(
            "{name:<5} {p:>16.12}  {:>8.3}  {accuracy:>9}  {fraction}",
            100.0 * p
        );
        line.trim_end().to_owned()
    };
    for t in &r.targets {
        let _ = writeln!(
            s,
            "{}",
            row(&t.hole, t.probability, t.bound, t.exact, &t.fraction)
        );
    }
    if !one {
        let any = row("any", r.any, r.any_bound, r.any_exact(), &r.any_fraction);
        let _ = writeln!(s, "{any}");
    }
    if !(r.targets.iter().all(|t| t.exact) && (one || r.any_exact())) {
        let _ = writeln!(
            s,
            "(accuracy +B: the true probability is at most B above the one shown, where a \
             chain of dal-dals was cut; only exact values are given as fractions)"
        );
    }
    if !one {
        let _ = writeln!(
            s,
            "(any: at least one {them} piece; {} of {} pieces settled by the relaxed-model \
             certificate, {} positions)",
            r.certified, r.pieces, r.nodes
        );
    }
    s
}

/// `daldos moves`: the drawn board, then one line per play with its result.
pub fn moves(req: &MovesRequest, r: &MovesReport) -> String {
    let mut s = draw(&req.pos);
    s.push('\n');
    if let Some(w) = r.winner {
        let _ = writeln!(
            s,
            "the game is over ({} has won under end={}): no plays",
            w.letter(),
            req.variants.end
        );
        return s;
    }
    let n = r.plays.len();
    let _ = writeln!(
        s,
        "throw {}, {}: {n} distinct play{}",
        req.throw,
        req.variants,
        if n == 1 { "" } else { "s" }
    );
    let width = r.plays.iter().map(|r| r.play.len()).max().unwrap_or(0);
    for p in &r.plays {
        let _ = writeln!(s, "  {:<width$}  -> {}", p.play, p.result);
    }
    s
}

fn header_lines(t: &CaptureTable) -> String {
    let a1 = t.board.hole_name(target_hole(t.board));
    let depth = t
        .single
        .iter()
        .chain(&t.pair)
        .map(|r| r.board_daldals)
        .max()
        .unwrap_or(0);
    format!(
        "Capture tables (docs/rules.md §1.7), {} board (L={}), {}.\n\
         B to move; A's a1 on {a1}; B's b1 (and b2) d1 (d2) holes behind it, a free B piece on B2.\n\
         closed form: exact; board: the full rules on that position, exact where the dal-dal \
         captures at once, else {depth} dal-dal rethrows followed (a lower bound at most 16^-{} \
         below the truth).\n",
        t.board.name(),
        t.board.len(),
        t.variants,
        depth + 1
    )
}

/// `daldos table`: both tables as aligned text.
pub fn table(t: &CaptureTable) -> String {
    let mut s = header_lines(t);
    let _ = writeln!(s, "\nTable 1: b1 alone, d behind a1");
    let _ = writeln!(
        s,
        "{:>3}  {:<20} {:>7}  {:<16} {:<6} {:>11}  {:>9}",
        "d", "closed form", "%", "board", "agrees", "dal-dal use", "published"
    );
    for r in &t.single {
        let _ = writeln!(
            s,
            "{:>3}  {:<20} {:>7.3}  {:<16.12} {:<6} {:>11}  {:>9}",
            r.d1,
            fraction_string(&r.probability),
            100.0 * to_f64(&r.probability),
            to_f64(&r.board_probability),
            if r.agrees() { "yes" } else { "NO" },
            r.daldal_use,
            published_cell(r),
        );
    }
    let _ = writeln!(s, "\nTable 2: b1 d1 behind a1, b2 d2 behind a1");
    let _ = writeln!(
        s,
        "{:>3} {:>3}  {:<20} {:>7}  {:<16} {:<6} {:>11}  {:>9}",
        "d1", "d2", "closed form", "%", "board", "agrees", "dal-dal use", "published"
    );
    for r in &t.pair {
        let _ = writeln!(
            s,
            "{:>3} {:>3}  {:<20} {:>7.3}  {:<16.12} {:<6} {:>11}  {:>9}",
            r.d1,
            r.d2.unwrap_or(0),
            fraction_string(&r.probability),
            100.0 * to_f64(&r.probability),
            to_f64(&r.board_probability),
            if r.agrees() { "yes" } else { "NO" },
            r.daldal_use,
            published_cell(r),
        );
    }
    s
}

/// `44% (1)`: published percentage and dal-dal use, or `-`.
fn published_cell(r: &TableRow) -> String {
    match r.published {
        Some(p) => match published_daldal_use(r.kind, r.d1, r.d2) {
            Some(u) => format!("{p}% ({u})"),
            None => format!("{p}%"),
        },
        None => "-".to_owned(),
    }
}

/// `daldos table --format md`: both tables in Markdown.
pub fn table_markdown(t: &CaptureTable) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Capture tables, {} board (L={}), {}; closed form beside the board evaluation.\n",
        t.board.name(),
        t.board.len(),
        t.variants
    );
    let _ = writeln!(
        s,
        "| d | closed form | % | board | dal-dal use | published |\n|---|---|---|---|---|---|"
    );
    for r in &t.single {
        let _ = writeln!(
            s,
            "| {} | {} | {:.2} | {:.12} | {} | {} |",
            r.d1,
            fraction_string(&r.probability),
            100.0 * to_f64(&r.probability),
            to_f64(&r.board_probability),
            r.daldal_use,
            published_cell(r)
        );
    }
    let _ = writeln!(
        s,
        "\n| d1 | d2 | closed form | % | board | dal-dal use | published |\n|---|---|---|---|---|---|---|"
    );
    for r in &t.pair {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {:.2} | {:.12} | {} | {} |",
            r.d1,
            r.d2.unwrap_or(0),
            fraction_string(&r.probability),
            100.0 * to_f64(&r.probability),
            to_f64(&r.board_probability),
            r.daldal_use,
            published_cell(r)
        );
    }
    s
}

/// `daldos best`: the board, the depth, then the plays of the throw
/// asked (at most `top`) or each throw's first `top` plays.
pub fn best(
    pos: &Position,
    throw: Option<Throw>,
    out: &BestReport,
    top: usize,
    seconds: f64,
) -> String {
    lines(|w| {
        write!(w, "{}", draw(pos))?;
        writeln!(w)?;
        let side = pos.side_to_move().letter();
        let limit = if out.complete {
            " (".to_string()
        } else {
            format!(" of the {} asked (node limit reached; ", out.depth_asked)
        };
        writeln!(
            w,
            "depth {}{}one unit = one throw and its play), pruning {}",
            out.depth,
            limit,
            if out.prune { "on" } else { "off" }
        )?;
        if out.tables > 0 {
            writeln!(
                w,
                "exact: the value of the game (every line searched ended in a finished game or \
                 in the solved tables, {} layers; exact to 1e-12); estimate: a static evaluation \
                 at the depth cut entered it",
                out.tables
            )?;
        } else {
            writeln!(
                w,
                "exact: the value of the game (every line searched ended); estimate: \
                 a static evaluation at the depth cut entered it"
            )?;
        }
        if out.tables > 0 {
            writeln!(
                w,
                "tables: {} ({} layers of this board and rules)",
                out.db_dir, out.tables
            )?;
        } else {
            writeln!(w, "tables: {} (none of this board and rules)", out.db_dir)?;
        }
        for m in &out.missing_tables {
            let (a, b) = m.pieces;
            writeln!(
                w,
                "{}the {a} v {b} tables, which cover this position, are not in {}: build them with `{}`",
                if out.exact { "" } else { "not exact: " },
                out.db_dir,
                m.command
            )?;
        }
        if let Some(r) = &out.rollouts {
            writeln!(
                w,
                "rollout: the mean of {} games per play of {} against itself from the \
                 position after it (seed {}, the same dice for every play) ± its standard error",
                r.games, r.player, r.seed
            )?;
        }
        let row = |p: &PlayRow| match &p.rollout {
            None => format!("{:.4}  {}", p.value, p.label()),
            Some(r) => format!(
                "{:.4}  {:<11}  rollout {:.4} ± {:.4}",
                p.value,
                p.label(),
                r.mean,
                r.stderr
            ),
        };
        match (throw, &out.throws) {
            (Some(t), _) => {
                writeln!(
                    w,
                    "throw {t}: best {} with value {:.4} ({side}'s win probability, {})",
                    out.best.as_deref().unwrap_or("-"),
                    out.value,
                    out.label()
                )?;
                let shown = &out.plays[..out.plays.len().min(top)];
                let width = shown.iter().map(|p| p.play.len()).max().unwrap_or(0);
                for (i, p) in shown.iter().enumerate() {
                    writeln!(w, "  {:>3}. {:<width$}  {}", i + 1, p.play, row(p))?;
                }
                let more = out.plays_total - shown.len();
                if more > 0 {
                    writeln!(
                        w,
                        "       … {more} more play{} (--top all lists every play)",
                        if more == 1 { "" } else { "s" }
                    )?;
                }
            }
            (None, Some(throws)) => {
                writeln!(
                    w,
                    "expected value before the throw: {:.4} ({side}'s win probability, {})",
                    out.value,
                    out.label()
                )?;
                let width = throws
                    .iter()
                    .flat_map(|t| t.plays.iter().take(top))
                    .map(|p| p.play.len())
                    .max()
                    .unwrap_or(0);
                for t in throws {
                    for (i, p) in t.plays.iter().take(top).enumerate() {
                        let dice = if i == 0 { t.dice.as_str() } else { "" };
                        writeln!(w, "  {dice:<3}  {:<width$}  {}", p.play, row(p))?;
                    }
                }
                if throws.iter().any(|t| t.plays_total > top) {
                    writeln!(
                        w,
                        "(at most {top} play{} per throw; --top K lists more)",
                        if top == 1 { "" } else { "s" }
                    )?;
                }
            }
            (None, None) => {}
        }
        writeln!(
            w,
            "{} nodes in {:.3} s ({:.0} nodes/s)",
            out.nodes_total,
            seconds,
            out.nodes_total as f64 / seconds.max(1e-9)
        )
    })
}

/// `daldos match`: the players and the rules, the wins with their 95 %
/// interval, games stopped at the cap, the first player's share, the time,
/// where the records went and game 1's throws when the report has them.
pub fn match_result(out: &MatchReport) -> String {
    lines(|w| {
        writeln!(
            w,
            "{} (a) vs {} (b): {} games on the {} board, {}, seed {}",
            out.a, out.b, out.games, out.board, out.rules, out.seed
        )?;
        writeln!(
            w,
            "  a wins {:>5}  rate {:.4}  95% CI [{:.4}, {:.4}]",
            out.a_wins, out.a_win_rate, out.ci95[0], out.ci95[1]
        )?;
        writeln!(w, "  b wins {:>5}", out.b_wins)?;
        if out.capped > 0 {
            writeln!(
                w,
                "  capped {:>5}  (no winner after {} throws)",
                out.capped, out.turn_cap
            )?;
        }
        writeln!(
            w,
            "  first player won {:.4} of the games; {:.1} throws per game on average",
            out.first_player_win_rate, out.mean_turns
        )?;
        writeln!(w, "  {:.1} s", out.seconds)?;
        if let Some(dir) = &out.records {
            writeln!(w, "  {} game records in {dir}", out.games)?;
        }
        for (k, m) in out.first_game.iter().flatten().enumerate() {
            writeln!(w, "  game 1, throw {}: {m}", k + 1)?;
        }
        Ok(())
    })
}
