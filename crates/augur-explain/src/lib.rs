//! augur-explain: root-cause a failing input against a reference ("golden") program
//! (Banerjee et al., golden implementation driven software debugging).
//!
//! Both programs run on the same input in seeded mode while a [`trace::Tracer`]
//! records every instruction; [`deps`] turns a trace into a dynamic dependence graph;
//! [`criterion`] finds where the runs' behaviour differs; [`slice`] and [`wp`] compute
//! the weakest precondition of that observation along the backward dynamic slice;
//! [`compare`] keeps the conjuncts the other program does not explain; [`lockstep`]
//! walks both runs' data dependences together (through memory, into deciding branches)
//! to the instructions where the values part, from the criterion and from each
//! unexplained branch ([`pairing`]); [`rank`] weighs all these findings' lines into
//! places (with [`versions`] and [`macros`]) and cuts the report to the strongest few;
//! [`traced`] runs one program while tracing it; [`report`] writes the result; [`driver`]
//! runs it all (both recordings, then [`explain`]). The modules are private; what the
//! command line uses is re-exported here.

#![warn(missing_docs)]

mod align;
mod compare;
mod criterion;
mod deps;
mod difference;
mod driver;
mod import;
mod lockstep;
mod macros;
mod pairing;
mod printf;
mod rank;
mod reads;
mod report;
mod show;
mod slice;
mod trace;
mod traced;
mod versions;
mod wp;

pub use difference::Difference;
pub use driver::{driver, Config, Outcome};
pub use report::{Figures, Report};

use augur_engine::Byte;
use augur_expr::ExprPool;
use augur_ir::Program;
use criterion::Observation;
use deps::{Graph, Probe};
use std::rc::Rc;
use trace::{End, Trace};

/// Which of the two programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// The reference implementation.
    Golden,
    /// The program being debugged.
    Buggy,
}

impl Which {
    /// "golden" or "buggy".
    pub fn name(self) -> &'static str {
        match self {
            Which::Golden => "golden",
            Which::Buggy => "buggy",
        }
    }
}

/// A line of the user's source.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SrcLine {
    /// The file, as the compiler recorded it.
    pub file: String,
    /// 1-based line.
    pub line: u32,
}

/// One finished, recorded run and its dependence graph.
pub struct Execution {
    /// The program.
    pub prog: Rc<Program>,
    /// The pool holding the run's expressions.
    pub pool: ExprPool,
    /// The instruction trace.
    pub trace: Trace,
    /// How it ended.
    pub end: End,
    /// Its dynamic dependence graph.
    pub graph: Graph,
    /// Standard output, concretely.
    pub stdout: Vec<u8>,
    /// The working directory, to show source paths relative to it.
    cwd: Option<std::path::PathBuf>,
}

impl Execution {
    /// Analyse the recorded run of `prog` (`name` names it in messages).
    pub fn new(
        name: &str,
        prog: Rc<Program>,
        pool: ExprPool,
        mut trace: Trace,
    ) -> Result<Self, String> {
        let end = trace
            .end
            .take()
            .ok_or_else(|| format!("{name}: the run did not end"))?;
        match &end.outcome {
            augur_engine::Outcome::Partial(reason) => {
                return Err(format!("{name}: the run stopped before its end: {reason}"))
            }
            augur_engine::Outcome::Dropped => {
                return Err(format!(
                    "{name}: the input does not satisfy the program's assumptions"
                ))
            }
            augur_engine::Outcome::Exit(_)
            | augur_engine::Outcome::Signal(_)
            | augur_engine::Outcome::Error(_) => {}
        }
        if trace.entries.is_empty() {
            return Err(format!("{name}: no instruction was executed"));
        }
        let stdout = end
            .stdout
            .iter()
            .map(|b| match b {
                Byte::C(c) => *c,
                Byte::S(e) => pool.eval(*e, &end.seed_values) as u8,
            })
            .collect();
        let probes: Vec<Probe> = trace
            .snapshot
            .iter()
            .map(|s| Probe {
                entry: s.entry,
                addr: s.addr,
                size: s.bytes.len() as u64,
            })
            .collect();
        let graph = Graph::build(&prog, &pool, &end.seed_values, &trace, &probes);
        Ok(Execution {
            prog,
            pool,
            trace,
            end,
            graph,
            stdout,
            cwd: std::env::current_dir().ok(),
        })
    }

