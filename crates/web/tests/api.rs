//! The API against a server on a free loopback port, with a raw HTTP/1.1
//! client: the CLI's JSON (the same library request), 4xx one-liners,
//! oversized bodies refused.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::OnceLock;

fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            dalkon_web::serve("127.0.0.1:0".parse().unwrap(), |a| tx.send(a).unwrap()).unwrap()
        });
        rx.recv().unwrap()
    })
}

fn post(path: &str, body: &str) -> (u16, String) {
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
