//! Golden files under `tests/golden/`, shared by the rules' test binaries.
//!
//! `check_or_bless(name, actual)` compares the text a test renders with the
//! committed file line by line; with `DALKON_BLESS=1` it rewrites the file
//! instead, so that after an intended rule change the diff shows exactly
//! what changed.

use std::path::PathBuf;

/// Path of the golden file `name`.
pub fn golden(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name)
}

/// Assert that `actual` equals the golden file `name` (or bless it), and
/// return how many lines were compared.
pub fn check_or_bless(name: &str, actual: &str) -> usize {
    let path = golden(name);
    if std::env::var_os("DALKON_BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with DALKON_BLESS=1 to create it)",
            path.display()
        )
    });
    for (i, (e, a)) in expected.lines().zip(actual.lines()).enumerate() {
        assert_eq!(e, a, "{name}, line {}", i + 1);
    }
    assert_eq!(
        expected.lines().count(),
        actual.lines().count(),
        "{name}: line count"
    );
    expected.lines().count()
}
