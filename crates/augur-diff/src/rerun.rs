//! Running one differential test on every revision: concretely in the engine (seeded
//! mode on the meta program with the revision fixed, which observes every selected
//! output, function results included) and natively (each revision compiled with the
//! replay runtime, which observes the exit status or crash, standard output and
//! `augur_output` annotations). Revisions are told apart by both.

use crate::extension::DiffPath;
use crate::halts::{Halt, HaltCollector, OutputSelection};
use augur_engine::Byte;
use augur_engine::{escape_bytes, MAX_KEPT_OUTPUT};
use augur_engine::{Executor, SeedInput};
use augur_env::EnvSpec;
use augur_env::{describe, judge, Expect, Verdict};
use augur_env::{NativeProgram, ReplayOptions};
use augur_ir::FuncId;
use serde_json::json;
use std::cell::OnceCell;
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;
use std::time::Duration;

/// What the natively compiled revision did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NativeObservation {
    /// How it ended (`exit 0`, `SIGSEGV`, a sanitizer report ...).
    pub ending: String,
    /// Its standard output (when stdout is a selected output).
    pub stdout: Vec<u8>,
    /// Its `augur_output` annotations (when selected).
    pub outputs: Vec<(String, Vec<u8>)>,
    /// Whether it agrees with the engine's run (exit code or error, standard output).
    pub agrees: bool,
}

/// What one revision did on one test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    /// The engine's run: `exit N`, `error KIND`, or why it did not end.
    pub ending: String,
    /// The engine's selected outputs, concrete.
    pub outputs: Vec<(String, Vec<u8>)>,
    /// The native run, when the revision could be compiled natively.
    pub native: Option<NativeObservation>,
}

/// An output's bytes for people: standard output and error as escaped text, other
/// outputs (function results, annotations) as hexadecimal bytes.
pub fn show_output(name: &str, bytes: &[u8]) -> String {
    if name == "stdout" || name == "stderr" {
        escape_bytes(bytes)
    } else {
        let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
        format!("[{}]", hex.join(" "))
    }
}

/// The observations restricted to the outputs every one of them has: revisions are
/// compared on what they all report (a revision calling an extra observed function is not
/// different for that alone).
pub fn common_view(observed: &[Observation]) -> Vec<Observation> {
    let common = |name: &str| {
        observed
            .iter()
            .all(|o| o.outputs.iter().any(|(n, _)| n == name))
    };
    observed
        .iter()
        .map(|o| Observation {
            outputs: o
                .outputs
                .iter()
                .filter(|(n, _)| common(n))
                .cloned()
                .collect(),
            ..o.clone()
        })
        .collect()
}

impl Observation {
    /// The observation as JSON (bytes as escaped text).
    pub fn to_json(&self) -> serde_json::Value {
        let outputs: serde_json::Map<String, serde_json::Value> = self
            .outputs
            .iter()
            .map(|(n, b)| (n.clone(), json!(show_output(n, b))))
            .collect();
        json!({
            "ending": self.ending,
            "outputs": outputs,
            "native": self.native.as_ref().map(|n| json!({
                "ending": n.ending,
                "stdout": escape_bytes(&n.stdout),
                "outputs": n.outputs.iter().map(|(k, v)| json!({"name": k, "bytes": show_output(k, v)})).collect::<Vec<_>>(),
                "agrees_with_engine": n.agrees,
            })),
        })
    }
}

/// Where every run starts: the entry function, its concrete argv, the symbolic
/// environment.
pub struct Start {
    /// The entry function of the meta program.
    pub entry: FuncId,
    /// argv (argv[0] first).
    pub argv: Vec<String>,
    /// The symbolic environment (`--sym-args`, `--sym-stdin` ...).
    pub spec: EnvSpec,
}

/// A program compiled natively the first time it is run (a run that finds no
/// differential test compiles nothing).
pub struct LazyNative {
    inputs: Vec<PathBuf>,
    cflags: Vec<String>,
    built: OnceCell<Option<NativeProgram>>,
}

impl LazyNative {
    /// The program of `inputs` (C, .bc or .ll), compiled with `cflags` when first needed.
    pub fn new(inputs: Vec<PathBuf>, cflags: Vec<String>) -> Self {
        LazyNative {
            inputs,
            cflags,
            built: OnceCell::new(),
        }
    }

    /// The binary; None (said once) when it does not compile natively.
    fn get(&self) -> Option<&NativeProgram> {
        self.built
            .get_or_init(|| {
                let opts = ReplayOptions {
                    inputs: self.inputs.clone(),
                    tests: Vec::new(),
                    cflags: self.cflags.clone(),
                    libs: Vec::new(),
                    program_args: Vec::new(),
                    timeout: Duration::from_secs(10),
                };
                NativeProgram::build(&opts)
                    .map_err(|e| {
                        let what = self.inputs[0].display();
                        tracing::warn!("{what}: not run natively: {e}")
                    })
                    .ok()
            })
            .as_ref()
    }
}

