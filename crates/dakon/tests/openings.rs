//! Openings checkpoints (issue 24, items 3 and 4): a checkpoint that was
//! edited, resealed or damaged is refused with a message saying to delete
//! the folder, never resumed to a wrong count and never a panic; a
//! checkpoint left by an interruption resumes to the same answer.
//!
//! The board is 5x6 (148 winning chains, 61 layers, a count in a fraction
//! of a second). The checkpoints are made by the library itself: a
//! checkpoint after every layer, stopped after the `n`th, as an
//! interruption would.

use std::path::{Path, PathBuf};

use dalkon_dakon::openings::{openings, OpeningLimits, OpeningsError};
use dalkon_rules::dakon::{Position, Rules};
use dalkon_store::checksum::fnv1a64;

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let p =
            std::env::temp_dir().join(format!("dalkon-openings-cp-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn start() -> Position {
    Position::start(5, 6).unwrap()
}

fn limits(dir: &Path, stop: Option<u32>, layers_in_memory: u64) -> OpeningLimits {
    OpeningLimits {
        work_dir: Some(dir.to_path_buf()),
        layers_in_memory,
        checkpoint_every: Some(std::time::Duration::ZERO),
        stop_after_checkpoints: stop,
        ..OpeningLimits::default()
    }
}

/// A checkpoint of the 5x6 count in `dir`, stopped after `n` checkpoints.
fn checkpoint(dir: &Path, n: u32) {
    let r = openings(&start(), &Rules::default(), &limits(dir, Some(n), 1 << 20));
    assert!(
        matches!(r, Err(OpeningsError::Stopped(k)) if k == n),
        "{r:?}"
    );
}

fn resume(dir: &Path) -> Result<u64, OpeningsError> {
    openings(&start(), &Rules::default(), &limits(dir, None, 1 << 20)).map(|o| o.winning_chains)
}

fn state(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("state")).unwrap()
}

/// Rewrite the `state` of `dir` with `edit` applied, with or without its
/// checksum line resealed (docs/formats.md §2.4).
fn edit_state(dir: &Path, edit: impl Fn(&str) -> String, reseal: bool) {
    let text = state(dir);
    let at = text.rfind("checksum ").unwrap();
    let (body, last) = text.split_at(at);
    let body = edit(body);
    let last = if reseal {
        format!("checksum {:016x}\n", fnv1a64(body.as_bytes()))
    } else {
        last.to_owned()
    };
    std::fs::write(dir.join("state"), body + &last).unwrap();
}

/// `line` of a state (the text after its name).
fn line<'a>(text: &'a str, name: &str) -> &'a str {
    text.lines()
        .find_map(|l| l.strip_prefix(name).and_then(|r| r.strip_prefix(' ')))
        .unwrap_or_else(|| panic!("no {name} line in {text}"))
}

