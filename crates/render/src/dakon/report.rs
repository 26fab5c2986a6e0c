//! The text form of each Dakon report (`--format text` of `dakon best`,
//! `solve`, `openings`, `prove`, `verify`, `play`, and the lines of
//! `dakon game`): the printer of the reports of `dalkon_dakon::request`,
//! so that every front end words an answer the same way. Each function
//! returns the lines as they are printed, ending in a newline.

use std::fmt::{self, Write};
use std::path::Path;

use dalkon_dakon::openings::FirstChain;
use dalkon_dakon::request::{
    BestReport, OpeningsReport, PlayReport, ProveReport, SolveReport, VerifyReport,
};
use dalkon_dakon::solve::Outcome;
use dalkon_rules::dakon::{Position, Rules};

use super::line::line;
use super::text::{chain, draw, side_name};

/// The lines `write` makes, as one string.
pub(crate) fn lines(write: impl FnOnce(&mut String) -> fmt::Result) -> String {
    let mut s = String::new();
    write(&mut s).expect("writing to a String cannot fail");
    s
}

/// `none (game over)` or the moves, space-separated.
fn best_moves(moves: &[usize]) -> String {
    match moves.is_empty() {
        true => "none (game over)".to_owned(),
        false => chain(moves, " "),
    }
}

/// `dakon best`: the board, the value, the best moves, the line (as
/// [`line()`] reads it), the ranked moves and with `--multipv` the best
/// lines ([`lines_table`]), then the report's note.
pub fn best(pos: &Position, rules: &Rules, r: &BestReport) -> String {
    lines(|out| {
        writeln!(out, "{}", draw(pos))?;
        let label = r.label();
        writeln!(
            out,
            "value       {:+}  (final store difference for the side to move, {label})",
            r.value
        )?;
        writeln!(out, "best moves  {}", best_moves(&r.best_moves))?;
        if !r.pv.is_empty() {
            let how = if r.exact {
                ""
            } else {
                "  (the table's line, not proved)"
            };
            writeln!(out, "pv          {}{how}", line(pos, rules, &r.pv))?;
        }
        if !r.moves.is_empty() {
            writeln!(out)?;
            out.push_str(&ranked(r));
        }
        if let Some(rows) = lines_table(pos, rules, r) {
            writeln!(out)?;
            out.push_str(&rows);
        }
        writeln!(out, "\n{}", r.note())
    })
}

/// The ` move  value` table of a report, best first: `dakon best` and the
/// game's hint print the same rows.
pub fn ranked(r: &BestReport) -> String {
    lines(|out| {
        writeln!(out, " move  value")?;
        for m in r.ranked() {
            writeln!(out, "{:>5}  {:>5}", m.hole, m.value.to_string())?;
        }
        Ok(())
    })
}

/// The `--multipv` table of a report (`None` without lines): one row a
/// line, best first — its rank, its move, its value as the ranked table
/// prints it (exact, `<=` a proved upper bound, or proved bounds marked
/// not proved) and its line of play as [`line()`] reads it, marked where
/// the value is not proved.
pub fn lines_table(pos: &Position, rules: &Rules, r: &BestReport) -> Option<String> {
    let rows = r.lines.as_ref().filter(|l| !l.is_empty())?;
    let values: Vec<String> = rows.iter().map(|l| l.known.to_string()).collect();
    let width = values
        .iter()
        .map(|v| v.chars().count())
        .max()
        .unwrap_or(0)
        .max(5);
    Some(lines(|out| {
        writeln!(out, " line  move  {:>width$}  pv", "value")?;
        for (i, (l, value)) in rows.iter().zip(&values).enumerate() {
            let how = match l.exact {
                true => "",
                false => "  (the table's line, not proved)",
            };
            writeln!(
                out,
                "{:>5}  {:>4}  {value:>width$}  {}{how}",
                i + 1,
                l.hole,
                line(pos, rules, &l.pv)
            )?;
        }
        Ok(())
    }))
}

/// `dakon solve`: the board, the value and the work done, with the
/// databases of `db_dir`.
pub fn solve(start: &Position, report: &SolveReport, db_dir: &Path) -> String {
    let s = &report.solved;
    lines(|out| {
        writeln!(out, "Dakon {}×{} ({})\n", s.holes, s.seeds, s.rules)?;
        writeln!(out, "{}", draw(start))?;
        let verdict = match s.outcome() {
            Outcome::Win => format!("South (the first player) wins by {}", s.value),
            Outcome::Loss => format!("South (the first player) loses by {}", -s.value),
            Outcome::Draw => "a draw".to_owned(),
        };
        writeln!(out, "value       {:+}  ({verdict})", s.value)?;
        writeln!(out, "best moves  {}", chain(&s.best_moves, " "))?;
        writeln!(out, "method      {}", s.method)?;
        writeln!(out, "positions   {}", s.positions)?;
        writeln!(out, "databases   {}", db_dir.display())?;
        if let Some(nodes) = s.nodes {
            writeln!(
                out,
                "nodes       {nodes}  ({:.2} M/s)",
                nodes as f64 / s.seconds.max(1e-9) / 1e6
            )?;
        }
        if let Some(passes) = s.passes {
            writeln!(out, "mtd passes  {passes}")?;
        }
        if let Some((hits, probes)) = s.tt_hits {
            writeln!(
                out,
                "table hits  {hits} of {probes} lookups ({:.1} %)",
                100.0 * hits as f64 / probes.max(1) as f64
            )?;
        }
        writeln!(out, "seconds     {:.3}", s.seconds)
    })
}

