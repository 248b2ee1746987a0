//! Hard-to-resolve functions (SymCrash, section 3.2): the functions whose results a solver
//! cannot be expected to invert, chosen by a static analysis of the lowered program. Each
//! function the user's code defines or calls gets a verdict with its reason:
//!
//! - recursive functions (a cycle in the call graph);
//! - functions with a hard loop: its trip count depends on input (an exit condition is
//!   tainted) and it updates a variable that a branch or the return value reads, either
//!   non-linearly or under a branch inside the loop (or in an inner loop) — the paper's
//!   criteria a-c;
//! - functions whose predicates nest deeper than [`NESTING_LIMIT`];
//! - math.h / floating-point functions called with an input-dependent argument;
//! - functions that read the environment ([`ENVIRONMENT`]: time, randomness, variables);
//! - functions with no body and no model;
//! - but no function that reads input ([`crate::reads_input`]);
//! - plus the user's `--hard`, minus `--not-hard`.
//!
//! Verdicts are sorted by name, so the choice is reproducible.

use crate::taint::{Flow, Slot};
use crate::{arith, loop_calls, reads_input};
use augur_ir::{natural_loops, ControlDeps, Loop};
use augur_ir::{BlockId, Callee, FuncId, Function, Inst, Operand, Program};
use rustc_hash::{FxHashMap, FxHashSet};

/// Predicates nested deeper than this make a function hard.
pub const NESTING_LIMIT: usize = 5;

/// Functions whose results come from the environment rather than from the program's input.
pub const ENVIRONMENT: &[&str] = &[
    "time",
    "clock",
    "gettimeofday",
    "clock_gettime",
    "rand",
    "random",
    "rand_r",
    "drand48",
    "lrand48",
    "mrand48",
    "getenv",
    "secure_getenv",
    "getpid",
    "getppid",
    "getuid",
];

/// math.h functions (double, float and long double forms are matched by stem).
const MATH: &[&str] = &[
    "sqrt", "cbrt", "pow", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos",
    "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "hypot", "fmod", "erf", "erfc",
    "lgamma", "tgamma",
];

fn is_math(name: &str) -> bool {
    let stem = name
        .strip_suffix('f')
        .or_else(|| name.strip_suffix('l'))
        .filter(|s| MATH.contains(s))
        .unwrap_or(name);
    MATH.contains(&stem)
}

/// Is `id` a function of the user's program (defined in one of the user's files)?
pub fn is_user_function(prog: &Program, id: FuncId) -> bool {
    let f = prog.func(id);
    f.is_defined()
        && prog
            .loc(f.loc)
            .is_some_and(|l| augur_engine::is_user_file(prog.file(l.file)))
}

/// Whether a function is the user's own or comes from elsewhere (libc, libm, ...).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Defined in the user's sources.
    Defined,
    /// Called by the user's code, defined elsewhere (or nowhere).
    External,
}

/// The analysis' verdict on one function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The function's name.
    pub name: String,
    /// Defined by the user or external.
    pub origin: Origin,
    /// Hard to resolve (to be recorded)?
    pub hard: bool,
    /// Why (or why not).
    pub reason: String,
}

/// What the analysis knows about the environment: which external functions have a model.
pub struct Models<'a> {
    /// Does augur execute calls of this name itself (a handler)?
    pub has_handler: &'a dyn Fn(&str) -> bool,
}

/// Functions on a call-graph cycle, each with the cycle's other members.
fn recursive(prog: &Program, users: &[FuncId]) -> FxHashMap<FuncId, Vec<String>> {
    let callees = |f: FuncId| -> Vec<FuncId> {
        prog.func(f)
            .insts
            .iter()
            .filter_map(|i| match i {
                Inst::Call {
                    callee: Callee::Direct(c),
                    ..
                } if is_user_function(prog, *c) => Some(*c),
                _ => None,
            })
            .collect()
    };
    let graph: FxHashMap<FuncId, Vec<FuncId>> = users.iter().map(|f| (*f, callees(*f))).collect();
    // Reachability from each function (programs are small: a search per function).
    let reach = |from: FuncId| -> FxHashSet<FuncId> {
        let mut seen = FxHashSet::default();
        let mut work = graph[&from].clone();
        while let Some(f) = work.pop() {
            if seen.insert(f) {
                work.extend(graph.get(&f).into_iter().flatten().copied());
            }
        }
        seen
    };
    let reaches: FxHashMap<FuncId, FxHashSet<FuncId>> =
        users.iter().map(|f| (*f, reach(*f))).collect();
    let mut out = FxHashMap::default();
    for f in users {
        if reaches[f].contains(f) {
            let mut cycle: Vec<String> = users
                .iter()
                .filter(|g| *g != f && reaches[f].contains(*g) && reaches[*g].contains(f))
                .map(|g| prog.func(*g).name.clone())
                .collect();
            cycle.sort();
            out.insert(*f, cycle);
        }
    }
    out
}

