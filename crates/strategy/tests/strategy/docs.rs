//! The worked example of docs/formats.md §3.3, read out of the page itself
//! (between its marker comments), so that the page cannot drift from what
//! the code does.

use dalkon_strategy::{verify, Strategy};

use super::{south_with, NORTH, SOUTH};

const FORMATS: &str = include_str!("../../../../docs/formats.md");

/// The code block between `<!-- {name}:begin -->` and `<!-- {name}:end -->`.
fn example(name: &str) -> String {
    let begin = format!("<!-- {name}:begin -->\n");
    let end = format!("<!-- {name}:end -->");
    let start = FORMATS.find(&begin).expect("begin marker") + begin.len();
    let stop = start + FORMATS[start..].find(&end).expect("end marker");
    let block = &FORMATS[start..stop];
    let body = block
        .strip_prefix("```\n")
        .and_then(|b| b.strip_suffix("```\n"))
        .expect("a fenced code block between the markers");
    body.to_owned()
}

#[test]
fn the_documented_files_are_the_tested_ones_and_hold_as_the_page_says() {
    let south = example("strategy-example-0");
    let north = example("strategy-example-1");
    assert_eq!(south, SOUTH);
    assert_eq!(north, NORTH);
    let s = verify(&Strategy::parse(south.as_bytes()).unwrap());
    assert_eq!((s.valid, s.proved, s.positions_checked), (true, 2, 5));
    let n = verify(&Strategy::parse(north.as_bytes()).unwrap());
    assert_eq!((n.valid, n.proved, n.positions_checked), (true, -2, 7));
    assert!(FORMATS.contains("Five\npositions were checked"));
    assert!(FORMATS.contains("seven positions are checked"));
}

#[test]
fn the_documented_message_for_a_worse_move_is_the_real_one() {
    let bad = Strategy::parse(south_with("1,1/0,0 2", "1,1/0,0 1").as_bytes()).unwrap();
    let failure = verify(&bad).failure.unwrap();
    let line = format!("    the strategy does not hold: {failure}\n");
    assert!(FORMATS.contains(&line), "{line}");
}
