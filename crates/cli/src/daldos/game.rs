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
//! The dice are seeded: throw `k` of a game is the same for a seed whatever
//! is played (they come from a stream of their own,
//! `Rng::for_index(seed, 0)`; the random player's choices come from
//! `Rng::for_index(seed, 1)`). `undo` goes back to just before the throw of
//! the last play a human chose, both streams included: the same throw
//! comes again, and the plays after it are replayed as they came, unless
//! another play is chosen. A `hint` is the engine's value of every play of
//! the throw, as `daldos best --dice` gives it (exact or estimate, per
//! play), within a node budget.
//!
//! Solved tables in `--db-dir` (default `$DALKON_DB_DIR`, else `$XDG_DATA_HOME/dalkon`, else
//! `~/.local/share/dalkon`)
//! serve the hints, whose search takes their exact values wherever they
//! cover a position (as `daldos best` does), and the `perfect` player,
//! refused before the game unless they cover every position it can reach.
//! The engine players do not read them: `engine:N` plays as in a match.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use dalkon_daldos::engine::{
    deepen, Analysis, Daldos, DeepenOptions, Game as _, Player, PlayerSpec, PlayerSpecError, Rng,
    RootMode, SearchOptions, ThrowAnalysis, MAX_DEPTH,
};
use dalkon_daldos::solved::Tables;
use dalkon_rules::daldos::{Board, Play, Position, Side, Throw};

use super::RuleArgs;
use crate::common::{quote, Format, Global};
use crate::prompt::{self, Word};
use dalkon_render::daldos::draw;

/// The default `--max-nodes` of a hint: a fraction of a second.
pub const DEFAULT_HINT_NODES: u64 = 2_000_000;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Player a (row A; a moves first from the start): human, random,
    /// greedy, engine:N or perfect (the solved tables' best play).
    #[arg(long, value_name = "PLAYER", default_value = "human")]
    pub a: String,
    /// Player b (row B): human, random, greedy, engine:N or perfect.
    #[arg(long, value_name = "PLAYER", default_value = "engine:2")]
    pub b: String,
    /// Seed of the dice (and of the random player's choices).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Start from this position instead of the start of the board
    /// (docs/rules.md §1.6; --board, if given, must agree).
    #[arg(long, value_name = "POS")]
    pub position: Option<String>,
    /// Throws after which an unfinished game is stopped, won by neither.
    #[arg(long, value_name = "N", default_value_t = 5000)]
    pub turn_cap: u32,
    /// Depth of a hint's search in throws, 1 to 8.
    #[arg(long, value_name = "N", default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH)))]
    pub hint_depth: u32,
    /// Nodes a hint may visit, all depths together (it deepens 1, 2, … up
    /// to --hint-depth and answers with the deepest that finished); 0 for
    /// no limit.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_HINT_NODES)]
    pub max_nodes: u64,
    /// Folder of the solved tables for hints and `perfect` (`dalkon daldos
    /// solve`; default: $DALKON_DB_DIR, else $XDG_DATA_HOME/dalkon, else
    /// ~/.local/share/dalkon).
    #[arg(long, value_name = "DIR")]
    pub db_dir: Option<PathBuf>,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// Who plays a side.
enum Seat {
    Human,
    Machine(PlayerSpec, Box<dyn Player<Daldos>>),
}

/// A side's player as typed, before it is built: a human, or a spec.
fn parse_seat(flag: &str, text: &str) -> anyhow::Result<Option<PlayerSpec>> {
    if text == "human" {
        return Ok(None);
    }
    match text.parse::<PlayerSpec>() {
        Ok(spec) => Ok(Some(spec)),
        Err(PlayerSpecError::Unknown(_)) => anyhow::bail!(
            "{flag}: unknown player {}: expected human, random, greedy, engine:N or perfect",
            quote(text)
        ),
        Err(e) => Err(e).context(flag.to_owned()),
    }
}

