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
