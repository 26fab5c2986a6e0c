//! An error and its causes as one line, the form every front end shows
//! (the CLI's stderr line, the web's `{"error": ...}`, the message of
//! Python's exceptions), input quoted in it at most [`QUOTE_MAX`]
//! characters long and over-long words (paths) cut.

/// `err` and its causes, `: `-separated, each once (a message that
/// already quotes its cause is not followed by it again), line breaks
/// turned into spaces.
pub fn one_line(err: &(dyn std::error::Error + 'static)) -> String {
    let mut line = String::new();
    let mut cause = Some(err);
    while let Some(e) = cause {
        let text = e.to_string().replace('\n', " ");
        if !line.contains(&text) {
            if !line.is_empty() {
                line.push_str(": ");
            }
            line.push_str(&text);
        }
        cause = e.source();
    }
    line
}

/// [`one_line`] with its over-long words cut ([`shorten_long_words`]):
/// library errors show paths in full, and they are cut as input is quoted.
pub fn message(err: &(dyn std::error::Error + 'static)) -> String {
    shorten_long_words(&one_line(err))
}

/// Input quoted in an error message: at most [`QUOTE_MAX`] characters.
pub fn quote(text: &str) -> String {
    if text.chars().count() <= QUOTE_MAX {
        format!("{text:?}")
    } else {
        let head: String = text.chars().take(QUOTE_MAX).collect();
        format!("{head:?}… ({} characters)", text.chars().count())
    }
}

/// The most characters of the input an error line quotes.
pub const QUOTE_MAX: usize = 80;

/// `line` with every word (a run without white space) of more than
/// [`QUOTE_MAX`] characters cut to its first [`QUOTE_MAX`], followed by
/// `…` and its length: the paths that library errors show in full (a
/// `--db-dir` of 300 characters and the file in it), and values that
/// clap quotes in its usage errors. A word already cut by [`quote`] (it
/// holds `…`) or holding a quoted value (`"`) is left alone; quotes
/// (`'`) and trailing `:`, `,`, `;`, `.`, `)` or a backtick are kept outside
/// the count.
/// Every error line of the front ends goes through here ([`message`]).
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

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("reading {0}")]
    struct Outer(&'static str, #[source] std::io::Error);

    #[test]
    fn causes_are_joined_once_each() {
        let e = Outer("a.bin", std::io::Error::other("no such\nfile"));
        assert_eq!(one_line(&e), "reading a.bin: no such file");
        let quoted = Outer("x: no such file", std::io::Error::other("no such file"));
        assert_eq!(one_line(&quoted), "reading x: no such file");
    }

    #[test]
    fn long_input_is_quoted_short() {
        assert_eq!(quote("1,2/3"), "\"1,2/3\"");
        let long = "7,".repeat(100);
        let q = quote(&long);
        assert!(q.starts_with(&format!("{:?}", &long[..80])), "{q}");
        assert!(q.ends_with("… (200 characters)"), "{q}");
    }

    #[test]
    fn long_words_are_cut_to_80_characters() {
        let dir = format!("/tmp/{}", "d".repeat(300));
        let line = format!("cannot read {dir}/x.strategy: No such file or directory (os error 2)");
        assert_eq!(
            shorten_long_words(&line),
            format!(
                "cannot read {}… (316 characters): No such file or directory (os error 2)",
                &dir[..80]
            )
        );
        let clap = format!(
            "error: invalid value '{}' for '--holes <HOLES>'",
            "9".repeat(200)
        );
        assert_eq!(
            shorten_long_words(&clap),
            format!(
                "error: invalid value '{}… (200 characters)' for '--holes <HOLES>'",
                "9".repeat(80)
            )
        );
        // Short words, words already quoted by `quote`, and white space
        // stay as they are.
        let quoted = format!("bad --position {}: row 1", quote(&"7,".repeat(100)));
        assert_eq!(shorten_long_words(&quoted), quoted);
        let exact = format!("x  {}\t{}", "a".repeat(80), quote(&"b".repeat(80)));
        assert_eq!(shorten_long_words(&exact), exact);
    }
}
