//! The lines of a Dakon game in the terminal (`dakon game`): the header,
//! each move played and why the engine chose it, the hint, undo, help and
//! the end of the game. The game itself is `dalkon_dakon::game`.

use std::fmt::Write;

use dalkon_dakon::best::{Choice, EngineMove};
use dalkon_dakon::game::{Game, Played, Player, Undone};
use dalkon_dakon::label::Label;
use dalkon_dakon::request::BestReport;
use dalkon_rules::dakon::{Position, Side};

use super::line::line;
use super::report::{lines, ranked};
use super::text::{chain, draw, side_name, verdict};

/// The game's first lines: the board, the rules, who plays and with what
/// budget, the words a human may type, and the board drawn.
pub fn header(game: &Game, board: &str) -> String {
    lines(|out| {
        writeln!(out, "Dakon, {board}, {}", game.rules())?;
        let limit = match game.budget() {
            (Some(n), depth) => {
                format!("exact search up to {n} nodes a move, else a {depth}-ply estimate")
            }
            (None, _) => "exact search".to_owned(),
        };
        let who = |side: Side| match game.player(side) {
            Player::Human => format!("{}: human", side_name(side)),
            Player::Engine => format!("{}: engine ({limit})", side_name(side)),
        };
        writeln!(out, "{}; {}", who(Side::South), who(Side::North))?;
        if [Side::South, Side::North]
            .iter()
            .any(|&s| game.player(s) == Player::Human)
        {
            writeln!(
                out,
                "Type a hole number to play it, or hint, undo, save, help, quit."
            )?;
        }
        writeln!(out, "\n{}", draw(game.position()))
    })
}

/// The question to the human to move.
pub fn prompt(pos: &Position) -> String {
    let legal: Vec<usize> = pos.moves().collect();
    format!(
        "{} to move: hole {} (or hint, undo, help, quit)\n",
        side_name(pos.side_to_move()),
        one_of(&legal)
    )
}

/// A move played: what happened and the board; `engine` says why the
/// engine chose it ([`why`]).
pub fn played(p: &Played, engine: Option<&str>) -> String {
    lines(|out| {
        writeln!(
            out,
            "{} plays hole {} -> {}",
            side_name(p.side),
            p.hole,
            p.position
        )?;
        if let Some(why) = engine {
            writeln!(out, "  engine: {why}")?;
        }
        for e in &p.events {
            writeln!(out, "  {e}")?;
        }
        writeln!(out, "\n{}", draw(&p.position))
    })
}

/// What the engine knows of its move.
pub fn why(game: &Game, p: &Played, m: &EngineMove) -> String {
    let side = side_name(p.side);
    match m.choice {
        Choice::Forced => "forced: the only legal move".to_owned(),
        Choice::Exact { value } => {
            format!("exact best move, value {value:+} for {side} (final store difference)")
        }
        Choice::Bounds { value, lower, upper } => format!(
            "best by proved bounds (value about {value:+} for {side}, proved between {lower:+} and {upper:+}), NOT exact: {}",
            unfinished(game)
        ),
        Choice::Estimate { value, depth } => format!(
            "best by a {depth}-ply estimate (value {value:+} for {side}), NOT exact: {}",
            unfinished(game)
        ),
    }
}

/// Why an answer is an estimate. The nodes the search had reached are
/// left out: with several threads they vary from run to run.
fn unfinished(game: &Game) -> String {
    let nodes = game.budget().0.unwrap_or(0);
    format!("the exact search did not finish within {nodes} nodes (--max-nodes)")
}

/// A hint: every legal move with its value, best first, as `dakon best
/// --every-move` gives them, then the best line of play ([`line()`]).
pub fn hint(game: &Game, a: &BestReport) -> String {
    let pos = game.position();
    let side = side_name(pos.side_to_move());
    let how = match a.label() {
        Label::Exact => "exact".to_owned(),
        label => format!("{label}: {}", unfinished(game)),
    };
    let pv = match (a.pv.is_empty(), a.exact) {
        (true, _) => String::new(),
        (false, true) => format!("best line: {}\n", line(pos, game.rules(), &a.pv)),
        (false, false) => format!(
            "best line: {}  (the table's line, not proved)\n",
            line(pos, game.rules(), &a.pv)
        ),
    };
    format!(
        "hint: final store difference for {side} after each move, best play after it ({how})\n{}{pv}",
        ranked(a)
    )
}

