//! A Dakon game record (docs/formats.md, "Game records"): the tags `Game
//! "dakon"`, `Rules`, `Holes`/`Seeds` or `Start`, and optional others,
//! then the moves, each a hole 1..n of the side to move at that point
//! (bonus moves are the next moves of the same side). Reading replays
//! every move, so a record that is read is a legal game.

use std::fmt;
use std::str::FromStr;

use super::{Mikul, Nembak, Origin, Position, Rules, Side};
use crate::record::{check_result, set_tag_in, tag_in, write_record, Parts, RecordError};

/// The tags a record reads itself; any other tag is kept as it is.
const OWN_TAGS: [&str; 5] = ["Game", "Rules", "Start", "Holes", "Seeds"];

/// A Dakon game: where it started, under which rules, and its moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The rules it is played under.
    pub rules: Rules,
    /// The position before the first move.
    pub start: Position,
    /// The holes played, in order.
    pub moves: Vec<usize>,
    /// The other tags (`Date`, `South`, `North`, `Result`, …) as
    /// `(name, value)`, in the order written.
    pub tags: Vec<(String, String)>,
}

impl Record {
    /// An empty game from `start`.
    pub fn new(start: Position, rules: Rules) -> Record {
        Record {
            rules,
            start,
            moves: Vec::new(),
            tags: Vec::new(),
        }
    }

    /// The positions of the game: the start, then the one after each move.
    pub fn positions(&self) -> Vec<Position> {
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        let mut pos = self.start;
        out.push(pos);
        for &hole in &self.moves {
            pos = pos.play_unchecked(hole, &self.rules);
            out.push(pos);
        }
        out
    }

    /// The position after the last move.
    pub fn end(&self) -> Position {
        self.moves
            .iter()
            .fold(self.start, |p, &h| p.play_unchecked(h, &self.rules))
    }

    /// The value of tag `name` among [`Record::tags`].
    pub fn tag(&self, name: &str) -> Option<&str> {
        tag_in(&self.tags, name)
    }

    /// Set tag `name` (replacing its value, or adding it last).
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        set_tag_in(&mut self.tags, name, value.into());
    }

    /// The PGN result of the game so far: `1-0` when South has won, `0-1`
    /// North, `1/2-1/2` a draw, `*` a game not over.
    pub fn result(&self) -> &'static str {
        match self.end().final_score() {
            None => "*",
            Some(score) => match score.winner() {
                Some(Side::South) => "1-0",
                Some(Side::North) => "0-1",
                None => "1/2-1/2",
            },
        }
    }
}

impl FromStr for Record {
    type Err = RecordError;

    /// Read and replay a record; the first illegal move is refused with its
    /// number, line and column.
    fn from_str(text: &str) -> Result<Record, RecordError> {
        let parts = Parts::read(text)?;
        parts.expect_game("dakon")?;
        let rules = rules(&parts)?;
        let start = start(&parts)?;
        let mut record = Record::new(start, rules);
        for tag in &parts.tags {
            if !OWN_TAGS.contains(&tag.name.as_str()) {
                record.tags.push((tag.name.clone(), tag.value.clone()));
            }
        }
        let mut pos = start;
        for (i, token) in parts.tokens.iter().enumerate() {
            let bad = |problem: String| RecordError::Move {
                number: i + 1,
                line: token.line,
                column: token.column,
                text: crate::excerpt(&token.text),
                problem,
            };
            if token.group {
                return Err(bad("a Dakon move is one hole number, not a group".into()));
            }
            let hole: usize = token.text.parse().map_err(|_| {
                bad(format!(
                    "not a hole number 1 to {} of the side to move",
                    pos.holes()
                ))
            })?;
            pos = pos
                .play(hole, &rules)
                .map_err(|e| bad(format!("{} ({} to move)", e, pos.side_to_move())))?;
            record.moves.push(hole);
        }
        check_result(&parts, record.result(), "moves")?;
        Ok(record)
    }
}

fn rules(parts: &Parts) -> Result<Rules, RecordError> {
    let mut rules = Rules::default();
    let line = parts.tag("Rules").map_or(0, |t| t.line);
    let bad = |e: super::RulesError| RecordError::Tag {
        line,
        name: "Rules".to_owned(),
        problem: e.to_string(),
    };
    for (name, value) in parts.rule_pairs(&["origin", "mikul", "nembak"])? {
        match name.as_str() {
            "origin" => rules.origin = Origin::from_str(&value).map_err(bad)?,
            "mikul" => rules.mikul = Mikul::from_str(&value).map_err(bad)?,
            _ => rules.nembak = Nembak::from_str(&value).map_err(bad)?,
        }
    }
    Ok(rules)
}

fn start(parts: &Parts) -> Result<Position, RecordError> {
    let number = |name: &'static str| -> Result<Option<(u32, usize)>, RecordError> {
        parts
            .tag(name)
            .map(|t| {
                t.value
                    .parse::<u32>()
                    .map(|n| (n, t.line))
                    .map_err(|_| RecordError::Tag {
                        line: t.line,
                        name: name.to_owned(),
                        problem: format!("{:?} is not a number", crate::excerpt(&t.value)),
                    })
            })
            .transpose()
    };
    let holes = number("Holes")?;
    let seeds = number("Seeds")?;
    match (parts.tag("Start"), holes, seeds) {
        (Some(t), None, None) => t
            .value
            .parse()
            .map_err(|e: super::ParseError| RecordError::Tag {
                line: t.line,
                name: "Start".to_owned(),
                problem: e.to_string(),
            }),
        (Some(t), _, _) => Err(RecordError::Tag {
            line: t.line,
            name: "Start".to_owned(),
            problem: "give the start as Start, or as Holes and Seeds, not both".to_owned(),
        }),
        (None, Some((h, line)), Some((s, _))) => {
            let seeds = u8::try_from(s).unwrap_or(u8::MAX);
            Position::start(h as usize, seeds).map_err(|e| RecordError::Tag {
                line,
                name: "Holes".to_owned(),
                problem: e.to_string(),
            })
        }
        (None, None, None) => Err(RecordError::Missing {
            name: "Holes",
            why: "a Dakon record gives its start as Holes and Seeds, or as Start",
        }),
        (None, h, _) => Err(RecordError::Missing {
            name: if h.is_none() { "Holes" } else { "Seeds" },
            why: "Holes and Seeds go together",
        }),
    }
}

