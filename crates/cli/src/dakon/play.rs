//! `dalkon dakon play`: apply moves and show each position with what
//! happened (relays, bonus, captures, the end sweep).

use dalkon_dakon::request::PlayRequest;
use dalkon_render::dakon::report;

use super::{position, print_json, RuleArgs};
use crate::common::{Format, Global};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Position in docs/rules.md §2.5 notation (1 to 32 holes a row, at most
    /// 255 seeds in all), e.g. "7,7,7,7,7,7,7/7,7,7,7,7,7,7/0,0 0".
    #[arg(long)]
    pub position: String,
    /// Holes to play in order, comma-separated (1 = the mover's first hole).
    #[arg(long, value_delimiter = ',', required = true)]
    pub moves: Vec<usize>,
    #[command(flatten)]
    pub rules: RuleArgs,
}

pub fn run(global: &Global, args: Args, out: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let format = global.require_format(&[Format::Text, Format::Json])?;
    let request = PlayRequest {
        position: position(&args.position, "--position ")?,
        moves: args.moves,
        rules: args.rules.rules(),
    };
    let report = request.run()?;
    if format == Format::Json {
        return print_json(out, &report);
    }
    let text = report::play(&request.position, &request.rules, &report);
    Ok(write!(out, "{text}")?)
}