const NO_CHAIN: &str = "No chain of the first turn wins the game before the opponent moves.";

/// `dakon openings`: the winning chains of the first turn from `start`.
pub fn openings(start: &Position, rules: &Rules, r: &OpeningsReport, seconds: f64) -> String {
    lines(|out| {
        writeln!(
            out,
            "Dakon {}×{} ({rules}): first-turn openings\n",
            r.holes, r.seeds
        )?;
        writeln!(out, "{}", draw(start))?;
        match r.after_best {
            None => writeln!(out, "{NO_CHAIN}")?,
            Some(end) => {
                writeln!(out, "winning chains  {}", r.winning_chains)?;
                let (shortest, best) = (&r.shortest, &r.best);
                writeln!(
                    out,
                    "shortest        {}  ({} moves)",
                    chain(shortest, " "),
                    shortest.len()
                )?;
                writeln!(
                    out,
                    "best            {}  ({} moves, final margin {:+})",
                    chain(best, " "),
                    best.len(),
                    r.best_margin.unwrap_or(0)
                )?;
                writeln!(out, "\nafter the best chain:\n{}", draw(&end))?;
            }
        }
        let o = &r.openings;
        writeln!(
            out,
            "positions       {} ({} from which the turn can still be won)",
            o.positions, o.winning_positions
        )?;
        writeln!(
            out,
            "peak memory     {:.1} MiB",
            o.peak_bytes as f64 / f64::from(1u32 << 20)
        )?;
        writeln!(out, "seconds         {seconds:.3}")
    })
}

/// `dakon openings --first`: the first winning chain of the first turn.
pub fn first((holes, seeds): (usize, u32), rules: &Rules, f: &FirstChain, seconds: f64) -> String {
    lines(|out| {
        writeln!(
            out,
            "Dakon {holes}×{seeds} ({rules}): the first winning chain of the first turn\n"
        )?;
        match &f.chain {
            None => writeln!(out, "{NO_CHAIN}"),
            Some(c) => writeln!(
                out,
                "first chain     {}  ({} moves, final margin {:+})",
                chain(c, " "),
                c.len(),
                f.margin.unwrap_or(0)
            ),
        }?;
        writeln!(out, "positions       {}", f.positions)?;
        writeln!(out, "seconds         {seconds:.3}")
    })
}

/// `dakon prove`: the value proved from `root` and the files written.
pub fn prove(root: &Position, rules: &Rules, r: &ProveReport) -> String {
    lines(|out| {
        writeln!(
            out,
            "{root}  ({rules})\n\nvalue       {:+}  (final store difference for the side to move, exact)",
            r.value
        )?;
        writeln!(out, "best moves  {}", best_moves(&r.best_moves))?;
        writeln!(
            out,
            "\n{:<40} player  guarantees      lines      bytes",
            "file"
        )?;
        for f in &r.files {
            writeln!(
                out,
                "{:<40} {:>6}  {:>+10} {:>10} {:>10}",
                f.path, f.player, f.guarantees, f.lines, f.bytes
            )?;
        }
        let reached: u64 = r.files.iter().map(|f| f.reached).sum();
        let settled: u64 = r.files.iter().map(|f| f.settled).sum();
        if settled > 0 {
            writeln!(
                out,
                "\n{settled} of the {reached} positions the games reach ({:.1} %) are settled: any play \
                 from there secures what is still needed, but a strategy names a move in each to the \
                 end of every game",
                100.0 * settled as f64 / reached as f64
            )?;
        }
        writeln!(
            out,
            "\nsearch {:.3} s, strategies {:.3} s; check them with `dalkon dakon verify FILE`",
            r.parts[0], r.parts[1]
        )
    })
}

/// `dakon verify FILE`: what the strategy in `file` secures, and whether
/// it holds.
pub fn verify(file: &Path, r: &VerifyReport) -> String {
    let player = side_name(r.strategy.player);
    let speed = r.positions_per_second.map_or_else(String::new, |r| {
        format!(" ({:.2} million a second)", r as f64 / 1e6)
    });
    lines(|out| {
        writeln!(out, "file         {}", file.display())?;
        writeln!(out, "rules        {}", r.rules)?;
        writeln!(out, "root         {}", r.root)?;
        writeln!(out, "player       {player}")?;
        writeln!(out, "guarantees   {:+}", r.guarantees)?;
        writeln!(out, "proved       {:+}", r.proved)?;
        writeln!(
            out,
            "positions    {} checked in {:.2} s{speed}",
            r.positions_checked, r.seconds
        )?;
        writeln!(
            out,
            "lines        {}, {} never reached",
            r.lines, r.unused_lines
        )?;
        if r.valid {
            let how = match r.nothing_to_check() {
                true => " (no game ends lower: nothing to check)",
                false => "",
            };
            writeln!(
                out,
                "valid: {player} secures at least {:+}{how}",
                r.guarantees
            )
        } else {
            writeln!(
                out,
                "not valid: the strategy does not hold (see the error line)"
            )
        }
    })
}

/// `dakon play`: the rules, the start, then each move with what happened.
pub fn play(start: &Position, rules: &Rules, r: &PlayReport) -> String {
    lines(|out| {
        writeln!(out, "Rules: {rules}\n")?;
        writeln!(out, "{}", draw(start))?;
        for step in &r.steps {
            writeln!(out, "{} plays hole {}:", side_name(step.mover), step.hole)?;
            for e in &step.events {
                writeln!(out, "  {e}")?;
            }
            writeln!(out, "\n{}", draw(&step.position))?;
        }
        Ok(())
    })
}
