//! Run options: limits, search strategy, treatment of external functions.

use std::time::Duration;

/// Which searcher picks the next state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchKind {
    /// Depth-first.
    Dfs,
    /// Breadth-first.
    Bfs,
    /// Random path through the fork tree (each fork halves a state's chance).
    RandomPath,
    /// Prefer states that recently covered new code.
    CovNew,
    /// Prefer states closest to a chain of goals (outermost first).
    Directed(Vec<crate::directed::Goal>),
}

impl SearchKind {
    /// Parse a searcher name as given on the command line (`directed:FILE:LINE` for the
    /// directed searcher).
    pub fn parse(s: &str) -> Option<SearchKind> {
        Some(match s {
            "dfs" => SearchKind::Dfs,
            "bfs" => SearchKind::Bfs,
            "random-path" => SearchKind::RandomPath,
            "covnew" => SearchKind::CovNew,
            _ => SearchKind::Directed(vec![crate::directed::Goal::parse(
                s.strip_prefix("directed:")?,
            )?]),
        })
    }
}

/// What a call of an external function with no body and no model does.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ExternalPolicy {
    /// End the path with an `unmodeled-external` error.
    Error,
    /// Return a fresh symbolic value.
    Havoc,
}

/// Which ended paths get a test (KLEE's `--only-output-states-covering-new`). A path with
/// an error of a kind and place not seen before always gets one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TestPolicy {
    /// Every path.
    All,
    /// Only paths that covered an instruction no earlier path had, since their last fork.
    CoveringNew,
    /// Every path for the first N tests, then only paths covering new code.
    CoveringNewAfter(u64),
}

/// Limits and choices for one run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Searchers, interleaved in this order.
    pub search: Vec<SearchKind>,
    /// Wall-clock limit.
    pub max_time: Option<Duration>,
    /// Total instructions over all paths.
    pub max_instructions: Option<u64>,
    /// Total forks.
    pub max_forks: Option<u64>,
    /// Forks on one path.
    pub max_depth: Option<u32>,
    /// Memory limit in MiB: over it no path forks and states chosen at random are stopped
    /// as partial paths.
    pub max_memory_mib: Option<u64>,
    /// The solver chain: its layers, the timeout of each Z3 call, query log, cross-check.
    pub solver: augur_solver::SolverConfig,
    /// Seed of every random choice.
    pub seed: u64,
    /// External functions.
    pub externals: ExternalPolicy,
    /// Byte size of the buffer behind each pointer argument of a non-main entry.
    pub ptr_size: u64,
    /// Which ended paths get a test.
    pub tests: TestPolicy,
    /// Instructions a state runs before the searcher chooses again.
    pub batch: u64,
    /// Pin a symbolic pointer to its invalid example value on an out-of-bounds error path
    /// (the test then reproduces that very access). Off, a path whose condition already
    /// implies the error keeps every input that makes it (for comparing paths' conditions).
    pub pin_invalid_pointers: bool,
    /// Distinct exit codes one path may fork into when its exit code is symbolic; 1 makes
    /// the code concrete (as KLEE does).
    pub exit_codes: u32,
    /// Explore only the paths whose first fork decisions are these (a shard's prefix: the
    /// case index taken at each fork with more than one feasible case; see
    /// [`crate::ForkPath`]). Empty: every path.
    pub path_prefix: Vec<u32>,
    /// The example values of the paths of the prefix, in the order the path asked for
    /// them (see [`crate::Trail`]): the first ones any path asks for are these.
    pub path_examples: Vec<u128>,
    /// Floating point (binary32, binary64) on symbolic operands stays symbolic, for the
    /// solver's floating-point theory; off, such operands are made concrete first.
    pub symbolic_floats: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            search: vec![SearchKind::RandomPath, SearchKind::CovNew],
            max_time: None,
            max_instructions: None,
            max_forks: None,
            max_depth: None,
            max_memory_mib: None,
            solver: augur_solver::SolverConfig::with_timeout(Some(Duration::from_secs(10))),
            seed: 0,
            externals: ExternalPolicy::Error,
            ptr_size: 16,
            tests: TestPolicy::All,
            batch: 10_000,
            pin_invalid_pointers: true,
            exit_codes: 1,
            path_prefix: Vec::new(),
            path_examples: Vec::new(),
            symbolic_floats: true,
        }
    }
}