impl Seat {
    /// The seat of a parsed player, for games of `game` from `start`.
    fn build(
        flag: &str,
        spec: Option<PlayerSpec>,
        game: &Daldos,
        start: &Position,
        tables: Option<&Arc<Tables>>,
    ) -> anyhow::Result<Seat> {
        Ok(match spec {
            None => Seat::Human,
            Some(spec) => Seat::Machine(
                spec,
                spec.build(game, start, tables)
                    .with_context(|| flag.to_owned())?,
            ),
        })
    }

    fn name(&self) -> String {
        match self {
            Seat::Human => "human".to_owned(),
            Seat::Machine(spec, _) => spec.to_string(),
        }
    }
}

/// Everything `undo` restores: the state just before a throw.
#[derive(Clone)]
struct Snapshot {
    pos: Position,
    dice: Rng,
    choices: Rng,
    throws: u32,
}

/// A game in progress.
struct Game {
    /// The rules, for the players (no tables).
    game: Daldos,
    /// The game the hints search: with the tables, if any.
    hint_game: Daldos,
    /// By side index (a = 0).
    seats: [Seat; 2],
    now: Snapshot,
    turn_cap: u32,
    hint_depth: u32,
    hint_nodes: Option<u64>,
    /// Before the throw of each play a human chose.
    undo: Vec<Snapshot>,
}

/// What a human typed, once understood.
enum Typed {
    Play(usize),
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
    let specs = [parse_seat("--a", &args.a)?, parse_seat("--b", &args.b)?];
    if args.turn_cap == 0 {
        anyhow::bail!("--turn-cap must be at least 1");
    }
    let pos = match &args.position {
        Some(text) => args.rules.position(text)?,
        None => Position::start(args.rules.board()?.unwrap_or(Board::DANISH)),
    };
    let variants = args.rules.variants();
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
    let mut game = Game {
        hint_game: match &tables {
            Some(t) if !super::best::is_empty(t) => Daldos::with_tables(Arc::clone(t)),
            _ => rules.clone(),
        },
        game: rules,
        seats,
        now: Snapshot {
            pos,
            dice: Rng::for_index(args.seed, 0),
            choices: Rng::for_index(args.seed, 1),
            throws: 0,
        },
        turn_cap: args.turn_cap,
        hint_depth: args.hint_depth,
        hint_nodes: (args.max_nodes > 0).then_some(args.max_nodes),
        undo: Vec::new(),
    };
    let board = pos.board();
    writeln!(
        out,
        "Daldøs on the {} board (L={}), {}; dice seed {}",
        board.name(),
        board.len(),
        game.game.variants,
        args.seed
    )?;
    writeln!(
        out,
        "a: {}; b: {}",
        game.seats[0].name(),
        game.seats[1].name()
    )?;
    if game.seats.iter().any(|s| matches!(s, Seat::Human)) {
        writeln!(
            out,
            "Type a play's number or its notation, or hint, undo, help, quit."
        )?;
    }
    write!(out, "\n{}", draw(&pos))?;
    game.play(out, stdin)
}

