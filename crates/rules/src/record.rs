//! Game records (docs/formats.md, "Game records"): the text both games keep
//! a game in, in the manner of chess's PGN — tag pairs (`[Name "value"]`,
//! one a line), then the moves separated by white space, with `{…}` and
//! `;`-to-the-end-of-the-line comments. This module reads and writes the
//! part both games share: the tags and the move text cut into tokens that
//! know their line and column, so that an error can point at them. What a
//! token means is each game's business (`dakon::Record`, `daldos::Record`).

use std::fmt::Write as _;

/// The largest record read: far more than any game (a 7×7 Dakon game is a
/// few hundred bytes, a long Daldøs game a few kilobytes).
pub const MAX_RECORD_BYTES: usize = 4 << 20;

/// Why a record was refused. Lines and columns count from 1; a column is
/// a character position in its line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// More than [`MAX_RECORD_BYTES`].
    #[error("the record is {size} bytes; a record is at most {max} bytes")]
    TooLarge {
        /// Its size.
        size: usize,
        /// The bound.
        max: usize,
    },
    /// Text that is neither a tag, nor a move, nor a comment where it stands.
    #[error("line {line}, column {column}: {problem}")]
    Syntax {
        /// Where it was seen.
        line: usize,
        /// Its column.
        column: usize,
        /// What is wrong.
        problem: String,
    },
    /// A well-formed tag whose value is wrong (or one given twice).
    #[error("line {line}: tag {name}: {problem}")]
    Tag {
        /// The tag's line.
        line: usize,
        /// Its name.
        name: String,
        /// What is wrong.
        problem: String,
    },
    /// A tag the record needs is missing.
    #[error("no [{name} \"…\"] tag: {why}")]
    Missing {
        /// The tag.
        name: &'static str,
        /// Why it is needed.
        why: &'static str,
    },
    /// A move that cannot be read or is not legal where it is played.
    #[error("line {line}, column {column}: move {number} `{text}`: {problem}")]
    Move {
        /// Its number among the record's moves, from 1 (Daldøs: throws).
        number: usize,
        /// Its line.
        line: usize,
        /// Its column.
        column: usize,
        /// The move as written (cut short).
        text: String,
        /// What is wrong.
        problem: String,
    },
}

/// One tag pair and the line it was read from (0 for a tag made in code).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    /// The name, e.g. `Game`.
    pub name: String,
    /// The value, unescaped.
    pub value: String,
    /// Its line in the record.
    pub line: usize,
}

/// One piece of move text: a word, or the words of a `( … )` group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// The word; for a group, its words joined by single spaces.
    pub text: String,
    /// Whether it was a `( … )` group.
    pub group: bool,
    /// Its line.
    pub line: usize,
    /// Its column.
    pub column: usize,
}

/// A record cut into its tags and its move tokens. A last token that is a
/// PGN game-end marker (`1-0`, `0-1`, `1/2-1/2`, `*`) is dropped: the
/// `Result` tag says how the game ended.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Parts {
    /// The tags, in the order written.
    pub tags: Vec<Tag>,
    /// The move text's tokens, in order.
    pub tokens: Vec<Token>,
}

/// The game-end markers PGN writes after the moves.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

