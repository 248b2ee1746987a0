//! `augur run`: the front door. Checks the options that go together, compiles the
//! program once ([`Setup`]) and hands the exploration to `explore/`: a `--jobs` pool or
//! its worker, else this process.

pub use crate::explore::RunArgs;
use crate::explore::{self, jobs, Setup};

/// Run `augur run`.
pub fn run(a: RunArgs) -> Result<(), String> {
    if a.split.is_some() && a.jobs == 1 && a.shards_dir.is_none() {
        return Err("--split needs --shards-dir DIR (where to write the shard files)".into());
    }
    if a.shards_dir.is_some() && a.split.is_none() && a.jobs == 1 {
        return Err("--shards-dir is for --split or --jobs".into());
    }
    if a.jobs > 1 && a.write_testcomp.is_some() {
        return Err("--write-testcomp works in one process only (not with --jobs)".into());
    }
    let setup = Setup::new(&a)?;
    if a.shard_worker.is_some() {
        jobs::worker(&setup)
    } else if a.jobs > 1 {
        jobs::run(&a, &setup)
    } else {
        explore::in_process(&a, &setup)
    }
}
