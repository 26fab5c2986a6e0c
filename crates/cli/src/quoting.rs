//! How much of the input an error line may quote, and the cutting of
//! over-long words (paths, values) in a finished error line: shared by
//! the error mapping (`errors`) and the argument helpers (`common`).

/// The most characters of the input an error line quotes.
pub const QUOTE_MAX: usize = 80;

/// `line` with every word (a run without white space) of more than
/// [`QUOTE_MAX`] characters cut to its first [`QUOTE_MAX`], followed by
/// `…` and its length: the paths that library errors show in full (a
/// `--db-dir` of 300 characters and the file in it), and values that
/// clap quotes in its usage errors. A word already cut by `common::quote` (it
/// holds `…`) or holding a quoted value (`"`) is left alone; quotes
/// (`'`) and trailing `:`, `,`, `;`, `.`, `)` or a backtick are kept outside
/// the count.
/// Every error line goes through here (`errors::one_line`,
/// `common::usage_line`).
pub fn shorten_long_words(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while !rest.is_empty() {
        let start = rest
            .find(|c: char| !c.is_whitespace())
            .unwrap_or(rest.len());
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        out.push_str(&shorten_word(&rest[..end]));
        rest = &rest[end..];
    }
    out
}

fn shorten_word(word: &str) -> String {
    if word.chars().count() <= QUOTE_MAX || word.contains('"') || word.contains('…') {
        return word.to_owned();
    }
    let tail = word.len()
        - word
            .trim_end_matches([':', ',', ';', '.', ')', '`', '\''])
            .len();
    let (body, tail) = word.split_at(word.len() - tail);
    let inner = body.trim_start_matches('\'');
    let head = &body[..body.len() - inner.len()];
    let n = inner.chars().count();
    if n <= QUOTE_MAX {
        return word.to_owned();
    }
    let cut: String = inner.chars().take(QUOTE_MAX).collect();
    format!("{head}{cut}… ({n} characters){tail}")
}