pub(crate) fn line_of(prog: &Program, f: &Function, pc: u32) -> u32 {
    prog.loc(f.locs[pc as usize]).map_or(0, |l| l.line)
}

pub(crate) fn terminator(f: &Function, b: BlockId) -> (u32, &Inst) {
    let end = f.blocks[b.0 as usize].end - 1;
    (end, &f.insts[end as usize])
}

pub(crate) fn condition(inst: &Inst) -> Option<&Operand> {
    match inst {
        Inst::CondBr { cond, .. } => Some(cond),
        Inst::Switch { val, .. } => Some(val),
        _ => None,
    }
}

/// Slots that a branch condition or the returned value of `f` reads.
fn referenced_slots(f: &Function, flow: &Flow) -> FxHashSet<Slot> {
    f.insts
        .iter()
        .filter_map(|i| match i {
            Inst::Ret { val: Some(v) } => Some(v),
            other => condition(other),
        })
        .flat_map(|o| flow.op_reads(o))
        .collect()
}

/// Why loop `l` of `f` is hard, if it is (criteria a-c).
fn hard_loop(
    prog: &Program,
    f: &Function,
    flow: &Flow,
    l: &Loop,
    loops: &[Loop],
    cd: &ControlDeps,
    referenced: &FxHashSet<Slot>,
) -> Option<String> {
    let exiting = l.exiting_blocks(f);
    // (c) the trip count depends on input.
    let input_bound = exiting
        .iter()
        .any(|b| condition(terminator(f, *b).1).is_some_and(|c| flow.op_tainted(c)));
    if !input_bound {
        return None;
    }
    for &b in &l.blocks {
        let block = &f.blocks[b.0 as usize];
        for pc in block.start..block.end {
            let Inst::Store { addr, val, .. } = &f.insts[pc as usize] else {
                continue;
            };
            let Some(Operand::Reg(a)) = Some(addr) else {
                continue;
            };
            let Some(slot) = flow.base[a.0 as usize] else {
                continue;
            };
            // (a) a branch or the result reads the variable; it is updated from itself.
            let from_itself = flow.op_reads(val).contains(&slot);
            if !referenced.contains(&slot) || !from_itself {
                continue;
            }
            let name = slot_name(f, slot);
            let line = line_of(prog, f, pc);
            let nonlinear = matches!(val, Operand::Reg(r) if flow.nonlinear[r.0 as usize]);
            // (b) updated under a branch of the loop or in an inner loop.
            let under_branch = cd
                .of(b)
                .iter()
                .any(|p| l.contains(*p) && !exiting.contains(p));
            let inner = loops
                .iter()
                .any(|m| m.header != l.header && l.contains(m.header) && m.contains(b));
            let how = if nonlinear {
                "non-linearly"
            } else if under_branch {
                "under a branch"
            } else if inner {
                "in an inner loop"
            } else {
                continue;
            };
            return Some(format!(
                "loop at line {} runs an input-dependent number of times and updates `{name}` {how} (line {line})",
                line_of(prog, f, f.blocks[l.header.0 as usize].start)
            ));
        }
    }
    None
}

fn slot_name(f: &Function, slot: Slot) -> String {
    match slot {
        Slot::Stack(r) => f
            .insts
            .iter()
            .find_map(|i| match i {
                Inst::Alloca { dst, var, .. } if *dst == r => var
                    .as_deref()
                    .map(|v| v.strip_suffix(".addr").unwrap_or(v).to_string()),
                _ => None,
            })
            .unwrap_or_else(|| format!("%{}", r.0)),
        Slot::Global(g) => format!("global #{}", g.0),
    }
}

