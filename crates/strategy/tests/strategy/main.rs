//! Strategy files against docs/formats.md §3: reading and writing them,
//! every kind of damage caught with its message, and `verify` agreeing
//! with a brute-force minimax on small boards.

mod brute;
mod checks;
mod docs;
mod files;

use dalkon_rules::dakon::Position;
use dalkon_strategy::Strategy;

/// South's file for `1,1/0,2/0,0 0` (value 2), as docs/formats.md §3.3
/// gives it; `docs.rs` checks the two stay the same.
pub const SOUTH: &str = "dalkon-strategy 1
game dakon
rules origin=sow mikul=on nembak=keep
root 1,1/0,2/0,0 0
player 0
guarantees 2
lines 4
1,0/0,0 1
1,0/1,0 1
1,1/0,0 2
1,1/0,2 1
";

/// North's file for the same position, claiming −2.
pub const NORTH: &str = "dalkon-strategy 1
game dakon
rules origin=sow mikul=on nembak=keep
root 1,1/0,2/0,0 0
player 1
guarantees -2
lines 3
0,0/1,0 1
0,0/1,2 1
0,1/0,2 2
";

pub fn pos(text: &str) -> Position {
    text.parse().unwrap()
}

pub fn parse(text: &str) -> Strategy {
    Strategy::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The parse error of `text`, as its message.
pub fn refusal(text: &str) -> String {
    match Strategy::parse(text.as_bytes()) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

/// `SOUTH` with `from` replaced by `to` (which must occur once).
pub fn south_with(from: &str, to: &str) -> String {
    assert_eq!(SOUTH.matches(from).count(), 1, "{from:?}");
    SOUTH.replace(from, to)
}
