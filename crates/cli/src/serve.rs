//! `dalkon serve [--port P] [--bind ADDR]` (docs/cli.md, "Web"): the
//! server of `dalkon_web`, its address printed once bound.

use std::net::{IpAddr, SocketAddr};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Port to listen on (0: a free one, printed).
    #[arg(long, default_value_t = dalkon_web::DEFAULT_PORT)]
    pub port: u16,
    /// Address to bind (loopback unless you say otherwise).
    #[arg(long, default_value_t = dalkon_web::DEFAULT_BIND)]
    pub bind: IpAddr,
}

pub fn run(args: Args, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let mut printed = Ok(());
    dalkon_web::serve(SocketAddr::new(args.bind, args.port), |a| {
        printed = writeln!(out, "serving on http://{a}/").and_then(|()| out.flush());
    })?;
    Ok(printed?)
}