/// The deepest predicate nesting in `f`: (depth, line of the deepest block).
fn nesting(prog: &Program, f: &Function, cd: &ControlDeps) -> (usize, u32) {
    fn depth(b: usize, cd: &ControlDeps, memo: &mut [Option<usize>], on: &mut [bool]) -> usize {
        if let Some(d) = memo[b] {
            return d;
        }
        on[b] = true;
        let mut d = 0;
        for p in cd.of(BlockId(b as u32)) {
            if !on[p.0 as usize] {
                d = d.max(1 + depth(p.0 as usize, cd, memo, on));
            }
        }
        on[b] = false;
        memo[b] = Some(d);
        d
    }
    let n = f.blocks.len();
    let mut memo = vec![None; n];
    let mut on = vec![false; n];
    (0..n)
        .map(|b| {
            let d = depth(b, cd, &mut memo, &mut on);
            (d, line_of(prog, f, f.blocks[b].start))
        })
        .max_by_key(|(d, _)| *d)
        .unwrap_or((0, 0))
}

/// The verdict on a function the user defined, whose data flow is `flow`.
fn defined_verdict(
    prog: &Program,
    id: FuncId,
    flow: &Flow,
    recursion: &FxHashMap<FuncId, Vec<String>>,
) -> (bool, String) {
    let f = prog.func(id);
    if let Some(cycle) = recursion.get(&id) {
        return (
            true,
            if cycle.is_empty() {
                "recursive (calls itself)".to_string()
            } else {
                format!("recursive (through {})", cycle.join(", "))
            },
        );
    }
    let cd = ControlDeps::compute(f);
    let loops = natural_loops(f);
    let referenced = referenced_slots(f, flow);
    for l in &loops {
        if let Some(why) = hard_loop(prog, f, flow, l, &loops, &cd, &referenced) {
            return (true, why);
        }
    }
    if let Some(why) = arith::mixing_loop(prog, f, flow, &loops) {
        return (true, why);
    }
    if let Some(why) = arith::float_result(prog, f, flow) {
        return (true, why);
    }
    let (deep, line) = nesting(prog, f, &cd);
    if deep > NESTING_LIMIT {
        return (
            true,
            format!("predicates nested {deep} deep (line {line}; limit {NESTING_LIMIT})"),
        );
    }
    let mut why = format!(
        "not recursive, no hard loop ({} loop(s)), nesting {deep}",
        loops.len()
    );
    if let Some(line) = arith::float_branch(prog, f, flow) {
        why += &format!(
            "; compares floating point computed from input at line {line} in its own code (no call to record)"
        );
    }
    (false, why)
}

/// The verdict on an external function `name`, called by the user's code at `calls`
/// (caller, argument tainted?, line).
fn external_verdict(
    prog: &Program,
    id: FuncId,
    models: &Models,
    tainted_call: Option<(String, u32)>,
) -> (bool, String) {
    let f = prog.func(id);
    let name = f.name.as_str();
    let is_float = |t: augur_ir::TyId| matches!(prog.ty(t).ty, augur_ir::Ty::Float(_));
    let floating = is_float(f.ret_ty) || f.params.iter().any(|(_, t)| is_float(*t));
    if ENVIRONMENT.contains(&name) {
        return (
            true,
            "reads the environment (time, randomness or variables)".into(),
        );
    }
    if is_math(name) || floating {
        return match tainted_call {
            Some((caller, line)) => (
                true,
                format!("math/floating-point function called with an input-dependent argument (in {caller}, line {line})"),
            ),
            None => (
                false,
                "math/floating-point function, arguments do not depend on input".into(),
            ),
        };
    }
    if !f.is_defined() && !(models.has_handler)(name) {
        return (true, "no body and no model".into());
    }
    (false, "modelled by augur".into())
}

