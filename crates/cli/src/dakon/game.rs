//! `dalkon dakon game`: a game in the terminal between a human and the
//! engine, two engines or two humans (docs/cli.md, "Looking at positions
//! and playing").
//!
//! Lines come from standard input, so a whole game can be scripted; the
//! end of the input stops the game as `quit` does. The board is drawn after
//! every move. The engine plays the exact best move when the proof fits in
//! `--max-nodes` (`Goal::BestMoves`: only the best moves are proved, which
//! is much less work than valuing every move), otherwise the best move of a
//! depth-limited estimate, and says which. A `hint` values every move as
//! `dakon best` does (`dalkon_dakon::best::analyse`, same node limit), so
//! it may be an estimate too, and says so. An exact move is the same in
//! every run; near the limit the search's workers share one node count, so
//! with several threads whether a proof fits can vary between runs (with
//! `--threads 1` it cannot).
//!
//! `undo` goes back to the position before the last move a human typed,
//! taking back the engine's replies after it as well; a bonus move is a
//! move of its own, so one `undo` takes back one hole played.

use std::io::{BufRead, Write};

use anyhow::Context;
use clap::ValueEnum;
use dalkon_dakon::best::{analyse_with, engine_move, Choice, Options};
use dalkon_dakon::label::Label;
use dalkon_dakon::search::answer::Session;
use dalkon_dakon::search::Limits;
use dalkon_dakon::solve::{search_limits, start_position};
use dalkon_rules::dakon::{Position, Rules, Side};

use super::draw::{chain, draw, side_name, verdict};
use super::RuleArgs;
use crate::common::{quote, Format, Global};
use crate::prompt::{self, Word};

/// The default `--max-nodes`: a few tenths of a second of exact search a
/// move on a machine shared with other work, so that engine moves stay
/// quick on the standard 7 × 7 board.
pub const DEFAULT_MAX_NODES: u64 = 300_000;

/// Who plays a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Who {
    /// Moves typed on standard input.
    Human,
    /// The exact search, or its estimate past the node limit.
    Engine,
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
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_NODES)]
    pub max_nodes: u64,
    /// Plies of that estimate, 1 to 12.
    #[arg(long, value_name = "D", default_value_t = 6,
          value_parser = clap::value_parser!(u32).range(1..=12))]
    pub estimate_depth: u32,
    /// Transposition-table memory of the engine in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 16)]
    pub tt_mb: usize,
    #[command(flatten)]
    pub rules: RuleArgs,
}

impl Args {
    fn start(&self) -> anyhow::Result<Position> {
        match (&self.position, self.holes, self.seeds) {
            (Some(text), _, _) => text
                .parse()
                .with_context(|| format!("bad --position {}", quote(text))),
            (None, Some(holes), Some(seeds)) => Ok(start_position(holes, seeds)?),
            _ => Ok(start_position(7, 7)?),
        }
    }
}

/// A game in progress.
struct Game {
    rules: Rules,
    limits: Limits,
    /// One table for the whole game: every bound in it is proved, so the
    /// engine's moves and the hints reuse the work of the earlier ones.
    session: Session,
    estimate_depth: u32,
    /// Who plays each side, by side index.
    players: [Who; 2],
    start: Position,
    pos: Position,
    /// The holes played so far, in order.
    moves: Vec<usize>,
    /// Before each move a human typed: the position and how many moves had
    /// been played.
    undo: Vec<(Position, usize)>,
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
    let start = args.start()?;
    let max_nodes = (args.max_nodes > 0).then_some(args.max_nodes);
    let limits = search_limits(start.holes(), Some(args.tt_mb), max_nodes)?;
    let mut players = [args.second; 2];
    players[start.side_to_move().index()] = args.first;
    let mut game = Game {
        rules: args.rules.rules(),
        session: Session::new(start.holes(), args.rules.rules(), &limits),
        limits,
        estimate_depth: args.estimate_depth,
        players,
        start,
        pos: start,
        moves: Vec::new(),
        undo: Vec::new(),
    };
    game.header(out, &args)?;
    game.play(out, stdin)
}

