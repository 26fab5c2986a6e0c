//! `dalkon daldos game`: a game in the terminal between any two of a
//! human, `random`, `greedy`, `engine:N` and `perfect` (docs/cli.md,
//! "Looking at positions and playing").
//!
//! Every throw is shown; a human sees the legal plays of the throw
//! numbered (in the order of `daldos moves`) and types a number or a
//! play's notation. A throw with one play only (a lost throw, `pass`,
//! included) is played at once for whoever throws: it is not a choice.
//! After a dal-dal the same side throws again (docs/rules.md §1.3).
//!
//! The game loop is the library's (`dalkon_daldos::engine::Session`,
//! shared with `daldos match`): the same seed gives the same dice and,
//! between machines, the same game as game 1 of `daldos match` with that
//! seed. Without `--seed` a seed is drawn and printed, so that any game can
//! be replayed. `undo` goes back to just before the throw of the last play
//! a human chose. A `hint` is the engine's value of every play of the
//! throw, as `daldos best --dice` gives it (exact or estimate, per play),
//! within a node budget (`engine::hint`).
//!
//! The human side (reading lines, hints) is in `human.rs`.
//!
//! Solved tables in `--db-dir` (default `$DALKON_DB_DIR`, else `./dalkon-db` if it exists, else `$XDG_DATA_HOME/dalkon`, else
//! `~/.local/share/dalkon`)
//! serve the hints, whose search takes their exact values wherever they
//! cover a position (as `daldos best` does), and the `perfect` player,
//! refused before the game unless they cover every position it can reach.
//! The engine players do not read them: `engine:N` plays as in a match.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use dalkon_daldos::engine::{
    game_record, random_seed, Daldos, PlayerSpec, Rng, Session, Status, HINT_DEPTH, HINT_MAX_NODES,
    MAX_DEPTH,
};
use dalkon_daldos::request::best::Analyst;
use dalkon_rules::daldos::{Position, Record, Side, DEFAULT_MAX_THROWS, RECORD_DEFAULT_BOARD};

mod human;
mod seat;

use human::Typed;
use seat::{parse_seat, Seat};

use super::RuleArgs;
use crate::common::{Format, Global};
use crate::record_file::{self, Keeper};
use dalkon_render::daldos::{draw, game};
use dalkon_rules::record::continued_tags;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Player a (row A; a moves first from the start): human, random,
    /// greedy, engine:N (the engine, learned evaluation), hand:N (the
    /// hand-fitted evaluation) or perfect (the solved tables' best play).
    #[arg(long, value_name = "PLAYER", default_value = "human")]
    pub a: String,
    /// Player b (row B): human, random, greedy, engine:N, hand:N or
    /// perfect.
    #[arg(long, value_name = "PLAYER", default_value = "engine:2")]
    pub b: String,
    /// Seed of the dice (and of the random player's choices), as `daldos
    /// match --seed`; without it a seed is drawn and printed.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Start from this position instead of the start of the board
    /// (docs/rules.md §1.6; --board, if given, must agree).
    #[arg(long, value_name = "POS", conflicts_with = "load")]
    pub position: Option<String>,
    /// Write the game's record (docs/formats.md) to FILE after every throw
    /// (`save FILE` at the prompt writes one too).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Continue the game of this record: its rules, start and throws (the
    /// rule flags and --board are not used); the dice go on from --seed.
    #[arg(long, value_name = "FILE")]
    pub load: Option<PathBuf>,
    /// Throws after which an unfinished game is stopped, won by neither.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_THROWS)]
    pub turn_cap: u32,
    /// Depth of a hint's search in throws, 1 to 8.
    #[arg(long, value_name = "N", default_value_t = HINT_DEPTH,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH)))]
    pub hint_depth: u32,
    /// Nodes a hint may visit, all depths together (it deepens 1, 2, … up
    /// to --hint-depth and answers with the deepest that finished); 0 for
    /// no limit.
    #[arg(long, value_name = "N", default_value_t = HINT_MAX_NODES)]
    pub max_nodes: u64,
    /// Folder of the solved tables for hints and `perfect` (`dalkon daldos
    /// solve`; default: $DALKON_DB_DIR, else ./dalkon-db if it exists, else $XDG_DATA_HOME/dalkon, else
    /// ~/.local/share/dalkon).
    #[arg(long, value_name = "DIR")]
    pub db_dir: Option<PathBuf>,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// What the loop prints with: the seats' names and the hints' settings.
struct Table {
    /// The engine the hints ask (the `daldos best` request): with the
    /// tables, if any.
    hint_analyst: Analyst,
    names: [String; 2],
    hint_depth: u32,
    hint_nodes: Option<u64>,
    rules: Daldos,
    /// Where `--save` keeps the record, and its tags.
    keep: Keeper,
}

