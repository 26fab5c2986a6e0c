//! Not built yet.

use crate::common::Global;

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_global: &Global, _args: Args) -> anyhow::Result<()> {
    anyhow::bail!("this command is not built yet")
}
