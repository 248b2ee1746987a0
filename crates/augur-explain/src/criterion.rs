//! The slicing criterion of each run: where the observable error shows and the
//! postcondition there. Found automatically (the first differing byte of standard
//! output, else a crash site, else the exit) or named by the user (a variable at a line).

use crate::deps::{concrete, vararg_slots};
use crate::difference::{first_difference, Difference};
use crate::printf::{self, IntConversion};
use crate::slice::{backward, Follow};
use crate::{Execution, Variable};
use augur_engine::Byte;
use augur_engine::{Outcome, Value};
use augur_expr::{ExprId, ExprPool};
use augur_ir::{Inst, IntOp};
use std::collections::BTreeMap;

/// A slicing criterion with its postcondition.
#[derive(Clone, Debug)]
pub struct Criterion {
    /// The trace entry where the value is observed.
    pub entry: u32,
    /// The entries defining the observed value.
    pub deps: Vec<u32>,
    /// The branch (or call) instance deciding whether the observation happens at all.
    pub control: Option<u32>,
    /// The observed values that depend on the input, as expressions over it: the
    /// postcondition is that each has the value it had on the run.
    pub values: Vec<ExprId>,
    /// For an out-of-bounds access through an input-dependent address: the condition
    /// that the address lies outside the object it overflowed (`offset >u size - n`),
    /// the postcondition in place of the address's value.
    pub outside: Option<ExprId>,
    /// What is observed, for people.
    pub what: String,
}

/// What comparing the two runs' observable behaviour found.
pub enum Observation {
    /// Same standard output and same outcome.
    Same,
    /// The runs differ: how, and the criterion in each.
    Differ {
        /// A different output format, or different behaviour.
        kind: Difference,
        /// In the golden run.
        golden: Criterion,
        /// In the buggy run.
        buggy: Criterion,
    },
}

/// The expression of `v`, if it depends on the input.
fn sym(v: &Value) -> Option<ExprId> {
    match v {
        Value::Sym(e) => Some(*e),
        _ => None,
    }
}

/// A printable character (or its code).
fn show_byte(b: u8) -> String {
    match b {
        b'\n' => "'\\n'".into(),
        0x20..=0x7e => format!("'{}'", b as char),
        _ => format!("0x{b:02x}"),
    }
}

/// The criterion at standard-output byte `k` of `x`. Whether a byte is written at all
/// is decided where the user's code called the output function: the libc model's own
/// control flow (buffering) is not followed.
fn at_output(x: &mut Execution, k: usize) -> Criterion {
    let out = x.graph.output[k];
    let values = match x.end.stdout[k] {
        Byte::S(e) => vec![e],
        Byte::C(_) => Vec::new(),
    };
    let byte = x.stdout[k];
    Criterion {
        entry: out.writer,
        deps: out.def.into_iter().collect(),
        control: x.graph.control[x.user_call_site(out.writer) as usize],
        values,
        outside: None,
        what: format!(
            "stdout byte {k} is {} (written at {})",
            show_byte(byte),
            x.line_text(out.writer)
        ),
    }
}

