//! The time `augur repro` may take (`--max-time`), counted from its start: the builds,
//! the search and the native verification runs share it. The search stops a twentieth of
//! the time before the deadline (leaving that to end its last step and write what it
//! found), native runs are cut at the deadline, and a backstop thread ends the process a
//! twentieth after it, with `repro.json` written from the last snapshot of the findings,
//! should the search not stop (a Z3 call that does not answer its interrupt, a step that
//! does not return): all within the time plus a tenth.

use serde_json::Value as Json;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The start of a `repro` run and the instant it must be done by, if any.
#[derive(Clone, Copy, Debug)]
pub struct Deadline {
    /// When the run started.
    pub start: Instant,
    /// The deadline: the start plus the time limit (None: no limit).
    pub at: Option<Instant>,
}

impl Deadline {
    /// The deadline of a run starting now with the time limit `limit`.
    pub fn starting_now(limit: Option<Duration>) -> Self {
        let start = Instant::now();
        Deadline {
            start,
            at: limit.and_then(|l| start.checked_add(l)),
        }
    }

    /// A twentieth of the time limit (zero without one).
    fn margin(&self) -> Duration {
        self.at.map_or(Duration::ZERO, |at| (at - self.start) / 20)
    }

    /// The time left for the search: until a twentieth of the limit before the deadline
    /// (zero once past; None: no limit).
    pub fn search_time(&self) -> Option<Duration> {
        self.at
            .map(|at| (at - self.margin()).saturating_duration_since(Instant::now()))
    }

    /// Seconds since the start.
    pub fn elapsed_s(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }
}

/// What the backstop writes if it must end the process: the outcome so far.
struct Snapshot {
    json: Json,
    done: bool,
}

/// The backstop of a run with a deadline: holds the latest snapshot of `repro.json`.
pub struct Backstop {
    snapshot: Arc<Mutex<Snapshot>>,
}

impl Backstop {
    /// Start the backstop of `deadline` (none without a limit): a twentieth of the limit
    /// past the deadline, unless [`Backstop::done`] was called, it writes the
    /// snapshot to `out/repro.json`, prints its warnings, says so on stderr and ends the
    /// process with status 1
    /// (not reproduced), removing the scratch directory `work`.
    pub fn start(deadline: &Deadline, out: PathBuf, work: PathBuf) -> Backstop {
        let snapshot = Arc::new(Mutex::new(Snapshot {
            json: serde_json::json!({"status": "not-reproduced"}),
            done: false,
        }));
        let backstop = Backstop { snapshot };
        if let Some(at) = deadline.at {
            let start = deadline.start;
            let fire = at + deadline.margin();
            let shared = backstop.snapshot.clone();
            std::thread::spawn(move || {
                std::thread::sleep(fire.saturating_duration_since(Instant::now()));
                let s = shared.lock().unwrap_or_else(|e| e.into_inner());
                if s.done {
                    return;
                }
                let mut json = s.json.clone();
                if let Some(o) = json.as_object_mut() {
                    o.insert("time_s".into(), start.elapsed().as_secs_f64().into());
                    o.insert(
                        "stopped".into(),
                        "the search did not stop at the time limit: ended by the backstop".into(),
                    );
                }
                // What the command line would have said first.
                for w in json["warnings"].as_array().into_iter().flatten() {
                    eprintln!("augur: warning: {}", w.as_str().unwrap_or_default());
                }
                let path = out.join("repro.json");
                let written = serde_json::to_vec_pretty(&json)
                    .map_err(|e| e.to_string())
                    .and_then(|b| std::fs::write(&path, b).map_err(|e| e.to_string()));
                match written {
                    Ok(()) => eprintln!(
                        "augur: not reproduced: the search did not stop at the time limit; {} written",
                        path.display()
                    ),
                    Err(e) => eprintln!("augur: error: {}: {e}", path.display()),
                }
                let _ = std::fs::remove_dir_all(&work);
                // _exit: no atexit handlers or static destructors (Z3's) while the main
                // thread is still inside the solver.
                unsafe { libc::_exit(1) }
            });
        }
        backstop
    }

    /// Keep `json` as the outcome to write if the backstop fires.
    pub fn update(&self, json: Json) {
        self.snapshot.lock().unwrap_or_else(|e| e.into_inner()).json = json;
    }

    /// The run is over: the backstop does nothing any more.
    pub fn done(&self) {
        self.snapshot.lock().unwrap_or_else(|e| e.into_inner()).done = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search has the limit less a twentieth; without a limit, no deadline.
    #[test]
    fn search_time_leaves_a_twentieth() {
        let d = Deadline::starting_now(Some(Duration::from_secs(20)));
        let t = d.search_time().unwrap();
        assert!(
            t <= Duration::from_secs(19) && t > Duration::from_secs(18),
            "{t:?}"
        );
        assert_eq!(d.margin(), Duration::from_secs(1));
        assert!(Deadline::starting_now(None).search_time().is_none());
    }
}
