//! `augur merge`: several output directories of one exploration (the shards of a split, and
//! the split's own) as one (`explore/merge.rs` does the merging).

use crate::explore::merge::{is_empty_dir, merge, Transfer};
use crate::explore::print_done;
use clap::Args;
use std::path::PathBuf;

/// Options of `augur merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Output directories to merge (of `augur run --split` and `--shard` runs).
    #[arg(required = true)]
    parts: Vec<PathBuf>,
    /// The merged output directory (new, or without tests).
    #[arg(short = 'o', long = "output-dir", required = true)]
    output_dir: PathBuf,
}

/// Run `augur merge`.
pub fn run(a: MergeArgs) -> Result<(), String> {
    let out = &a.output_dir;
    if !is_empty_dir(out) {
        return Err(format!(
            "{}: already holds an augur run (merge into a new directory)",
            out.display()
        ));
    }
    std::fs::create_dir_all(out)
        .map_err(|e| format!("{}: cannot create output directory: {e}", out.display()))?;
    let merged = merge(&a.parts, out, Transfer::Copy)?;
    merged.write(out)?;
    eprintln!(
        "augur: merged {} parts into {}",
        a.parts.len(),
        out.display()
    );
    print_done(&merged.summary, out);
    Ok(())
}
