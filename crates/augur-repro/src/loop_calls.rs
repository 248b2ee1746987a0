//! Functions called from an input-dependent loop whose exit their result decides: in
//! `j = f(x); while (j != 1) { j = f(j); n++; }` the trip count is how many times `f`
//! must be iterated to reach 1, which no solver inverts, while `f` itself may be a line
//! of arithmetic. Recording `f`'s results lets the re-execution follow the field's trips
//! (SymCrash's criterion c, seen from the callee).

use crate::hard::{condition, is_user_function, line_of, terminator};
use crate::taint::{Flow, Slot};
use augur_ir::{natural_loops, Callee, FuncId, Function, Inst, Loop, Operand, Program};
use rustc_hash::{FxHashMap, FxHashSet};

/// Why each function of the program's own called from an input-dependent loop of `f` is
/// hard: every exit of the loop depends on input (no constant bound), and one on the
/// call's result (directly, or through a variable the call's result is stored into within
/// the loop). Library functions are not: those that read input (`getc` in a loop reading a
/// line) would log the input itself, and the others (`strcmp`, `strlen`) have models a
/// solver reads (one without a model is hard anyway).
pub fn loop_fed_calls(prog: &Program, f: &Function, flow: &Flow) -> FxHashMap<FuncId, String> {
    let mut out = FxHashMap::default();
    for l in natural_loops(f) {
        let conds: Vec<&Operand> = l
            .exiting_blocks(f)
            .into_iter()
            .filter_map(|b| condition(terminator(f, b).1))
            .collect();
        // A loop with an exit that input does not decide (`i < 2`) has a bound.
        if conds.is_empty() || !conds.iter().all(|c| flow.op_tainted(c)) {
            continue;
        }
        let exit_slots: FxHashSet<Slot> = conds.iter().flat_map(|c| flow.op_reads(c)).collect();
        let mut deciding: FxHashSet<FuncId> =
            conds.iter().flat_map(|c| flow.op_results(c)).collect();
        for (_, inst) in loop_insts(f, &l) {
            if let Inst::Store { addr, val, .. } = inst {
                let stored_to_exit = matches!(addr, Operand::Reg(a)
                    if flow.base[a.0 as usize].is_some_and(|s| exit_slots.contains(&s)));
                if stored_to_exit {
                    deciding.extend(flow.op_results(val));
                }
            }
        }
        let header = line_of(prog, f, f.blocks[l.header.0 as usize].start);
        for (pc, inst) in loop_insts(f, &l) {
            let Inst::Call {
                dst: Some(_),
                callee: Callee::Direct(g),
                ..
            } = inst
            else {
                continue;
            };
            if deciding.contains(g) && is_user_function(prog, *g) {
                out.entry(*g).or_insert_with(|| {
                    format!(
                        "called in the loop at line {header} of {} (line {}), whose trip count depends on input and on its result",
                        f.name,
                        line_of(prog, f, pc)
                    )
                });
            }
        }
    }
    out
}

/// The instructions of loop `l` of `f`, with their indices.
pub fn loop_insts<'a>(f: &'a Function, l: &'a Loop) -> impl Iterator<Item = (u32, &'a Inst)> {
    l.blocks.iter().flat_map(move |b| {
        let block = &f.blocks[b.0 as usize];
        (block.start..block.end).map(move |pc| (pc, &f.insts[pc as usize]))
    })
}