fn set_line(body: &str, name: &str, value: &str) -> String {
    body.lines()
        .map(|l| {
            if l == name || l.starts_with(&format!("{name} ")) {
                format!("{name} {value}").trim_end().to_owned()
            } else {
                l.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// The resume is refused as a damaged checkpoint naming `file`, with the
/// words that say to delete the folder (not to run again).
fn assert_refused(dir: &Path, file: &str, why: &str) {
    let err = resume(dir).unwrap_err();
    assert!(matches!(err, OpeningsError::CorruptLayer { .. }), "{err}");
    assert!(!err.resumable(), "{err}");
    assert_eq!(
        err.to_string(),
        format!(
            "{}: {why}; the count cannot resume from {}: delete that folder to start the count over",
            dir.join(file).display(),
            dir.display()
        )
    );
    assert!(dir.join("state").exists(), "a refused checkpoint is kept");
}

#[test]
fn an_interrupted_count_resumes_to_the_same_answer_from_files_too() {
    let whole = openings(&start(), &Rules::default(), &OpeningLimits::default()).unwrap();
    assert_eq!(whole.winning_chains, 148);
    // Every layer in a file: the hashes recorded by the state are checked
    // on each read; the forward checkpoint, then a backward one.
    let tmp = TempDir::new("files");
    for (n, pass) in [(10, "forward"), (60, "backward")] {
        let r = openings(&start(), &Rules::default(), &limits(&tmp.0, Some(n), 0));
        assert!(
            matches!(r, Err(OpeningsError::Stopped(k)) if k == n),
            "{r:?}"
        );
        assert_eq!(line(&state(&tmp.0), "pass"), pass);
    }
    let o = openings(&start(), &Rules::default(), &limits(&tmp.0, None, 0)).unwrap();
    assert_eq!(
        (o.winning_chains, o.positions, o.winning_positions),
        (
            whole.winning_chains,
            whole.positions,
            whole.winning_positions
        )
    );
    assert_eq!((o.shortest, o.best), (whole.shortest, whole.best));
    assert!(!tmp.0.exists());
}

#[test]
fn an_edited_pending_line_is_refused() {
    let tmp = TempDir::new("pending");
    checkpoint(&tmp.0, 10);
    let text = state(&tmp.0);
    assert!(!line(&text, "pending").is_empty(), "{text}");
    // Not resealed: the state's checksum catches the edit.
    edit_state(&tmp.0, |b| set_line(b, "pending", ""), false);
    assert_refused(
        &tmp.0,
        "state",
        "its checksum does not match its text (the file was edited or damaged)",
    );
    // Resealed: the pending files of this checkpoint left out are found.
    std::fs::write(tmp.0.join("state"), &text).unwrap();
    edit_state(&tmp.0, |b| set_line(b, "pending", ""), true);
    let err = resume(&tmp.0).unwrap_err().to_string();
    assert!(
        err.contains("belongs to this checkpoint but is not listed in its pending layers"),
        "{err}"
    );
    // The untouched checkpoint still resumes to the right count.
    std::fs::write(tmp.0.join("state"), &text).unwrap();
    assert_eq!(resume(&tmp.0).unwrap(), 148);
}

#[test]
fn out_of_range_layers_are_refused_not_a_panic() {
    let tmp = TempDir::new("layer");
    checkpoint(&tmp.0, 10);
    let text = state(&tmp.0);
    for (layer, reseal) in [("999", false), ("999", true), ("85", true), ("61", true)] {
        std::fs::write(tmp.0.join("state"), &text).unwrap();
        edit_state(&tmp.0, |b| set_line(b, "layer", layer), reseal);
        let why = if reseal {
            format!(
                "layer {layer} is out of range: a forward checkpoint of this count has a layer \
                 from 0 to 60"
            )
        } else {
            "its checksum does not match its text (the file was edited or damaged)".to_owned()
        };
        assert_refused(&tmp.0, "state", &why);
    }
    // Counts, pending layers and numbers beyond their type: refused too.
    let edits: [(&str, &str, &str); 5] = [
        ("counts", "1 1", "2 layer counts, the count has 61 layers"),
        (
            "pending",
            "99:1:00",
            "pending layer 99 is out of order or out of range (the pending layers lie above layer",
        ),
        ("layer", "4294967306", "bad number '4294967306'"),
        ("pass", "sideways", "unknown pass 'sideways'"),
        ("layers", "0:zz", "bad file record '0:zz'"),
    ];
    for (name, value, why) in edits {
        std::fs::write(tmp.0.join("state"), &text).unwrap();
        edit_state(&tmp.0, |b| set_line(b, name, value), true);
        let err = resume(&tmp.0).unwrap_err();
        assert!(matches!(err, OpeningsError::CorruptLayer { .. }), "{err}");
        assert!(err.to_string().contains(why), "{name}: {err}");
    }
}

#[test]
fn a_resealed_layer_payload_is_refused() {
    let tmp = TempDir::new("payload");
    checkpoint(&tmp.0, 10);
    let text = state(&tmp.0);
    let finished = line(&text, "layers");
    let last = finished.split_whitespace().last().unwrap();
    let layer: usize = last.split(':').next().unwrap().parse().unwrap();
    let name = format!("layer-{layer:03}.bin");
    let path = tmp.0.join(&name);
    let good = std::fs::read(&path).unwrap();
    // One payload byte changed and the file's own checksum resealed
    // (docs/formats.md §2.2, offset 48): the header no longer matches the
    // hash the state recorded when the layer was finished.
    let mut forged = good.clone();
    forged[64] ^= 1;
    let h = fnv1a64(&forged[64..]);
    forged[48..56].copy_from_slice(&h.to_le_bytes());
    std::fs::write(&path, &forged).unwrap();
    assert_refused(
        &tmp.0,
        &name,
        "its header, length or checksum is not the one the checkpoint recorded",
    );
    // Missing, or a folder in its place.
    std::fs::remove_file(&path).unwrap();
    assert_refused(
        &tmp.0,
        &name,
        "the checkpoint needs this file, which is missing",
    );
    std::fs::write(&path, &good).unwrap();
    assert_eq!(resume(&tmp.0).unwrap(), 148);
}

#[test]
fn a_resealed_pending_or_winners_file_is_refused() {
    for (n, prefix) in [(10, "pending-"), (60, "winners-")] {
        let tmp = TempDir::new(prefix);
        checkpoint(&tmp.0, n);
        let name = std::fs::read_dir(&tmp.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|f| f.starts_with(prefix) && f.ends_with(".bin"))
            .max()
            .unwrap();
        let path = tmp.0.join(&name);
        let mut forged = std::fs::read(&path).unwrap();
        let last = forged.len() - 1;
        forged[last] ^= 1;
        let h = fnv1a64(&forged[64..]);
        forged[48..56].copy_from_slice(&h.to_le_bytes());
        std::fs::write(&path, &forged).unwrap();
        assert_refused(
            &tmp.0,
            &name,
            "its header, length or checksum is not the one the checkpoint recorded",
        );
    }
}
