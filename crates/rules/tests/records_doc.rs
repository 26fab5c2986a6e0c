//! The game records shown in docs/formats.md §5 are records: each reads
//! and is written back exactly as shown.

use dalkon_rules::{dakon, daldos};

/// The indented blocks of the page that start with a `[Game` tag.
fn records() -> Vec<String> {
    let page = include_str!("../../../docs/formats.md");
    let mut out = Vec::new();
    let mut block: Option<String> = None;
    for line in page.lines() {
        match (&mut block, line.strip_prefix("    ")) {
            (None, Some(text)) if text.starts_with("[Game ") => block = Some(format!("{text}\n")),
            (Some(b), Some(text)) => {
                b.push_str(text);
                b.push('\n');
            }
            (Some(b), None) if line.is_empty() => b.push('\n'),
            (Some(_), None) => out.push(block.take().unwrap().trim_end().to_owned() + "\n"),
            (None, _) => {}
        }
    }
    out.extend(block.map(|b| b.trim_end().to_owned() + "\n"));
    out
}

#[test]
fn the_pages_records_read_and_write_back_as_shown() {
    let all = records();
    assert_eq!(all.len(), 2, "one example of each game");
    let dakon: dakon::Record = all[0].parse().unwrap();
    assert_eq!(dakon.to_string(), all[0]);
    assert_eq!(dakon.result(), "1-0");
    let daldos: daldos::Record = all[1].parse().unwrap();
    assert_eq!(daldos.to_string(), all[1]);
    assert_eq!(daldos.result(), "0-1");
}
