//! `dalkon dakon game`: a game in the terminal between a human and the
//! engine, two engines or two humans (docs/cli.md, "Looking at positions
//! and playing"). The game itself — turns, undo, hints, the engine's move,
//! the final score — is `dalkon_dakon::game`; this file reads lines and
//! prints.
//!
//! Lines come from standard input, so a whole game can be scripted; the
//! end of the input stops the game as `quit` does. The engine plays the
//! first best move of `dakon best` under the game's budget (`--max-nodes`),
//! and a `hint` is `dakon best --every-move` under the same budget: both
//! say when they are not exact. An exact move is the same in every run;
//! near the limit the search's workers share one node count, so with
//! several threads whether a proof fits can vary between runs (with
//! `--threads 1` it cannot).
//!
//! `undo` goes back to the position before the last move a human typed,
//! taking back the engine's replies after it as well; a bonus move is a
//! move of its own, so one `undo` takes back one hole played.

use std::io::{BufRead, Write};

use clap::ValueEnum;
use dalkon_dakon::best::{Choice, EngineMove};
use dalkon_dakon::game::{
    Game, GameRequest, Played, Player, GAME_MAX_NODES, GAME_TT_MB, MAX_GAME_ESTIMATE_DEPTH,
};
use dalkon_dakon::label::Label;
use dalkon_dakon::request::DEFAULT_ESTIMATE_DEPTH;
use dalkon_dakon::solve::start_position;
use dalkon_render::dakon::{chain, draw, side_name, verdict};
use dalkon_rules::dakon::Side;

use super::{position, ranked_table, RuleArgs};
use crate::common::{quote, Format, Global};
use crate::prompt::{self, Word};

/// Who plays a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Who {
    /// Moves typed on standard input.
    Human,
    /// The exact search, or its estimate past the node limit.
    Engine,
}

impl From<Who> for Player {
    fn from(w: Who) -> Player {
        match w {
            Who::Human => Player::Human,
            Who::Engine => Player::Engine,
        }
    }
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Who plays the side to move at the start (South on a new board).
    #[arg(long, value_enum, default_value_t = Who::Human)]
    pub first: Who,
    /// Who plays the other side.
    #[arg(long, value_enum, default_value_t = Who::Engine)]
    pub second: Who,
    /// Start a new board with this many holes a row (with --seeds; without
    /// either, and without --position, the standard 7 × 7).
    #[arg(long, requires = "seeds")]
    pub holes: Option<usize>,
    /// Seeds per hole of the new board (with --holes).
    #[arg(long, requires = "holes")]
    pub seeds: Option<u32>,
    /// Start from this position instead (docs/rules.md §2.5 notation).
    #[arg(long, conflicts_with_all = ["holes", "seeds"])]
    pub position: Option<String>,
    /// Nodes the engine's exact search may take for one move or one hint
    /// before it settles for an estimate (and says so); 0 for no limit.
    #[arg(long, value_name = "N", default_value_t = GAME_MAX_NODES)]
    pub max_nodes: u64,
    /// Plies of that estimate, 1 to 12.
    #[arg(long, value_name = "D", default_value_t = DEFAULT_ESTIMATE_DEPTH,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_GAME_ESTIMATE_DEPTH)))]
    pub estimate_depth: u32,
    /// Transposition-table memory of the engine in MiB.
    #[arg(long, value_name = "MIB", default_value_t = GAME_TT_MB)]
    pub tt_mb: usize,
    #[command(flatten)]
    pub rules: RuleArgs,
}

impl Args {
    fn request(&self) -> anyhow::Result<(GameRequest, String)> {
        let (start, board) = match (&self.position, self.holes, self.seeds) {
            (Some(text), _, _) => {
                let p = position(text, "--position ")?;
                (p, format!("from {p}"))
            }
            (None, Some(h), Some(s)) => (start_position(h, s)?, format!("{h} holes × {s} seeds")),
            _ => (start_position(7, 7)?, "7 holes × 7 seeds".to_owned()),
        };
        let request = GameRequest {
            first: self.first.into(),
            second: self.second.into(),
            max_nodes: self.max_nodes,
            estimate_depth: self.estimate_depth,
            tt_mb: self.tt_mb,
            ..GameRequest::new(start, self.rules.rules())
        };
        Ok((request, board))
    }
}

/// What a human typed, once understood.
enum Typed {
    Move(usize),
    Undo,
    Quit,
}