impl Parts {
    /// Cut `text` into tags and tokens.
    pub fn read(text: &str) -> Result<Parts, RecordError> {
        if text.len() > MAX_RECORD_BYTES {
            return Err(RecordError::TooLarge {
                size: text.len(),
                max: MAX_RECORD_BYTES,
            });
        }
        let mut parts = Parts::default();
        let mut scan = Scanner::new(text);
        let mut moves_started = false;
        // A group being read: its words, and where it opened.
        let mut group: Option<(Vec<String>, usize, usize)> = None;
        while let Some((line, column, c)) = scan.peek() {
            match c {
                c if c.is_whitespace() => {
                    scan.next();
                }
                ';' => scan.skip_line(),
                '{' => scan.skip_comment(line, column)?,
                '[' if group.is_some() => {
                    return Err(syntax(line, column, "a tag inside a group"));
                }
                '[' => {
                    if moves_started {
                        return Err(syntax(
                            line,
                            column,
                            "a tag after the moves: tags come first",
                        ));
                    }
                    let tag = scan.tag(line, column)?;
                    if parts.tags.iter().any(|t| t.name == tag.name) {
                        return Err(RecordError::Tag {
                            line,
                            name: tag.name,
                            problem: "given twice".to_owned(),
                        });
                    }
                    parts.tags.push(tag);
                }
                '(' => {
                    if group.is_some() {
                        return Err(syntax(line, column, "a group inside a group"));
                    }
                    scan.next();
                    moves_started = true;
                    group = Some((Vec::new(), line, column));
                }
                ')' => {
                    scan.next();
                    let Some((words, l, c)) = group.take() else {
                        return Err(syntax(line, column, "`)` without its `(`"));
                    };
                    if words.is_empty() {
                        return Err(syntax(l, c, "an empty group `()`"));
                    }
                    parts.tokens.push(Token {
                        text: words.join(" "),
                        group: true,
                        line: l,
                        column: c,
                    });
                }
                _ => {
                    moves_started = true;
                    let word = scan.word();
                    match &mut group {
                        Some((words, _, _)) => words.push(word),
                        None => parts.tokens.push(Token {
                            text: word,
                            group: false,
                            line,
                            column,
                        }),
                    }
                }
            }
        }
        if let Some((_, line, column)) = group {
            return Err(syntax(line, column, "`(` never closed by `)`"));
        }
        if parts
            .tokens
            .last()
            .is_some_and(|t| !t.group && RESULTS.contains(&t.text.as_str()))
        {
            parts.tokens.pop();
        }
        Ok(parts)
    }

    /// The value of tag `name`, if given.
    pub fn tag(&self, name: &str) -> Option<&Tag> {
        self.tags.iter().find(|t| t.name == name)
    }

    /// Check the `Game` tag names `game`.
    pub fn expect_game(&self, game: &'static str) -> Result<(), RecordError> {
        let Some(tag) = self.tag("Game") else {
            return Err(RecordError::Missing {
                name: "Game",
                why: "a record names its game (dakon or daldos) first",
            });
        };
        if tag.value != game {
            return Err(RecordError::Tag {
                line: tag.line,
                name: "Game".to_owned(),
                problem: format!(
                    "this is a record of {:?}, read here as a record of {game}",
                    crate::excerpt(&tag.value)
                ),
            });
        }
        Ok(())
    }

    /// The `Rules` tag as `name=value` pairs, each name one of `known`
    /// and given once; empty when the tag is absent.
    pub fn rule_pairs(&self, known: &[&str]) -> Result<Vec<(String, String)>, RecordError> {
        let Some(tag) = self.tag("Rules") else {
            return Ok(Vec::new());
        };
        let bad = |problem: String| RecordError::Tag {
            line: tag.line,
            name: "Rules".to_owned(),
            problem,
        };
        let mut out: Vec<(String, String)> = Vec::new();
        for pair in tag.value.split_whitespace() {
            let Some((name, value)) = pair.split_once('=') else {
                return Err(bad(format!("{:?} is not name=value", crate::excerpt(pair))));
            };
            if !known.contains(&name) {
                return Err(bad(format!(
                    "unknown rule {:?} (the rules are {})",
                    crate::excerpt(name),
                    known.join(", ")
                )));
            }
            if out.iter().any(|(n, _)| n == name) {
                return Err(bad(format!("{name} given twice")));
            }
            out.push((name.to_owned(), value.to_owned()));
        }
        Ok(out)
    }
}

