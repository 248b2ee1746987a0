//! Meta branches inside a function: when the versions of a function share their first
//! blocks (the code before the patch), the meta program runs that shared prefix once and
//! branches on the path's revision only on the edges leaving it, so work done before a
//! patch inside a function (often `main`) is shared too. Each version's remaining blocks
//! are appended to one body, with their registers and blocks renumbered; every edge from
//! the prefix into the rest goes through a dispatch block that asks
//! `augur_meta_dispatch(site, mask)` for the revision and switches to that version's
//! block. Where this cannot be done safely (the first block differs, a phi node in the
//! prefix has a predecessor outside it, registers are not numbered in order), the caller
//! dispatches on the whole function instead.

use augur_ir::{Block, BlockId, Callee, FuncId, Function, IdMap, Inst, Operand, Reg, TyId};

/// One version of a function and the revisions that run it (none for the default).
pub struct Version<'a> {
    /// Its body.
    pub body: &'a Function,
    /// The revisions running it.
    pub revisions: &'a [u32],
}

/// The meta branch's callee and its site.
pub struct Dispatch {
    /// `augur_meta_dispatch`.
    pub func: FuncId,
    /// The site number.
    pub site: u32,
    /// Its result type (i32).
    pub ret_ty: TyId,
}

/// The number of leading blocks identical in every version.
fn shared_prefix(versions: &[Version]) -> usize {
    let v0 = versions[0].body;
    let same = |b: usize, f: &Function| {
        let (x, y) = (&v0.blocks[b], &f.blocks[b]);
        (x.start, x.end) == (y.start, y.end)
            && v0.insts[x.start as usize..x.end as usize]
                == f.insts[y.start as usize..y.end as usize]
    };
    (0..v0.blocks.len())
        .take_while(|&b| {
            versions[1..]
                .iter()
                .all(|v| b < v.body.blocks.len() && same(b, v.body))
        })
        .count()
}

/// Block targets of a terminator.
fn targets(i: &Inst) -> Vec<BlockId> {
    match i {
        Inst::Br { target } => vec![*target],
        Inst::CondBr { t, f, .. } => vec![*t, *f],
        Inst::Switch { cases, default, .. } => {
            let mut v: Vec<BlockId> = cases.iter().map(|c| c.1).collect();
            v.push(*default);
            v
        }
        _ => Vec::new(),
    }
}

/// Renumbers a version's own registers (from `first`) and blocks (from the prefix's end).
struct Renumber {
    first_reg: u32,
    reg_base: u32,
    prefix_blocks: u32,
    block_base: u32,
}

impl IdMap for Renumber {
    fn reg(&mut self, r: Reg) -> Reg {
        if r.0 < self.first_reg {
            r
        } else {
            Reg(r.0 - self.first_reg + self.reg_base)
        }
    }
    fn block(&mut self, b: BlockId) -> BlockId {
        if b.0 < self.prefix_blocks {
            b
        } else {
            BlockId(b.0 - self.prefix_blocks + self.block_base)
        }
    }
}

/// Redirects the edges of one prefix terminator into the rest through dispatch blocks.
struct Redirect<'a>(&'a [(BlockId, BlockId)]);

impl IdMap for Redirect<'_> {
    fn block(&mut self, b: BlockId) -> BlockId {
        self.0.iter().find(|(t, _)| *t == b).map_or(b, |(_, d)| *d)
    }
}

/// Replace the predecessor `from` of the phi nodes at the start of block `b` by `to`.
fn repoint_phis(f: &mut Function, b: BlockId, from: BlockId, to: BlockId) {
    let blk = &f.blocks[b.0 as usize];
    for i in blk.start..blk.end {
        let Inst::Phi { incoming, .. } = &mut f.insts[i as usize] else {
            break;
        };
        for (p, _) in incoming.iter_mut() {
            if *p == from {
                *p = to;
            }
        }
    }
}