impl Game {
    fn header(&self, out: &mut dyn Write, args: &Args) -> anyhow::Result<()> {
        let board = match (&args.position, args.holes, args.seeds) {
            (Some(_), _, _) => format!("from {}", self.start),
            (None, Some(h), Some(s)) => format!("{h} holes × {s} seeds"),
            _ => "7 holes × 7 seeds".to_owned(),
        };
        writeln!(out, "Dakon, {board}, {}", self.rules)?;
        let limit = match self.limits.max_nodes {
            Some(n) => format!(
                "exact search up to {n} nodes a move, else a {}-ply estimate",
                self.estimate_depth
            ),
            None => "exact search".to_owned(),
        };
        let who = |side: Side| match self.players[side.index()] {
            Who::Human => format!("{}: human", side_name(side)),
            Who::Engine => format!("{}: engine ({limit})", side_name(side)),
        };
        writeln!(out, "{}; {}", who(Side::South), who(Side::North))?;
        if self.players.contains(&Who::Human) {
            writeln!(
                out,
                "Type a hole number to play it, or hint, undo, help, quit."
            )?;
        }
        writeln!(out, "\n{}", draw(&self.pos))?;
        Ok(())
    }

    /// Play to the end of the game (or of the input), then print the result.
    fn play(&mut self, out: &mut dyn Write, stdin: &mut dyn BufRead) -> anyhow::Result<()> {
        while !self.pos.is_over() {
            let side = self.pos.side_to_move();
            match self.players[side.index()] {
                Who::Engine => {
                    let (hole, why) = self.engine_move()?;
                    self.apply(out, hole, Some(&why))?;
                }
                Who::Human => match self.ask(out, stdin)? {
                    Typed::Move(hole) => {
                        self.undo.push((self.pos, self.moves.len()));
                        self.apply(out, hole, None)?;
                    }
                    Typed::Undo => self.take_back(out)?,
                    Typed::Quit => return self.stopped(out),
                },
            }
        }
        self.finished(out)
    }