/// A tag value written with `\` before `"` and `\`.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The value of tag `name` among a record's other tags.
pub fn tag_in<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// The tags of a game continued from a record with `loaded` tags: the
/// loaded ones but its `Result` and those in `dropped` (which the going
/// game no longer vouches for, such as who plays each side), then `own`
/// (the going game's, replacing any of the same name).
pub fn continued_tags(
    loaded: &[(String, String)],
    dropped: &[&str],
    own: Vec<(String, String)>,
) -> Vec<(String, String)> {
    let mut tags: Vec<(String, String)> = loaded
        .iter()
        .filter(|(n, _)| n != "Result" && !dropped.contains(&n.as_str()))
        .cloned()
        .collect();
    for (name, value) in own {
        set_tag_in(&mut tags, &name, value);
    }
    tags
}

/// Set tag `name` among a record's other tags (replacing its value, or
/// adding it last).
pub fn set_tag_in(tags: &mut Vec<(String, String)>, name: &str, value: String) {
    match tags.iter_mut().find(|(n, _)| n == name) {
        Some(t) => t.1 = value,
        None => tags.push((name.to_owned(), value)),
    }
}

/// A finished game's `Result` tag, if given, must be `actual` (what the
/// `what`, "moves" or "throws", play out to; `*` for a game not over,
/// which any `Result` may describe).
pub fn check_result(parts: &Parts, actual: &str, what: &str) -> Result<(), RecordError> {
    match parts.tag("Result") {
        Some(tag) if actual != "*" && tag.value != actual => Err(RecordError::Tag {
            line: tag.line,
            name: "Result".to_owned(),
            problem: format!(
                "says {:?}, but the game the {what} play ends {actual}",
                crate::excerpt(&tag.value)
            ),
        }),
        _ => Ok(()),
    }
}

/// A record's text: its own tags (`Game`, `Rules`, the start), then the
/// `other` tags in order, the `Result` last as the moves end the game
/// (`result`; a game not over keeps a `Result` tag it was given, else
/// gets `*`), a blank line, and the move `words` in lines of at most 72
/// characters.
pub fn write_record(
    own: Vec<(&str, String)>,
    other: &[(String, String)],
    result: &str,
    words: &[String],
) -> String {
    let mut tags = own;
    for (name, value) in other {
        if name != "Result" || result == "*" {
            tags.push((name, value.clone()));
        }
    }
    if result != "*" || tag_in(other, "Result").is_none() {
        tags.push(("Result", result.to_owned()));
    }
    let mut out = String::new();
    write_tags(&mut out, &tags);
    out.push('\n');
    write_moves(&mut out, words, 72);
    out
}

/// The tag lines of a record, one `[Name "value"]` a line.
fn write_tags(out: &mut String, tags: &[(&str, String)]) {
    for (name, value) in tags {
        let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
    }
}

/// The move text: `words` separated by spaces, in lines of at most
/// `width` characters (a word longer than that alone on its line), ending
/// in a newline.
fn write_moves(out: &mut String, words: &[String], width: usize) {
    let mut line_len = 0;
    for w in words {
        let n = w.chars().count();
        if line_len > 0 && line_len + 1 + n > width {
            out.push('\n');
            line_len = 0;
        }
        if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(w);
        line_len += n;
    }
    if line_len > 0 {
        out.push('\n');
    }
}

fn syntax(line: usize, column: usize, problem: &str) -> RecordError {
    RecordError::Syntax {
        line,
        column,
        problem: problem.to_owned(),
    }
}