/// The criterion at the integer conversion that printed standard-output byte `k` of `x`,
/// if one did: the byte was formatted by a printf-family call of the user's code, and
/// its value flows from exactly one variadic argument (or, for a byte the conversion
/// wrote itself, a sign or padding, the argument loaded last), which the call's format
/// prints with an integer conversion. The postcondition is then about that argument's value
/// (`arg == printed`), not about the digit the libc model computed from it, and the
/// slice starts from the argument's definition at the call.
fn at_conversion(x: &mut Execution, k: usize) -> Option<Criterion> {
    let def = x.graph.output[k].def?;
    let call = x.user_call_site(def);
    let e = &x.trace.entries[call as usize];
    let format = x.trace.formats.get(&call)?;
    let (f, args) = e.call.clone()?;
    let fixed = x.prog.func(f).params.len();
    let callee = x
        .trace
        .entries
        .get(call as usize + 1)
        .filter(|n| n.depth > e.depth)?
        .act;
    let base = *x.trace.varargs.get(&callee)?;
    let variadic = args.get(fixed..)?;
    let slots = vararg_slots(&x.pool, variadic);
    let format_text = {
        let at = concrete(
            &x.pool,
            &x.end.seed_values,
            args.get(printf::format_param(&x.prog.func(f).name)?)?,
        ) as u64;
        at..at + format.len() as u64 + 1
    };
    let load_addr = |i: u32| {
        let entry = &x.trace.entries[i as usize];
        let is_load = matches!(
            x.prog.func(entry.func).insts[entry.pc as usize],
            Inst::Load { .. }
        );
        let (addr, _) = entry.mem.as_ref().filter(|_| is_load)?;
        Some(concrete(&x.pool, &x.end.seed_values, addr) as u64)
    };
    let slot_of = |a: u64| {
        let a = a.wrapping_sub(base);
        slots.iter().position(|(o, n)| (*o..o + n).contains(&a))
    };
    // The loads of variadic arguments the byte's value flows from, per argument.
    let data = backward(&x.graph, &[def], Follow::Data);
    let mut loads: BTreeMap<usize, u32> = BTreeMap::new();
    for i in (call + 1..=def).filter(|i| data[*i as usize]) {
        if let Some(j) = load_addr(i).and_then(slot_of) {
            loads.entry(j).or_insert(i);
        }
    }
    let (j, load) = match loads.len() {
        1 => loads.pop_first()?,
        // A byte the conversion's code wrote itself (a sign, a prefix, padding) belongs
        // to the argument it loaded last, unless format text was read since (a literal).
        0 => (call + 1..def)
            .rev()
            .filter_map(|i| Some((i, load_addr(i)?)))
            .find_map(|(i, a)| match format_text.contains(&a) {
                true => Some(None),
                false => slot_of(a).map(|j| Some((j, i))),
            })??,
        _ => return None,
    };
    let conv: IntConversion = printf::arguments(format).get(j)?.clone()?;
    let (values, value) = match &variadic[j] {
        Value::Sym(a) => {
            let a = if x.pool.width(*a) > conv.bits {
                x.pool.extract(*a, 0, conv.bits)
            } else {
                *a
            };
            let v = x.pool.eval(a, &x.end.seed_values);
            (vec![a], (v, x.pool.width(a)))
        }
        v => {
            let bits = conv.bits.min(value_width(&x.pool, v));
            (Vec::new(), (concrete(&x.pool, &x.end.seed_values, v), bits))
        }
    };
    let shown = match conv.signed {
        true => augur_expr::bits::to_signed(value.0, value.1).to_string(),
        false => (value.0 & augur_expr::bits::mask(value.1)).to_string(),
    };
    let byte = x.stdout[k];
    Some(Criterion {
        entry: call,
        // The argument's definition in the caller (what the area's bytes hold).
        deps: x.graph.data[load as usize]
            .iter()
            .copied()
            .filter(|d| *d < call)
            .collect(),
        control: x.graph.control[call as usize],
        values,
        outside: None,
        what: format!(
            "stdout byte {k} is {} (written at {}), printed by {} of {}'s argument {} = {shown}",
            show_byte(byte),
            x.line_text(call),
            conv.text,
            x.prog.func(f).name,
            fixed + j + 1
        ),
    })
}

/// The width in bits of a scalar value.
fn value_width(pool: &ExprPool, v: &Value) -> u32 {
    match v {
        Value::Con { width, .. } | Value::Wide { width, .. } => *width,
        Value::Sym(e) => pool.width(*e),
        Value::Agg(_) => 64,
    }
}

/// The criterion at the last instruction of `x`: the crash site and its faulting
/// operand, or the exit (its status).
fn at_end(x: &mut Execution) -> Criterion {
    let entry = x.trace.entries.len() as u32 - 1;
    let e = x.trace.entries[entry as usize].clone();
    let inst = x.prog.func(e.func).insts[e.pc as usize].clone();
    // The operands whose values the outcome depends on.
    let faulting: Vec<Value> = match (&inst, &e.mem) {
        (Inst::Load { .. } | Inst::Store { .. }, Some((addr, _))) => vec![addr.clone()],
        (
            Inst::Bin {
                op: IntOp::UDiv | IntOp::SDiv | IntOp::URem | IntOp::SRem,
                ..
            },
            _,
        ) => e.ops.get(1).cloned().flatten().into_iter().collect(),
        _ => match &e.call {
            Some((_, args)) => args.clone(),
            None => e.ops.iter().flatten().cloned().collect(),
        },
    };
    let outside = out_of_bounds(x, &e.mem);
    let values = if outside.is_some() {
        Vec::new()
    } else {
        faulting.iter().filter_map(sym).collect()
    };
    let what = match &x.end.outcome {
        Outcome::Error(err) => format!(
            "{} at {}: {}",
            err.kind.name(),
            x.line_text(entry),
            err.message
        ),
        Outcome::Exit(code) => format!(
            "exit with status {code} after {} bytes of output (at {})",
            x.stdout.len(),
            x.line_text(entry)
        ),
        Outcome::Signal(sig) => format!("the end by signal {sig} (at {})", x.line_text(entry)),
        Outcome::Partial(_) | Outcome::Dropped => "the end of the run".into(),
    };
    Criterion {
        entry,
        deps: x.graph.data[entry as usize].clone(),
        control: x.graph.control[entry as usize],
        values,
        outside,
        what,
    }
}