impl fmt::Display for Record {
    /// The record as text: the tags (`Holes`/`Seeds` when the game starts
    /// from an initial position, else `Start`; `Result` as the moves end
    /// it unless a `Result` tag says otherwise of a game not over), then
    /// the moves in lines of at most 72 characters.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut tags: Vec<(&str, String)> = vec![
            ("Game", "dakon".to_owned()),
            ("Rules", self.rules.to_string()),
        ];
        let holes = self.start.holes();
        let seeds = self.start.total_seeds() / (2 * holes as u32);
        let initial = u8::try_from(seeds)
            .ok()
            .and_then(|s| Position::start(holes, s).ok())
            .is_some_and(|p| p == self.start);
        if initial {
            tags.push(("Holes", holes.to_string()));
            tags.push(("Seeds", seeds.to_string()));
        } else {
            tags.push(("Start", self.start.to_string()));
        }
        let words: Vec<String> = self.moves.iter().map(|h| h.to_string()).collect();
        f.write_str(&write_record(tags, &self.tags, self.result(), &words))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> Record {
        let mut r = Record::new(Position::start(4, 4).unwrap(), Rules::default());
        let mut pos = r.start;
        // Always the lowest legal hole: a legal game to its end.
        loop {
            let Some(h) = pos.moves().next() else { break };
            pos = pos.play(h, &r.rules).unwrap();
            r.moves.push(h);
        }
        r.set_tag("South", "Ann");
        r
    }

    #[test]
    fn a_written_record_reads_back_the_same_game() {
        let r = game();
        let text = r.to_string();
        assert!(text.starts_with(
            "[Game \"dakon\"]\n[Rules \"origin=sow mikul=on nembak=keep\"]\n[Holes \"4\"]\n[Seeds \"4\"]\n[South \"Ann\"]\n[Result \""
        ), "{text}");
        let back: Record = text.parse().unwrap();
        assert_eq!(back.moves, r.moves);
        assert_eq!(back.start, r.start);
        assert!(back.end().is_over());
        assert_eq!(back.to_string(), text);
    }

    #[test]
    fn a_start_position_and_rules_are_read() {
        let text = "[Game \"dakon\"]\n[Rules \"mikul=off\"]\n[Start \"0,0,1/0,2,0/5,4 0\"]\n3\n";
        let r: Record = text.parse().unwrap();
        assert_eq!(r.rules.mikul, Mikul::Off);
        assert_eq!(r.rules.origin, Origin::Sow);
        assert_eq!(r.moves, vec![3]);
        assert!(r.to_string().contains("[Start \"0,0,1/0,2,0/5,4 0\"]"));
    }

    #[test]
    fn an_illegal_move_is_refused_with_its_number_line_and_column() {
        let err = |t: &str| t.parse::<Record>().unwrap_err().to_string();
        let head = "[Game \"dakon\"]\n[Holes \"4\"]\n[Seeds \"4\"]\n";
        assert_eq!(
            err(&format!("{head}1 2\n  9")),
            "line 5, column 3: move 3 `9`: there is no hole 9: holes are numbered 1 to 4 (North (1) to move)"
        );
        assert_eq!(
            err(&format!("{head}x")),
            "line 4, column 1: move 1 `x`: not a hole number 1 to 4 of the side to move"
        );
        assert_eq!(
            err("[Game \"dakon\"]\n[Start \"0,0,1/0,2,0/5,4 0\"]\n3 1\n"),
            "line 3, column 3: move 2 `1`: the game is over (South (0) to move)"
        );
        // South's last seed ends in its store: a bonus move, from an empty hole.
        assert_eq!(
            err("[Game \"dakon\"]\n[Start \"0,1,1/0,2,0/5,4 0\"]\n3 3\n"),
            "line 3, column 3: move 2 `3`: hole 3 of the side to move is empty (South (0) to move)"
        );
        assert_eq!(
            err("[Game \"dakon\"]\n[Holes \"4\"]\n"),
            "no [Seeds \"…\"] tag: Holes and Seeds go together"
        );
        assert_eq!(
            err("[Game \"dakon\"]\n[Holes \"4\"]\n[Seeds \"4\"]\n[Rules \"mikul=maybe\"]\n"),
            "line 4: tag Rules: mikul: \"maybe\" is not a value of this option (expected on or off)"
        );
    }

    #[test]
    fn a_result_that_the_moves_contradict_is_refused() {
        let mut r = game();
        let result = r.result();
        assert_ne!(result, "*");
        let wrong = if result == "1-0" { "0-1" } else { "1-0" };
        r.tags.push(("Result".into(), wrong.into()));
        let text = r.to_string().replace(
            &format!("[Result \"{result}\"]"),
            &format!("[Result \"{wrong}\"]"),
        );
        let e = text.parse::<Record>().unwrap_err().to_string();
        assert!(
            e.ends_with(&format!(
                "tag Result: says \"{wrong}\", but the game the moves play ends {result}"
            )),
            "{e}"
        );
    }
}
