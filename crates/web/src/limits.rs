//! The server's policy, in one place (docs/web.md, "Limits"): what a
//! request may ask of the machine. The CLI has no such limits (a user at a
//! terminal may wait as long as they like); a server left running must
//! answer every request within a bounded time and memory.

use std::net::{IpAddr, Ipv4Addr};

/// The address `dalkon serve` binds without `--bind`: loopback only.
pub const DEFAULT_BIND: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

/// The port `dalkon serve` takes without `--port`.
pub const DEFAULT_PORT: u16 = 8080;

/// The largest request body taken (1 MiB; larger: 413).
pub const MAX_BODY_BYTES: usize = 1 << 20;

/// Searches that run at once; a request over the cap is answered 503.
pub const MAX_SEARCHES: usize = 2;

/// Seconds a Dakon `best` search may take, whatever the body asks (its
/// `time` is cut to this; none means this).
pub const SERVE_SECONDS: f64 = 5.0;

/// Transposition-table memory of one Dakon search or analysis, in MiB.
pub const SERVE_TT_MB: usize = 64;

/// Nodes a Daldøs `best` search may visit, all depths together (its
/// `max-nodes` is cut to this; 0 or none means this): about 4 s on one
/// core of this project's machine (the Danish start, 5 million nodes, 3.8 s).
pub const SERVE_DALDOS_MAX_NODES: u64 = 5_000_000;

/// Nodes a Daldøs `odds` answer may evaluate (its `max-nodes` is cut to
/// this): the CLI's default is 50 000, a middle game needs under 100.
pub const SERVE_ODDS_MAX_NODES: usize = 1_000_000;

/// The most moves (Dakon) or throws (Daldøs) of a record analysed; a
/// longer record is refused with a 400.
pub const MAX_ANALYSE_MOVES: usize = 500;

/// Seconds of search for a whole analysis: each decision gets the `time`
/// asked (or the CLI's default) but at most this divided by the number of
/// positions searched (the moves and the end), so an analysis takes about
/// this long at most.
pub const SERVE_ANALYSE_SECONDS: f64 = 20.0;

/// Seconds after which any search is stopped, whatever its own budget
/// (a backstop: an analysis then answers with the decisions done and
/// `"stopped": true`, a Daldøs `best` with 503).
pub const SERVE_STOP_SECONDS: f64 = 30.0;

/// Nodes the engine of a Dakon game page may search for one move or one
/// hint (`max-nodes` above it, or 0, is cut to it; the CLI's default is
/// 300 000): about 2 s on this project's machine.
pub const SERVE_GAME_MAX_NODES: u64 = 5_000_000;
