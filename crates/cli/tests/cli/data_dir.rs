//! The per-user folder of databases and tables (docs/cli.md, "The database
//! folder"): found from any working directory through `./dalkon-db` (if it
//! exists), `$XDG_DATA_HOME` or
//! `$HOME`, named by the commands that read it, and a missing layer
//! reported with the command that builds it.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

use super::Scratch;

/// The 2 v 1 endgame on the 4 board used below: A to throw.
const ENDGAME: &str = "AA../...../...B a";
/// Its value for A from the 2 v 1 tables (docs/solved.md's precision).
const ENDGAME_W: f64 = 0.838_348_592_848_512_7;

/// Run `dalkon` in `cwd` with `$DALKON_DB_DIR` removed and the given
/// `HOME` and `XDG_DATA_HOME` (`None`: removed).
fn run_in(cwd: &Path, home: Option<&Path>, xdg: Option<&Path>, args: &[&str]) -> Output {
    std::fs::create_dir_all(cwd).unwrap();
    let mut c = Command::new(env!("CARGO_BIN_EXE_dalkon"));
    c.args(args).current_dir(cwd).env_remove("DALKON_DB_DIR");
    match home {
        Some(h) => c.env("HOME", h),
        None => c.env_remove("HOME"),
    };
    match xdg {
        Some(x) => c.env("XDG_DATA_HOME", x),
        None => c.env_remove("XDG_DATA_HOME"),
    };
    c.output().expect("dalkon runs")
}

fn ok_json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

const BEST: &[&str] = &["daldos", "best", "--board", "4", "--position", ENDGAME];

#[test]
fn best_from_another_folder_finds_the_tables_under_xdg_data_home() {
    let t = Scratch::new("xdg");
    let (cwd, home, xdg) = (
        t.path().join("cwd"),
        t.path().join("home"),
        t.path().join("xdg"),
    );
    let folder = xdg.join("dalkon");
    let f = folder.display().to_string();
    let command = format!("dalkon daldos solve --board 4 --pieces 2,1 --db-dir {f}");

    // No tables yet: an estimate, and the layer it lacks with its command.
    let before = ok_json(&run_in(
        &cwd,
        Some(&home),
        Some(&xdg),
        &[BEST, &["--format", "json"]].concat(),
    ));
    assert_eq!(before["exact"], false);
    assert_eq!(before["tables"], 0);
    assert_eq!(before["db_dir"], f.as_str());
    assert_eq!(
        before["missing_tables"],
        serde_json::json!([{"layer": "2v1", "command": command}])
    );
    let text = run_in(&cwd, Some(&home), Some(&xdg), BEST);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains(&format!("tables: {f} (none of this board and rules)\n")),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "not exact: the 2 v 1 tables, which cover this position, are not in {f}: \
             build them with `{command}`\n"
        )),
        "{text}"
    );

    // Build them from another folder, without --db-dir: they go to XDG.
    let solved = run_in(
        &t.path().join("elsewhere"),
        Some(&home),
        Some(&xdg),
        &["daldos", "solve", "--board", "4", "--pieces", "2,1"],
    );
    assert!(
        solved.status.success(),
        "{}",
        String::from_utf8_lossy(&solved.stderr)
    );
    assert!(folder.join("daldos-L4-any-final-last-2v1.tbl").is_file());
    assert!(
        !home.exists(),
        "nothing is written under HOME when XDG_DATA_HOME is set"
    );

    let after = ok_json(&run_in(
        &cwd,
        Some(&home),
        Some(&xdg),
        &[BEST, &["--format", "json"]].concat(),
    ));
    assert_eq!(after["exact"], true);
    assert_eq!(after["tables"], 3);
    assert_eq!(after["missing_tables"], serde_json::json!([]));
    assert!(
        (after["value"].as_f64().unwrap() - ENDGAME_W).abs() < 1e-12,
        "{after}"
    );
    let text = String::from_utf8(run_in(&cwd, Some(&home), Some(&xdg), BEST).stdout).unwrap();
    assert!(
        text.contains(&format!("tables: {f} (3 layers of this board and rules)\n")),
        "{text}"
    );
    assert!(!text.contains("not exact"), "{text}");
    assert_eq!(
        std::fs::read_dir(&cwd).unwrap().count(),
        0,
        "nothing written in the working directory"
    );
}

