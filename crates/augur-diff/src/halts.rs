//! Halted paths: an observer keeps, for every path that ends (exit or error), what
//! `augur diff` compares between revisions: the revision, the path condition, the inputs,
//! and the outputs selected with `--outputs`.

use crate::extension::{DiffPath, OutputKind};
use augur_engine::Byte;
use augur_engine::{Observer, Outcome, State};
use augur_expr::{ArrayId, Assignment, ExprId};
use std::cell::RefCell;
use std::rc::Rc;

/// Which symbolic outputs are compared (`--outputs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutputSelection {
    /// `augur_output(name, ptr, size)` annotations.
    pub annotations: bool,
    /// Bytes written to standard output and standard error.
    pub stdout: bool,
    /// The exit code, or the kind of error the path ends in.
    pub exit: bool,
    /// Return values and pointer arguments' pointees of the changed files' functions.
    pub returns: bool,
}

impl OutputSelection {
    /// Every kind of output.
    pub const ALL: OutputSelection = OutputSelection {
        annotations: true,
        stdout: true,
        exit: true,
        returns: true,
    };

    /// Parse a comma-separated list of `annotations`, `stdout`, `exit`, `returns`, `all`.
    pub fn parse(list: &str) -> Result<OutputSelection, String> {
        let mut s = OutputSelection {
            annotations: false,
            stdout: false,
            exit: false,
            returns: false,
        };
        for item in list.split(',').map(str::trim) {
            match item {
                "annotations" => s.annotations = true,
                "stdout" => s.stdout = true,
                "exit" => s.exit = true,
                "returns" => s.returns = true,
                "all" => s = OutputSelection::ALL,
                other => {
                    return Err(format!(
                        "--outputs: unknown output kind `{other}` (annotations, stdout, exit, \
                         returns, all)"
                    ))
                }
            }
        }
        Ok(s)
    }

    fn keeps(&self, kind: OutputKind) -> bool {
        match kind {
            OutputKind::Annotation => self.annotations,
            OutputKind::Function => self.returns,
        }
    }
}

/// How a path ended, as compared between revisions: `exit N`, `signal N` or `error KIND`.
pub fn ending(outcome: &Outcome) -> Option<String> {
    match outcome {
        Outcome::Exit(code) => Some(format!("exit {code}")),
        Outcome::Signal(sig) => Some(format!("signal {sig}")),
        Outcome::Error(e) => Some(format!("error {}", e.kind.name())),
        Outcome::Partial(_) | Outcome::Dropped => None,
    }
}

/// What a halted path left for comparison.
#[derive(Clone, Debug)]
pub struct Halt {
    /// Its revision.
    pub revision: u32,
    /// Its path condition.
    pub constraints: Vec<ExprId>,
    /// Its symbolic inputs in creation order: (name, array, size).
    pub inputs: Vec<(String, ArrayId, u64)>,
    /// `exit N` or `error KIND` (None when exits are not compared).
    pub ending: Option<String>,
    /// The selected outputs by name (`stdout`, `stderr`, annotations, `f:ret` ...).
    pub outputs: Vec<(Rc<str>, Vec<Byte>)>,
    /// In seeded mode, the input's values (every output evaluates to a constant under them).
    pub values: Option<Assignment>,
}

impl Halt {
    /// The halted path `st` that ended with `outcome`, keeping the `selected` outputs;
    /// None for paths that did not halt (stopped by a limit, infeasible).
    pub fn of(st: &State, outcome: &Outcome, selected: OutputSelection) -> Option<Halt> {
        let end = ending(outcome)?;
        let mut outputs: Vec<(Rc<str>, Vec<Byte>)> = Vec::new();
        if selected.stdout {
            outputs.push(("stdout".into(), st.stdout().kept().to_vec()));
            outputs.push(("stderr".into(), st.stderr().kept().to_vec()));
        }
        outputs.extend(
            DiffPath::outputs_of(st)
                .iter()
                .filter(|o| selected.keeps(o.kind))
                .map(|o| (o.name.clone(), o.bytes.clone())),
        );
        Some(Halt {
            revision: DiffPath::revision_of(st),
            constraints: st.constraints().to_vec(),
            inputs: st
                .symbolics()
                .iter()
                .map(|s| (s.name.clone(), s.array, s.size))
                .collect(),
            ending: selected.exit.then_some(end),
            outputs,
            values: st.seed().is_some().then(|| st.seed_values().clone()),
        })
    }
}

/// An observer collecting the halted paths of a run into a shared list.
pub struct HaltCollector {
    /// The halted paths, in the order they ended.
    pub halts: Rc<RefCell<Vec<Halt>>>,
    selected: OutputSelection,
}

impl HaltCollector {
    /// A collector keeping the `selected` outputs.
    pub fn new(selected: OutputSelection) -> Self {
        HaltCollector {
            halts: Rc::default(),
            selected,
        }
    }
}

impl Observer for HaltCollector {
    fn on_terminate(&mut self, st: &State, outcome: &Outcome) {
        if let Some(h) = Halt::of(st, outcome, self.selected) {
            self.halts.borrow_mut().push(h);
        }
    }
}
