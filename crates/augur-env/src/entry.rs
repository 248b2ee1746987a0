//! The program's entry: `main(argc, argv, envp)` with concrete and symbolic arguments,
//! symbolic standard input and files; or any other function with every argument symbolic
//! (pointers point to symbolic buffers).
//!
//! Symbolic objects are created in this order, with these names (`augur replay` relies on
//! them): `arg00`, `arg01`, ... for the `--sym-arg`s (N+1 bytes each, the last one 0); for
//! each `--sym-args` group its count `n_args` (4 bytes) then its MAX arguments, numbered on;
//! `stdin`; `file:NAME` per symbolic file; with `--max-fail`, `fail:read`, `fail:write`, ...
//! (see `failures.rs`). An `n_args` keeps that many of the arguments that follow it in
//! argv.

use crate::intrinsics::{fresh_bytes, fresh_scalar};
use crate::os_state::EnvData;
use augur_engine::{bytes_to_value, scalar_to_bytes};
use augur_engine::{Byte, ObjKind};
use augur_engine::{Exec, Executor, State, Value};
use augur_expr::ExprId;
use augur_ir::{FuncId, LocId, Ty};
use std::rc::Rc;

/// The symbolic parts of the program's environment (KLEE's POSIX runtime options).
#[derive(Clone, Debug, Default)]
pub struct EnvSpec {
    /// `--sym-arg N`, in order: one argument of up to N bytes each.
    pub sym_arg: Vec<u64>,
    /// `--sym-args MIN MAX N` groups, in order: between MIN and MAX more arguments of up
    /// to N bytes each.
    pub sym_args: Vec<(u32, u32, u64)>,
    /// `--sym-stdin N`: standard input is N symbolic bytes.
    pub sym_stdin: Option<u64>,
    /// `--sym-file NAME:N`: opening NAME reads N symbolic bytes.
    pub sym_files: Vec<(String, u64)>,
    /// `--max-fail N`: the modelled system calls may fail, up to N times per path.
    pub max_fail: u32,
}

/// A symbolic argument of up to `n` bytes (an object of n+1 bytes whose last byte is 0).
fn symbolic_arg(ex: &mut Executor, st: &mut State, index: usize, n: u64) -> Exec<Vec<Byte>> {
    let mut bytes = fresh_bytes(ex, st, &format!("arg{index:02}"), n + 1);
    let Some(Byte::S(last)) = bytes.pop() else {
        unreachable!("fresh bytes are symbolic")
    };
    let zero = ex.pool.constant(0, 8);
    let nul = ex.pool.eq(last, zero);
    ex.add_constraint(st, nul)?;
    Ok(bytes)
}

