//! Warnings of `augur repro` when the crash's stack passes through hard-to-resolve code
//! whose results the log does not hold: a frame's function that is hard itself, or a hard
//! function a frame's function calls. Without the recorded results the search must solve
//! what the recording was for, which it may not do within its time.

use crate::hard::{analyse, Models, Verdict};
use crate::log::Log;
use crate::report::Matched;
use augur_ir::{Callee, Inst, Program};

/// One warning per hard function on the stack, or called from it, whose calls the log
/// (if any) recorded none of, with the analysis' reason (and whether the recording build
/// could wrap it at all); `main` excepted.
pub fn warnings(prog: &Program, frames: &[Matched], log: Option<&Log>) -> Vec<String> {
    let handlers = augur_env::handlers();
    let has_handler = |n: &str| handlers.get(n).is_some();
    let Ok(verdicts) = analyse(
        prog,
        &Models {
            has_handler: &has_handler,
        },
        &[],
        &[],
    ) else {
        return Vec::new();
    };
    let recorded = |name: &str| {
        log.is_some_and(|l| {
            l.functions
                .iter()
                .position(|f| f.name == name)
                .is_some_and(|i| l.calls.iter().any(|c| c.func as usize == i))
        })
    };
    let hard =
        |name: &str| -> Option<&Verdict> { verdicts.iter().find(|v| v.hard && v.name == name) };
    let mut out: Vec<String> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for frame in frames {
        let Some(id) = prog.func_named(&frame.function) else {
            continue;
        };
        let callees = prog.func(id).insts.iter().filter_map(|i| match i {
            Inst::Call {
                callee: Callee::Direct(g),
                ..
            } => Some(prog.func(*g).name.as_str()),
            _ => None,
        });
        for name in std::iter::once(frame.function.as_str()).chain(callees) {
            let Some(v) = hard(name) else { continue };
            // `main` is the program: no recording can hold its result.
            if name == "main" || seen.iter().any(|s| s == name) || recorded(name) {
                continue;
            }
            seen.push(name.to_string());
            let via = if name == frame.function {
                format!("the crash's stack passes through `{name}`")
            } else {
                format!(
                    "the crash's stack passes through `{}`, which calls `{name}`",
                    frame.function
                )
            };
            let log_says = match log {
                Some(l) if !l.functions.iter().any(|f| f.name == name) => {
                    "`augur record` could not wrap it (see its warnings)"
                }
                Some(_) => "the log recorded no call of it",
                None => "no log was given",
            };
            out.push(format!(
                "{via}, hard to resolve ({}), and {log_says}: the search must solve it",
                v.reason
            ));
        }
    }
    out
}
