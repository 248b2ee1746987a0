//! Functions of the program that read its input, directly or through the program's own
//! functions they call: such a function is never recorded, whatever the other criteria
//! say. Its results and the buffers it fills are the input itself (a log of them would
//! carry the input, which the log must not), and substituting them would skip the reads,
//! leaving the stream where the field's run had moved it (`getndelim2` reading a line).

use crate::hard::is_user_function;
use crate::taint::INPUT_FUNCTIONS;
use augur_ir::{Callee, FuncId, Inst, Program};
use rustc_hash::FxHashMap;

/// For each function of `users` that reads input, how: `calls fgetc` or `calls fgetc
/// through freadseek`.
pub fn input_readers(prog: &Program, users: &[FuncId]) -> FxHashMap<FuncId, String> {
    let callees = |f: FuncId| {
        prog.func(f).insts.iter().filter_map(|i| match i {
            Inst::Call {
                callee: Callee::Direct(c),
                ..
            } => Some(*c),
            _ => None,
        })
    };
    // The input function each reader calls, and the function of the program calling it.
    let mut readers: FxHashMap<FuncId, (String, Option<String>)> = FxHashMap::default();
    for &u in users {
        let direct = callees(u).find(|c| INPUT_FUNCTIONS.contains(&prog.func(*c).name.as_str()));
        if let Some(c) = direct {
            readers.insert(u, (prog.func(c).name.clone(), None));
        }
    }
    // Callers of readers read too (to a fixed point).
    loop {
        let mut added = false;
        for &u in users {
            if readers.contains_key(&u) {
                continue;
            }
            let through =
                callees(u).find(|c| is_user_function(prog, *c) && readers.contains_key(c));
            if let Some(c) = through {
                let (input, via) = readers[&c].clone();
                let via = via.unwrap_or_else(|| prog.func(c).name.clone());
                readers.insert(u, (input, Some(via)));
                added = true;
            }
        }
        if !added {
            break;
        }
    }
    readers
        .into_iter()
        .map(|(f, (input, via))| {
            let how = match via {
                Some(v) => format!("calls {input} through {v}"),
                None => format!("calls {input}"),
            };
            (f, how)
        })
        .collect()
}