/// Create the symbolic environment of `spec` on `st` and the initial states: one per
/// combination of `--sym-args` argument counts. Each state is ready to have its entry
/// called with the argv returned beside it (`concrete` arguments first, then the
/// `--sym-arg`s, then each `--sym-args` group's arguments).
pub fn prepare_env(
    ex: &mut Executor,
    mut st: State,
    spec: &EnvSpec,
    concrete: &[Vec<Byte>],
) -> Exec<Vec<(State, Vec<Vec<Byte>>)>> {
    let mut args = concrete.to_vec();
    let mut index = 0;
    for &n in &spec.sym_arg {
        args.push(symbolic_arg(ex, &mut st, index, n)?);
        index += 1;
    }
    // Each group: its count `n_args`, then its MAX arguments, of which the first count are
    // in argv.
    let mut groups = Vec::new();
    for &(min, max, n) in &spec.sym_args {
        let count = fresh_scalar(ex, &mut st, "n_args", 32).expr(&mut ex.pool);
        let mut optional = Vec::new();
        for _ in 0..max {
            optional.push(symbolic_arg(ex, &mut st, index, n)?);
            index += 1;
        }
        groups.push(ArgGroup {
            count,
            min,
            max,
            args: optional,
        });
    }
    let stdin: Vec<Byte> = match spec.sym_stdin {
        Some(n) => fresh_bytes(ex, &mut st, "stdin", n),
        None => Vec::new(),
    };
    let files = spec
        .sym_files
        .iter()
        .map(|(name, n)| {
            (
                name.clone(),
                Rc::from(fresh_bytes(ex, &mut st, &format!("file:{name}"), *n)),
            )
        })
        .collect();
    let files = crate::namespace::laid_out(files);
    st.ext_mut().insert(EnvData::new(Rc::from(stdin), files));
    crate::failures::prepare(ex, &mut st, spec.max_fail);
    // One case per combination of counts (the first group varying slowest).
    let mut combos: Vec<Vec<u32>> = vec![Vec::new()];
    for g in &groups {
        combos = combos
            .into_iter()
            .flat_map(|c| {
                (g.min..=g.max).map(move |k| {
                    let mut c = c.clone();
                    c.push(k);
                    c
                })
            })
            .collect();
    }
    let cases: Vec<_> = combos
        .iter()
        .map(|counts| {
            let mut all = ex.pool.bool_const(true);
            for (g, &k) in groups.iter().zip(counts) {
                let kc = ex.pool.constant(k as u128, 32);
                let is_k = ex.pool.eq(g.count, kc);
                all = ex.pool.bool_and(all, is_k);
            }
            all
        })
        .collect();
    let forked = ex.fork(&mut st, &cases)?;
    let argv_of = |case: usize| {
        let mut a = args.clone();
        for (g, &k) in groups.iter().zip(&combos[case]) {
            a.extend(g.args[..k as usize].iter().cloned());
        }
        a
    };
    let mut out = vec![(st, argv_of(forked.taken))];
    out.extend(forked.others.into_iter().map(|(i, s)| (s, argv_of(i))));
    Ok(out)
}

/// One `--sym-args MIN MAX N` group: its symbolic count and its MAX arguments.
struct ArgGroup {
    count: ExprId,
    min: u32,
    max: u32,
    args: Vec<Vec<Byte>>,
}

/// Allocate a global-like object holding `bytes`; returns its address.
fn place(st: &mut State, bytes: &[Byte], name: &str) -> u64 {
    let base = st.mem_mut().allocate(
        bytes.len() as u64,
        16,
        ObjKind::Global,
        LocId(0),
        name.into(),
    );
    st.mem_mut()
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
        // Returning from main is exit(value): the C model of exit, linked whenever the
        // program can register atexit handlers, runs them.
        if let Some(exit) = prog
            .func_named("exit")
            .filter(|e| prog.func(*e).is_defined())
        {
            ex.set_entry_return(exit);
        }
        let (argc, argv) = build_argv(ex, st, argv);
        let argv_addr = argv.as_con().expect("argv is placed at a concrete address") as u64;
        crate::posix::set_invocation_name(ex, st, argv_addr);
        let envp = place(st, &[Byte::C(0); 8], "envp");
        let given = [argc, argv, Value::con(envp as u128, 64)];
        for (i, (_, ty)) in f.params.iter().enumerate() {
            let w = augur_engine::scalar_width(&prog, *ty);
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
                    let w = augur_engine::scalar_width(&prog, *ty);
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

/// Start `st` (a fresh initial state) at `entry` with the concrete `argv` and the
/// symbolic environment `spec`: the resulting states (one per symbolic argument count)
/// are queued, or ended at once when setting up fails.
pub fn start(ex: &mut Executor, st: State, entry: FuncId, spec: &EnvSpec, argv: &[String]) {
    let argv_bytes: Vec<Vec<Byte>> = argv
        .iter()
        .map(|s| s.bytes().map(Byte::C).collect())
        .collect();
    match prepare_env(ex, st.clone(), spec, &argv_bytes) {
        Ok(starts) => {
            for (mut st, args) in starts {
                match call_entry(ex, &mut st, entry, &args) {
                    Ok(()) => ex.enqueue(st),
                    Err(outcome) => ex.finish(st, outcome),
                }
            }
        }
        Err(outcome) => ex.finish(st, outcome),
    }
}
