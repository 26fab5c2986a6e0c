//! The README's tour runs as shown: every command of its code block, in
//! order, in a fresh folder, with `dalkon` the binary under test (issue:
//! `dakon verify south.strategy` named a file the tour never made).

use std::process::Command;

use super::Scratch;

/// The commands of the README's "A short tour" block.
fn tour() -> Vec<String> {
    let readme = include_str!("../../../../README.md");
    let start = readme.find("## A short tour").expect("the tour section");
    let section = &readme[start..];
    let end = section[3..].find("\n## ").map_or(section.len(), |i| i + 3);
    section[..end]
        .lines()
        .filter_map(|l| l.strip_prefix("    "))
        .map(|l| l.trim())
        .filter(|l| l.starts_with("dalkon "))
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_readme_tour_runs_as_shown() {
    let commands = tour();
    assert!(commands.len() >= 12, "{commands:?}");
    assert!(commands.iter().any(|c| c.contains("dakon verify")));
    let dir = Scratch::new("tour");
    std::fs::create_dir_all(dir.path()).unwrap();
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_dalkon"))
        .parent()
        .unwrap()
        .to_owned();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for c in &commands {
        let out = Command::new("bash")
            .arg("-c")
            .arg(c)
            .current_dir(dir.path())
            .env("PATH", &path)
            .env("DALKON_DB_DIR", dir.path().join("db"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{c}: exit {:?}\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!out.stdout.is_empty() || c.contains('>'), "{c}: no output");
    }
    assert!(dir.path().join("board.svg").exists());
}
