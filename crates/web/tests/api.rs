//! The API against a server on a free loopback port, with a raw HTTP/1.1
//! client: the CLI's JSON (the same library request), 4xx one-liners,
//! oversized bodies refused, a third search at once a 503.
//!
//! The server reads the Daldøs tables of the CLI's default folder, here
//! `$DALKON_DB_DIR` set to a folder of this test with the tables of the
//! 4-hole board up to two pieces a side, solved when the server starts.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

/// The solved layers of the test's tables: board 4, up to 2 v 2.
const SOLVED: (u8, u8) = (2, 2);

fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("dalkon-web-api-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dalkon_daldos::request::SolveRequest {
            board: dalkon_rules::daldos::Board::from_name("4").unwrap(),
            variants: Default::default(),
            pieces: SOLVED,
            dir: dir.clone(),
            check: false,
        }
        .run(&mut dalkon_daldos::solved::NoProgress, None)
        .unwrap();
        // Before the server starts and before any test reads the folder.
        std::env::set_var("DALKON_DB_DIR", &dir);
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            dalkon_web::serve("127.0.0.1:0".parse().unwrap(), |a| tx.send(a).unwrap()).unwrap()
        });
        rx.recv().unwrap()
    })
}

/// The tables folder the server reads (the CLI's default one).
fn tables() -> PathBuf {
    server();
    let dir = dalkon_daldos::request::tables_dir(None).unwrap();
    assert!(dir.ends_with(format!("dalkon-web-api-{}", std::process::id())));
    dir
}

