//! Input quoted inside an error message is cut short: a message names what
//! is wrong in one line, whatever the size of the input (a 1 MB position
//! must not come back as a 1 MB error line).

/// The most characters of the input an error message keeps.
pub const EXCERPT_MAX: usize = 80;

/// `text` itself if it has at most [`EXCERPT_MAX`] characters, else its
/// first [`EXCERPT_MAX`] characters followed by `…`.
pub fn excerpt(text: &str) -> String {
    match text.char_indices().nth(EXCERPT_MAX) {
        None => text.to_owned(),
        Some((cut, _)) => format!("{}…", &text[..cut]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_kept_and_long_text_cut_on_a_character() {
        assert_eq!(excerpt("7,7/7,7/0,0 0"), "7,7/7,7/0,0 0");
        let long = "ø".repeat(81);
        let cut = excerpt(&long);
        assert_eq!(cut.chars().count(), 81);
        assert!(cut.ends_with('…'));
        assert_eq!(excerpt(&"x".repeat(80)), "x".repeat(80));
    }
}