/// Analyse `prog`: a verdict for every function the user's code defines or calls, sorted
/// by name. `hard` and `not_hard` force verdicts; naming a function the program neither
/// defines nor calls is an error.
pub fn analyse(
    prog: &Program,
    models: &Models,
    hard: &[String],
    not_hard: &[String],
) -> Result<Vec<Verdict>, String> {
    let users: Vec<FuncId> = (0..prog.functions.len() as u32)
        .map(FuncId)
        .filter(|f| is_user_function(prog, *f))
        .collect();
    let recursion = recursive(prog, &users);
    let flows: Vec<Flow> = users
        .iter()
        .map(|u| Flow::compute(prog, prog.func(*u)))
        .collect();
    // Functions whose results decide the exit of an input-dependent loop.
    let mut fed: FxHashMap<FuncId, String> = FxHashMap::default();
    for (u, flow) in users.iter().zip(&flows) {
        for (g, why) in loop_calls::loop_fed_calls(prog, prog.func(*u), flow) {
            fed.entry(g).or_insert(why);
        }
    }
    let readers = reads_input::input_readers(prog, &users);
    let mut verdicts: Vec<Verdict> = Vec::new();
    let mut push = |id: FuncId, origin: Origin, (mut hard, mut reason): (bool, String)| {
        if let Some(why) = fed.get(&id).filter(|_| !hard) {
            (hard, reason) = (true, why.clone());
        }
        if let Some(how) = readers.get(&id).filter(|_| hard) {
            hard = false;
            reason = format!(
                "{reason}, but it reads input ({how}): what it returns is input, kept symbolic"
            );
        }
        verdicts.push(Verdict {
            name: prog.func(id).name.clone(),
            origin,
            hard,
            reason,
        });
    };
    // Externals called by the user's code, with an input-dependent call if there is one.
    let mut externals: FxHashMap<FuncId, Option<(String, u32)>> = FxHashMap::default();
    for (u, flow) in users.iter().zip(&flows) {
        let f = prog.func(*u);
        for (pc, inst) in f.insts.iter().enumerate() {
            let Inst::Call {
                callee: Callee::Direct(c),
                args,
                ..
            } = inst
            else {
                continue;
            };
            let callee = prog.func(*c);
            if is_user_function(prog, *c) || callee.name.starts_with("llvm.") {
                continue;
            }
            let entry = externals.entry(*c).or_default();
            if entry.is_none() && args.iter().any(|a| flow.op_tainted(a)) {
                *entry = Some((f.name.clone(), line_of(prog, f, pc as u32)));
            }
        }
    }
    for (u, flow) in users.iter().zip(&flows) {
        push(
            *u,
            Origin::Defined,
            defined_verdict(prog, *u, flow, &recursion),
        );
    }
    for (id, call) in externals {
        push(
            id,
            Origin::External,
            external_verdict(prog, id, models, call),
        );
    }
    verdicts.sort_by(|a, b| a.name.cmp(&b.name));
    for (names, forced) in [(hard, true), (not_hard, false)] {
        for n in names {
            let v = verdicts.iter_mut().find(|v| &v.name == n).ok_or_else(|| {
                format!(
                    "{}: the program neither defines nor calls `{n}`",
                    if forced { "--hard" } else { "--not-hard" }
                )
            })?;
            v.hard = forced;
            v.reason = if forced {
                "named by --hard".into()
            } else {
                "named by --not-hard".into()
            };
        }
    }
    Ok(verdicts)
}

/// Why nothing is recorded when no function is hard: the criteria none met.
pub const NOTHING_HARD: &str = "nothing to record: no function is recursive, loops an input-dependent number of times updating what a branch reads, decides such a loop's exit by its result, mixes input bits in a loop, computes floating point from input, nests predicates deeper than 5, reads the environment, or lacks a body and a model; the stack alone directs `augur repro`";

/// The verdicts as `--list` prints them: hard functions first, each with its reason, then
/// [`NOTHING_HARD`] when none is.
pub fn listing(verdicts: &[Verdict]) -> String {
    let mut out = String::new();
    for hard in [true, false] {
        for v in verdicts.iter().filter(|v| v.hard == hard) {
            let origin = match v.origin {
                Origin::Defined => "defined",
                Origin::External => "external",
            };
            out.push_str(&format!(
                "{:<8} {:<20} {:<8} {}\n",
                if v.hard { "hard" } else { "not-hard" },
                v.name,
                origin,
                v.reason
            ));
        }
    }
    if !verdicts.iter().any(|v| v.hard) {
        out.push_str(NOTHING_HARD);
        out.push('\n');
    }
    out
}
