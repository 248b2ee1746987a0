//! Calls and returns: frames, arguments, the varargs area, function pointers, special
//! functions (handlers), `llvm.*` intrinsics and external functions.

use super::step::Split;
use super::{intrinsics, Exec, Executor, Flow};
use crate::bytes::{bytes_to_value, scalar_to_bytes, zero_value};
use crate::extension::Intercepted;
use crate::handlers::Call;
use crate::memory::ObjKind;
use crate::options::ExternalPolicy;
use crate::outcome::{ErrorKind, Outcome};
use crate::registers::Registers;
use crate::state::{Frame, State};
use crate::value::{sign_extend, Value};
use augur_ir::{BlockId, Callee, FuncId, Reg, Ty, TyId};
use std::rc::Rc;

/// Frames deeper than this end the path (runaway recursion).
const MAX_FRAMES: usize = 10_000;

/// Execute a call instruction.
pub(super) fn call(
    ex: &mut Executor,
    st: &mut State,
    dst: Option<Reg>,
    callee: &Callee,
    args: Vec<Value>,
    ret_ty: TyId,
) -> Exec<Flow> {
    let f = match callee {
        Callee::Direct(f) => *f,
        Callee::Indirect(op) => {
            let v = ex.operand(st, op);
            match function_target(ex, st, &v)? {
                (f, None) => f,
                (f, Some(rest)) => {
                    invoke(ex, st, dst, f, args, ret_ty)?;
                    return Ok(Flow::Forked(vec![rest]));
                }
            }
        }
        Callee::Asm(why) => {
            let why = why.as_deref().unwrap_or("inline assembly is not supported");
            return Err(ex.error(st, ErrorKind::Unsupported, why.into()));
        }
    };
    invoke(ex, st, dst, f, args, ret_ty)
}

/// The function a pointer value designates; with a symbolic pointer that may designate
/// several, also a forked state that redoes the call for the others.
fn function_target(ex: &mut Executor, st: &mut State, v: &Value) -> Exec<(FuncId, Option<State>)> {
    let bad = |ex: &Executor, st: &State, addr: u64| {
        ex.error(
            st,
            ErrorKind::BadFunctionPointer,
            format!("call through 0x{addr:x}, which is not a function"),
        )
    };
    match v {
        Value::Con { bits, .. } => ex
            .function_at(*bits as u64)
            .map(|f| (f, None))
            .ok_or_else(|| bad(ex, st, *bits as u64)),
        Value::Sym(e) => {
            let e = *e;
            let example = ex.example(st, e)? as u64;
            let Some(f) = ex.function_at(example) else {
                let c = ex.pool.constant(example as u128, 64);
                let eq = ex.pool.eq(e, c);
                st.constraints.push(eq);
                return Err(bad(ex, st, example));
            };
            let c = ex.pool.constant(example as u128, 64);
            let is_f = ex.pool.eq(e, c);
            match ex.split(st, is_f)? {
                Split::True => Ok((f, None)),
                Split::Both(mut rest) => {
                    rest.frame_mut().pc -= 1;
                    Ok((f, Some(*rest)))
                }
                Split::False => Err(Outcome::Dropped),
            }
        }
        Value::Agg(_) | Value::Wide { .. } => {
            Err(ex.error(st, ErrorKind::Unsupported, "vector function pointer".into()))
        }
    }
}

/// Call function `f`: a handler, an intrinsic, a body, or an external.
fn invoke(
    ex: &mut Executor,
    st: &mut State,
    dst: Option<Reg>,
    f: FuncId,
    args: Vec<Value>,
    ret_ty: TyId,
) -> Exec<Flow> {
    for o in &mut ex.observers {
        o.on_call(st, f, &args);
    }
    let prog = ex.program.clone();
    let func = prog.func(f);
    let call = Call {
        func: f,
        args: &args,
        ret_ty,
    };
    let special = match &ex.handlers[f.0 as usize] {
        Some(Ok(special)) => {
            if let Some(why) = special.sig.mismatch_with_args(&ex.pool, &func.name, &args) {
                return Err(ex.error(st, ErrorKind::Unsupported, why));
            }
            Some(*special)
        }
        Some(Err(why)) => return Err(ex.error(st, ErrorKind::Unsupported, why.clone())),
        None => None,
    };
    let ret = match ex.intercept(st, &call)? {
        Intercepted::Result(ret) => Some(ret),
        Intercepted::Proceed => match special {
            Some(special) => Some((special.handler)(ex, st, &call)?),
            None => None,
        },
    };
    if let Some(ret) = ret {
        if let (Some(d), Some(v)) = (dst, ret) {
            st.set(d, v);
        }
        return Ok(Flow::Continue);
    }
    if func.is_defined() {
        push_frame(ex, st, f, args, dst)?;
        return Ok(Flow::Continue);
    }
    if func.name.starts_with("llvm.") {
        return intrinsics::call(ex, st, &func.name, &args, dst, ret_ty);
    }
    match ex.opts.externals {
        ExternalPolicy::Error => Err(ex.error(
            st,
            ErrorKind::UnmodeledExternal,
            format!(
                "call to external function `{}`, which has no body and no model",
                func.name
            ),
        )),
        ExternalPolicy::Havoc => {
            if !st.havocked.iter().any(|h| **h == *func.name) {
                st.havocked.push(func.name.as_str().into());
            }
            if let Some(d) = dst {
                let v = havoc_value(ex, st, &func.name, ret_ty);
                st.set(d, v);
            }
            Ok(Flow::Continue)
        }
    }
}