    /// Read lines until the human to move types a move, `undo` or `quit`
    /// (hints and help are answered on the way; a bad line gets a message).
    fn ask(&self, out: &mut dyn Write, stdin: &mut dyn BufRead) -> anyhow::Result<Typed> {
        let side = self.pos.side_to_move();
        let legal: Vec<usize> = self.pos.moves().collect();
        writeln!(
            out,
            "{} to move: hole {} (or hint, undo, help, quit)",
            side_name(side),
            one_of(&legal)
        )?;
        loop {
            let Some(text) = prompt::ask_text(out, stdin)? else {
                return Ok(Typed::Quit);
            };
            match Word::parse(&text) {
                Some(Word::Quit) => return Ok(Typed::Quit),
                Some(Word::Undo) if self.undo.is_empty() => {
                    writeln!(out, "nothing to undo: no move has been typed yet")?;
                }
                Some(Word::Undo) => return Ok(Typed::Undo),
                Some(Word::Help) => help(out, self.pos.holes())?,
                Some(Word::Hint) => self.hint(out)?,
                None => match text.parse::<usize>() {
                    Ok(hole) => match self.pos.play(hole, &self.rules) {
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

    /// Play `hole` and show what happened and the board; `engine` says why
    /// the engine chose it.
    fn apply(
        &mut self,
        out: &mut dyn Write,
        hole: usize,
        engine: Option<&str>,
    ) -> anyhow::Result<()> {
        let side = self.pos.side_to_move();
        let (next, log) = self
            .pos
            .play_logged(hole, &self.rules)
            .with_context(|| format!("hole {hole} in {}", self.pos))?;
        writeln!(out, "{} plays hole {hole} -> {next}", side_name(side))?;
        if let Some(why) = engine {
            writeln!(out, "  engine: {why}")?;
        }
        for e in log {
            writeln!(out, "  {e}")?;
        }
        writeln!(out, "\n{}", draw(&next))?;
        self.moves.push(hole);
        self.pos = next;
        Ok(())
    }

    /// The engine's move and what it knows of it.
    fn engine_move(&self) -> anyhow::Result<(usize, String)> {
        let side = side_name(self.pos.side_to_move());
        let m = engine_move(
            &self.pos,
            &self.rules,
            &self.limits,
            Some(&self.session),
            self.estimate_depth,
        )?
        .context("a move in a game not over")?;
        let why = match m.choice {
            Choice::Forced => "forced: the only legal move".to_owned(),
            Choice::Exact { value } => {
                format!("exact best move, value {value:+} for {side} (final store difference)")
            }
            Choice::Bounds {
                value,
                lower,
                upper,
            } => format!(
                "best by proved bounds (value about {value:+} for {side}, proved between {lower:+} and {upper:+}), NOT exact: {}",
                self.unfinished()
            ),
            Choice::Estimate { value, depth } => format!(
                "best by a {depth}-ply estimate (value {value:+} for {side}), NOT exact: {}",
                self.unfinished()
            ),
        };
        Ok((m.hole, why))
    }

    /// Why an answer is an estimate. The nodes the search had reached are
    /// left out: with several threads they vary from run to run.
    fn unfinished(&self) -> String {
        format!(
            "the exact search did not finish within {} nodes (--max-nodes)",
            self.limits.max_nodes.unwrap_or(0)
        )
    }

    /// Every legal move with its value, best first, as `dakon best` gives
    /// them.
    fn hint(&self, out: &mut dyn Write) -> anyhow::Result<()> {
        // The request of `dakon best --every-move` under the game's budget,
        // so that the hint, the engine's move and `best` agree.
        let options = Options {
            every_move: true,
            estimate_depth: self.estimate_depth,
        };
        let a = analyse_with(
            &self.pos,
            &self.rules,
            &self.limits,
            Some(&self.session),
            None,
            options,
        )?;
        let side = side_name(self.pos.side_to_move());
        let how = match a.label() {
            Label::Exact => "exact".to_owned(),
            label => format!("{label}: {}", self.unfinished()),
        };
        writeln!(
            out,
            "hint: final store difference for {side} after each move, best play after it ({how})"
        )?;
        writeln!(out, " move  value")?;
        for m in a.ranked() {
            writeln!(out, "{:>5}  {:>5}", m.hole, m.value.to_string())?;
        }
        Ok(())
    }

    /// Back to the position before the last move a human typed.
    fn take_back(&mut self, out: &mut dyn Write) -> anyhow::Result<()> {
        let Some((pos, played)) = self.undo.pop() else {
            return Ok(());
        };
        let taken = self.moves.split_off(played);
        writeln!(
            out,
            "undo: took back {} (hole{} {}) -> {pos}",
            if taken.len() == 1 {
                "1 move".to_owned()
            } else {
                format!("{} moves", taken.len())
            },
            if taken.len() == 1 { "" } else { "s" },
            chain(&taken, ", ")
        )?;
        writeln!(out, "\n{}", draw(&pos))?;
        self.pos = pos;
        Ok(())
    }

    fn finished(&self, out: &mut dyn Write) -> anyhow::Result<()> {
        // A position typed in may be over with the opponent's seeds still on
        // the board: the rules' final score gives them to their owner.
        let score = self
            .pos
            .final_score()
            .context("the final score of a game that is over")?;
        let (south, north) = (score.store(Side::South), score.store(Side::North));
        let verdict = verdict(&score);
        writeln!(
            out,
            "Game over: {} {south}, {} {north}: {verdict}.",
            side_name(Side::South),
            side_name(Side::North)
        )?;
        self.moves_line(out)
    }

    fn stopped(&self, out: &mut dyn Write) -> anyhow::Result<()> {
        let p = &self.pos;
        writeln!(
            out,
            "Game stopped, not finished: stores {} {}, {} {}; {} seeds still on the board.",
            side_name(Side::South),
            p.store(Side::South),
            side_name(Side::North),
            p.store(Side::North),
            p.seeds_on_board()
        )?;
        self.moves_line(out)
    }

    /// The moves played, as `dakon play --moves` takes them.
    fn moves_line(&self, out: &mut dyn Write) -> anyhow::Result<()> {
        if self.moves.is_empty() {
            writeln!(out, "No moves were played.")?;
        } else {
            writeln!(
                out,
                "Moves from {}: {}",
                self.start,
                chain(&self.moves, ",")
            )?;
        }
        Ok(())
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