/// How revisions run natively.
pub enum Natives {
    /// One program per revision.
    PerRevision(Vec<LazyNative>),
    /// A hand-written meta program: one program, the revision chosen by `AUGUR_REVISION`.
    Meta(LazyNative),
}

/// Runs tests on every revision.
pub struct Rerunner {
    ex: Executor,
    halts: Rc<RefCell<Vec<Halt>>>,
    start: Start,
    natives: Natives,
    selected: OutputSelection,
    /// Time limit of one native run.
    pub timeout: Duration,
}

impl Rerunner {
    /// A runner executing tests on `ex` (an executor of the meta program with no limits),
    /// starting as `start`, natively with `natives`.
    pub fn new(
        mut ex: Executor,
        start: Start,
        natives: Natives,
        selected: OutputSelection,
    ) -> Self {
        let collector = HaltCollector::new(selected);
        let halts = collector.halts.clone();
        ex.add_observer(Box::new(collector));
        Rerunner {
            ex,
            halts,
            start,
            natives,
            selected,
            timeout: Duration::from_secs(10),
        }
    }

    /// Run the test `objects` on `revision`.
    pub fn observe(&mut self, objects: &[(String, Vec<u8>)], revision: u32) -> Observation {
        let engine = self.engine(objects, revision);
        let native = self.native(objects, revision, &engine);
        Observation { native, ..engine }
    }

    fn engine(&mut self, objects: &[(String, Vec<u8>)], revision: u32) -> Observation {
        self.halts.borrow_mut().clear();
        let mut st = self.ex.initial_state(Some(SeedInput {
            objects: objects.to_vec(),
        }));
        st.ext_mut().insert(DiffPath {
            revision,
            ..DiffPath::default()
        });
        let s = &self.start;
        augur_env::start(&mut self.ex, st, s.entry, &s.spec, &s.argv);
        self.ex.run(&mut |_| {});
        let Some(halt) = self.halts.borrow_mut().drain(..).next() else {
            return Observation {
                ending: "no end (the run was cut short)".into(),
                outputs: Vec::new(),
                native: None,
            };
        };
        let values = halt.values.clone().unwrap_or_default();
        let concrete = |bytes: &[Byte]| -> Vec<u8> {
            bytes
                .iter()
                .map(|b| match b {
                    Byte::C(c) => *c,
                    Byte::S(e) => self.ex.pool.eval(*e, &values) as u8,
                })
                .collect()
        };
        Observation {
            ending: halt.ending.clone().unwrap_or_default(),
            outputs: halt
                .outputs
                .iter()
                .map(|(n, b)| (n.to_string(), concrete(b)))
                .collect(),
            native: None,
        }
    }

    fn native(
        &self,
        objects: &[(String, Vec<u8>)],
        revision: u32,
        engine: &Observation,
    ) -> Option<NativeObservation> {
        let (program, meta_revision) = match &self.natives {
            Natives::PerRevision(p) => (p.get(revision as usize)?.get()?, None),
            Natives::Meta(p) => (p.get()?, Some(revision)),
        };
        let args = &self.start.argv[1..];
        let run = program
            .run(objects, args, self.timeout, meta_revision)
            .ok()?;
        let stdout = engine
            .outputs
            .iter()
            .find(|(n, _)| n == "stdout")
            // A full prefix may not be the whole output (the engine keeps no more).
            .filter(|(_, b)| b.len() < MAX_KEPT_OUTPUT)
            .map(|(_, b)| escape_bytes(b));
        let expect = match engine.ending.split_once(' ') {
            Some(("exit", code)) => code.parse().ok().map(|code| Expect::Exit {
                code,
                stdout,
                stdout_dropped: 0,
            }),
            Some(("error", kind)) => Some(Expect::Error(kind.to_string())),
            Some(("signal", sig)) => sig.parse().ok().map(Expect::Signal),
            _ => None,
        };
        let agrees = expect.is_some_and(|e| {
            !matches!(
                judge(&e, &run, self.timeout.as_secs_f64()),
                Verdict::Failed(_)
            )
        });
        Some(NativeObservation {
            ending: describe(&run, self.timeout.as_secs_f64()),
            stdout: if self.selected.stdout {
                run.stdout
            } else {
                Vec::new()
            },
            outputs: if self.selected.annotations {
                run.outputs
            } else {
                Vec::new()
            },
            agrees,
        })
    }
}