#[test]
fn without_xdg_data_home_the_folder_is_under_home() {
    let t = Scratch::new("home");
    let home = t.path().join("home");
    let folder = home.join(".local/share/dalkon");
    let out = run_in(
        &t.path().join("a"),
        Some(&home),
        None,
        &["daldos", "solve", "--board", "4", "--pieces", "1,1"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(folder.join("daldos-L4-any-final-last-1v1.tbl").is_file());
    let v = ok_json(&run_in(
        &t.path().join("b"),
        Some(&home),
        Some(Path::new("")),
        &[
            "daldos",
            "value",
            "--board",
            "4",
            "--position",
            "...A/..b../.... a",
            "--format",
            "json",
        ],
    ));
    assert_eq!(
        v["exact"], true,
        "an empty XDG_DATA_HOME counts as unset: {v}"
    );
}

#[test]
fn dakon_solve_names_its_database_folder() {
    let t = Scratch::new("dakon");
    let xdg = t.path().join("xdg");
    let f = xdg.join("dalkon").display().to_string();
    let args = ["dakon", "solve", "--holes", "3", "--seeds", "2"];
    let v = ok_json(&run_in(
        t.path(),
        None,
        Some(&xdg),
        &[&args[..], &["--format", "json"]].concat(),
    ));
    assert_eq!(v["db_dir"], f.as_str());
    let text = String::from_utf8(run_in(t.path(), None, Some(&xdg), &args).stdout).unwrap();
    assert!(text.contains(&format!("\ndatabases   {f}\n")), "{text}");
}

#[test]
fn no_home_and_no_variable_is_refused_with_exit_2() {
    let t = Scratch::new("nohome");
    for args in [
        BEST,
        &["daldos", "solve", "--board", "4", "--pieces", "1,1"][..],
        &["dakon", "solve", "--holes", "3", "--seeds", "2"][..],
    ] {
        let out = run_in(t.path(), None, None, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "error: no folder for the databases: set DALKON_DB_DIR or pass --db-dir \
             (neither XDG_DATA_HOME nor HOME is set)\n",
            "{args:?}"
        );
        assert_eq!(
            std::fs::read_dir(t.path()).unwrap().count(),
            0,
            "{args:?} wrote nothing"
        );
    }
}

#[test]
fn a_dalkon_db_folder_in_the_working_directory_is_used_before_the_user_folder() {
    let t = Scratch::new("local");
    let (cwd, xdg) = (t.path().join("cwd"), t.path().join("xdg"));
    std::fs::create_dir_all(cwd.join("dalkon-db")).unwrap();
    let solved = run_in(
        &cwd,
        None,
        Some(&xdg),
        &["daldos", "solve", "--board", "4", "--pieces", "2,1"],
    );
    assert!(
        solved.status.success(),
        "{}",
        String::from_utf8_lossy(&solved.stderr)
    );
    assert!(cwd
        .join("dalkon-db/daldos-L4-any-final-last-2v1.tbl")
        .is_file());
    assert!(!xdg.exists(), "the user folder is not touched");
    let v = ok_json(&run_in(
        &cwd,
        None,
        Some(&xdg),
        &[BEST, &["--format", "json"]].concat(),
    ));
    assert_eq!(v["db_dir"], "dalkon-db");
    assert_eq!(v["exact"], true);
    // Without the folder here, nothing creates one: the user folder is used.
    let elsewhere = t.path().join("elsewhere");
    let v = ok_json(&run_in(
        &elsewhere,
        None,
        Some(&xdg),
        &[BEST, &["--format", "json"]].concat(),
    ));
    assert_eq!(
        v["db_dir"],
        xdg.join("dalkon").display().to_string().as_str()
    );
    assert!(!elsewhere.join("dalkon-db").exists());
}
