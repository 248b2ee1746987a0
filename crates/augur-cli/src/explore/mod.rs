//! The exploration behind `augur run`: in one process ([`in_process`]: all paths, one
//! shard, or a split), or spread over processes (`jobs.rs`), with the shard files
//! (`shard.rs`), the split (`split.rs`) and the merging of outputs (`merge.rs`), over
//! what every exploration shares (`setup.rs`) and its closing lines (`done.rs`). Below
//! `run.rs` (the front door), above the engine; within, each file uses only files below
//! it (jobs -> split -> setup -> shard; done and merge use none).

mod done;
pub mod jobs;
pub mod merge;
mod setup;
mod shard;
mod split;

pub use done::print_done;
pub use setup::{RunArgs, Setup};

use crate::progress::Progress;
use crate::session;
use augur_engine::{summary_json, TestSink};
use done::read_json;
use setup::summarise;

/// Explore in this process: every path, the paths of `--shard`, or (`--split`) until
/// enough states wait, written as shard files.
pub fn in_process(a: &RunArgs, setup: &Setup) -> Result<(), String> {
    let out = augur_engine::prepare_output_dir(a.output_dir.as_deref())?;
    let interrupt = session::ctrl_c_flag();
    let progress = Progress::new();
    if let (Some(n), Some(dir)) = (a.split, &a.shards_dir) {
        let shards = split::split(setup, n, &out, dir, interrupt, &progress)?;
        print_done(&read_json(&out.join("summary.json"))?, &out);
        eprintln!(
            "augur: wrote {} shards into {}",
            shards.len(),
            dir.display()
        );
        return Ok(());
    }
    let ex = match &a.shard {
        Some(file) => setup.run_shard(setup.opts.clone(), file, &out, interrupt, &progress)?,
        None => {
            let files = setup.file_sink(&out)?;
            let on_disk = files.on_disk();
            let mut sink: Box<dyn TestSink> = Box::new(files);
            if let Some(dir) = &a.write_testcomp {
                sink = testcomp_sink(dir, &a.inputs[0], &a.explore.entry, sink)?;
            }
            let mut ex = setup.executor(setup.opts.clone(), sink, interrupt);
            ex.run(&mut |ex| progress.update(ex));
            progress.finish();
            summarise(&ex, &on_disk, &out)?;
            ex
        }
    };
    print_done(&summary_json(&ex), &out);
    Ok(())
}

/// A sink also writing Test-Comp XML tests into `dir`.
fn testcomp_sink(
    dir: &std::path::Path,
    program: &std::path::Path,
    entry: &str,
    next: Box<dyn TestSink>,
) -> Result<Box<dyn TestSink>, String> {
    let source = std::fs::read(program).map_err(|e| format!("{}: {e}", program.display()))?;
    let hash = shard::sha256_hex(&source);
    let name = program
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let meta = augur_engine::metadata_xml(&name, &hash, entry);
    let sink = augur_engine::TestCompSink::new(dir, &meta, next)
        .map_err(|e| format!("{}: cannot write Test-Comp tests: {e}", dir.display()))?;
    Ok(Box::new(sink))
}
