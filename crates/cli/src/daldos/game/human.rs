//! The human side of `daldos game`: the listed plays, the prompt, the
//! words (`hint`, `undo`, `help`, `quit`) and the hint's table.

use std::io::{BufRead, Write};

use dalkon_daldos::engine::{pick_play, Daldos, SearchOptions, Session, Thrown};
use dalkon_daldos::request::best::BestRequest;
use dalkon_rules::daldos::Position;

use super::Table;
use crate::prompt::{self, Word};
use dalkon_render::error_line::quote;

/// What a human typed, once understood.
pub(super) enum Typed {
    Play(usize),
    Undo,
    Quit,
}

impl Table {
    /// List the plays and read lines until the human chooses one, or
    /// types `undo` or `quit`.
    pub(super) fn ask(
        &self,
        out: &mut dyn Write,
        stdin: &mut dyn BufRead,
        pos: &Position,
        thrown: &Thrown<Daldos>,
        session: &Session<'_, Daldos>,
    ) -> anyhow::Result<Typed> {
        let can_undo = session.can_undo();
        let board = pos.board();
        let plays = &thrown.plays;
        let names: Vec<String> = plays.iter().map(|(p, _)| p.notation(board)).collect();
        for (i, name) in names.iter().enumerate() {
            writeln!(out, "  {:>3}. {name}", i + 1)?;
        }
        writeln!(
            out,
            "{} to move: a play (1 to {}, or its notation), or hint, undo, save, help, quit",
            pos.side_to_move(),
            plays.len()
        )?;
        loop {
            let Some(text) = prompt::ask_text(out, stdin)? else {
                return Ok(Typed::Quit);
            };
            if let Some(file) = prompt::save_word(&text) {
                let said = self.keep.answer(file, |p| self.save_to(session, p))?;
                writeln!(out, "{said}")?;
                continue;
            }
            match Word::parse(&text) {
                Some(Word::Quit) => return Ok(Typed::Quit),
                Some(Word::Undo) if !can_undo => {
                    writeln!(out, "nothing to undo: no play has been chosen yet")?;
                }
                Some(Word::Undo) => return Ok(Typed::Undo),
                Some(Word::Help) => help(out)?,
                Some(Word::Hint) => self.hint(out, pos, thrown)?,
                None => match pick_play(&text, &names, quote(&text)) {
                    Ok(i) => return Ok(Typed::Play(i)),
                    Err(message) => writeln!(out, "{message}")?,
                },
            }
        }
    }

    /// The engine's value of every play of the throw, best first, each
    /// with its number in the list.
    fn hint(
        &self,
        out: &mut dyn Write,
        pos: &Position,
        thrown: &Thrown<Daldos>,
    ) -> anyhow::Result<()> {
        // The hint is the `daldos best --dice` request under the game's
        // budget: the same plays, values and labels as that command.
        let request = BestRequest::new(
            Some(thrown.throw),
            self.hint_depth,
            self.hint_nodes,
            false,
            SearchOptions::default().prune,
            None,
        )?;
        let report = request.run(&self.hint_analyst, pos, &(), None)?;
        let depth = report.depth;
        let limit = if depth < self.hint_depth {
            format!(
                " of the {} asked (the node limit stopped the deeper search)",
                self.hint_depth
            )
        } else {
            String::new()
        };
        let tables = match report.tables {
            0 => String::new(),
            n => format!(" (solved tables: {n} layers)"),
        };
        writeln!(
            out,
            "hint: {}'s win probability after each play, depth {depth}{limit}; \
             exact = the value of the game, estimate = the engine's evaluation entered it{tables}",
            pos.side_to_move()
        )?;
        let width = report.plays.iter().map(|p| p.play.len()).max().unwrap_or(0);
        for p in &report.plays {
            let number = thrown
                .plays
                .iter()
                .position(|(_, r)| *r == p.result)
                .map_or(0, |i| i + 1);
            writeln!(
                out,
                "  {number:>3}. {:<width$}  {:.4}  {}",
                p.play,
                p.value,
                if p.exact { "exact" } else { "estimate" }
            )?;
        }
        Ok(())
    }
}

fn help(out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        out,
        "  N      choose play N of the list\n  \
         PLAY   choose the play written so, as listed (e.g. A16-M16 M16-M13)\n  \
         hint   the engine's value of every play of this throw, best first\n  \
         undo   take back your last chosen play and all after it (the same throw comes again)\n  \
         save FILE  write the game so far as a game record (save alone: to --save's file)\n  \
         help   this list\n  \
         quit   stop the game (so does the end of the input)"
    )
}
