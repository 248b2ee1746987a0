//! Hand-written meta programs (Psychic's format): `augur_meta(site)` returns the path's
//! revision, and the code compares it with revision numbers.

use crate::meta::MAX_REVISIONS;
use augur_ir::{Callee, Inst, Operand, Program, Reg};
use rustc_hash::FxHashSet;

/// The number of revisions of a hand-written meta program: one more than the largest
/// revision number its code compares an `augur_meta(site)` result with (directly, or
/// through a local variable it was stored in). None when it has no such comparison.
pub fn hand_written_revisions(p: &Program) -> Option<u32> {
    let meta = p.func_named("augur_meta")?;
    let mut largest: Option<u128> = None;
    for f in &p.functions {
        let mut tracked: FxHashSet<Reg> = FxHashSet::default();
        let mut slots: FxHashSet<Reg> = FxHashSet::default();
        // Results flow forward at -O0 (call, store to a slot, loads), so a few passes
        // over the body reach them all.
        for _ in 0..3 {
            for inst in &f.insts {
                match inst {
                    Inst::Call {
                        dst: Some(d),
                        callee: Callee::Direct(c),
                        ..
                    } if *c == meta => {
                        tracked.insert(*d);
                    }
                    Inst::Store {
                        addr: Operand::Reg(a),
                        val: Operand::Reg(v),
                        ..
                    } if tracked.contains(v) => {
                        slots.insert(*a);
                    }
                    Inst::Load {
                        dst,
                        addr: Operand::Reg(a),
                        ..
                    } if slots.contains(a) => {
                        tracked.insert(*dst);
                    }
                    _ => {}
                }
            }
        }
        let mut note = |v: u128| largest = Some(largest.map_or(v, |l| l.max(v)));
        for inst in &f.insts {
            match inst {
                Inst::ICmp { a, b, .. } => match (a, b) {
                    (Operand::Reg(r), Operand::Imm { value, .. })
                    | (Operand::Imm { value, .. }, Operand::Reg(r))
                        if tracked.contains(r) =>
                    {
                        note(*value)
                    }
                    _ => {}
                },
                Inst::Switch {
                    val: Operand::Reg(r),
                    cases,
                    ..
                } if tracked.contains(r) => cases.iter().for_each(|(v, _)| note(*v)),
                _ => {}
            }
        }
    }
    largest
        .filter(|l| *l < MAX_REVISIONS as u128)
        .map(|l| l as u32 + 1)
}