/// A fresh symbolic value of type `ty`, recorded as an input named after `what`.
fn havoc_value(ex: &mut Executor, st: &mut State, what: &str, ty: TyId) -> Value {
    let prog = ex.program.clone();
    let size = prog.ty(ty).store_size;
    if size == 0 {
        return zero_value(&prog, ty);
    }
    let arr = ex.new_symbolic(st, &format!("{what}.ret"), size);
    let bytes: Vec<_> = (0..size)
        .map(|i| {
            let a = ex.pool.array_sym(arr);
            let idx = ex.pool.constant(i as u128, 64);
            crate::memory::Byte::S(ex.pool.select(a, idx))
        })
        .collect();
    bytes_to_value(&mut ex.pool, &prog, ty, &bytes)
}

/// Push a frame for a call of the defined function `f`.
pub(super) fn push_frame(
    ex: &mut Executor,
    st: &mut State,
    f: FuncId,
    args: Vec<Value>,
    ret_dst: Option<Reg>,
) -> Exec<()> {
    if st.frames.len() >= MAX_FRAMES {
        return Err(Outcome::Partial(format!(
            "more than {MAX_FRAMES} nested calls"
        )));
    }
    let prog = ex.program.clone();
    let func = prog.func(f);
    let mut regs = Registers::new(func.num_regs as usize, &Value::con(0, 1));
    let nparams = func.params.len();
    for ((r, _), v) in func.params.iter().zip(args.iter()) {
        regs[r.0 as usize] = v.clone();
    }
    let varargs = if func.is_var_arg {
        Some(varargs_area(ex, st, &args[nparams.min(args.len())..]))
    } else {
        None
    };
    st.frames.push(Rc::new(Frame {
        func: f,
        block: BlockId(0),
        prev_block: None,
        pc: 0,
        regs,
        allocas: varargs.into_iter().collect(),
        varargs,
        ret_dst,
    }));
    Ok(())
}

/// Lay out variadic arguments as x86-64's overflow area: 8-byte slots, 16-byte slots
/// (16-aligned) for 128-bit and long double values.
fn varargs_area(ex: &mut Executor, st: &mut State, args: &[Value]) -> u64 {
    let mut bytes = Vec::new();
    for a in args {
        let w = a.width(&ex.pool);
        let slot = if w > 64 { 16 } else { 8 };
        while bytes.len() % slot != 0 {
            bytes.push(crate::memory::Byte::C(0));
        }
        scalar_to_bytes(&mut ex.pool, a, slot, &mut bytes);
    }
    let loc = ex.current_loc(st);
    let base = st.mem.allocate(
        bytes.len() as u64,
        16,
        ObjKind::Stack,
        loc,
        "varargs".into(),
    );
    st.mem
        .get_mut(base)
        .expect("just allocated")
        .write(0, &bytes);
    base
}

/// Return from the top frame with `v`.
pub(super) fn ret(ex: &mut Executor, st: &mut State, v: Option<Value>) -> Exec<()> {
    for o in &mut ex.observers {
        o.on_return(st, v.as_ref());
    }
    if st.frames.len() == 1 {
        // Returning from the entry function: the exit code (decided before the frame goes,
        // so that a state forked for other codes can redo the return).
        let prog = ex.program.clone();
        let code = match (v, &prog.ty(prog.func(st.frame().func).ret_ty).ty) {
            (Some(v), Ty::Int(w)) => {
                let bits = ex.exit_code(st, &v)?;
                sign_extend(bits, (*w).min(32)) as i64
            }
            _ => 0,
        };
        match ex.entry_return {
            Some(exit) if st.frame().func != exit => {
                st.pop_frame();
                let code = Value::con(code as u32 as u128, 32);
                return push_frame(ex, st, exit, vec![code], None);
            }
            _ => return Err(Outcome::Exit(code)),
        }
    }
    let frame = st.pop_frame();
    if let (Some(d), Some(v)) = (frame.ret_dst, v) {
        st.set(d, v);
    }
    Ok(())
}