    /// The user's source line of trace entry `i`, if it has one (the file relative to
    /// the current directory when it is below it).
    pub fn line(&self, i: u32) -> Option<SrcLine> {
        let l = self.prog.loc(self.trace.entries[i as usize].user_loc)?;
        let file = self.prog.file(l.file);
        if !augur_engine::is_user_file(file) {
            return None;
        }
        Some(SrcLine {
            file: self.shown(file),
            line: l.line,
        })
    }

    /// `file` as lines name it: relative to the current directory when it is below it.
    fn shown(&self, file: &str) -> String {
        let relative = self.cwd.as_ref().and_then(|d| {
            std::path::Path::new(file)
                .strip_prefix(d)
                .ok()
                .map(|p| p.display().to_string())
        });
        relative.unwrap_or_else(|| file.to_string())
    }

    /// The user's source files of the program, as lines name them.
    pub fn user_files(&self) -> Vec<String> {
        self.prog
            .files
            .iter()
            .filter(|f| augur_engine::is_user_file(f))
            .map(|f| self.shown(f))
            .collect()
    }

    /// The entry of the user's code that led to entry `i`: `i` itself when it is in the
    /// user's code, else the call from the user's code into augur's libc models (found
    /// up the chain of control parents, which crosses calls at their call sites).
    pub fn user_call_site(&self, i: u32) -> u32 {
        let in_user_code = |i: u32| {
            let e = &self.trace.entries[i as usize];
            let l = self.prog.func(e.func).locs[e.pc as usize];
            self.prog
                .loc(l)
                .is_some_and(|s| augur_engine::is_user_file(self.prog.file(s.file)))
        };
        let mut at = i;
        while !in_user_code(at) {
            match self.graph.control[at as usize] {
                Some(p) => at = p,
                None => return i,
            }
        }
        at
    }

    /// `file:line` of trace entry `i` ("an unknown line" if none).
    pub fn line_text(&self, i: u32) -> String {
        self.line(i)
            .map(|l| format!("{}:{}", l.file, l.line))
            .unwrap_or_else(|| "an unknown line".into())
    }
}

/// A variable named as the slicing criterion (`--criterion FILE:LINE:VAR`).
#[derive(Clone, Debug)]
pub struct Variable {
    /// Its name.
    pub name: String,
    /// `FILE:LINE`, for messages.
    pub at: String,
}

/// How to explain.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// Check each conjunct against the whole other formula instead of pairwise.
    pub exact: bool,
    /// The solver chain of the tautology and implication queries (its timeout bounds
    /// each query).
    pub solver: augur_solver::SolverConfig,
    /// The variable watched in each run (golden, buggy) when the user named the
    /// criterion (the recorders were given the line).
    pub variables: Option<(Variable, Variable)>,
}

/// Where the two computations of the observed values (defined by `deps`, golden and
/// buggy) part, and those of each unexplained branch condition and its counterpart in
/// the other run (one branch per line: a loop's iterations point at the same places).
fn value_findings(
    golden: &Execution,
    buggy: &Execution,
    deps: (&[u32], &[u32]),
    unexplained: &[compare::Unexplained],
    versions: &versions::Versions,
) -> Vec<compare::Unexplained> {
    let pairing = pairing::Pairing::new(golden, buggy, versions);
    let mut values = lockstep::localise(&pairing, deps.0, deps.1);
    let mut done = std::collections::BTreeSet::new();
    for u in unexplained.iter().filter(|u| u.kind == wp::Kind::Branch) {
        if !done.insert((u.side.name(), u.lines.clone())) {
            continue;
        }
        if let Some((g, b)) = u.entry.and_then(|e| pairing.conditions(u.side, e)) {
            values.extend(lockstep::localise(&pairing, &[g], &[b]));
        }
    }
    values
}

