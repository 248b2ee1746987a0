//! Shard files: "program + path prefix + limits", the unit of work of a run spread over
//! processes or machines. `augur run --split N` writes them; `augur run --shard FILE` runs
//! the paths under one prefix.

use crate::session::ExploreArgs;
use augur_engine::{Options, TestPolicy};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// Version of the shard file format.
pub const FORMAT: u32 = 1;

/// One shard: the paths of a program whose first fork decisions are `prefix`.
#[derive(Serialize, Deserialize, Debug)]
pub struct Shard {
    /// Format version ([`FORMAT`]).
    pub augur_shard: u32,
    /// Number of this shard (from 1) among `count`.
    pub index: usize,
    /// Number of shards of the split.
    pub count: usize,
    /// What was explored: the prefix means these paths only for the same program.
    pub program: ProgramId,
    /// Case index taken at each fork with more than one feasible case, oldest first.
    pub prefix: Vec<u32>,
    /// The example values the solver gave the path, in order (forks on them must see the
    /// same ones).
    pub examples: Vec<u128>,
    /// Limits for this shard (an option on the command line of the shard's run wins).
    pub limits: Limits,
}

/// The program and the options shaping its tree of paths.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct ProgramId {
    /// Each input file: its name and the SHA-256 of its contents.
    pub inputs: Vec<InputId>,
    /// The options that shape the path tree (`ExploreArgs::tree_args`).
    pub options: Vec<String>,
    /// Concrete program arguments (after `--`).
    pub args: Vec<String>,
}

/// An input file by name and contents.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct InputId {
    /// File name (without its directory: shards move between machines).
    pub name: String,
    /// SHA-256 of its contents, in hex.
    pub sha256: String,
}

/// A shard's limits.
#[derive(Serialize, Deserialize, Debug, Clone, Default)]
pub struct Limits {
    /// Seconds (the time the whole run had left when it was split).
    pub max_time: Option<f64>,
    /// Instructions.
    pub max_instructions: Option<u64>,
    /// Forks.
    pub max_forks: Option<u64>,
    /// Forks on one path.
    pub max_depth: Option<u32>,
    /// Which paths get a test.
    pub tests: Tests,
}

/// [`TestPolicy`] in a shard file.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, Default, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Tests {
    /// Every path.
    #[default]
    All,
    /// Only paths covering new code.
    CoveringNew,
    /// Every path for the first N tests, then only paths covering new code.
    CoveringNewAfter(u64),
}

impl From<TestPolicy> for Tests {
    fn from(p: TestPolicy) -> Tests {
        match p {
            TestPolicy::All => Tests::All,
            TestPolicy::CoveringNew => Tests::CoveringNew,
            TestPolicy::CoveringNewAfter(n) => Tests::CoveringNewAfter(n),
        }
    }
}

impl From<Tests> for TestPolicy {
    fn from(t: Tests) -> TestPolicy {
        match t {
            Tests::All => TestPolicy::All,
            Tests::CoveringNew => TestPolicy::CoveringNew,
            Tests::CoveringNewAfter(n) => TestPolicy::CoveringNewAfter(n),
        }
    }
}

impl ProgramId {
    /// The identity of `inputs` explored with `explore` and `args`.
    pub fn of(inputs: &[PathBuf], explore: &ExploreArgs, args: &[String]) -> Result<Self, String> {
        let inputs = inputs
            .iter()
            .map(|p| {
                let bytes = std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
                Ok(InputId {
                    name: p
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                    sha256: sha256_hex(&bytes),
                })
            })
            .collect::<Result<_, String>>()?;
        Ok(ProgramId {
            inputs,
            options: explore.tree_args(),
            args: args.to_vec(),
        })
    }