/// For a run that exited normally (status 0) with less output than the other: the
/// criterion at the decision to stop writing, the last input-dependent branch of the
/// user's code after its last output (a loop's exit test). The postcondition is that
/// its condition went the way it went.
fn at_stop(x: &mut Execution) -> Option<Criterion> {
    if x.end.outcome != Outcome::Exit(0) {
        return None;
    }
    let after = x.graph.output.last().map_or(0, |o| o.writer);
    let entry = (after..x.trace.entries.len() as u32).rev().find(|&i| {
        let e = &x.trace.entries[i as usize];
        e.sym
            && x.user_call_site(i) == i
            && matches!(
                x.prog.func(e.func).insts[e.pc as usize],
                Inst::CondBr { .. } | Inst::Switch { .. }
            )
    })?;
    let Some(Some(Value::Sym(cond))) = x.trace.entries[entry as usize].ops.first().cloned() else {
        return None;
    };
    Some(Criterion {
        entry,
        deps: x.graph.data[entry as usize].clone(),
        control: x.graph.control[entry as usize],
        values: vec![cond],
        outside: None,
        what: format!(
            "stopped writing after {} bytes of output, deciding at {}",
            x.stdout.len(),
            x.line_text(entry)
        ),
    })
}

/// For a run ending in an out-of-bounds error at an access of `n` bytes through the
/// input-dependent address `addr`: "`addr` is outside the object whose region holds it".
fn out_of_bounds(x: &mut Execution, mem: &Option<(Value, u64)>) -> Option<ExprId> {
    let Outcome::Error(err) = &x.end.outcome else {
        return None;
    };
    let (Value::Sym(addr), n) = mem.as_ref()? else {
        return None;
    };
    if err.kind != augur_engine::ErrorKind::OutOfBounds {
        return None;
    }
    let at = x.pool.eval(*addr, &x.end.seed_values) as u64;
    let obj = x.end.mem.region_owner_live(at)?;
    let (base, last) = (obj.base, obj.size.checked_sub(*n)?);
    let base = x.pool.constant(base as u128, 64);
    let last = x.pool.constant(last as u128, 64);
    let offset = x.pool.sub(*addr, base);
    Some(x.pool.ugt(offset, last))
}

fn same_outcome(a: &Outcome, b: &Outcome) -> bool {
    match (a, b) {
        (Outcome::Error(x), Outcome::Error(y)) => x.kind == y.kind,
        _ => a == b,
    }
}

/// Compare the two runs' behaviour and find the criterion of each.
pub fn observe(golden: &mut Execution, buggy: &mut Execution) -> Observation {
    let stdout = first_difference(&golden.stdout, &buggy.stdout);
    let wrote_stderr = |x: &Execution| x.end.stderr_len > 0;
    let same_end = same_outcome(&golden.end.outcome, &buggy.end.outcome)
        && wrote_stderr(golden) == wrote_stderr(buggy);
    let (kind, at) = match stdout {
        None if same_end => return Observation::Same,
        None => (Difference::Behaviour, None),
        Some((Difference::Format, g, b)) if same_end => (Difference::Format, Some((g, b))),
        Some((_, g, b)) => (Difference::Behaviour, Some((g, b))),
    };
    // Integer conversions only when both runs printed the byte through one: the two
    // postconditions then speak of the same thing.
    if let Some((g, b)) = at.filter(|(g, b)| *g < golden.stdout.len() && *b < buggy.stdout.len()) {
        if let (Some(gc), Some(bc)) = (at_conversion(golden, g), at_conversion(buggy, b)) {
            return Observation::Differ {
                kind,
                golden: gc,
                buggy: bc,
            };
        }
    }
    let pick = |x: &mut Execution, k: Option<usize>| match k {
        Some(k) if k < x.stdout.len() => at_output(x, k),
        Some(_) => at_stop(x).unwrap_or_else(|| at_end(x)),
        None => at_end(x),
    };
    Observation::Differ {
        kind,
        golden: pick(golden, at.map(|a| a.0)),
        buggy: pick(buggy, at.map(|a| a.1)),
    }
}

/// The criterion a user named: the watched variable where its line last began.
pub fn at_variable(x: &mut Execution, v: &Variable) -> Result<Criterion, String> {
    let (name, at) = (&v.name, &v.at);
    let Some(snap) = x.trace.snapshot.clone() else {
        return Err(if x.trace.watched_line_ran {
            format!("{at}: no local variable `{name}` of the function running this line")
        } else {
            format!("{at}: this line never ran on this input")
        });
    };
    let bytes: Vec<ExprId> = snap
        .bytes
        .iter()
        .map(|b| match b {
            Byte::C(c) => x.pool.constant(*c as u128, 8),
            Byte::S(e) => *e,
        })
        .collect();
    let value = bytes
        .iter()
        .rev()
        .copied()
        .reduce(|hi, lo| x.pool.concat(hi, lo))
        .ok_or_else(|| format!("{at}: `{name}` has no bytes"))?;
    let values = match x.pool.as_const(value) {
        Some(_) => Vec::new(),
        None => vec![value],
    };
    Ok(Criterion {
        entry: snap.entry,
        deps: x.graph.probes.first().cloned().unwrap_or_default(),
        control: x.graph.control[snap.entry as usize],
        values,
        outside: None,
        what: format!(
            "{name} at {} (address 0x{:x})",
            x.line_text(snap.entry),
            snap.addr
        ),
    })
}