/// The report of two runs whose outputs differ only in format: nothing computed differs,
/// so the finding of each program is the output call of its own code that wrote the
/// first differing byte.
fn format_report(
    figures: Figures,
    (golden, buggy): (&Execution, &Execution),
    (gc, bc): (criterion::Criterion, criterion::Criterion),
) -> Report {
    let finding = |side: Which, x: &Execution, c: &criterion::Criterion| {
        let lines: std::collections::BTreeSet<SrcLine> =
            x.line(x.user_call_site(c.entry)).into_iter().collect();
        compare::Unexplained {
            side,
            constraint: c.what.clone(),
            short: c.what.clone(),
            kind: wp::Kind::Format,
            context: lines.clone(),
            lines,
            weight: rank::weight::FOCUS,
            entry: None,
            missing_at: Default::default(),
        }
    };
    let mut findings = vec![
        finding(Which::Buggy, buggy, &bc),
        finding(Which::Golden, golden, &gc),
    ];
    let versions = versions::Versions::new(&golden.user_files(), &buggy.user_files());
    let ranked = rank::cut(
        &mut findings,
        &versions,
        &Default::default(),
        &Default::default(),
    );
    Report::differ(
        figures,
        (gc.what, bc.what),
        Some(Difference::Format),
        findings,
        ranked,
    )
}

/// Explain why `buggy` behaves differently from `golden`.
pub fn explain(
    golden: &mut Execution,
    buggy: &mut Execution,
    settings: &Settings,
) -> Result<Report, String> {
    let observation = criterion::observe(golden, buggy);
    let figures = Figures {
        same_behaviour: matches!(observation, Observation::Same),
        trace_len: (golden.trace.entries.len(), buggy.trace.entries.len()),
        ..Figures::default()
    };
    let difference = match &observation {
        Observation::Differ { kind, .. } => Some(*kind),
        Observation::Same => None,
    };
    let (gc, bc) = match (&settings.variables, observation) {
        (Some((g, b)), _) => (
            criterion::at_variable(golden, g)?,
            criterion::at_variable(buggy, b)?,
        ),
        (None, Observation::Same) => {
            return Ok(Report::same(
                figures,
                golden.stdout.len(),
                &golden.end.outcome,
            ))
        }
        (None, Observation::Differ { golden, buggy, .. }) => (golden, buggy),
    };
    if difference == Some(Difference::Format) && settings.variables.is_none() {
        return Ok(format_report(figures, (golden, buggy), (gc, bc)));
    }
    // Where each pair of observed values (golden, buggy) is computed differently.
    let (gf, bf): (Vec<_>, Vec<_>) = gc
        .values
        .iter()
        .zip(&bc.values)
        .map(|(&g, &b)| {
            align::differing_lines(
                &align::Observed {
                    run: golden,
                    deps: &gc.deps,
                    value: g,
                },
                &align::Observed {
                    run: buggy,
                    deps: &bc.deps,
                    value: b,
                },
            )
        })
        .unzip();
    let gw = wp::compute(golden, &gc, &gf);
    let bw = wp::compute(buggy, &bc, &bf);
    let buggy_branches = wp::trace_branches(buggy);
    let cmp = compare::compare(
        &compare::Side {
            pool: &golden.pool,
            conjuncts: &gw.conjuncts,
        },
        &compare::Side {
            pool: &buggy.pool,
            conjuncts: &bw.conjuncts,
        },
        &buggy_branches,
        settings.exact,
        &settings.solver,
    );
    let figures = Figures {
        slice_size: (gw.slice_size, bw.slice_size),
        conjuncts: (gw.conjuncts.len(), bw.conjuncts.len()),
        kept: cmp.kept,
        queries: cmp.queries,
        undecided: cmp.undecided,
        ..figures
    };
    let versions = versions::Versions::new(&golden.user_files(), &buggy.user_files());
    let mut unexplained = cmp.unexplained;
    let values = value_findings(golden, buggy, (&gc.deps, &bc.deps), &unexplained, &versions);
    for v in values {
        if !unexplained
            .iter()
            .any(|u| u.kind == wp::Kind::Value && u.lines == v.lines)
        {
            unexplained.push(v);
        }
    }
    let gm = macros::Macros::scan(&golden.user_files(), versions::read_lines);
    let bm = macros::Macros::scan(&buggy.user_files(), versions::read_lines);
    let ranked = rank::cut(&mut unexplained, &versions, &gm, &bm);
    Ok(Report::differ(
        figures,
        (gc.what, bc.what),
        difference,
        unexplained,
        ranked,
    ))
}
