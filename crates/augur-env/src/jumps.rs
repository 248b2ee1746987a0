//! setjmp/longjmp: `setjmp` records its frame and the instruction after its call;
//! `longjmp` unwinds to that frame and resumes there with `setjmp` returning the value.
//! Locals live in memory at -O0, so, as in C, they keep the values they had at the jump.

use crate::os_state::{env, env_mut, JumpTarget};
use augur_engine::Param::{Int, Ptr};
use augur_engine::{Call, ErrorKind, Exec, Executor, HandlerTable, Signature, State, Value};
use augur_ir::Inst;

/// Register the jump functions (glibc's names included).
pub fn register(t: &mut HandlerTable) {
    for name in ["setjmp", "_setjmp", "__sigsetjmp", "sigsetjmp"] {
        t.add(name, Signature::variadic(&[Ptr]), setjmp);
    }
    for name in ["longjmp", "_longjmp", "siglongjmp", "__longjmp_chk"] {
        t.add(name, Signature::of(&[Ptr, Int]), longjmp);
    }
}

fn setjmp(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let buf = ex.concretize(st, &c.args[0])? as u64;
    let f = st.frame();
    let target = JumpTarget {
        buf,
        depth: st.frames().len(),
        func: f.func,
        pc: f.pc,
    };
    let targets = &mut env_mut(st).jump_targets;
    targets.retain(|t| t.buf != buf);
    targets.push(target);
    let width = augur_engine::scalar_width(&ex.program, c.ret_ty);
    Ok(Some(Value::con(0, width)))
}

fn longjmp(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let buf = ex.concretize(st, &c.args[0])? as u64;
    // setjmp returns the value given, or 1 for 0 (kept symbolic when it is).
    let val = match &c.args[1] {
        Value::Con { bits: 0, width } => Value::con(1, *width),
        Value::Sym(e) => {
            let w = ex.pool.width(*e);
            let (zero, one) = (ex.pool.constant(0, w), ex.pool.constant(1, w));
            let is_zero = ex.pool.eq(*e, zero);
            let r = ex.pool.ite(is_zero, one, *e);
            Value::from_expr(&ex.pool, r)
        }
        v => v.clone(),
    };
    let target = env(st).jump_targets.iter().find(|t| t.buf == buf).cloned();
    let frames = st.frames();
    let Some(t) = target.filter(|t| t.depth <= frames.len() && frames[t.depth - 1].func == t.func)
    else {
        let msg = "longjmp to a jmp_buf whose setjmp frame is not on the stack".to_string();
        return Err(ex.error(st, ErrorKind::Unsupported, msg));
    };
    st.unwind_to(t.depth);
    let prog = ex.program.clone();
    st.frame_mut().pc = t.pc;
    // Both setjmp's result and longjmp's value are C `int`s.
    if let Inst::Call { dst: Some(d), .. } = &prog.func(t.func).insts[t.pc as usize - 1] {
        st.set(*d, val);
    }
    Ok(None)
}
