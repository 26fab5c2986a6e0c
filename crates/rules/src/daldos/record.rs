//! A Daldøs game record (docs/formats.md, "Game records"): the tags `Game
//! "daldos"`, `Rules` (`board=… dal=… capture=… end=…`), `Start`, and
//! optional others, then the throws, each `d1,d2` followed by its play in
//! the notation of `daldos moves`: one step as it is (`A3-M3x`), two steps
//! in parentheses (`(M9-M7 M7-M4x)`), `-` for a throw without a legal play.
//! Reading replays every throw, so a record that is read is a legal game.

use std::fmt;
use std::str::FromStr;

use super::{plays, Board, CaptureRule, DalRule, EndRule, Play, Position, Side, Throw, Variants};
use crate::record::{check_result, set_tag_in, tag_in, write_record, Parts, RecordError, Token};

/// The tags a record reads itself; any other tag is kept as it is.
const OWN_TAGS: [&str; 3] = ["Game", "Rules", "Start"];

/// The board of a record that names none (neither in `Rules` nor by its
/// `Start`): the Danish board, as `daldos game` plays.
pub const RECORD_DEFAULT_BOARD: Board = Board::DANISH;

/// One throw of a game and the play made with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turn {
    /// The dice.
    pub throw: Throw,
    /// The play (the lost throw: [`Play::pass`]).
    pub play: Play,
}

/// A Daldøs game: where it started, under which rules, and its throws.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The rule options.
    pub variants: Variants,
    /// The position before the first throw (it carries the board).
    pub start: Position,
    /// The throws and plays, in order.
    pub turns: Vec<Turn>,
    /// The other tags (`Seed`, `Date`, `A`, `B`, `Result`, …) as
    /// `(name, value)`, in the order written.
    pub tags: Vec<(String, String)>,
}

impl Record {
    /// An empty game from `start`.
    pub fn new(start: Position, variants: Variants) -> Record {
        Record {
            variants,
            start,
            turns: Vec::new(),
            tags: Vec::new(),
        }
    }

    /// The positions of the game: the start, then the one after each turn
    /// (its side the one that throws next).
    pub fn positions(&self) -> Vec<Position> {
        let mut out = vec![self.start];
        let mut pos = self.start;
        for t in &self.turns {
            pos = after(&pos, &self.variants, t).expect("a record's turns are legal");
            out.push(pos);
        }
        out
    }

    /// The position after the last turn.
    pub fn end(&self) -> Position {
        *self.positions().last().expect("the start is there")
    }

    /// Add `turns` at the end, each checked where the game stands (one
    /// replay of the game, however many are added): the position after
    /// them, or the index among `turns` of the first that is not a play
    /// of its throw, and why (the turns before it are kept).
    pub fn extend(&mut self, turns: Vec<Turn>) -> Result<Position, (usize, String)> {
        let mut pos = self.end();
        for (i, turn) in turns.into_iter().enumerate() {
            pos = after(&pos, &self.variants, &turn).ok_or_else(|| {
                let why = format!(
                    "{} is not a play of the throw {} here",
                    turn.play.notation(pos.board()),
                    turn.throw
                );
                (i, why)
            })?;
            self.turns.push(turn);
        }
        Ok(pos)
    }

    /// The value of tag `name` among [`Record::tags`].
    pub fn tag(&self, name: &str) -> Option<&str> {
        tag_in(&self.tags, name)
    }

    /// Set tag `name` (replacing its value, or adding it last).
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        set_tag_in(&mut self.tags, name, value.into());
    }

    /// The PGN result of the game so far: `1-0` when A has won, `0-1` B,
    /// `*` a game not over.
    pub fn result(&self) -> &'static str {
        result(&self.end(), &self.variants)
    }
}

fn result(pos: &Position, variants: &Variants) -> &'static str {
    match pos.winner(variants) {
        None => "*",
        Some(Side::A) => "1-0",
        Some(Side::B) => "0-1",
    }
}

/// The position after `turn`, if its play is one of the throw's.
fn after(pos: &Position, variants: &Variants, turn: &Turn) -> Option<Position> {
    plays(pos, variants, turn.throw)
        .into_iter()
        .find(|o| o.play == turn.play)
        .map(|o| o.result)
}

/// A turn's play as the record writes it.
fn play_text(play: &Play, board: Board) -> String {
    match play.steps.len() {
        0 => "-".to_owned(),
        1 => play.notation(board),
        _ => format!("({})", play.notation(board)),
    }
}

impl FromStr for Record {
    type Err = RecordError;

