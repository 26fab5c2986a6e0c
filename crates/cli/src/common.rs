//! Options shared by every command (CLI.md): output format and threads,
//! and the mapping of errors to exit codes.

use clap::{Args, ValueEnum};

/// Output formats. `text` is for people; the others for scripts. Not every
/// command offers every format: a command refuses one it does not offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Csv,
    Md,
}

/// Flags accepted by every command.
#[derive(Debug, Args)]
pub struct Global {
    /// Output format (text is for people; json for scripts).
    #[arg(long, global = true, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Worker threads (default: all cores). Results never depend on it.
    #[arg(long, global = true, value_name = "N")]
    pub threads: Option<usize>,
}

impl Global {
    /// Configure rayon's global pool from `--threads`.
    pub fn init_threads(&self) -> anyhow::Result<()> {
        if let Some(n) = self.threads {
            if n == 0 {
                anyhow::bail!("--threads must be at least 1");
            }
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build_global()
                .map_err(|e| anyhow::anyhow!("cannot start {n} threads: {e}"))?;
        }
        Ok(())
    }

    /// Refuse a format the command does not offer.
    pub fn require_format(&self, offered: &[Format]) -> anyhow::Result<Format> {
        if offered.contains(&self.format) {
            Ok(self.format)
        } else {
            let names: Vec<String> = offered
                .iter()
                .map(|f| {
                    f.to_possible_value()
                        .map(|v| v.get_name().to_owned())
                        .unwrap_or_default()
                })
                .collect();
            anyhow::bail!(
                "this command does not offer --format {:?}; choose one of: {}",
                self.format,
                names.join(", ")
            )
        }
    }
}

/// Exit code for an error: 1 when the system failed us (files, I/O), 2 for
/// everything else, which is bad input.
pub fn exit_code(err: &anyhow::Error) -> i32 {
    if err.chain().any(|c| c.is::<std::io::Error>()) {
        1
    } else {
        2
    }
}