/// One request, its status and body.
fn post_once(path: &str, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(server()).unwrap();
    write!(
        s,
        "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let status = out[9..12].parse().unwrap();
    let body = out.split_once("\r\n\r\n").unwrap().1.to_owned();
    (status, body)
}

/// A request asked again while the server is busy (other tests' searches
/// hold its two), as the 503 says.
fn post(path: &str, body: &str) -> (u16, String) {
    for _ in 0..1200 {
        let (status, answer) = post_once(path, body);
        if status != 503 || !answer.contains("busy: ") {
            return (status, answer);
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    panic!("busy for 30 s");
}

#[test]
fn dakon_play_is_the_cli_json() {
    let (status, body) = post(
        "/api/dakon/play",
        r#"{"position":"4,4,4,4/4,4,4,4/0,0 0","moves":[1]}"#,
    );
    assert_eq!(status, 200, "{body}");
    let report = dalkon_dakon::request::PlayRequest {
        position: "4,4,4,4/4,4,4,4/0,0 0".parse().unwrap(),
        moves: vec![1],
        rules: Default::default(),
    }
    .run()
    .unwrap();
    assert_eq!(body, format!("{}\n", serde_json::to_value(report).unwrap()));
}

#[test]
fn dakon_best_of_a_small_board_is_exact() {
    let (status, body) = post("/api/dakon/best", r#"{"position":"2,2/2,2/0,0 0"}"#);
    assert_eq!(status, 200, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    let cli = dalkon_dakon::request::BestRequest::new(Default::default())
        .run(&"2,2/2,2/0,0 0".parse().unwrap(), None)
        .unwrap();
    assert_eq!(v["exact"], serde_json::json!(true));
    assert_eq!(v["value"], serde_json::json!(cli.value));
    assert_eq!(v["best_moves"], serde_json::json!(cli.best_moves));
}

/// `probe-seeds` probes the databases already in the server's folder (a
/// request never builds): missing levels are a 400 saying how to build
/// them; built, the answers are the same as without.
#[test]
fn dakon_best_and_analyse_probe_the_databases_built_in_the_folder() {
    let dir = tables();
    let pos = "0,2,0,6,1/2,0,3,1,4/15,16 1";
    let body = format!(r#"{{"position":"{pos}","probe-seeds":6,"every-move":true}}"#);
    let (status, answer) = post("/api/dakon/best", &body);
    assert_eq!(status, 400, "{answer}");
    let v: serde_json::Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(
        v["error"].as_str().unwrap(),
        format!(
            "cannot prepare the probe databases: the databases for 5 holes per side up to 6 \
             seeds on the board are not built in {d} (level 0 is missing): build them once \
             with `dalkon dakon best --probe-seeds 6 --db-dir {d}` (any position of the board)",
            d = dir.display()
        )
    );
    dalkon_dakon::Databases::open_or_build(
        &dir,
        5,
        Default::default(),
        6,
        &dalkon_dakon::NoProgress,
    )
    .unwrap();
    let (status, answer) = post("/api/dakon/best", &body);
    assert_eq!(status, 200, "{answer}");
    let probed: serde_json::Value = serde_json::from_str(&answer).unwrap();
    let (status, answer) = post(
        "/api/dakon/best",
        &format!(r#"{{"position":"{pos}","every-move":true}}"#),
    );
    assert_eq!(status, 200, "{answer}");
    let plain: serde_json::Value = serde_json::from_str(&answer).unwrap();
    for field in ["value", "best_moves", "moves", "exact", "pv"] {
        assert_eq!(probed[field], plain[field], "{field}");
    }
    assert!(
        probed["nodes"].as_u64() < plain["nodes"].as_u64(),
        "{probed} {plain}"
    );
    let record = format!(r#"[Game \"dakon\"]\n[Start \"{pos}\"]\n\n1 2\n"#);
    let analysed = |extra: &str| {
        let (status, answer) = post(
            "/api/dakon/analyse",
            &format!(r#"{{"record":"{record}","time":0{extra}}}"#),
        );
        assert_eq!(status, 200, "{answer}");
        let mut v: serde_json::Value = serde_json::from_str(&answer).unwrap();
        for d in v["decisions"].as_array_mut().unwrap() {
            let d = d.as_object_mut().unwrap();
            d.remove("nodes");
            d.remove("seconds");
        }
        v
    };
    assert_eq!(
        analysed(r#","probe-seeds":6"#)["decisions"],
        analysed("")["decisions"]
    );
}

#[test]
fn bad_input_is_a_400_with_one_line() {
    let (status, body) = post("/api/dakon/best", r#"{"position":"nonsense"}"#);
    assert_eq!(status, 400);
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    let msg = v["error"].as_str().unwrap();
    assert!(msg.starts_with("bad --position \"nonsense\""), "{msg}");
    assert!(!msg.contains('\n'));
    let (status, _) = post(
        "/api/dakon/best",
        r#"{"position":"2,2/2,2/0,0 0","db-dir":"/"}"#,
    );
    assert_eq!(status, 400);
}

#[test]
fn oversized_bodies_are_refused() {
    let big = format!(r#"{{"position":"{}"}}"#, "1".repeat(2 << 20));
    let (status, _) = post("/api/dakon/best", &big);
    assert_eq!(status, 413);
}

#[test]
fn daldos_moves_is_the_cli_json() {
    let pos = "AAAA/...../BBBB a";
    let (status, body) = post(
        "/api/daldos/moves",
        &format!(r#"{{"position":"{pos}","dice":"1,1"}}"#),
    );
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    if status == 200 {
        let report = dalkon_daldos::request::MovesRequest {
            pos: pos.parse().unwrap(),
            variants: Default::default(),
            throw: "1,1".parse().unwrap(),
        }
        .run();
        assert_eq!(body, serde_json::to_string(&report).unwrap() + "\n");
    } else {
        assert_eq!(status, 400, "{v}");
    }
}

/// The JSON without its timings and node counts (`seconds`, `nodes`
/// anywhere), which no two runs of a threaded search share.
fn untimed(mut v: serde_json::Value) -> serde_json::Value {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                m.remove("seconds");
                m.remove("nodes");
                m.values_mut().for_each(strip);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}

/// `a` and `b` equal but for numbers within 1e-12.
fn close(a: &serde_json::Value, b: &serde_json::Value) {
    use serde_json::Value::*;
    match (a, b) {
        (Number(x), Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            assert!((x - y).abs() <= 1e-12, "{x} != {y}");
        }
        (Array(x), Array(y)) => {
            assert_eq!(x.len(), y.len(), "{a} != {b}");
            x.iter().zip(y).for_each(|(x, y)| close(x, y));
        }
        (Object(x), Object(y)) => {
            assert_eq!(x.keys().collect::<Vec<_>>(), y.keys().collect::<Vec<_>>());
            x.iter().for_each(|(k, v)| close(v, &y[k]));
        }
        _ => assert_eq!(a, b),
    }
}

fn json(body: &str) -> serde_json::Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// The error line of a 4xx answer, its status checked.
fn error(path: &str, body: &str, status: u16) -> String {
    let (got, answer) = post(path, body);
    assert_eq!(got, status, "{answer}");
    let line = json(&answer)["error"].as_str().unwrap().to_owned();
    assert!(!line.contains('\n'), "{line}");
    line
}

#[test]
fn dakon_play_takes_the_cli_text_of_moves_too() {
    let pos = "4,4,4,4/4,4,4,4/0,0 0";
    let (s1, text) = post(
        "/api/dakon/play",
        &format!(r#"{{"position":"{pos}","moves":"1, 3"}}"#),
    );
    let (s2, list) = post(
        "/api/dakon/play",
        &format!(r#"{{"position":"{pos}","moves":[1,3]}}"#),
    );
    assert_eq!((s1, s2), (200, 200), "{text} {list}");
    assert_eq!(text, list);
    let report = dalkon_dakon::request::PlayRequest {
        position: pos.parse().unwrap(),
        moves: vec![1, 3],
        rules: Default::default(),
    }
    .run()
    .unwrap();
    assert_eq!(text, format!("{}\n", serde_json::to_value(report).unwrap()));
    let msg = error(
        "/api/dakon/play",
        &format!(r#"{{"position":"{pos}","moves":"1,x"}}"#),
        400,
    );
    assert_eq!(msg, r#"--moves "1,x": invalid digit found in string"#);
    let msg = error(
        "/api/dakon/play",
        &format!(r#"{{"position":"{pos}","moves":3}}"#),
        400,
    );
    assert!(
        msg.starts_with("bad request body: invalid type: integer `3`, expected an array of holes"),
        "{msg}"
    );
}

/// A 4-hole game of 3 seeds a hole: every decision exact within the
/// budget.
const DAKON_RECORD: &str =
    "[Game \"dakon\"]\n[Holes \"4\"]\n[Seeds \"3\"]\n\n4 4 2 4 3 4 3 2 4 1 1 2\n";

#[test]
fn dakon_analyse_is_the_cli_json_of_the_same_request() {
    let body = serde_json::json!({ "record": DAKON_RECORD }).to_string();
    let (status, answer) = post("/api/dakon/analyse", &body);
    assert_eq!(status, 200, "{answer}");
    let record: dalkon_rules::dakon::Record = DAKON_RECORD.parse().unwrap();
    let report = dalkon_dakon::request::AnalyseRequest {
        tt_mb: Some(dalkon_web::SERVE_TT_MB),
        ..dalkon_dakon::request::AnalyseRequest::new(record.rules)
    }
    .run(&record.start, &record.moves, None, None)
    .unwrap();
    let cli = serde_json::to_value(&report).unwrap();
    let got = json(&answer);
    assert_eq!(got["game"], "dakon");
    assert_ne!(got["stopped"], true);
    assert!(got["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .all(|d| d["exact"] == true));
    // The first move threw away 20 seeds of the 22 that hole 3 wins.
    let first = &got["decisions"][0];
    assert_eq!(first["best"], serde_json::json!([3]));
    assert_eq!(first["best_value"], 22);
    assert_eq!(first["played_value"], 2);
    assert_eq!(first["mark"], "blunder");
    assert_eq!(untimed(got), untimed(cli));
}

#[test]
fn dakon_analyse_refuses_bad_records_and_long_games() {
    let msg = error(
        "/api/dakon/analyse",
        r#"{"record":"[Game \"dakon\"]\n[Holes \"3\"]\n[Seeds \"2\"]\n\n1 9\n"}"#,
        400,
    );
    let cli = "[Game \"dakon\"]\n[Holes \"3\"]\n[Seeds \"2\"]\n\n1 9\n"
        .parse::<dalkon_rules::dakon::Record>()
        .unwrap_err();
    assert_eq!(msg, format!("record: {}", dalkon_render::one_line(&cli)));
    assert_eq!(
        error(
            "/api/dakon/analyse",
            r#"{"record":"x","db-dir":"/tmp"}"#,
            400
        ),
        "bad request body: unknown field `db-dir`, expected one of `record`, `time`, `max-nodes`, `probe-seeds` at line 1 column 22"
    );
}

const ODDS: &str = "AA.a/..a../.b.B b";
const MIDDLE: &str = "AAAAAAA.a.a...ba/ba..b..a.ab..a.bb/BBBBBBB.b.b.aab. a";

#[test]
fn daldos_odds_are_the_cli_json_with_its_fractions() {
    let (status, answer) = post("/api/daldos/odds", &format!(r#"{{"position":"{ODDS}"}}"#));
    assert_eq!(status, 200, "{answer}");
    let report = dalkon_daldos::request::OddsRequest::new(
        ODDS.parse().unwrap(),
        Default::default(),
        None,
        dalkon_daldos::request::odds::DEFAULT_MAX_NODES,
    )
    .unwrap()
    .run();
    assert_eq!(answer, serde_json::to_string(&report).unwrap() + "\n");
    let v = json(&answer);
    assert_eq!(v["any_fraction"], "47/256");
    let m2 = v["targets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["hole"] == "M2")
        .unwrap();
    assert_eq!(m2["fraction"], "41/256");
    assert_eq!(m2["exact"], true);
    let (status, one) = post(
        "/api/daldos/odds",
        &format!(r#"{{"position":"{ODDS}","target":"m2"}}"#),
    );
    assert_eq!(status, 200, "{one}");
    assert_eq!(json(&one)["targets"].as_array().unwrap().len(), 1);
    assert_eq!(
        error(
            "/api/daldos/odds",
            &format!(r#"{{"position":"{ODDS}","target":"B2"}}"#),
            400
        ),
        "--target B2: no piece of a (the side not to move) there; its pieces are on A1 A2 A4 M2"
    );
}

/// The play page's hint holds no budget: the server runs `daldos best
/// --dice D --top all` at the game's hint depth and node budget.
#[test]
fn daldos_hint_is_the_games_hint() {
    let body = format!(r#"{{"position":"{ODDS}","dice":"2,1"}}"#);
    let (status, answer) = post("/api/daldos/hint", &body);
    assert_eq!(status, 200, "{answer}");
    let pos: dalkon_rules::daldos::Position = ODDS.parse().unwrap();
    let dir = tables();
    let analyst =
        dalkon_daldos::request::Analyst::load(&dir, pos.board(), Default::default()).unwrap();
    let report = dalkon_daldos::request::BestRequest::new(
        Some("2,1".parse().unwrap()),
        dalkon_daldos::engine::HINT_DEPTH,
        Some(dalkon_daldos::engine::HINT_MAX_NODES),
        false,
        true,
        Some(usize::MAX),
    )
    .unwrap()
    .run(&analyst, &pos, &(), None)
    .unwrap();
    assert_eq!(answer, serde_json::to_string(&report).unwrap() + "\n");
    // A small position (a short search, so that other tests' timed
    // searches on the server's two threads are not starved): the hint's
    // depth, every play valued.
    let v = json(&answer);
    assert_eq!(
        (v["depth"].as_u64(), v["complete"].as_bool()),
        (Some(3), Some(true))
    );
    let moves = dalkon_daldos::request::MovesRequest {
        pos,
        variants: Default::default(),
        throw: "2,1".parse().unwrap(),
    }
    .run();
    assert_eq!(v["plays"].as_array().unwrap().len(), moves.plays.len());
    let msg = error(
        "/api/daldos/hint",
        &format!(r#"{{"position":"{ODDS}","dice":"2,1","depth":1}}"#),
        400,
    );
    assert!(msg.contains("unknown field `depth`"), "{msg}");
    let msg = error(
        "/api/daldos/hint",
        &format!(r#"{{"position":"{ODDS}"}}"#),
        400,
    );
    assert!(msg.contains("missing field `dice`"), "{msg}");
}

#[test]
fn daldos_best_is_the_cli_json() {
    let body = format!(r#"{{"position":"{MIDDLE}","dice":"3,1","depth":1}}"#);
    let (status, answer) = post("/api/daldos/best", &body);
    assert_eq!(status, 200, "{answer}");
    let pos: dalkon_rules::daldos::Position = MIDDLE.parse().unwrap();
    let dir = tables();
    let analyst =
        dalkon_daldos::request::Analyst::load(&dir, pos.board(), Default::default()).unwrap();
    let report = dalkon_daldos::request::BestRequest::new(
        Some("3,1".parse().unwrap()),
        1,
        Some(dalkon_daldos::request::best::DEFAULT_MAX_NODES),
        false,
        true,
        None,
    )
    .unwrap()
    .run(&analyst, &pos, &(), None)
    .unwrap();
    assert_eq!(answer, serde_json::to_string(&report).unwrap() + "\n");
    let v = json(&answer);
    assert_eq!(v["depth"], 1);
    assert_eq!(v["complete"], true);
    assert_eq!(v["best"], v["plays"][0]["play"]);
    assert_eq!(
        error(
            "/api/daldos/best",
            &format!(r#"{{"position":"{MIDDLE}","depth":0}}"#),
            400
        ),
        format!(
            "--depth 0 is out of range 1..={}",
            dalkon_daldos::engine::MAX_DEPTH
        )
    );
    assert_eq!(
        error(
            "/api/daldos/best",
            &format!(r#"{{"position":"{MIDDLE}","top":0}}"#),
            400
        ),
        "invalid value '0' for '--top <K|all>': expected a number of plays from 1, or `all`"
    );
    let msg = error(
        "/api/daldos/best",
        &format!(r#"{{"position":"{MIDDLE}","db-dir":"/"}}"#),
        400,
    );
    assert!(msg.contains("unknown field `db-dir`"), "{msg}");
    let msg = error(
        "/api/daldos/best",
        &format!(r#"{{"position":"{MIDDLE}","board":"norwegian"}}"#),
        400,
    );
    assert_eq!(
        msg,
        "--board norwegian (L=12) disagrees with --position, whose rows give L=16"
    );
}

#[test]
fn daldos_value_of_a_won_game_and_of_a_position_the_tables_may_lack() {
    // b has no piece left: a has won, worth 0 to b, the side to throw.
    let (status, answer) = post("/api/daldos/value", r#"{"position":"AA../...../.... b"}"#);
    assert_eq!(status, 200, "{answer}");
    let v = json(&answer);
    assert_eq!(v["value"], 0.0);
    assert_eq!(v["exact"], true);
    assert_eq!(v["throws"], serde_json::json!([]));
    // A position in play: the tables' value where they are, else the
    // CLI's error naming the layer to solve.
    let pos: dalkon_rules::daldos::Position = ODDS.parse().unwrap();
    let dir = tables();
    let analyst =
        dalkon_daldos::request::Analyst::load(&dir, pos.board(), Default::default()).unwrap();
    let cli = dalkon_daldos::request::ValueRequest {
        pos,
        variants: Default::default(),
    }
    .run(analyst.tables());
    let (status, answer) = post("/api/daldos/value", &format!(r#"{{"position":"{ODDS}"}}"#));
    match cli {
        Ok(report) => {
            assert_eq!(status, 200, "{answer}");
            assert_eq!(answer, serde_json::to_string(&report).unwrap() + "\n");
        }
        Err(e) => {
            assert_eq!(status, 400, "{answer}");
            assert_eq!(json(&answer)["error"], dalkon_render::one_line(&e));
        }
    }
}

const DALDOS_RECORD: &str = include_str!("../../../docs/examples/daldos-4.record");

#[test]
fn daldos_analyse_is_the_cli_json_of_the_same_request() {
    let body = serde_json::json!({ "record": DALDOS_RECORD, "max-nodes": 3000 }).to_string();
    let (status, answer) = post("/api/daldos/analyse", &body);
    assert_eq!(status, 200, "{answer}");
    let record: dalkon_rules::daldos::Record = DALDOS_RECORD.parse().unwrap();
    let n = record.turns.len();
    let dir = tables();
    let analyst =
        dalkon_daldos::request::Analyst::load(&dir, record.start.board(), record.variants).unwrap();
    // The server's time: the CLI's default cut to its share.
    let share = dalkon_web::SERVE_ANALYSE_SECONDS / (n + 1) as f64;
    let time = dalkon_daldos::request::DEFAULT_ANALYSE_SECONDS.min(share);
    let report = dalkon_daldos::request::AnalyseRequest::new()
        .time(Some(time))
        .unwrap()
        .max_nodes(Some(3000))
        .run_record(&analyst, &record, &(), None)
        .unwrap();
    let got = json(&answer);
    assert_eq!(got["game"], "daldos");
    assert_eq!(got["decisions"].as_array().unwrap().len(), n);
    assert_eq!(got["winner"], "b");
    // The same values but for the last bits of sums added in another
    // order by the search's threads.
    close(
        &untimed(got),
        &untimed(serde_json::to_value(&report).unwrap()),
    );
    let msg = error(
        "/api/daldos/analyse",
        r#"{"record":"[Game \"daldos\"]\n[Rules \"board=4\"]\n\n5,1 -\n"}"#,
        400,
    );
    assert!(msg.starts_with("record: "), "{msg}");
}

#[test]
fn an_oversized_body_is_a_413_with_its_line() {
    let big = format!(
        r#"{{"record":"{}"}}"#,
        " ".repeat(dalkon_web::MAX_BODY_BYTES)
    );
    let (status, answer) = post("/api/daldos/analyse", &big);
    assert_eq!(status, 413, "{answer}");
    assert_eq!(
        json(&answer)["error"],
        format!(
            "the request body is larger than {} bytes",
            dalkon_web::MAX_BODY_BYTES
        )
    );
}

/// On the 4-hole board with two pieces a side, where the tables hold the
/// game's value: `value` and `best` agree on it, exact.
const SOLVED_POSITION: &str = "A.a./...../.b.B b";

#[test]
fn daldos_value_and_best_where_the_tables_cover_the_position_are_exact() {
    let (status, value) = post(
        "/api/daldos/value",
        &format!(r#"{{"position":"{SOLVED_POSITION}"}}"#),
    );
    assert_eq!(status, 200, "{value}");
    let pos: dalkon_rules::daldos::Position = SOLVED_POSITION.parse().unwrap();
    let analyst =
        dalkon_daldos::request::Analyst::load(&tables(), pos.board(), Default::default()).unwrap();
    let report = dalkon_daldos::request::ValueRequest {
        pos,
        variants: Default::default(),
    }
    .run(analyst.tables())
    .unwrap();
    assert_eq!(value, serde_json::to_string(&report).unwrap() + "\n");
    let v = json(&value);
    assert_eq!(v["exact"], true);
    let w = v["value"].as_f64().unwrap();
    assert!((w - 0.483_619_781_071).abs() < 1e-11, "{w}");
    let weights: u64 = v["throws"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["weight"].as_u64().unwrap())
        .sum();
    assert_eq!(weights, 16, "the 16 throws of two dice");
    let (status, best) = post(
        "/api/daldos/best",
        &format!(r#"{{"position":"{SOLVED_POSITION}"}}"#),
    );
    assert_eq!(status, 200, "{best}");
    let b = json(&best);
    assert_eq!(b["exact"], true);
    assert!((b["value"].as_f64().unwrap() - w).abs() < 1e-11, "{b}");
    assert_eq!(b["tables"], 4, "the layers 1v1, 1v2, 2v1 and 2v2");
}

#[test]
fn a_third_search_while_two_run_is_a_503() {
    // Two searches of a 7 x 7 middle game (benches/best_7x7.txt) that take
    // their full 2 s.
    let start = r#"{"position":"2,10,2,1,11,11,11/9,9,1,9,9,0,9/4,0 0","time":2}"#;
    let long: Vec<_> = (0..2)
        .map(|_| std::thread::spawn(move || post("/api/dakon/best", start)))
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let (status, answer) = post_once("/api/dakon/best", r#"{"position":"2,2/2,2/0,0 0"}"#);
    assert_eq!(status, 503, "{answer}");
    assert_eq!(
        json(&answer)["error"],
        format!(
            "busy: {} searches are running, try again",
            dalkon_web::MAX_SEARCHES
        )
    );
    for t in long {
        let (status, answer) = t.join().unwrap();
        assert_eq!(status, 200, "{answer}");
        assert_eq!(json(&answer)["best_moves"], serde_json::json!([1]));
    }
    // And then it answers again.
    let (status, _) = post("/api/dakon/best", r#"{"position":"2,2/2,2/0,0 0"}"#);
    assert_eq!(status, 200);
}

/// A `GET`, its status, content type and body.
fn get(path: &str) -> (u16, String, String) {
    let mut s = TcpStream::connect(server()).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let status = out[9..12].parse().unwrap();
    let (head, body) = out.split_once("\r\n\r\n").unwrap();
    let kind = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-type: ")
                .map(str::to_owned)
        })
        .unwrap_or_default();
    (status, kind, body.to_owned())
}

#[test]
fn the_pages_and_their_files_are_served() {
    for (path, kind, has) in [
        ("/", "text/html", "/dakon"),
        ("/dakon", "text/html", "/assets/dakon.js"),
        ("/daldos", "text/html", "/assets/daldos.js"),
        ("/analyse", "text/html", "/assets/analyse.js"),
        ("/position", "text/html", "/assets/position.js"),
        ("/assets/app.js", "text/javascript", "async function api("),
        ("/assets/style.css", "text/css", "#board"),
    ] {
        let (status, got, body) = get(path);
        assert_eq!(status, 200, "{path}");
        assert!(got.starts_with(kind), "{path}: {got}");
        assert!(body.contains(has), "{path}");
    }
    assert_eq!(get("/nothing").0, 404);
}

#[test]
fn dakon_state_of_the_4_hole_start_and_after_a_move() {
    let s = json(&post("/api/dakon/state", r#"{"holes":4,"seeds":4}"#).1);
    assert_eq!(s["position"], "4,4,4,4/4,4,4,4/0,0 0");
    assert_eq!(s["legal"], serde_json::json!([1, 2, 3, 4]));
    assert_eq!(
        s["legal_holes"],
        serde_json::json!(["S1", "S2", "S3", "S4"])
    );
    assert_eq!(
        (s["side"].as_u64(), s["over"].as_bool()),
        (Some(0), Some(false))
    );
    assert_eq!(s["side_name"], "South (0)");
    assert_eq!(
        (s["result"].as_str(), s["score"].is_null()),
        (Some("*"), true)
    );
    assert_eq!(s["rules"], "origin=sow mikul=on nembak=keep");
    assert!(s["svg"].as_str().unwrap().contains(r#"data-hole="N4""#));
    let record = s["record"].as_str().unwrap();
    assert!(record.starts_with("[Game \"dakon\"]\n"), "{record}");
    // S1: four seeds, the last in South's store: South moves again.
    let body = serde_json::json!({"record": record, "play": 1}).to_string();
    let t = json(&post("/api/dakon/state", &body).1);
    assert_eq!(t["position"], "0,5,5,5/4,4,4,4/1,0 0");
    assert_eq!(t["moves"], serde_json::json!([1]));
    assert_eq!(t["legal"], serde_json::json!([2, 3, 4]));
    assert_eq!(
        t["events"],
        serde_json::json!([
            "lap: 4 seeds from S1",
            "bonus: last seed in own store, move again"
        ])
    );
    // An illegal move: the CLI's line, nothing played.
    let body = serde_json::json!({"record": t["record"], "play": 1}).to_string();
    let line = error("/api/dakon/state", &body, 400);
    assert!(line.contains("move 1") && line.contains("hole 1"), "{line}");
    // An analysis's best move, ringed and named under the picture.
    let body = r#"{"holes":4,"seeds":4,"mark":[1],"mark-value":32,"mark-exact":true}"#;
    let svg = json(&post("/api/dakon/state", body).1)["svg"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        svg.contains("best move S1: value +32 for South (0) (exact)"),
        "{svg}"
    );
    let line = error("/api/dakon/state", r#"{"holes":4}"#, 400);
    assert_eq!(line, "--holes and --seeds go together");
}

#[test]
fn dakon_engine_and_hint_are_the_games() {
    let start = r#"{"holes":4,"seeds":4}"#;
    let e = json(&post("/api/dakon/engine", start).1);
    assert_eq!(e["engine"]["move"], 1);
    assert_eq!(
        e["engine"]["why"],
        "exact best move, value +32 for South (0) (final store difference)"
    );
    assert_eq!(e["moves"], serde_json::json!([1]));
    let h = json(&post("/api/dakon/hint", start).1);
    assert_eq!(
        (h["value"].as_i64(), h["exact"].as_bool()),
        (Some(32), Some(true))
    );
    assert_eq!(h["label"], "exact");
    assert_eq!(h["best_moves"], serde_json::json!([1]));
    assert_eq!(
        h["ranked"][0],
        serde_json::json!({"move": 1, "value": "+32", "exact": true})
    );
    // The text `dakon game` prints for `hint`, from the library's game.
    let mut game = dalkon_dakon::game::Game::new(&dalkon_dakon::game::GameRequest::new(
        dalkon_rules::dakon::Position::start(4, 4).unwrap(),
        Default::default(),
    ))
    .unwrap();
    let report = game.hint().unwrap();
    assert_eq!(h["text"], dalkon_render::dakon::game::hint(&game, &report));
}

#[test]
fn dakon_state_of_a_finished_record_has_its_final_score() {
    use dalkon_dakon::game::{Game, GameRequest, Player};
    let mut game = Game::new(&GameRequest {
        first: Player::Engine,
        second: Player::Engine,
        ..GameRequest::new(
            dalkon_rules::dakon::Position::start(3, 3).unwrap(),
            Default::default(),
        )
    })
    .unwrap();
    while game.to_move().is_some() {
        game.engine_move().unwrap();
    }
    let score = game.final_score().unwrap();
    let record = game.record().to_string();
    let s = json(
        &post(
            "/api/dakon/state",
            &serde_json::json!({ "record": record }).to_string(),
        )
        .1,
    );
    assert_eq!(s["over"], true);
    assert_eq!(s["legal"], serde_json::json!([]));
    let stores = [
        score.store(dalkon_rules::dakon::Side::South),
        score.store(dalkon_rules::dakon::Side::North),
    ];
    assert_eq!(s["score"], serde_json::json!(stores));
    assert_eq!(stores[0] + stores[1], 18);
    assert_eq!(s["verdict"], dalkon_render::dakon::verdict(&score));
    assert_eq!(s["result"], game.record().result());
    assert_ne!(s["result"], "*");
    // The engine has nothing to play, the hint nothing to rank.
    let body = serde_json::json!({ "record": record }).to_string();
    assert!(json(&post("/api/dakon/engine", &body).1)
        .get("engine")
        .is_none());
    assert_eq!(
        error("/api/dakon/hint", &body, 400),
        "the game is over: there is no move to hint"
    );
}

#[test]
fn daldos_state_draws_the_seeded_throw_and_plays_it() {
    use dalkon_daldos::engine::{draw_throw, Daldos, Rng};
    let throw = |seed: u64, k: u64| {
        let t = draw_throw(
            &Daldos::new(Default::default()),
            &mut Rng::for_index(seed, k),
        );
        serde_json::json!([t.first, t.second])
    };
    let s = json(&post("/api/daldos/state", r#"{"board":"norwegian","seed":7}"#).1);
    assert_eq!(s["position"], "AAAAAAAAAAAA/............./BBBBBBBBBBBB a");
    assert_eq!(
        (s["throws"].as_u64(), s["side"].as_str()),
        (Some(0), Some("a"))
    );
    // Seed 7's first throw is 3,2: no 1 (dal) yet, so the throw is lost.
    assert_eq!(s["dice"], serde_json::json!([3, 2]));
    assert_eq!(s["dice"], throw(7, 0));
    assert_eq!(
        s["plays"],
        serde_json::json!([{"play": "pass", "result": "AAAAAAAAAAAA/............./BBBBBBBBBBBB b", "from": []}])
    );
    assert!(s["record"].as_str().unwrap().contains("[Seed \"7\"]"));
    let body = serde_json::json!({"record": s["record"], "play": "pass"}).to_string();
    let t = json(&post("/api/daldos/state", &body).1);
    assert_eq!(
        (t["throws"].as_u64(), t["side"].as_str()),
        (Some(1), Some("b"))
    );
    assert_eq!(t["last"], "3,2 -");
    assert_eq!(t["dice"], throw(7, 1));
    // The plays are those of `daldos moves` for the throw.
    let dice = format!("{},{}", t["dice"][0], t["dice"][1]);
    let moves = json(
        &post(
            "/api/daldos/moves",
            &serde_json::json!({"position": t["position"], "dice": dice}).to_string(),
        )
        .1,
    );
    let plays: Vec<_> = t["plays"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["play"].clone())
        .collect();
    let listed: Vec<_> = moves["plays"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["play"].clone())
        .collect();
    assert_eq!(plays, listed);
    let line = error(
        "/api/daldos/state",
        &serde_json::json!({"record": t["record"], "play": "X1-X2"}).to_string(),
        400,
    );
    assert!(
        line.starts_with("--play \"X1-X2\": not a play of the throw"),
        "{line}"
    );
}

#[test]
fn daldos_state_marks_a_play_and_knows_a_won_game() {
    let body = r#"{"position":"AA.a/..a../.b.B b","dice":"3,1","mark":"B4-M4 M4-M1"}"#;
    let s = json(&post("/api/daldos/state", body).1);
    assert_eq!(s["dice"], serde_json::json!([3, 1]));
    assert_eq!(s["plays"][0]["play"], "B4-M4 M4-M1");
    // An added move moves one piece: it is from B4 only.
    assert_eq!(s["plays"][0]["from"], serde_json::json!(["B4"]));
    let svg = s["svg"].as_str().unwrap();
    assert!(svg.contains("best-play") && svg.contains("best play B4-M4 M4-M1"));
    // No B piece left: A has won, nothing is thrown.
    let won = json(
        &post(
            "/api/daldos/state",
            r#"{"position":"AA../...../.... b","seed":1}"#,
        )
        .1,
    );
    assert_eq!(
        (won["over"].as_bool(), won["winner"].as_str()),
        (Some(true), Some("a"))
    );
    assert_eq!(
        (won["dice"].is_null(), won["result"].as_str()),
        (true, Some("1-0"))
    );
}