pub fn run(
    global: &Global,
    args: Args,
    out: &mut dyn Write,
    stdin: &mut dyn BufRead,
) -> anyhow::Result<()> {
    global.require_format(&[Format::Text])?;
    let specs = [parse_seat("--a", &args.a)?, parse_seat("--b", &args.b)?];
    if args.turn_cap == 0 {
        anyhow::bail!("--turn-cap must be at least 1");
    }
    let loaded: Option<Record> = args.load.as_deref().map(record_file::load).transpose()?;
    let pos = match (&loaded, &args.position) {
        (Some(r), _) => r.start,
        (None, Some(text)) => args.rules.position(text)?,
        (None, None) => Position::start(args.rules.board()?.unwrap_or(RECORD_DEFAULT_BOARD)),
    };
    let variants = loaded
        .as_ref()
        .map_or(args.rules.variants(), |r| r.variants);
    let rules = Daldos::new(variants);
    // Tables serve hints (humans) and `perfect`.
    let tables = if specs
        .iter()
        .any(|s| s.map_or(true, PlayerSpec::needs_tables))
    {
        let dir = super::best::db_dir(args.db_dir.clone())?;
        Some(super::best::load_tables(&dir, pos.board(), variants)?)
    } else {
        None
    };
    let seats = [
        Seat::build("--a", specs[0], &rules, &pos, tables.as_ref())?,
        Seat::build("--b", specs[1], &rules, &pos, tables.as_ref())?,
    ];
    let table = Table {
        hint_analyst: match &tables {
            Some(t) => Analyst::with_tables(Arc::clone(t)),
            None => Analyst::without_tables(pos.board(), variants),
        },
        names: [seats[0].name(), seats[1].name()],
        hint_depth: args.hint_depth,
        hint_nodes: (args.max_nodes > 0).then_some(args.max_nodes),
        rules,
        keep: Keeper {
            path: args.save.clone(),
            tags: Vec::new(),
        },
    };
    let mut table = table;
    let seed = args.seed.unwrap_or_else(random_seed);
    // A loaded game keeps its tags, but not its seed: its dice are its throws.
    let mut own = Vec::new();
    if loaded.is_none() {
        own.push(("Seed".to_owned(), seed.to_string()));
    }
    own.push(("A".to_owned(), table.names[0].clone()));
    own.push(("B".to_owned(), table.names[1].clone()));
    table.keep.tags = continued_tags(
        loaded.as_ref().map_or(&[], |r| &r.tags),
        &["Seed", "A", "B"],
        own,
    );
    let human = seats.iter().any(|s| matches!(s, Seat::Human));
    let variants = table.rules.variants;
    let opening = game::opening(
        &pos,
        variants,
        seed,
        args.seed.is_none(),
        &table.names,
        human,
    );
    write!(out, "{opening}")?;
    let players = [seats[0].player(), seats[1].player()];
    let mut session = Session::new(
        &table.rules,
        pos,
        players,
        Rng::for_index(seed, 0),
        args.turn_cap,
    );
    if let (Some(r), Some(path)) = (&loaded, &args.load) {
        if let Err(k) = session.replay_turns(&r.turns) {
            anyhow::bail!(
                "{}: throw {} cannot be played (the game is over, or past --turn-cap)",
                path.display(),
                k + 1
            );
        }
        writeln!(
            out,
            "loaded {} throws from {}",
            r.turns.len(),
            path.display()
        )?;
    }
    write!(out, "\n{}", draw(session.position()))?;
    table.play(&mut session, out, stdin)
}

impl Table {
    /// The record of the game so far.
    fn record(&self, session: &Session<'_, Daldos>) -> Record {
        let mut r = game_record(*session.start(), self.rules.variants, session.turns());
        r.tags = self.keep.tags.clone();
        r
    }

    /// Write the record to `path`, and say so.
    fn save_to(&self, session: &Session<'_, Daldos>, path: &Path) -> anyhow::Result<String> {
        let text = self.record(session).to_string();
        self.keep
            .save(path, &text, (session.turns().len(), "throw"))
    }

    /// Play to the end of the game (or of the input, or the turn cap).
    fn play(
        &self,
        session: &mut Session<'_, Daldos>,
        out: &mut dyn Write,
        stdin: &mut dyn BufRead,
    ) -> anyhow::Result<()> {
        loop {
            let pos = *session.position();
            let end = match session.status() {
                Status::Won(w) => {
                    let winner = if w == 0 { Side::A } else { Side::B };
                    let name = &self.names[winner.index()];
                    game::won(session.throws(), winner, name, &pos)
                }
                Status::Capped => game::capped(session.throws(), &pos),
                Status::ToThrow => String::new(),
            };
            if !end.is_empty() {
                write!(out, "{end}")?;
                return Ok(());
            }
            let thrown = session.throw().clone();
            let side = pos.side_to_move();
            writeln!(
                out,
                "\nthrow {}: {side} throws {}",
                session.throws(),
                thrown.throw
            )?;
            let (chosen, by_human) = match session.machine_choice() {
                Some(i) => (i, false),
                None => match self.ask(out, stdin, &pos, &thrown, session)? {
                    Typed::Play(i) => (i, true),
                    Typed::Undo => {
                        let taken = session.undo().unwrap_or(0);
                        write!(out, "{}", game::undone(taken, session.position()))?;
                        continue;
                    }
                    Typed::Quit => {
                        write!(out, "{}", game::stopped(session.throws_played(), &pos))?;
                        return Ok(());
                    }
                },
            };
            session.play(chosen, by_human);
            let name = &self.names[pos.side_to_move().index()];
            let line = game::played(&pos, &thrown, chosen, name, &self.rules.variants);
            write!(out, "{line}")?;
            if let Some(path) = &self.keep.path {
                self.save_to(session, path)?;
            }
        }
    }
}
