//! The lines of `dalkon daldos game` (docs/cli.md, "Looking at positions
//! and playing"): the opening lines, each play, an undo and the end of the
//! game. The CLI's loop only prints them.

use dalkon_daldos::engine::{Daldos, Thrown};
use dalkon_rules::daldos::{Position, Side, Variants};

use super::text::draw;

/// The lines before the first throw: board, rules and seed (and how to
/// replay a drawn seed), the players, and the commands when a human plays.
pub fn opening(
    pos: &Position,
    variants: Variants,
    seed: u64,
    seed_drawn: bool,
    names: &[String; 2],
    human: bool,
) -> String {
    let board = pos.board();
    let mut s = format!(
        "Daldøs on the {} board (L={}), {variants}; dice seed {seed}\n",
        board.name(),
        board.len(),
    );
    if seed_drawn {
        s += &format!("seed {seed} (replay with --seed {seed})\n");
    }
    s += &format!("a: {}; b: {}\n", names[0], names[1]);
    if human {
        s += "Type a play's number or its notation, or hint, undo, save, help, quit.\n";
    }
    s
}

/// `pieces left: a 10, b 9`.
fn pieces(pos: &Position) -> String {
    format!(
        "pieces left: a {}, b {}",
        pos.count(Side::A),
        pos.count(Side::B)
    )
}

/// The game won by `winner` (named `name`) after `throws` throws.
pub fn won(throws: u32, winner: Side, name: &str, pos: &Position) -> String {
    format!(
        "\nGame over after {throws} throws: {winner} ({name}) wins; {}.\n",
        pieces(pos)
    )
}

/// The game stopped by `--turn-cap`.
pub fn capped(throws: u32, pos: &Position) -> String {
    format!(
        "\nNo winner after {throws} throws (--turn-cap): game stopped; {}.\n",
        pieces(pos)
    )
}

/// The game stopped by `quit` or the end of the input.
pub fn stopped(throws: u32, pos: &Position) -> String {
    format!(
        "\nGame stopped after {throws} throws, not finished; {}.\n",
        pieces(pos)
    )
}

/// `taken` throws taken back to `back`, and its drawing.
pub fn undone(taken: u32, back: &Position) -> String {
    format!(
        "undo: took back {taken} throw{} and their plays -> {back}\n{}",
        if taken == 1 { "" } else { "s" },
        draw(back)
    )
}

/// Play `chosen` of `thrown` in `pos` by the side named `name`, its
/// result drawn, and whether the same side throws again.
pub fn played(
    pos: &Position,
    thrown: &Thrown<Daldos>,
    chosen: usize,
    name: &str,
    variants: &Variants,
) -> String {
    let side = pos.side_to_move();
    let plays = &thrown.plays;
    let (play, result) = &plays[chosen];
    let mut s = if play.is_pass() {
        format!("{side}: pass (no die can be used)\n")
    } else {
        let only = if plays.len() == 1 {
            " (the only play)"
        } else {
            ""
        };
        let who = if plays.len() > 1 && name != "human" {
            format!(" ({name})")
        } else {
            String::new()
        };
        format!(
            "{side}{who} plays {}{only} -> {result}\n{}",
            play.notation(pos.board()),
            draw(result)
        )
    };
    if thrown.throw.is_daldal() && !result.is_over(variants) {
        s += &format!("dal-dal: {side} throws again\n");
    }
    s
}