    /// Why `self` (of a shard) is not `here` (of this run), if it is not.
    fn mismatch(&self, here: &ProgramId) -> Option<String> {
        let files = |p: &ProgramId| -> String {
            let names: Vec<String> = p
                .inputs
                .iter()
                .map(|i| format!("{} (sha256 {:.12})", i.name, i.sha256))
                .collect();
            names.join(", ")
        };
        if self.inputs != here.inputs {
            Some(format!(
                "it was split from {}, not {}",
                files(self),
                files(here)
            ))
        } else if self.options != here.options {
            Some(format!(
                "it was split with the options `{}`, this run has `{}` (give the same)",
                self.options.join(" "),
                here.options.join(" ")
            ))
        } else if self.args != here.args {
            Some(format!(
                "it was split with the program arguments `{}`, this run has `{}`",
                self.args.join(" "),
                here.args.join(" ")
            ))
        } else {
            None
        }
    }
}

impl Limits {
    /// The limits of `opts` (the run being split), and its test policy.
    pub fn of(opts: &Options) -> Self {
        Limits {
            max_time: opts.max_time.map(|t| t.as_secs_f64()),
            max_instructions: opts.max_instructions,
            max_forks: opts.max_forks,
            max_depth: opts.max_depth,
            tests: opts.tests.into(),
        }
    }

    /// Fill the limits `opts` (from the command line) does not set; `tests_given` says
    /// whether the command line chose the test policy.
    pub fn apply(&self, opts: &mut Options, tests_given: bool) {
        opts.max_time = opts
            .max_time
            .or(self.max_time.map(std::time::Duration::from_secs_f64));
        opts.max_instructions = opts.max_instructions.or(self.max_instructions);
        opts.max_forks = opts.max_forks.or(self.max_forks);
        opts.max_depth = opts.max_depth.or(self.max_depth);
        if !tests_given {
            opts.tests = self.tests.into();
        }
    }
}

impl Shard {
    /// Read a shard file and check that it belongs to `here`.
    pub fn load(path: &Path, here: &ProgramId) -> Result<Shard, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let shard: Shard = serde_json::from_slice(&bytes)
            .map_err(|e| format!("{}: not an augur shard file: {e}", path.display()))?;
        if shard.augur_shard != FORMAT {
            return Err(format!(
                "{}: shard format {} (this augur reads format {FORMAT})",
                path.display(),
                shard.augur_shard
            ));
        }
        if let Some(why) = shard.program.mismatch(here) {
            return Err(format!(
                "{}: shard of another exploration: {why}",
                path.display()
            ));
        }
        Ok(shard)
    }

    /// Write this shard as `dir/shard-NNNN.json`; returns the path.
    pub fn write(&self, dir: &Path) -> Result<PathBuf, String> {
        let path = dir.join(format!("shard-{:04}.json", self.index));
        let json = serde_json::to_vec_pretty(self).expect("shard serialises");
        augur_engine::write_file(&path, &json)
            .map_err(|e| format!("{}: cannot write shard: {e}", path.display()))?;
        Ok(path)
    }
}

/// The SHA-256 of `bytes`, in hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A test policy's share for one of `shards` shards: the threshold of
/// "every path for the first N tests" is divided evenly, so all shards together write
/// about as many tests as one run.
pub fn share(tests: Tests, shards: usize) -> Tests {
    match tests {
        Tests::CoveringNewAfter(n) => Tests::CoveringNewAfter(n.div_ceil(shards.max(1) as u64)),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_test_threshold_is_shared_out() {
        assert_eq!(
            share(Tests::CoveringNewAfter(1000), 16),
            Tests::CoveringNewAfter(63)
        );
        assert_eq!(share(Tests::All, 16), Tests::All);
    }

    #[test]
    fn limits_on_the_command_line_win() {
        let limits = Limits {
            max_time: Some(5.0),
            max_depth: Some(3),
            tests: Tests::CoveringNew,
            ..Limits::default()
        };
        let mut opts = Options {
            max_depth: Some(7),
            ..Options::default()
        };
        limits.apply(&mut opts, false);
        assert_eq!(opts.max_depth, Some(7));
        assert_eq!(opts.max_time, Some(std::time::Duration::from_secs(5)));
        assert_eq!(opts.tests, TestPolicy::CoveringNew);
    }
}