impl Game {
    /// Play to the end of the game (or of the input, or the turn cap).
    fn play(&mut self, out: &mut dyn Write, stdin: &mut dyn BufRead) -> anyhow::Result<()> {
        loop {
            let pos = self.now.pos;
            if let Some(winner) = pos.winner(&self.game.variants) {
                return self.finished(out, winner);
            }
            if self.now.throws >= self.turn_cap {
                writeln!(
                    out,
                    "\nNo winner after {} throws (--turn-cap): game stopped; {}.",
                    self.now.throws,
                    pieces(&pos)
                )?;
                return Ok(());
            }
            let before = self.now.clone();
            let throw = Throw::ALL[self.now.dice.below(16) as usize];
            self.now.throws += 1;
            let side = pos.side_to_move();
            writeln!(out, "\nthrow {}: {side} throws {throw}", self.now.throws)?;
            let plays = self.game.plays(&pos, throw);
            let board = pos.board();
            let chosen = if plays.len() == 1 {
                0
            } else {
                match &self.seats[side.index()] {
                    Seat::Machine(_, player) => {
                        player.choose(&self.game, &pos, &plays, &mut self.now.choices)
                    }
                    Seat::Human => match self.ask(out, stdin, throw, &plays)? {
                        Typed::Play(i) => {
                            self.undo.push(before);
                            i
                        }
                        Typed::Undo => {
                            self.take_back(out)?;
                            continue;
                        }
                        Typed::Quit => {
                            writeln!(
                                out,
                                "\nGame stopped after {} throws, not finished; {}.",
                                before.throws,
                                pieces(&pos)
                            )?;
                            return Ok(());
                        }
                    },
                }
            };
            let (play, result) = &plays[chosen];
            if play.is_pass() {
                writeln!(out, "{side}: pass (no die can be used)")?;
            } else {
                let only = if plays.len() == 1 {
                    " (the only play)"
                } else {
                    ""
                };
                let who = match &self.seats[side.index()] {
                    Seat::Machine(spec, _) if plays.len() > 1 => format!(" ({spec})"),
                    _ => String::new(),
                };
                writeln!(
                    out,
                    "{side}{who} plays {}{only} -> {result}",
                    play.notation(board)
                )?;
                write!(out, "{}", draw(result))?;
            }
            if throw.is_daldal() && !result.is_over(&self.game.variants) {
                writeln!(out, "dal-dal: {side} throws again")?;
            }
            self.now.pos = *result;
        }
    }

    /// List the plays and read lines until the human chooses one, or
    /// types `undo` or `quit`.
    fn ask(
        &self,
        out: &mut dyn Write,
        stdin: &mut dyn BufRead,
        throw: Throw,
        plays: &[(Play, Position)],
    ) -> anyhow::Result<Typed> {
        let pos = &self.now.pos;
        let board = pos.board();
        let names: Vec<String> = plays.iter().map(|(p, _)| p.notation(board)).collect();
        for (i, name) in names.iter().enumerate() {
            writeln!(out, "  {:>3}. {name}", i + 1)?;
        }
        writeln!(
            out,
            "{} to move: a play (1 to {}, or its notation), or hint, undo, help, quit",
            pos.side_to_move(),
            plays.len()
        )?;
        loop {
            let Some(text) = prompt::ask_text(out, stdin)? else {
                return Ok(Typed::Quit);
            };
            match Word::parse(&text) {
                Some(Word::Quit) => return Ok(Typed::Quit),
                Some(Word::Undo) if self.undo.is_empty() => {
                    writeln!(out, "nothing to undo: no play has been chosen yet")?;
                }
                Some(Word::Undo) => return Ok(Typed::Undo),
                Some(Word::Help) => help(out)?,
                Some(Word::Hint) => self.hint(out, throw, plays)?,
                None => match pick(&text, &names) {
                    Ok(i) => return Ok(Typed::Play(i)),
                    Err(message) => writeln!(out, "{message}")?,
                },
            }
        }
    }

