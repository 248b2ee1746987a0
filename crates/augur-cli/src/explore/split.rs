//! Splitting an exploration into shards: explore breadth-first until enough states wait,
//! then write each waiting state's fork decisions as a shard file instead of running it.

use super::setup::{summarise, Setup};
use super::shard::{self, Limits, Shard};
use crate::progress::Progress;
use augur_engine::SearchKind;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Explore breadth-first until `n` states wait; write one shard per waiting state into
/// `shards_dir` and the paths that ended before (summary included) into `out`. Returns
/// the shard files (none when the exploration ended, or was stopped, before `n` states
/// waited: then everything is in `out`).
pub fn split(
    setup: &Setup,
    n: u32,
    out: &Path,
    shards_dir: &Path,
    interrupt: Arc<AtomicBool>,
    progress: &Progress,
) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(shards_dir)
        .map_err(|e| format!("{}: cannot create directory: {e}", shards_dir.display()))?;
    let stale = std::fs::read_dir(shards_dir)
        .map_err(|e| format!("{}: {e}", shards_dir.display()))?
        .filter_map(|e| e.ok())
        .any(|e| e.file_name().to_string_lossy().starts_with("shard-"));
    if stale {
        return Err(format!(
            "{}: already holds shard files (split into a new directory)",
            shards_dir.display()
        ));
    }
    let mut opts = setup.opts.clone();
    opts.search = vec![SearchKind::Bfs];
    let limits = Limits::of(&opts);
    let sink = setup.file_sink(out)?;
    let on_disk = sink.on_disk();
    let mut ex = setup.executor(opts, Box::new(sink), interrupt);
    let mut files = Vec::new();
    if ex.run_until_pending(n as usize, &mut |ex| progress.update(ex)) {
        let pending = ex.take_pending();
        let count = pending.len();
        let time_left = limits.max_time.map(|t| (t - ex.elapsed()).max(0.0));
        for (i, st) in pending.iter().enumerate() {
            let shard = Shard {
                augur_shard: shard::FORMAT,
                index: i + 1,
                count,
                program: setup.id.clone(),
                prefix: st.path().to_vec(),
                examples: st.examples().to_vec(),
                limits: Limits {
                    max_time: time_left,
                    tests: shard::share(limits.tests, count),
                    ..limits.clone()
                },
            };
            files.push(shard.write(shards_dir)?);
        }
    }
    // Nothing waits any more, unless the exploration was stopped: those states end here.
    ex.run(&mut |ex| progress.update(ex));
    progress.finish();
    summarise(&ex, &on_disk, out)?;
    Ok(files)
}
