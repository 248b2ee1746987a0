//! Laying out and initialising global variables in the initial state.

use super::Executor;
use crate::bytes::value_to_bytes;
use crate::memory::ObjKind;
use crate::state::State;
use augur_ir::LocId;

/// Allocate every global (all addresses first, since initialisers refer to each other),
/// then write the initial values.
pub(super) fn layout_globals(ex: &mut Executor, st: &mut State) {
    let prog = ex.program.clone();
    ex.global_addrs = prog
        .globals
        .iter()
        .map(|g| {
            st.mem.allocate(
                g.size,
                g.align,
                ObjKind::Global,
                LocId(0),
                g.name.as_str().into(),
            )
        })
        .collect();
    for (i, g) in prog.globals.iter().enumerate() {
        let base = ex.global_addrs[i];
        if let Some(init) = &g.init {
            let v = ex.const_value(init);
            let bytes = value_to_bytes(&mut ex.pool, &prog, g.ty, &v);
            let obj = st.mem.get_mut(base).expect("global allocated");
            let n = bytes.len().min(obj.size as usize);
            obj.write(0, &bytes[..n]);
        }
        st.mem.get_mut(base).expect("global allocated").read_only = g.is_constant;
    }
}