    /// Read and replay a record; the first throw or play that cannot be
    /// read, or is not legal where it stands, is refused with its number
    /// (counting throws from 1), line and column.
    fn from_str(text: &str) -> Result<Record, RecordError> {
        let parts = Parts::read(text)?;
        parts.expect_game("daldos")?;
        let (board, variants) = rules(&parts)?;
        let start = match parts.tag("Start") {
            Some(t) => {
                let pos: Position =
                    t.value
                        .parse()
                        .map_err(|e: super::NotationError| RecordError::Tag {
                            line: t.line,
                            name: "Start".to_owned(),
                            problem: e.to_string(),
                        })?;
                if board.is_some_and(|b| b != pos.board()) {
                    return Err(RecordError::Tag {
                        line: t.line,
                        name: "Start".to_owned(),
                        problem: format!(
                            "the position is on the board L={}, the Rules tag names board={}",
                            pos.board().len(),
                            board.map(Board::name).unwrap_or_default()
                        ),
                    });
                }
                pos
            }
            None => Position::start(board.unwrap_or(RECORD_DEFAULT_BOARD)),
        };
        let mut record = Record::new(start, variants);
        for tag in &parts.tags {
            if !OWN_TAGS.contains(&tag.name.as_str()) {
                record.tags.push((tag.name.clone(), tag.value.clone()));
            }
        }
        let mut pos = start;
        let mut tokens = parts.tokens.iter();
        let mut number = 0;
        while let Some(dice) = tokens.next() {
            number += 1;
            let bad = |t: &Token, problem: String| RecordError::Move {
                number,
                line: t.line,
                column: t.column,
                text: crate::excerpt(&t.text),
                problem,
            };
            if pos.is_over(&variants) {
                return Err(bad(dice, "the game is over".to_owned()));
            }
            let throw: Throw = if dice.group {
                return Err(bad(
                    dice,
                    "expected a throw d1,d2, found a group".to_owned(),
                ));
            } else {
                dice.text
                    .parse()
                    .map_err(|e: super::ThrowError| bad(dice, e.to_string()))?
            };
            let Some(play) = tokens.next() else {
                return Err(bad(
                    dice,
                    "the throw has no play after it (`-` when it has none)".to_owned(),
                ));
            };
            let outcomes = plays(&pos, &variants, throw);
            let board = pos.board();
            let wanted = match play.text.as_str() {
                "-" | "pass" => "pass".to_owned(),
                t => t.split_whitespace().collect::<Vec<_>>().join(" "),
            };
            let two = wanted.contains(' ');
            if two && !play.group {
                return Err(bad(
                    play,
                    "a play of two steps is written in parentheses".to_owned(),
                ));
            }
            let found = outcomes
                .iter()
                .find(|o| o.play.notation(board).eq_ignore_ascii_case(&wanted));
            let Some(found) = found else {
                if outcomes.len() == 1 && outcomes[0].play.is_pass() {
                    return Err(bad(
                        play,
                        format!(
                            "the throw {throw} has no play for {} here: write -",
                            pos.side_to_move().to_string().to_uppercase()
                        ),
                    ));
                }
                let legal: Vec<String> = outcomes
                    .iter()
                    .take(8)
                    .map(|o| play_text(&o.play, board))
                    .collect();
                let more = if outcomes.len() > 8 { ", …" } else { "" };
                return Err(bad(
                    play,
                    format!(
                        "not a play of the throw {throw} for {} here (the plays are {}{more})",
                        pos.side_to_move().to_string().to_uppercase(),
                        legal.join(", ")
                    ),
                ));
            };
            record.turns.push(Turn {
                throw,
                play: found.play.clone(),
            });
            pos = found.result;
        }
        check_result(&parts, result(&pos, &variants), "throws")?;
        Ok(record)
    }
}

/// The board (if named) and the options of the `Rules` tag.
fn rules(parts: &Parts) -> Result<(Option<Board>, Variants), RecordError> {
    let mut variants = Variants::default();
    let mut board = None;
    let line = parts.tag("Rules").map_or(0, |t| t.line);
    let bad = |problem: String| RecordError::Tag {
        line,
        name: "Rules".to_owned(),
        problem,
    };
    for (name, value) in parts.rule_pairs(&["board", "dal", "capture", "end"])? {
        let e = |e: &dyn fmt::Display| bad(e.to_string());
        match name.as_str() {
            "board" => board = Some(Board::from_name(&value).map_err(|x| e(&x))?),
            "dal" => variants.dal = DalRule::from_str(&value).map_err(|x| e(&x))?,
            "capture" => variants.capture = CaptureRule::from_str(&value).map_err(|x| e(&x))?,
            _ => variants.end = EndRule::from_str(&value).map_err(|x| e(&x))?,
        }
    }
    Ok((board, variants))
}

