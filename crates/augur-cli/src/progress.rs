//! The progress bar shown while a run explores (only on a terminal).

use augur_engine::Executor;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// A spinner line with paths, tests, errors, coverage and time.
pub struct Progress(Option<ProgressBar>);

impl Progress {
    /// A progress display on stderr when it is a terminal, else nothing.
    pub fn new() -> Self {
        if !std::io::stderr().is_terminal() {
            return Progress(None);
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}")
                .expect("valid template"),
        );
        Progress(Some(bar))
    }

    /// No progress display (for a process whose stderr is another's).
    pub fn hidden() -> Self {
        Progress(None)
    }

    /// Refresh from the executor's counters.
    pub fn update(&self, ex: &Executor) {
        if let Some(bar) = &self.0 {
            let s = &ex.stats;
            let (cov, total) = ex.coverage.line_counts();
            bar.set_message(format!(
                "paths {} (+{} partial) | live {} | tests {} | errors {} | lines {cov}/{total} | instr {}",
                s.paths_completed,
                s.paths_partial,
                ex.live_states(),
                s.tests,
                s.errors.len(),
                s.instructions
            ));
            bar.tick();
        }
    }

    /// Show a message of another phase (e.g. pairing paths in `augur diff`).
    pub fn message(&self, msg: String) {
        if let Some(bar) = &self.0 {
            bar.set_message(msg);
            bar.tick();
        }
    }

    /// Remove the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

/// Drivers report through the bar: their messages, and an executor's counters.
impl augur_engine::Progress for Progress {
    fn message(&self, msg: &str) {
        Progress::message(self, msg.to_string());
    }
    fn exploring(&self, ex: &Executor) {
        self.update(ex);
    }
}