pub fn run(
    global: &Global,
    args: Args,
    out: &mut dyn Write,
    stdin: &mut dyn BufRead,
) -> anyhow::Result<()> {
    global.require_format(&[Format::Text])?;
    let (request, board) = args.request()?;
    let mut game = Game::new(&request)?;
    header(&game, &board, out)?;
    while let Some(player) = game.to_move() {
        match player {
            Player::Engine => {
                let (played, m) = game.engine_move()?.expect("a game not over");
                show(out, &played, Some(&why(&game, &played, &m)))?;
            }
            Player::Human => match ask(&mut game, out, stdin)? {
                Typed::Move(hole) => {
                    let played = game.play(hole)?;
                    show(out, &played, None)?;
                }
                Typed::Undo => {
                    let u = game.undo().expect("checked by ask");
                    let n = u.taken.len();
                    let (count, s) = match n {
                        1 => ("1 move".to_owned(), ""),
                        _ => (format!("{n} moves"), "s"),
                    };
                    let holes = chain(&u.taken, ", ");
                    writeln!(
                        out,
                        "undo: took back {count} (hole{s} {holes}) -> {}",
                        u.position
                    )?;
                    writeln!(out, "\n{}", draw(&u.position))?;
                }
                Typed::Quit => return stopped(&game, out),
            },
        }
    }
    let score = game.final_score().expect("the game is over");
    let (south, north) = (score.store(Side::South), score.store(Side::North));
    let (s, n) = (side_name(Side::South), side_name(Side::North));
    writeln!(
        out,
        "Game over: {s} {south}, {n} {north}: {}.",
        verdict(&score)
    )?;
    moves_line(&game, out)
}

fn header(game: &Game, board: &str, out: &mut dyn Write) -> anyhow::Result<()> {
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
            "Type a hole number to play it, or hint, undo, help, quit."
        )?;
    }
    writeln!(out, "\n{}", draw(game.position()))?;
    Ok(())
}

/// Read lines until the human to move types a move, `undo` or `quit`
/// (hints and help are answered on the way; a bad line gets a message).
fn ask(game: &mut Game, out: &mut dyn Write, stdin: &mut dyn BufRead) -> anyhow::Result<Typed> {
    let pos = *game.position();
    let legal: Vec<usize> = pos.moves().collect();
    let side = side_name(pos.side_to_move());
    writeln!(
        out,
        "{side} to move: hole {} (or hint, undo, help, quit)",
        one_of(&legal)
    )?;
    loop {
        let Some(text) = prompt::ask_text(out, stdin)? else {
            return Ok(Typed::Quit);
        };
        match Word::parse(&text) {
            Some(Word::Quit) => return Ok(Typed::Quit),
            Some(Word::Undo) if !game.can_undo() => {
                writeln!(out, "nothing to undo: no move has been typed yet")?;
            }
            Some(Word::Undo) => return Ok(Typed::Undo),
            Some(Word::Help) => help(out, pos.holes())?,
            Some(Word::Hint) => hint(game, out)?,
            None => match text.parse::<usize>() {
                Ok(hole) => match pos.play(hole, game.rules()) {
                    Ok(_) => return Ok(Typed::Move(hole)),
                    Err(e) => writeln!(out, "{e}: play hole {}", one_of(&legal))?,
                },
                Err(_) => writeln!(
                    out,
                    "{} is not a move: type a hole number ({}), or help",
                    quote(&text),
                    one_of(&legal)
                )?,
            },
        }
    }
}

/// A move played: what happened and the board; `engine` says why the
/// engine chose it.
fn show(out: &mut dyn Write, p: &Played, engine: Option<&str>) -> anyhow::Result<()> {
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
    writeln!(out, "\n{}", draw(&p.position))?;
    Ok(())
}

/// What the engine knows of its move.
fn why(game: &Game, p: &Played, m: &EngineMove) -> String {
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

/// Every legal move with its value, best first, as `dakon best
/// --every-move` gives them.
fn hint(game: &mut Game, out: &mut dyn Write) -> anyhow::Result<()> {
    let a = game.hint()?;
    let side = side_name(game.position().side_to_move());
    let how = match a.label() {
        Label::Exact => "exact".to_owned(),
        label => format!("{label}: {}", unfinished(game)),
    };
    writeln!(
        out,
        "hint: final store difference for {side} after each move, best play after it ({how})"
    )?;
    Ok(ranked_table(out, &a)?)
}

fn stopped(game: &Game, out: &mut dyn Write) -> anyhow::Result<()> {
    let p = game.position();
    writeln!(
        out,
        "Game stopped, not finished: stores {} {}, {} {}; {} seeds still on the board.",
        side_name(Side::South),
        p.store(Side::South),
        side_name(Side::North),
        p.store(Side::North),
        p.seeds_on_board()
    )?;
    moves_line(game, out)
}

/// The moves played, as `dakon play --moves` takes them.
fn moves_line(game: &Game, out: &mut dyn Write) -> anyhow::Result<()> {
    match game.moves() {
        [] => writeln!(out, "No moves were played.")?,
        moves => writeln!(out, "Moves from {}: {}", game.start(), chain(moves, ","))?,
    }
    Ok(())
}

/// `1`, `1 or 3`, `1, 2 or 3`.
fn one_of(holes: &[usize]) -> String {
    match holes.split_last() {
        None => String::new(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", chain(rest, ", ")),
    }
}

fn help(out: &mut dyn Write, holes: usize) -> std::io::Result<()> {
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
    for (word, what) in rows {
        let pad = width - word.chars().count();
        writeln!(out, "  {word}{}  {what}", " ".repeat(pad))?;
    }
    Ok(())
}
