//! SymCon: during re-execution, a call of a recorded function returns the next result the
//! log holds for that function (and writes what the function wrote through its pointer
//! parameters) instead of running symbolically. A path that calls recorded functions in
//! an order the log cannot explain (more calls than logged, or out of the logged order)
//! gets a higher [`SearchPenalty`]: the directed search runs it only when nothing better
//! is left.

use crate::log::{Log, LoggedCall};
use augur_engine::{
    Byte, Call, Exec, Executor, Extension, Intercepted, ObjKind, SearchPenalty, State, Value,
};
use augur_ir::{FpKind, Function, Ty};
use rustc_hash::FxHashMap;
use std::any::Any;
use std::rc::Rc;

/// A path's position in the log.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cursor {
    /// Per logged function: how many of its logged calls the path has used.
    pub used: Vec<usize>,
    /// The largest index (in the whole log) of a call used so far.
    pub last: Option<usize>,
    /// Calls on the path the log could not explain.
    pub unexplained: u32,
    /// Calls whose logged results the path used.
    pub substituted: u32,
}

/// The SymCon extension over one log.
pub struct SymCon {
    log: Rc<Log>,
    by_name: FxHashMap<String, usize>,
    /// Per logged function: indices of its calls in the log, in order.
    calls_of: Vec<Vec<usize>>,
}

impl SymCon {
    /// The extension substituting the calls of `log`.
    pub fn new(log: Rc<Log>) -> Self {
        let by_name = log
            .functions
            .iter()
            .enumerate()
            .map(|(i, f)| (f.name.clone(), i))
            .collect();
        let mut calls_of = vec![Vec::new(); log.functions.len()];
        for (i, c) in log.calls.iter().enumerate() {
            calls_of[c.func as usize].push(i);
        }
        SymCon {
            log,
            by_name,
            calls_of,
        }
    }

    /// The value a logged call returned, as the call's return type.
    fn result(
        ex: &mut Executor,
        st: &mut State,
        call: &Call,
        logged: &LoggedCall,
    ) -> Option<Value> {
        let part = logged.part(0)?;
        let le = |b: &[u8]| -> u128 {
            let mut w = [0u8; 16];
            let n = b.len().min(16);
            w[..n].copy_from_slice(&b[..n]);
            u128::from_le_bytes(w)
        };
        let ty = ex.program.ty(call.ret_ty).ty.clone();
        match (ty, &part.bytes) {
            (Ty::Int(w), Some(b)) => Some(Value::con(le(b), w)),
            (Ty::Float(k), Some(b)) => {
                Some(Value::con(le(b), if k == FpKind::F32 { 32 } else { 64 }))
            }
            (Ty::Ptr, None) => Some(Value::con(0, 64)),
            (Ty::Ptr, Some(b)) => {
                // A logged string: a new object holding it, NUL-terminated.
                let loc = ex.current_loc(st);
                let name = format!("{} result", ex.program.func(call.func).name);
                let base =
                    st.mem_mut()
                        .allocate(b.len() as u64 + 1, 16, ObjKind::Heap, loc, name.into());
                let bytes: Vec<Byte> = b.iter().chain([&0u8]).map(|c| Byte::C(*c)).collect();
                st.mem_mut()
                    .get_mut(base)
                    .expect("just allocated")
                    .write(0, &bytes);
                Some(Value::con(base as u128, 64))
            }
            _ => None,
        }
    }

    /// Write what a logged call wrote through its pointer parameters.
    fn write_params(
        ex: &mut Executor,
        st: &mut State,
        call: &Call,
        logged: &LoggedCall,
    ) -> Exec<()> {
        for p in logged.parts.iter().filter(|p| p.slot > 0) {
            let (Some(ptr), Some(bytes)) = (call.args.get(p.slot as usize - 1), &p.bytes) else {
                continue;
            };
            let r = ex.resolve(st, ptr, bytes.len() as u64, true)?;
            let bytes: Vec<Byte> = bytes.iter().map(|b| Byte::C(*b)).collect();
            ex.write_bytes(st, &r, &bytes);
        }
        Ok(())
    }
}

impl Extension for SymCon {
    fn intercepts(&self, func: &Function) -> bool {
        self.by_name.contains_key(&func.name)
    }

    fn call(&mut self, ex: &mut Executor, st: &mut State, call: &Call) -> Exec<Intercepted> {
        let fid = self.by_name[&ex.program.func(call.func).name];
        let n = self.calls_of.len();
        let cur = st.ext_mut().get_or_default::<Cursor>();
        cur.used.resize(n, 0);
        let next = self.calls_of[fid].get(cur.used[fid]).copied();
        let Some(index) = next else {
            cur.unexplained += 1;
            let penalty = cur.unexplained;
            st.ext_mut().insert(SearchPenalty(penalty));
            return Ok(Intercepted::Proceed);
        };
        if cur.last.is_some_and(|l| index < l) {
            cur.unexplained += 1;
        }
        cur.used[fid] += 1;
        cur.last = Some(cur.last.map_or(index, |l| l.max(index)));
        cur.substituted += 1;
        let penalty = cur.unexplained;
        st.ext_mut().insert(SearchPenalty(penalty));
        let logged = &self.log.calls[index];
        Self::write_params(ex, st, call, logged)?;
        Ok(Intercepted::Result(Self::result(ex, st, call, logged)))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
