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
use std::path::{Path, PathBuf};

use clap::ValueEnum;
use dalkon_dakon::game::{
    Game, GameRequest, Player, GAME_MAX_NODES, GAME_TT_MB, MAX_GAME_ESTIMATE_DEPTH,
};
use dalkon_dakon::request::DEFAULT_ESTIMATE_DEPTH;
use dalkon_dakon::solve::start_position;
use dalkon_render::dakon::game as lines;
use dalkon_rules::dakon::{Record, Side, STANDARD_BOARD};
use dalkon_rules::record::continued_tags;

use super::args::ProbeArgs;
use super::progress::BuildBar;
use super::{position, RuleArgs};
use crate::common::{Format, Global};
use crate::prompt::{self, Word};
use crate::record_file::{self, Keeper};
use dalkon_render::error_line::quote;

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
    /// Write the game's record (docs/formats.md) to FILE after every move
    /// (`save FILE` at the prompt writes one too).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Continue the game of this record: its rules, start and moves (the
    /// rule flags are not used).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["holes", "seeds", "position"])]
    pub load: Option<PathBuf>,
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
    pub probe: ProbeArgs,
    #[command(flatten)]
    pub rules: RuleArgs,
}

impl Args {
    fn request(&self, loaded: Option<&Record>) -> anyhow::Result<(GameRequest, String)> {
        let (start, board) = match (loaded, &self.position) {
            (Some(r), _) => (r.start, format!("from {}", r.start)),
            (None, Some(text)) => {
                let p = position(text, "--position ")?;
                (p, format!("from {p}"))
            }
            (None, None) => {
                let (h, s) = self.holes.zip(self.seeds).unwrap_or(STANDARD_BOARD);
                (start_position(h, s)?, format!("{h} holes × {s} seeds"))
            }
        };
        let request = GameRequest {
            first: self.first.into(),
            second: self.second.into(),
            max_nodes: self.max_nodes,
            estimate_depth: self.estimate_depth,
            tt_mb: self.tt_mb,
            probe_seeds: self.probe.probe_seeds,
            db_dir: self.probe.db_dir(),
            ..GameRequest::new(start, loaded.map_or(self.rules.rules(), |r| r.rules))
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
    let loaded: Option<Record> = args.load.as_deref().map(record_file::load).transpose()?;
    let (request, board) = args.request(loaded.as_ref())?;
    let mut game = Game::new(&request)?;
    if let Some(k) = request.probe_seeds {
        game.open_databases(&BuildBar::new(k))?;
    }
    if let (Some(r), Some(path)) = (&loaded, &args.load) {
        game.replay(&r.moves).map_err(|(k, e)| {
            anyhow::anyhow!("{}: move {} cannot be played: {e}", path.display(), k + 1)
        })?;
    }
    let who = |side| match game.player(side) {
        Player::Human => "human".to_owned(),
        Player::Engine => "engine".to_owned(),
    };
    let own = vec![
        ("South".to_owned(), who(Side::South)),
        ("North".to_owned(), who(Side::North)),
    ];
    let keep = Keeper {
        path: args.save.clone(),
        tags: continued_tags(
            loaded.as_ref().map_or(&[], |r| &r.tags),
            &["South", "North"],
            own,
        ),
    };
    if let (Some(r), Some(path)) = (&loaded, &args.load) {
        let n = r.moves.len();
        writeln!(out, "loaded {n} move{} from {}", plural(n), path.display())?;
    }
    write!(out, "{}", lines::header(&game, &board))?;
    while let Some(player) = game.to_move() {
        let text = match player {
            Player::Engine => {
                let (played, m) = game.engine_move()?.expect("a game not over");
                lines::played(&played, Some(&lines::why(&game, &played, &m)))
            }
            Player::Human => match ask(&mut game, &keep, out, stdin)? {
                Typed::Move(hole) => lines::played(&game.play(hole)?, None),
                Typed::Undo => lines::undone(&game.undo().expect("checked by ask")),
                Typed::Quit => return Ok(write!(out, "{}", lines::stopped(&game))?),
            },
        };
        write!(out, "{text}")?;
        if let Some(path) = &keep.path {
            save(&keep, &game, path)?;
        }
    }
    Ok(write!(out, "{}", lines::over(&game))?)
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Write the game's record to `path`, and say so.
fn save(keep: &Keeper, game: &Game, path: &Path) -> anyhow::Result<String> {
    let mut record = game.record();
    record.tags = keep.tags.clone();
    keep.save(path, &record.to_string(), (record.moves.len(), "move"))
}

/// Read lines until the human to move types a move, `undo` or `quit`
/// (hints and help are answered on the way; a bad line gets a message).
fn ask(
    game: &mut Game,
    keep: &Keeper,
    out: &mut dyn Write,
    stdin: &mut dyn BufRead,
) -> anyhow::Result<Typed> {
    let pos = *game.position();
    write!(out, "{}", lines::prompt(&pos))?;
    loop {
        let Some(text) = prompt::ask_text(out, stdin)? else {
            return Ok(Typed::Quit);
        };
        if let Some(file) = prompt::save_word(&text) {
            writeln!(out, "{}", keep.answer(file, |p| save(keep, game, p))?)?;
            continue;
        }
        let answer = match Word::parse(&text) {
            Some(Word::Quit) => return Ok(Typed::Quit),
            Some(Word::Undo) if !game.can_undo() => lines::NOTHING_TO_UNDO.to_owned(),
            Some(Word::Undo) => return Ok(Typed::Undo),
            Some(Word::Help) => lines::help(pos.holes()),
            Some(Word::Hint) => {
                let a = game.hint()?;
                lines::hint(game, &a)
            }
            None => match text.parse::<usize>() {
                Ok(hole) => match pos.play(hole, game.rules()) {
                    Ok(_) => return Ok(Typed::Move(hole)),
                    Err(e) => lines::illegal(&pos, &e),
                },
                Err(_) => lines::not_a_move(&pos, &quote(&text)),
            },
        };
        write!(out, "{answer}")?;
    }
}