/// The moves an `undo` took back, and the board now.
pub fn undone(u: &Undone) -> String {
    let n = u.taken.len();
    let (count, s) = match n {
        1 => ("1 move".to_owned(), ""),
        _ => (format!("{n} moves"), "s"),
    };
    let holes = chain(&u.taken, ", ");
    format!(
        "undo: took back {count} (hole{s} {holes}) -> {}\n\n{}\n",
        u.position,
        draw(&u.position)
    )
}

/// A line that is neither a word nor a legal hole.
pub fn not_a_move(pos: &Position, quoted: &str) -> String {
    let legal: Vec<usize> = pos.moves().collect();
    format!(
        "{quoted} is not a move: type a hole number ({}), or help\n",
        one_of(&legal)
    )
}

/// A hole that cannot be played, with `why`.
pub fn illegal(pos: &Position, why: &dyn std::fmt::Display) -> String {
    let legal: Vec<usize> = pos.moves().collect();
    format!("{why}: play hole {}\n", one_of(&legal))
}

/// `undo` before any move was typed.
pub const NOTHING_TO_UNDO: &str = "nothing to undo: no move has been typed yet\n";

/// The end of a finished game: the final score and the moves.
pub fn over(game: &Game) -> String {
    let Some(score) = game.final_score() else {
        return stopped(game);
    };
    let (south, north) = (score.store(Side::South), score.store(Side::North));
    let (s, n) = (side_name(Side::South), side_name(Side::North));
    format!(
        "Game over: {s} {south}, {n} {north}: {}.\n{}",
        verdict(&score),
        moves_line(game)
    )
}

/// A game stopped before its end (`quit`, or the end of the input).
pub fn stopped(game: &Game) -> String {
    let p = game.position();
    format!(
        "Game stopped, not finished: stores {} {}, {} {}; {} seeds still on the board.\n{}",
        side_name(Side::South),
        p.store(Side::South),
        side_name(Side::North),
        p.store(Side::North),
        p.seeds_on_board(),
        moves_line(game)
    )
}

/// The moves played, as `dakon play --moves` takes them.
fn moves_line(game: &Game) -> String {
    match game.moves() {
        [] => "No moves were played.\n".to_owned(),
        moves => format!("Moves from {}: {}\n", game.start(), chain(moves, ",")),
    }
}

/// `1`, `1 or 3`, `1, 2 or 3`.
fn one_of(holes: &[usize]) -> String {
    match holes.split_last() {
        None => String::new(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", chain(rest, ", ")),
    }
}

/// The words a human may type on a board of `holes` holes a row.
pub fn help(holes: usize) -> String {
    let rows = [
        (
            format!("1 … {holes}"),
            format!(
                "play that hole of the side to move (S1 … S{holes} for South, \
                 N1 … N{holes} for North, as drawn)"
            ),
        ),
        (
            "hint".to_owned(),
            "the engine's value of every legal move, best first".to_owned(),
        ),
        (
            "undo".to_owned(),
            "take back the last move typed (and the engine's replies after it)".to_owned(),
        ),
        (
            "save FILE".to_owned(),
            "write the game so far as a game record (save alone: to --save's file)".to_owned(),
        ),
        ("help".to_owned(), "this list".to_owned()),
        (
            "quit".to_owned(),
            "stop the game (so does the end of the input)".to_owned(),
        ),
    ];
    let width = rows
        .iter()
        .map(|(w, _)| w.chars().count())
        .max()
        .unwrap_or(0);
    lines(|out| {
        for (word, what) in rows {
            let pad = width - word.chars().count();
            writeln!(out, "  {word}{}  {what}", " ".repeat(pad))?;
        }
        Ok(())
    })
}
