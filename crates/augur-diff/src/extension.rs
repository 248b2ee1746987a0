//! `augur diff`'s hooks into the engine: the revision and outputs of each path
//! ([`DiffPath`], per-path extension data kept outside the path condition) and the calls
//! the meta program makes to choose revisions and record outputs ([`DiffExtension`]):
//! `augur_meta(site)` and `augur_output(name, addr, size)` of a hand-written meta program,
//! and the stubs' `augur_meta_dispatch` and `augur_diff_observe`. Inputs are shared across
//! paths by creation order, so paths of different revisions can be conjoined.

use crate::meta::{META_DISPATCH, OBSERVE};
use augur_engine::value_to_bytes;
use augur_engine::Byte;
use augur_engine::Param::{Int, Ptr};
use augur_engine::{
    Call, ErrorKind, Exec, Executor, Extension, Intercepted, Signature, State, Value,
};
use augur_expr::{ArrayId, ExprPool};
use augur_ir::{Function, Ty};
use rustc_hash::FxHashMap;
use std::any::Any;
use std::rc::Rc;

/// The most bytes of a pointer argument's pointee that are observed.
pub const MAX_POINTEE_BYTES: u64 = 64;

/// Where a named output comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OutputKind {
    /// An `augur_output` annotation in the program.
    Annotation,
    /// A result of an observed function (return value, pointer argument's pointee).
    Function,
}

/// An output value recorded on a path, compared between revisions.
#[derive(Clone, Debug)]
pub struct NamedOutput {
    /// Its name, unique on the path (e.g. `sum`, `add:ret#2`).
    pub name: Rc<str>,
    /// Where it comes from.
    pub kind: OutputKind,
    /// Its bytes.
    pub bytes: Vec<Byte>,
}

/// A path's place among the revisions (per-path extension data).
#[derive(Clone, Debug, Default)]
pub struct DiffPath {
    /// The revision this path runs (0: the base, and every revision that has not diverged
    /// from it on this path).
    pub revision: u32,
    /// On a base path: the revisions (bit r) whose own code this path has already passed
    /// by, running the base's instead; it no longer stands for them.
    pub left_behind: u64,
    /// Named outputs recorded on the path, in order.
    pub outputs: Vec<NamedOutput>,
}

impl DiffPath {
    /// The revision `st` runs (0 for a path without diff data).
    pub fn revision_of(st: &State) -> u32 {
        st.ext().get::<DiffPath>().map_or(0, |p| p.revision)
    }

    /// The outputs recorded on `st`.
    pub fn outputs_of(st: &State) -> &[NamedOutput] {
        st.ext().get::<DiffPath>().map_or(&[], |p| &p.outputs)
    }
}

/// The meta program's calls into `augur diff`, and its inputs shared across paths.
pub struct DiffExtension {
    /// Revisions of a hand-written meta program (`augur_meta` sites fork a base path into
    /// revisions 1..N-1); 1 for a meta program built from revisions.
    meta_revisions: u32,
    /// The array of each (creation index, name) of input.
    inputs: FxHashMap<(usize, String), ArrayId>,
}

impl DiffExtension {
    /// The extension of a meta program with `meta_revisions` hand-written revisions (1 when
    /// it was built from revisions).
    pub fn new(meta_revisions: u32) -> Self {
        DiffExtension {
            meta_revisions,
            inputs: FxHashMap::default(),
        }
    }
}

/// The calls the extension answers, with the parameters it reads.
const CALLS: &[(&str, Signature)] = &[
    ("augur_meta", Signature::of(&[Int])),
    ("augur_output", Signature::of(&[Ptr, Ptr, Int])),
    (META_DISPATCH, Signature::of(&[Int, Int])),
    (OBSERVE, Signature::variadic(&[Ptr, Int, Int])),
];

impl Extension for DiffExtension {
    fn intercepts(&self, func: &Function) -> bool {
        CALLS.iter().any(|(name, _)| *name == func.name)
    }

