//! Run counters and coverage.

use crate::outcome::{ErrorKind, PathError};
use augur_ir::{FileId, LocId, Program};
use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;

/// Counters of a run.
#[derive(Clone, Debug, Default)]
pub struct RunStats {
    /// Instructions executed over all paths.
    pub instructions: u64,
    /// Paths that ran to their end (exit or error).
    pub paths_completed: u64,
    /// Paths stopped by a limit.
    pub paths_partial: u64,
    /// Partial paths left without a test (the write-out budget at a stop ran out).
    pub partial_without_test: u64,
    /// Paths dropped as infeasible.
    pub paths_dropped: u64,
    /// Tests written.
    pub tests: u64,
    /// Ended paths whose test was not written (they covered no new code; see
    /// [`crate::TestPolicy`]).
    pub tests_not_written: u64,
    /// Forks.
    pub forks: u64,
    /// Forks not taken because of --max-depth or --max-forks.
    pub forks_suppressed: u64,
    /// Symbolic values pinned to one concrete value.
    pub concretizations: u64,
    /// Symbolic floating-point operands made concrete.
    pub float_concretizations: u64,
    /// Distinct errors (kind + location), in order found.
    pub errors: Vec<ErrorSummary>,
    /// Wall time of the run in seconds.
    pub time_s: f64,
    /// Why the run's path prefix (`Options::path_prefix`) does not fit the program, if it
    /// does not: the prefix names an infeasible case, or a path ended within it.
    pub prefix_diverged: Option<String>,
    seen_errors: FxHashSet<(ErrorKind, String, u32)>,
}

/// One distinct error of a run.
#[derive(Clone, Debug, Serialize)]
pub struct ErrorSummary {
    /// Kind name.
    pub kind: &'static str,
    /// Source file.
    pub file: String,
    /// Source line.
    pub line: u32,
    /// Message.
    pub message: String,
    /// Number of the test that reproduces it.
    pub test: u64,
}

impl RunStats {
    /// Whether an error of this kind at this place was already found.
    pub fn knows_error(&self, e: &PathError) -> bool {
        self.seen_errors.contains(&(e.kind, e.file.clone(), e.line))
    }

    /// Note an error found by the test just written (number `self.tests`).
    pub fn record_error(&mut self, e: &PathError) {
        if self.seen_errors.insert((e.kind, e.file.clone(), e.line)) {
            self.errors.push(ErrorSummary {
                kind: e.kind.name(),
                file: e.file.clone(),
                line: e.line,
                message: e.message.clone(),
                test: self.tests,
            });
        }
    }
}

/// Is this a source file of the user's program (not augur's runtime nor a system header)?
pub fn is_user_file(path: &str) -> bool {
    !path.contains("augur-runtime") && !path.starts_with("/usr/")
}

/// Instruction and line coverage over the user's own source.
pub struct Coverage {
    covered: Vec<Vec<bool>>,
    user_files: Vec<bool>,
    lines_total: FxHashSet<(FileId, u32)>,
    lines_covered: FxHashSet<(FileId, u32)>,
    /// Incremented whenever a new instruction is covered.
    pub generation: u64,
}

impl Coverage {
    /// Coverage tables for a program.
    pub fn new(prog: &Program) -> Self {
        let user_files: Vec<bool> = prog.files.iter().map(|f| is_user_file(f)).collect();
        let mut lines_total = FxHashSet::default();
        for f in &prog.functions {
            for l in &f.locs {
                if let Some(s) = prog.loc(*l) {
                    if user_files[s.file.0 as usize] {
                        lines_total.insert((s.file, s.line));
                    }
                }
            }
        }
        Coverage {
            covered: prog
                .functions
                .iter()
                .map(|f| vec![false; f.insts.len()])
                .collect(),
            user_files,
            lines_total,
            lines_covered: FxHashSet::default(),
            generation: 0,
        }
    }

    /// Mark an instruction executed; true if it was new.
    #[inline]
    pub fn cover(&mut self, prog: &Program, func: u32, pc: u32) -> bool {
        let slot = &mut self.covered[func as usize][pc as usize];
        if *slot {
            return false;
        }
        *slot = true;
        self.generation += 1;
        if let Some(s) = prog.loc(prog.functions[func as usize].locs[pc as usize]) {
            if self.user_files[s.file.0 as usize] {
                self.lines_covered.insert((s.file, s.line));
            }
        }
        true
    }

    /// Is the location in the user's own source?
    pub fn is_user_loc(&self, prog: &Program, l: LocId) -> bool {
        prog.loc(l)
            .is_some_and(|s| self.user_files[s.file.0 as usize])
    }

    /// (lines covered, lines total) over the user's source.
    pub fn line_counts(&self) -> (usize, usize) {
        (self.lines_covered.len(), self.lines_total.len())
    }

    /// Per user file: every line with code and whether it was covered (for lcov).
    pub fn lines_by_file(&self, prog: &Program) -> Vec<(String, Vec<(u32, bool)>)> {
        let mut by_file: FxHashMap<FileId, Vec<(u32, bool)>> = FxHashMap::default();
        for &(f, l) in &self.lines_total {
            by_file
                .entry(f)
                .or_default()
                .push((l, self.lines_covered.contains(&(f, l))));
        }
        let mut out: Vec<(String, Vec<(u32, bool)>)> = by_file
            .into_iter()
            .map(|(f, mut v)| {
                v.sort_unstable();
                (prog.file(f).to_string(), v)
            })
            .collect();
        out.sort();
        out
    }
}

/// Memory this process's own data holds, in MiB: with glibc, the heap bytes in use
/// (`mallinfo2`), which drop as soon as states are freed; elsewhere the resident set.
pub fn memory_in_use_mib() -> u64 {
    heap_in_use_bytes().map_or_else(|| proc_status_kib("VmRSS:") / 1024, |b| b >> 20)
}

/// Give freed heap memory back to the system, so that the resident set follows.
pub fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim has no preconditions.
    unsafe {
        glibc::malloc_trim(0);
    }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn heap_in_use_bytes() -> Option<u64> {
    // SAFETY: mallinfo2 only reads the allocator's statistics.
    let info = unsafe { glibc::mallinfo2() };
    Some((info.uordblks + info.hblkhd) as u64)
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn heap_in_use_bytes() -> Option<u64> {
    None
}

/// glibc's allocator statistics (`<malloc.h>`).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod glibc {
    /// `struct mallinfo2`: every field a `size_t`.
    #[repr(C)]
    pub struct MallInfo2 {
        pub arena: usize,
        pub ordblks: usize,
        pub smblks: usize,
        pub hblks: usize,
        /// Bytes in blocks mapped on their own (large allocations).
        pub hblkhd: usize,
        pub usmblks: usize,
        pub fsmblks: usize,
        /// Bytes allocated from the heap and in use.
        pub uordblks: usize,
        pub fordblks: usize,
        pub keepcost: usize,
    }

    extern "C" {
        pub fn mallinfo2() -> MallInfo2;
        pub fn malloc_trim(pad: usize) -> i32;
    }
}

/// Peak resident memory of this process in MiB.
pub fn peak_rss_mib() -> u64 {
    proc_status_kib("VmHWM:") / 1024
}

fn proc_status_kib(key: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(key))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}
