//! An error and its causes as one line, the form every front end shows
//! (the CLI's stderr line, the message of Python's exceptions).

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

#[cfg(test)]
mod tests {
    use super::one_line;

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
}
