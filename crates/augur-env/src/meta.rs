//! Revisions and outputs of meta programs (`augur diff`): `augur_meta(site)` returns the
//! path's revision, forking a base path into every revision at its first meta site
//! (Psychic's Algorithm 2: at most one revision per path, kept outside the path
//! condition); `augur_output(name, addr, size)` records a named output.

use augur_engine::{Call, Exec, Executor, HandlerTable, NamedOutput, OutputKind, State, Value};

/// Register the meta-program intrinsics.
pub fn register(t: &mut HandlerTable) {
    t.add("augur_meta", meta);
    t.add("augur_output", output);
}

/// The revision a path takes at a meta site where `revisions` (each in 1..64) have their
/// own code. A base path (revision 0) not in seeded mode first queues one copy of itself
/// per revision it still stands for, each redoing the call as that revision; it then goes
/// on as the base, no longer standing for those revisions (a path never runs the base's
/// code at one site and a revision's at another). A path of another revision gets its
/// revision where it has code, and 0 (the base's code) elsewhere.
pub fn choose_revision(
    ex: &mut Executor,
    st: &mut State,
    revisions: impl Iterator<Item = u32>,
) -> u32 {
    let mut has_own_code = false;
    let mut passed = 0u64;
    for r in revisions {
        let bit = 1u64 << r;
        if st.revision == 0 && st.seed.is_none() && st.left_behind & bit == 0 {
            let mut copy = st.clone();
            copy.id = ex.fresh_state_id();
            copy.revision = r;
            copy.depth += 1;
            copy.frame_mut().pc -= 1;
            ex.stats.forks += 1;
            ex.enqueue(copy);
        }
        passed |= bit;
        has_own_code |= r == st.revision;
    }
    if st.revision == 0 {
        st.left_behind |= passed;
    }
    if has_own_code {
        st.revision
    } else {
        0
    }
}

/// `int augur_meta(int site)`: a hand-written meta program's revision switch; every
/// revision 1..N-1 (`Options::meta_revisions`) may have code at every site.
fn meta(ex: &mut Executor, st: &mut State, _: &Call) -> Exec<Option<Value>> {
    let n = ex.opts.meta_revisions;
    let r = choose_revision(ex, st, 1..n);
    Ok(Some(Value::con(r as u128, 32)))
}

/// `void augur_output(const char *name, const void *addr, size_t size)`: record the
/// bytes as the output `name` (repeated names get `#2`, `#3`, ...).
fn output(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let name = ex.read_c_string(st, &c.args[0], 256)?;
    let size = ex.concretize(st, &c.args[2])?.min(1 << 16) as u64;
    let bytes = if size == 0 {
        Vec::new()
    } else {
        let r = ex.resolve(st, &c.args[1], size, false)?;
        ex.read_bytes(st, &r, size)
    };
    record_output(st, &name, OutputKind::Annotation, bytes);
    Ok(None)
}

/// Append an output called `name` to the path, numbering repeated names (`name#2`, ...).
pub fn record_output(
    st: &mut State,
    name: &str,
    kind: OutputKind,
    bytes: Vec<augur_engine::memory::Byte>,
) {
    let seen = st
        .outputs
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
    st.outputs.push(NamedOutput {
        name: name.into(),
        kind,
        bytes,
    });
}