/// Characters with their line and column.
struct Scanner<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    column: usize,
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str) -> Scanner<'a> {
        Scanner {
            chars: text.chars().peekable(),
            line: 1,
            column: 1,
        }
    }

    fn peek(&mut self) -> Option<(usize, usize, char)> {
        let (line, column) = (self.line, self.column);
        self.chars.peek().map(|&c| (line, column, c))
    }

    fn next(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.next() {
            if c == '\n' {
                break;
            }
        }
    }

    fn skip_comment(&mut self, line: usize, column: usize) -> Result<(), RecordError> {
        self.next();
        loop {
            match self.next() {
                Some('}') => return Ok(()),
                Some(_) => {}
                None => return Err(syntax(line, column, "`{` comment never closed by `}`")),
            }
        }
    }

    /// A word of move text: up to white space, a comment or a bracket.
    fn word(&mut self) -> String {
        let mut w = String::new();
        while let Some((_, _, c)) = self.peek() {
            if c.is_whitespace() || matches!(c, '{' | ';' | '(' | ')' | '[') {
                break;
            }
            w.push(c);
            self.next();
        }
        w
    }

    /// `[Name "value"]`, the scanner on its `[`; nothing but white space
    /// may follow it on its line.
    fn tag(&mut self, line: usize, column: usize) -> Result<Tag, RecordError> {
        let malformed = |c: usize, what: &str| {
            syntax(
                line,
                c,
                &format!("malformed tag: {what} (a tag is [Name \"value\"] on a line of its own)"),
            )
        };
        self.next();
        let mut name = String::new();
        while let Some((_, _, c)) = self.peek() {
            if !(c.is_ascii_alphanumeric() || c == '_') {
                break;
            }
            name.push(c);
            self.next();
        }
        if name.is_empty() {
            return Err(malformed(self.column, "no name after `[`"));
        }
        while self.peek().is_some_and(|(l, _, c)| l == line && c == ' ') {
            self.next();
        }
        if self.peek().map(|p| p.2) != Some('"') {
            return Err(malformed(self.column, "no `\"` before the value"));
        }
        self.next();
        let mut value = String::new();
        loop {
            match self.peek() {
                Some((l, _, _)) if l != line => {
                    return Err(malformed(column, "the value is not closed on its line"))
                }
                None => return Err(malformed(column, "the value is not closed")),
                Some((_, _, '"')) => {
                    self.next();
                    break;
                }
                Some((_, _, '\\')) => {
                    self.next();
                    match self.peek() {
                        Some((l, _, c @ ('"' | '\\'))) if l == line => {
                            value.push(c);
                            self.next();
                        }
                        _ => {
                            return Err(malformed(
                                self.column,
                                "`\\` stands only before `\"` or `\\`",
                            ))
                        }
                    }
                }
                Some((_, _, c)) => {
                    value.push(c);
                    self.next();
                }
            }
        }
        if self.peek().map(|p| p.2) != Some(']') {
            return Err(malformed(self.column, "no `]` after the value"));
        }
        self.next();
        while let Some((l, c, ch)) = self.peek() {
            if l != line {
                break;
            }
            match ch {
                ';' => {
                    self.skip_line();
                    break;
                }
                ch if ch.is_whitespace() => {
                    self.next();
                }
                _ => return Err(malformed(c, "text after the tag on its line")),
            }
        }
        Ok(Tag { name, value, line })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_continued_game_keeps_the_loaded_tags_but_its_result_and_players() {
        let t = |n: &str, v: &str| (n.to_owned(), v.to_owned());
        let loaded = [
            t("Event", "club"),
            t("Result", "1-0"),
            t("Seed", "9"),
            t("A", "Ann"),
        ];
        let own = vec![t("A", "human"), t("B", "engine:2")];
        assert_eq!(
            continued_tags(&loaded, &["Seed", "B"], own),
            vec![t("Event", "club"), t("A", "human"), t("B", "engine:2")]
        );
    }

    #[test]
    fn tags_and_tokens_know_where_they_stand() {
        let text = "[Game \"daldos\"]\n[South \"Ann \\\"the\\\" B\\\\\"]  ; a comment\n\n3,1 (m16-m13 m13-m11) {a\ncomment} 2,2 -\n  4,4 A1-M1x ; end\n1-0\n";
        let parts = Parts::read(text).unwrap();
        assert_eq!(parts.tags.len(), 2);
        assert_eq!(parts.tag("South").unwrap().value, "Ann \"the\" B\\");
        assert_eq!(parts.tag("South").unwrap().line, 2);
        let words: Vec<(&str, bool, usize, usize)> = parts
            .tokens
            .iter()
            .map(|t| (t.text.as_str(), t.group, t.line, t.column))
            .collect();
        assert_eq!(
            words,
            vec![
                ("3,1", false, 4, 1),
                ("m16-m13 m13-m11", true, 4, 5),
                ("2,2", false, 5, 10),
                ("-", false, 5, 14),
                ("4,4", false, 6, 3),
                ("A1-M1x", false, 6, 7),
            ]
        );
    }

    #[test]
    fn malformed_text_is_refused_where_it_stands() {
        let err = |t: &str| Parts::read(t).unwrap_err().to_string();
        assert_eq!(
            err("[Game dakon]\n"),
            "line 1, column 7: malformed tag: no `\"` before the value (a tag is [Name \"value\"] on a line of its own)"
        );
        assert_eq!(
            err("[Game \"dakon\"] 3\n"),
            "line 1, column 16: malformed tag: text after the tag on its line (a tag is [Name \"value\"] on a line of its own)"
        );
        assert_eq!(
            err("[Game \"dakon\"]\n3 4\n[Date \"x\"]\n"),
            "line 3, column 1: a tag after the moves: tags come first"
        );
        assert_eq!(
            err("1 2 {open\n3"),
            "line 1, column 5: `{` comment never closed by `}`"
        );
        assert_eq!(err("3,1 (a b"), "line 1, column 5: `(` never closed by `)`");
        assert_eq!(err("3,1 a)"), "line 1, column 6: `)` without its `(`");
        assert_eq!(err("3,1 (a [b"), "line 1, column 8: a tag inside a group");
        assert_eq!(
            err("[Game \"a\"]\n[Game \"b\"]\n"),
            "line 2: tag Game: given twice"
        );
    }

    #[test]
    fn the_game_and_rule_pairs_are_checked() {
        let p = Parts::read("[Game \"daldos\"]\n[Rules \"end=one dal=any\"]\n").unwrap();
        assert_eq!(
            p.expect_game("dakon").unwrap_err().to_string(),
            "line 1: tag Game: this is a record of \"daldos\", read here as a record of dakon"
        );
        assert_eq!(
            p.rule_pairs(&["dal", "end"]).unwrap(),
            vec![("end".into(), "one".into()), ("dal".into(), "any".into())]
        );
        assert_eq!(
            p.rule_pairs(&["dal"]).unwrap_err().to_string(),
            "line 2: tag Rules: unknown rule \"end\" (the rules are dal)"
        );
        assert_eq!(
            Parts::read("3 4")
                .unwrap()
                .expect_game("dakon")
                .unwrap_err()
                .to_string(),
            "no [Game \"…\"] tag: a record names its game (dakon or daldos) first"
        );
    }

    #[test]
    fn written_tags_and_moves_read_back() {
        let mut out = String::new();
        write_tags(
            &mut out,
            &[("Game", "dakon".into()), ("North", "a \"b\" \\".into())],
        );
        let words: Vec<String> = (1..=30).map(|i| (i % 7 + 1).to_string()).collect();
        write_moves(&mut out, &words, 20);
        assert!(out.lines().all(|l| l.chars().count() <= 20), "{out}");
        let p = Parts::read(&out).unwrap();
        assert_eq!(p.tag("North").unwrap().value, "a \"b\" \\");
        let back: Vec<String> = p.tokens.into_iter().map(|t| t.text).collect();
        assert_eq!(back, words);
    }

    #[test]
    fn a_huge_record_is_refused_before_reading() {
        let big = " ".repeat(MAX_RECORD_BYTES + 1);
        assert!(matches!(
            Parts::read(&big),
            Err(RecordError::TooLarge { .. })
        ));
    }
}