    fn call(&mut self, ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Intercepted> {
        let prog = ex.program.clone();
        let name = prog.func(c.func).name.as_str();
        let sig = CALLS.iter().find(|(n, _)| *n == name).map(|c| c.1);
        if let Some(why) = sig.and_then(|s| s.mismatch_with_args(&ex.pool, name, c.args)) {
            return Err(ex.error(st, ErrorKind::Unsupported, why));
        }
        let ret = match name {
            "augur_meta" => {
                let r = choose_revision(ex, st, 1..self.meta_revisions)?;
                Some(Value::con(r as u128, 32))
            }
            "augur_output" => {
                output(ex, st, c)?;
                None
            }
            META_DISPATCH => {
                let mask = c.args[1].as_con().unwrap_or(0);
                let r = choose_revision(ex, st, (1..64u32).filter(|r| mask >> r & 1 == 1))?;
                Some(Value::con(r as u128, 32))
            }
            _ => {
                observe(ex, st, c);
                None
            }
        };
        Ok(Intercepted::Result(ret))
    }

    fn input_array(
        &mut self,
        pool: &mut ExprPool,
        index: usize,
        name: &str,
        size: u64,
    ) -> Option<ArrayId> {
        // One array per (creation index, name): a path asking for more bytes than an
        // earlier one grows it, so the bytes both have are the same input.
        let key = (index, name.to_string());
        Some(match self.inputs.get(&key) {
            Some(&a) => {
                pool.grow_array(a, size);
                a
            }
            None => {
                let a = pool.new_array(name, size);
                self.inputs.insert(key, a);
                a
            }
        })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The revision a path takes at a meta site where `revisions` (each in 1..64) have their
/// own code. A base path (revision 0) not in seeded mode first forks one copy of itself per
/// revision it still stands for, each redoing the call as that revision; it then goes on
/// as the base, no longer standing for those revisions (a path never runs the base's code
/// at one site and a revision's at another). A path of another revision gets its revision
/// where it has code, and 0 (the base's code) elsewhere.
fn choose_revision(
    ex: &mut Executor,
    st: &mut State,
    revisions: impl Iterator<Item = u32>,
) -> Exec<u32> {
    let here: Vec<u32> = revisions.collect();
    // Only the revision and the revisions left behind: the path's outputs are not copied.
    let (revision, left_behind) = st
        .ext()
        .get::<DiffPath>()
        .map_or((0, 0), |p| (p.revision, p.left_behind));
    let passed = here.iter().fold(0u64, |m, r| m | 1 << r);
    if revision != 0 {
        return Ok(if here.contains(&revision) {
            revision
        } else {
            0
        });
    }
    let entering: Vec<u32> = here
        .iter()
        .copied()
        .filter(|r| st.seed().is_none() && left_behind & 1 << r == 0)
        .collect();
    if !entering.is_empty() {
        // The base and one copy per revision entered here: plain copies, told apart by
        // their revision (a fork limit keeps one of them).
        let copies = vec![ex.pool.bool_const(true); entering.len() + 1];
        let forked = ex.fork(st, &copies)?;
        let enter = |s: &mut State, case: usize| {
            s.ext_mut().get_or_default::<DiffPath>().revision = entering[case - 1];
            s.frame_mut().pc -= 1;
        };
        for (case, mut copy) in forked.others {
            enter(&mut copy, case);
            ex.enqueue(copy);
        }
        if forked.taken != 0 {
            enter(st, forked.taken);
            return Ok(0);
        }
    }
    st.ext_mut().get_or_default::<DiffPath>().left_behind |= passed;
    Ok(0)
}

/// `void augur_output(const char *name, const void *addr, size_t size)`: record the
/// bytes as the output `name`.
fn output(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<()> {
    let name = ex.read_c_string(st, &c.args[0], 256)?;
    let size = ex.concretize(st, &c.args[2])?.min(1 << 16) as u64;
    let bytes = if size == 0 {
        Vec::new()
    } else {
        let r = ex.resolve(st, &c.args[1], size, false)?;
        ex.read_bytes(st, &r, size)
    };
    record_output(st, &name, OutputKind::Annotation, bytes);
    Ok(())
}

/// `augur_diff_observe(f, has_result, pointees, [result], args...)` after `f` returned:
/// records `f:ret` (for a pointer result, the bytes it points to, as `f:ret*`) and, for each
/// argument i with bit i of `pointees` set (pointers to data that is not const), the bytes it
/// points to as `f:argI*`.
fn observe(ex: &mut Executor, st: &mut State, c: &Call) {
    let Some(f) = c.args[0].as_con().and_then(|a| ex.function_at(a as u64)) else {
        return;
    };
    let prog = ex.program.clone();
    let func = prog.func(f);
    // A revision's own copy (`name@revK`) reports under the source name.
    let name = func.name.split('@').next().unwrap_or_default();
    let has_ret = c.args[1].as_con() == Some(1);
    let pointees = c.args[2].as_con().unwrap_or(0);
    let args = c.args.get(3 + has_ret as usize..).unwrap_or_default();
    if let (true, Some(ret)) = (has_ret, c.args.get(3)) {
        if matches!(prog.ty(func.ret_ty).ty, Ty::Ptr) {
            record_pointee(&mut ex.pool, st, &format!("{name}:ret*"), ret);
        } else {
            let bytes = value_to_bytes(&mut ex.pool, &prog, func.ret_ty, ret);
            let output = format!("{name}:ret");
            record_output(st, &output, OutputKind::Function, bytes);
        }
    }
    for (i, v) in args.iter().enumerate().take(64) {
        if pointees >> i & 1 == 1 {
            record_pointee(&mut ex.pool, st, &format!("{name}:arg{i}*"), v);
        }
    }
}

/// Append an output called `name` to the path, numbering repeated names (`name#2`, ...).
fn record_output(st: &mut State, name: &str, kind: OutputKind, bytes: Vec<Byte>) {
    let outputs = &mut st.ext_mut().get_or_default::<DiffPath>().outputs;
    let seen = outputs
        .iter()
        .filter(|o| {
            o.name
                .strip_prefix(name)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('#'))
        })
        .count();
    let name = if seen == 0 {
        name.to_string()
    } else {
        format!("{name}#{}", seen + 1)
    };
    outputs.push(NamedOutput {
        name: name.into(),
        kind,
        bytes,
    });
}

/// Record what `ptr` points to as the output `name`, if it points into a live object.
fn record_pointee(pool: &mut ExprPool, st: &mut State, name: &str, ptr: &Value) {
    if let Some(bytes) = pointee(pool, st, ptr) {
        record_output(st, name, OutputKind::Function, bytes);
    }
}

/// The bytes a concrete pointer points to, up to the end of its live object (at most
/// [`MAX_POINTEE_BYTES`]); None for null, dangling, symbolic or function pointers.
fn pointee(pool: &mut ExprPool, st: &State, ptr: &Value) -> Option<Vec<Byte>> {
    let addr = ptr.as_con()? as u64;
    let obj = st.mem().find(addr).filter(|o| !o.freed)?;
    let off = addr - obj.base;
    let n = (obj.size - off).min(MAX_POINTEE_BYTES);
    Some(obj.read(off, n, pool))
}
