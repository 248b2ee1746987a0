//! The program's entry: `main(argc, argv, envp)` with concrete arguments, or any other
//! function with every argument symbolic (pointers point to symbolic buffers).

use crate::intrinsics::{fresh_bytes, fresh_scalar};
use augur_engine::bytes::{bytes_to_value, scalar_to_bytes};
use augur_engine::memory::{Byte, ObjKind};
use augur_engine::{Exec, Executor, State, Value};
use augur_ir::{FuncId, LocId, Ty};

/// Allocate a global-like object holding `bytes`; returns its address.
fn place(st: &mut State, bytes: &[Byte], name: &str) -> u64 {
    let base = st.mem.allocate(
        bytes.len() as u64,
        16,
        ObjKind::Global,
        LocId(0),
        name.into(),
    );
    st.mem
        .get_mut(base)
        .expect("just allocated")
        .write(0, bytes);
    base
}

/// Lay out `argv` (strings, a NULL-terminated pointer array) and return (argc, argv).
pub fn build_argv(ex: &mut Executor, st: &mut State, args: &[Vec<Byte>]) -> (Value, Value) {
    let mut ptrs = Vec::new();
    for (i, a) in args.iter().enumerate() {
        let mut bytes = a.clone();
        bytes.push(Byte::C(0));
        let p = place(st, &bytes, &format!("argv[{i}]"));
        scalar_to_bytes(&mut ex.pool, &Value::con(p as u128, 64), 8, &mut ptrs);
    }
    ptrs.extend([Byte::C(0); 8]);
    let argv = place(st, &ptrs, "argv");
    (
        Value::con(args.len() as u128, 32),
        Value::con(argv as u128, 64),
    )
}

/// Push the entry call onto the initial state. `argv` are the bytes of each argument
/// (argv[0] included) for `main`.
pub fn call_entry(
    ex: &mut Executor,
    st: &mut State,
    entry: FuncId,
    argv: &[Vec<Byte>],
) -> Exec<()> {
    let prog = ex.program.clone();
    let f = prog.func(entry);
    let mut args = Vec::new();
    if f.name == "main" {
        let (argc, argv) = build_argv(ex, st, argv);
        let envp = place(st, &[Byte::C(0); 8], "envp");
        let given = [argc, argv, Value::con(envp as u128, 64)];
        for (i, (_, ty)) in f.params.iter().enumerate() {
            let w = augur_engine::bytes::scalar_width(&prog, *ty);
            args.push(match &given.get(i) {
                Some(Value::Con { bits, .. }) => Value::con(*bits, w),
                _ => Value::con(0, w),
            });
        }
    } else {
        for (i, (reg, ty)) in f.params.iter().enumerate() {
            let name = format!("arg{i}_{}", reg.0);
            args.push(match prog.ty(*ty).ty {
                Ty::Ptr => {
                    let size = ex.opts.ptr_size;
                    let bytes = fresh_bytes(ex, st, &format!("{name}_buf"), size);
                    Value::con(place(st, &bytes, &name) as u128, 64)
                }
                Ty::Int(_) | Ty::Float(_) => {
                    let w = augur_engine::bytes::scalar_width(&prog, *ty);
                    fresh_scalar(ex, st, &name, w)
                }
                _ => {
                    let size = prog.ty(*ty).store_size;
                    let bytes = fresh_bytes(ex, st, &name, size);
                    bytes_to_value(&mut ex.pool, &prog, *ty, &bytes)
                }
            });
        }
    }
    ex.start_call(st, entry, args)
}
