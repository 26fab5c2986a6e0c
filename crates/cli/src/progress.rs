//! Progress bars on stderr, shared by the commands of both games and by
//! `reproduce`. indicatif draws on stderr only when it is a terminal, so a
//! bar made here costs nothing in a pipe or a log; every bar is removed when
//! dropped, so an early return or an error leaves no bar behind.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Whether stderr is a terminal (bars are drawn only then).
pub fn on_terminal() -> bool {
    std::io::stderr().is_terminal()
}

/// A bar on stderr, removed when dropped.
#[derive(Debug)]
pub struct Bar(pub ProgressBar);

impl Bar {
    /// A bar of `len` items drawn with `template` (`{bar:30}` style).
    pub fn new(len: u64, template: &str) -> Bar {
        let b = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
        b.set_style(
            ProgressStyle::with_template(template)
                .expect("valid template")
                .progress_chars("=> "),
        );
        Bar(b)
    }

    /// A bar counting items of a long job (boards, searches, decisions).
    pub fn count(len: u64, prefix: &str) -> Bar {
        let b = Bar::new(
            len,
            "{prefix} [{bar:30}] {pos}/{len} {elapsed_precise} {msg}",
        );
        b.0.set_prefix(prefix.to_owned());
        b
    }

    /// A bar of the games of a match.
    pub fn games(games: u64, label: &str) -> Bar {
        let b = Bar::new(games, "{msg} {bar:40} {pos}/{len} games, eta {eta}");
        b.0.set_message(label.to_owned());
        b
    }

    /// `done` of `total` items.
    pub fn at(&self, done: usize, total: usize) {
        self.0.set_length(total as u64);
        self.0.set_position(done as u64);
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}