    /// The engine's value of every play of `throw`, best first, each with
    /// its number in the list.
    fn hint(
        &self,
        out: &mut dyn Write,
        throw: Throw,
        plays: &[(Play, Position)],
    ) -> anyhow::Result<()> {
        let pos = &self.now.pos;
        let (a, depth) = self.analyse(pos, throw)?;
        let limit = if depth < self.hint_depth {
            format!(
                " of the {} asked (the node limit stopped the deeper search)",
                self.hint_depth
            )
        } else {
            String::new()
        };
        let tables = match &self.hint_game.tables {
            Some(t) => format!(" (solved tables: {} layers)", t.stats().len()),
            None => String::new(),
        };
        writeln!(
            out,
            "hint: {}'s win probability after each play, depth {depth}{limit}; \
             exact = the value of the game, estimate = the engine's evaluation entered it{tables}",
            pos.side_to_move()
        )?;
        let board = pos.board();
        let width = a
            .plays
            .iter()
            .map(|p| p.play.notation(board).len())
            .max()
            .unwrap_or(0);
        for p in &a.plays {
            let number = plays
                .iter()
                .position(|(_, r)| *r == p.result)
                .map_or(0, |i| i + 1);
            writeln!(
                out,
                "  {number:>3}. {:<width$}  {:.4}  {}",
                p.play.notation(board),
                p.value,
                if p.exact { "exact" } else { "estimate" }
            )?;
        }
        Ok(())
    }

    /// Search `throw` in `pos` one depth after another within the node
    /// budget, as `daldos best` does (`dalkon_daldos::engine::deepen`); the
    /// deepest answer that finished and its depth. Depth 1 always finishes.
    fn analyse(
        &self,
        pos: &Position,
        throw: Throw,
    ) -> anyhow::Result<(ThrowAnalysis<Daldos>, u32)> {
        let opts = DeepenOptions {
            depth: self.hint_depth,
            max_nodes: self.hint_nodes,
            prune: SearchOptions::default().prune,
            mode: RootMode::AllExact,
        };
        let d = deepen(&self.hint_game, pos, Some(throw), opts, &(), None)?;
        match d.analysis {
            Analysis::Throw(a) => Ok((a, d.depth)),
            Analysis::Position(_) => unreachable!("deepen answers the throw it was given"),
        }
    }

    /// Back to just before the throw of the last play a human chose.
    fn take_back(&mut self, out: &mut dyn Write) -> anyhow::Result<()> {
        let Some(snapshot) = self.undo.pop() else {
            return Ok(());
        };
        let taken = self.now.throws - snapshot.throws;
        writeln!(
            out,
            "undo: took back {taken} throw{} and their plays -> {}",
            if taken == 1 { "" } else { "s" },
            snapshot.pos
        )?;
        write!(out, "{}", draw(&snapshot.pos))?;
        self.now = snapshot;
        Ok(())
    }

    fn finished(&self, out: &mut dyn Write, winner: Side) -> anyhow::Result<()> {
        writeln!(
            out,
            "\nGame over after {} throws: {winner} ({}) wins; {}.",
            self.now.throws,
            self.seats[winner.index()].name(),
            pieces(&self.now.pos)
        )?;
        Ok(())
    }
}

/// The play a typed line names: its number in the list, or its notation
/// (spaces and case aside); otherwise the one-line message saying why not.
fn pick(text: &str, names: &[String]) -> Result<usize, String> {
    if let Ok(k) = text.parse::<usize>() {
        return if (1..=names.len()).contains(&k) {
            Ok(k - 1)
        } else {
            Err(format!(
                "there is no play {k}: the plays are numbered 1 to {}",
                names.len()
            ))
        };
    }
    let typed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    names
        .iter()
        .position(|n| n.eq_ignore_ascii_case(&typed))
        .ok_or_else(|| {
            format!(
                "{} is not a play of this throw: type its number (1 to {}) or its notation \
                 as listed, or help",
                quote(text),
                names.len()
            )
        })
}

/// `pieces left: a 10, b 9`.
fn pieces(pos: &Position) -> String {
    format!(
        "pieces left: a {}, b {}",
        pos.count(Side::A),
        pos.count(Side::B)
    )
}

fn help(out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        out,
        "  N      choose play N of the list\n  \
         PLAY   choose the play written so, as listed (e.g. A16-M16 M16-M13)\n  \
         hint   the engine's value of every play of this throw, best first\n  \
         undo   take back your last chosen play and all after it (the same throw comes again)\n  \
         help   this list\n  \
         quit   stop the game (so does the end of the input)"
    )
}
