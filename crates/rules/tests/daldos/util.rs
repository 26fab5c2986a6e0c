//! Helpers shared by the Daldøs tests.

use dalkon_rules::daldos::{plays, Position, Throw, Variants};

/// Parse a position, panicking with the error (test input only).
pub fn pos(s: &str) -> Position {
    s.parse()
        .unwrap_or_else(|e| panic!("bad test position {s:?}: {e}"))
}

/// Parse a throw.
pub fn throw(s: &str) -> Throw {
    s.parse().unwrap()
}

/// `(play notation, result notation)` for every play, in generator order.
pub fn play_list(p: &str, v: Variants, t: &str) -> Vec<(String, String)> {
    let p = pos(p);
    plays(&p, &v, throw(t))
        .into_iter()
        .map(|o| (o.play.notation(p.board()), o.result.to_string()))
        .collect()
}

/// The play notations only, sorted.
pub fn play_names(p: &str, v: Variants, t: &str) -> Vec<String> {
    let mut v: Vec<String> = play_list(p, v, t).into_iter().map(|x| x.0).collect();
    v.sort();
    v
}

/// The result positions only, sorted.
pub fn results(p: &str, v: Variants, t: &str) -> Vec<String> {
    let mut v: Vec<String> = play_list(p, v, t).into_iter().map(|x| x.1).collect();
    v.sort();
    v
}