/// The versions merged into one body with meta branches after their shared prefix, or
/// None when that cannot be done safely.
pub fn merge(versions: &[Version], d: &Dispatch) -> Option<Function> {
    let v0 = versions[0].body;
    let prefix = shared_prefix(versions);
    if prefix == 0 || prefix >= v0.blocks.len() {
        return None;
    }
    let rest_start = v0.blocks[prefix].start as usize;
    let prefix_insts = &v0.insts[..rest_start];
    // A phi node in the prefix whose predecessor is past it would need a value per version.
    let back_into_phi = prefix_insts.iter().any(|i| {
        matches!(i, Inst::Phi { incoming, .. } if incoming.iter().any(|(b, _)| b.0 as usize >= prefix))
    });
    if back_into_phi {
        return None;
    }
    // Registers are numbered in definition order: the prefix defines those below `first`.
    let first = prefix_insts
        .iter()
        .filter_map(Inst::dst)
        .map(|r| r.0 + 1)
        .chain(v0.params.iter().map(|p| p.0 .0 + 1))
        .max()
        .unwrap_or(0);
    let in_order = versions.iter().all(|v| {
        v.body.insts[v.body.blocks[prefix].start as usize..]
            .iter()
            .filter_map(Inst::dst)
            .all(|r| r.0 >= first)
    });
    if !in_order {
        return None;
    }
    let mut f = v0.clone();
    f.num_regs = v0.num_regs.max(first);
    // Where each version's copy of block `t` (t >= prefix) is in the merged body.
    let mut block_of: Vec<Vec<BlockId>> = vec![(0..v0.blocks.len() as u32).map(BlockId).collect()];
    for v in &versions[1..] {
        let body = v.body;
        let mut ren = Renumber {
            first_reg: first,
            reg_base: f.num_regs,
            prefix_blocks: prefix as u32,
            block_base: f.blocks.len() as u32,
        };
        block_of.push(
            (0..body.blocks.len() as u32)
                .map(|b| ren.block(BlockId(b)))
                .collect(),
        );
        for blk in &body.blocks[prefix..] {
            let start = f.insts.len() as u32;
            for k in blk.start..blk.end {
                f.insts.push(body.insts[k as usize].map_ids(&mut ren));
                f.locs.push(body.locs[k as usize]);
            }
            f.blocks.push(Block {
                name: blk.name.clone(),
                start,
                end: f.insts.len() as u32,
            });
        }
        f.num_regs += body.num_regs.saturating_sub(first);
    }
    let rev_reg = Reg(f.num_regs);
    f.num_regs += 1;
    let mask = versions
        .iter()
        .flat_map(|v| v.revisions.iter())
        .fold(0u128, |m, r| m | 1 << r);
    for pb in 0..prefix {
        let term = f.blocks[pb].end as usize - 1;
        let mut redirects: Vec<(BlockId, BlockId)> = Vec::new();
        for t in targets(&f.insts[term]) {
            if (t.0 as usize) < prefix || redirects.iter().any(|r| r.0 == t) {
                continue;
            }
            let dblock = BlockId(f.blocks.len() as u32);
            let cases = versions
                .iter()
                .enumerate()
                .skip(1)
                .flat_map(|(k, v)| v.revisions.iter().map(move |r| (k, *r)))
                .map(|(k, r)| (r as u128, block_of[k][t.0 as usize]))
                .collect();
            let start = f.insts.len() as u32;
            f.insts.push(Inst::Call {
                dst: Some(rev_reg),
                callee: Callee::Direct(d.func),
                args: vec![
                    Operand::Imm {
                        width: 32,
                        value: d.site as u128,
                    },
                    Operand::Imm {
                        width: 64,
                        value: mask,
                    },
                ],
                ret_ty: d.ret_ty,
            });
            f.insts.push(Inst::Switch {
                val: Operand::Reg(rev_reg),
                cases,
                default: t,
            });
            f.locs.extend([f.locs[term]; 2]);
            f.blocks.push(Block {
                name: format!("meta.{}", t.0).into(),
                start,
                end: f.insts.len() as u32,
            });
            for copies in &block_of {
                repoint_phis(&mut f, copies[t.0 as usize], BlockId(pb as u32), dblock);
            }
            redirects.push((t, dblock));
        }
        f.insts[term].map_ids_in_place(&mut Redirect(&redirects));
    }
    Some(f)
}