impl fmt::Display for Record {
    /// The record as text: the tags (`Start` only when the game does not
    /// begin at the start of its board; `Result` as the throws end it
    /// unless a `Result` tag says otherwise of a game not over), then the
    /// throws in lines of at most 72 characters.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let board = self.start.board();
        let mut tags: Vec<(&str, String)> = vec![
            ("Game", "daldos".to_owned()),
            ("Rules", format!("board={} {}", board.name(), self.variants)),
        ];
        if self.start != Position::start(board) {
            tags.push(("Start", self.start.to_string()));
        }
        let words: Vec<String> = self
            .turns
            .iter()
            .map(|t| format!("{} {}", t.throw, play_text(&t.play, board)))
            .collect();
        f.write_str(&write_record(tags, &self.tags, self.result(), &words))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game on the L = 4 board: each throw's first listed play, throws
    /// cycling through all 16, until it ends.
    fn game() -> Record {
        let start = Position::start(Board::new(4).unwrap());
        let mut r = Record::new(start, Variants::default());
        let mut pos = start;
        let mut k = 0;
        while !pos.is_over(&r.variants) && k < 2000 {
            let throw = Throw::ALL[(k * 7) % 16];
            let first = plays(&pos, &r.variants, throw).remove(0);
            pos = r
                .extend(vec![Turn {
                    throw,
                    play: first.play,
                }])
                .unwrap();
            k += 1;
        }
        assert!(pos.is_over(&r.variants), "the game ends");
        r
    }

    #[test]
    fn a_written_record_reads_back_the_same_game() {
        let r = game();
        let text = r.to_string();
        assert!(
            text.starts_with(
                "[Game \"daldos\"]\n[Rules \"board=4 dal=any capture=final end=last\"]\n[Result \""
            ),
            "{text}"
        );
        let back: Record = text.parse().unwrap();
        assert_eq!((back.start, back.variants), (r.start, r.variants));
        assert_eq!(back.turns, r.turns);
        assert_eq!(back.to_string(), text);
        // Passes and two-step plays are written as the contract says.
        assert!(r.turns.iter().any(|t| t.play.is_pass()) == text.contains(" -"));
        assert!(r.turns.iter().any(|t| t.play.steps.len() == 2) == text.contains('('));
    }

    #[test]
    fn plays_are_read_in_any_case_and_steps_grouped() {
        // The Danish start: a dal moves A16 into M16, then the 3 moves it on.
        let text = "[Game \"daldos\"]\n3,1 (a16-m16 m16-m13)\n";
        let r: Record = text.parse().unwrap();
        assert_eq!(r.start.board(), Board::DANISH);
        assert_eq!(r.turns[0].play.notation(Board::DANISH), "A16-M16 M16-M13");
    }

    #[test]
    fn an_illegal_play_is_refused_with_its_number_line_and_column() {
        let err = |t: &str| t.parse::<Record>().unwrap_err().to_string();
        assert_eq!(
            err("[Game \"daldos\"]\n3,1 A16-M16 M16-M13\n"),
            "line 2, column 5: move 1 `A16-M16`: not a play of the throw 3,1 for A here (the plays are (A16-M16 M16-M13))"
        );
        assert_eq!(
            err("[Game \"daldos\"]\n\n  4,4 (A1-M1 M1-M5)"),
            "line 3, column 7: move 1 `A1-M1 M1-M5`: the throw 4,4 has no play for A here: write -"
        );
        assert_eq!(
            err("[Game \"daldos\"]\n5,1 -"),
            "line 2, column 1: move 1 `5,1`: throw \"5,1\": face \"5\" is not 1 to 4"
                .replace("throw \"5,1\": face \"5\" is not 1 to 4", &err_face())
        );
        assert_eq!(
            err("[Game \"daldos\"]\n4,4"),
            "line 2, column 1: move 1 `4,4`: the throw has no play after it (`-` when it has none)"
        );
        assert_eq!(
            err("[Game \"daldos\"]\n[Rules \"board=9 end=soon\"]\n"),
            "line 2: tag Rules: ".to_owned() + &"soon".parse::<EndRule>().unwrap_err().to_string()
        );
    }

    fn err_face() -> String {
        "5,1".parse::<Throw>().unwrap_err().to_string()
    }
}
