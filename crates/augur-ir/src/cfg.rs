//! Static control-flow analyses of one function: successors, predecessors, the block of
//! each instruction, post-dominators and control dependence (Ferrante, Ottenstein and
//! Warren: `B` is control dependent on `A` when `A` has a successor from which `B` is
//! always reached on the way out of the function, but `B` does not post-dominate `A`),
//! dominators and natural loops.

use crate::program::{BlockId, Function, Inst};

/// The blocks control can go to after `b` (distinct, in terminator order).
pub fn successors(f: &Function, b: BlockId) -> Vec<BlockId> {
    let block = &f.blocks[b.0 as usize];
    let mut out: Vec<BlockId> = match &f.insts[block.end as usize - 1] {
        Inst::Br { target } => vec![*target],
        Inst::CondBr { t, f, .. } => vec![*t, *f],
        Inst::Switch { cases, default, .. } => {
            cases.iter().map(|c| c.1).chain([*default]).collect()
        }
        _ => Vec::new(),
    };
    let mut seen = Vec::new();
    out.retain(|s| {
        let new = !seen.contains(s);
        seen.push(*s);
        new
    });
    out
}

/// The predecessors of every block.
pub fn predecessors(f: &Function) -> Vec<Vec<BlockId>> {
    let mut preds = vec![Vec::new(); f.blocks.len()];
    for b in 0..f.blocks.len() {
        for s in successors(f, BlockId(b as u32)) {
            preds[s.0 as usize].push(BlockId(b as u32));
        }
    }
    preds
}

/// The block holding instruction `pc` of `f` (blocks are laid out in order, as lowering
/// writes them).
pub fn block_containing(f: &Function, pc: u32) -> BlockId {
    BlockId(f.blocks.partition_point(|b| b.end <= pc) as u32)
}

/// A set of node indices as a bit vector.
#[derive(Clone, PartialEq, Eq)]
struct Bits(Vec<u64>);

impl Bits {
    fn full(n: usize) -> Self {
        Bits(vec![u64::MAX; n.div_ceil(64)])
    }
    fn empty(n: usize) -> Self {
        Bits(vec![0; n.div_ceil(64)])
    }
    fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    fn contains(&self, i: usize) -> bool {
        self.0[i / 64] & (1 << (i % 64)) != 0
    }
    fn intersect(&mut self, other: &Bits) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a &= b;
        }
    }
}

/// The post-dominator tree of a function, with a virtual exit node after every block
/// that leaves the function (returns, unreachable) or can never leave it (an endless
/// loop is treated as leaving, so every block has an immediate post-dominator).
pub struct PostDominators {
    /// Immediate post-dominator per block; `None` is the virtual exit.
    ipdom: Vec<Option<BlockId>>,
    /// Post-dominator sets (virtual exit at index `blocks.len()`).
    sets: Vec<Bits>,
}

impl PostDominators {
    /// Compute the post-dominators of the defined function `f` (iterative data flow).
    pub fn compute(f: &Function) -> Self {
        let n = f.blocks.len();
        let exit = n;
        let mut succs: Vec<Vec<usize>> = (0..n)
            .map(|b| {
                successors(f, BlockId(b as u32))
                    .into_iter()
                    .map(|s| s.0 as usize)
                    .collect()
            })
            .collect();
        // Blocks that leave the function go to the exit; so do blocks from which the
        // exit cannot be reached at all.
        for s in succs.iter_mut().filter(|s| s.is_empty()) {
            s.push(exit);
        }
        let mut reaches = vec![false; n + 1];
        reaches[exit] = true;
        let mut changed = true;
        while changed {
            changed = false;
            for b in 0..n {
                if !reaches[b] && succs[b].iter().any(|s| reaches[*s]) {
                    reaches[b] = true;
                    changed = true;
                }
            }
        }
        for (b, s) in succs.iter_mut().enumerate() {
            if !reaches[b] {
                s.push(exit);
            }
        }
        let mut sets = vec![Bits::full(n + 1); n + 1];
        sets[exit] = Bits::empty(n + 1);
        sets[exit].insert(exit);
        let mut changed = true;
        while changed {
            changed = false;
            for b in (0..n).rev() {
                let mut new = Bits::full(n + 1);
                for s in &succs[b] {
                    new.intersect(&sets[*s]);
                }
                new.insert(b);
                if new != sets[b] {
                    sets[b] = new;
                    changed = true;
                }
            }
        }
        let size = |i: usize| -> usize { sets[i].0.iter().map(|w| w.count_ones() as usize).sum() };
        let ipdom = (0..n)
            .map(|b| {
                (0..n)
                    .filter(|d| *d != b && sets[b].contains(*d))
                    .max_by_key(|d| size(*d))
                    .map(|d| BlockId(d as u32))
            })
            .collect();
        PostDominators { ipdom, sets }
    }

    /// The immediate post-dominator of `b` (`None`: the function's exit).
    pub fn ipdom(&self, b: BlockId) -> Option<BlockId> {
        self.ipdom[b.0 as usize]
    }

    /// Does `a` post-dominate `b` (every path from `b` out of the function meets `a`)?
    pub fn postdominates(&self, a: BlockId, b: BlockId) -> bool {
        self.sets[b.0 as usize].contains(a.0 as usize)
    }
}

/// The static control-dependence graph of a function.
pub struct ControlDeps {
    /// Per block, the blocks whose terminator decides whether it executes.
    deps: Vec<Vec<BlockId>>,
}

impl ControlDeps {
    /// Compute the control dependences of the defined function `f`.
    pub fn compute(f: &Function) -> Self {
        let pdom = PostDominators::compute(f);
        let mut deps: Vec<Vec<BlockId>> = vec![Vec::new(); f.blocks.len()];
        for a in 0..f.blocks.len() {
            let a = BlockId(a as u32);
            let succs = successors(f, a);
            if succs.len() < 2 {
                continue;
            }
            let stop = pdom.ipdom(a);
            for s in succs {
                let mut runner = Some(s);
                while let Some(r) = runner {
                    if Some(r) == stop {
                        break;
                    }
                    if !deps[r.0 as usize].contains(&a) {
                        deps[r.0 as usize].push(a);
                    }
                    runner = pdom.ipdom(r);
                }
            }
        }
        ControlDeps { deps }
    }

    /// The blocks `b` is control dependent on (empty: it runs whenever its function does).
    pub fn of(&self, b: BlockId) -> &[BlockId] {
        &self.deps[b.0 as usize]
    }
}

/// The dominator sets of a function's blocks (`a` dominates `b` when every path from the
/// entry to `b` passes through `a`); blocks unreachable from the entry dominate nothing
/// and are dominated by everything.
pub struct Dominators {
    sets: Vec<Bits>,
}

impl Dominators {
    /// Compute the dominators of the defined function `f` (iterative data flow).
    pub fn compute(f: &Function) -> Self {
        let n = f.blocks.len();
        let preds = predecessors(f);
        let mut sets = vec![Bits::full(n); n];
        sets[0] = Bits::empty(n);
        sets[0].insert(0);
        let mut changed = true;
        while changed {
            changed = false;
            for b in 1..n {
                let mut new = Bits::full(n);
                for p in &preds[b] {
                    new.intersect(&sets[p.0 as usize]);
                }
                new.insert(b);
                if new != sets[b] {
                    sets[b] = new;
                    changed = true;
                }
            }
        }
        Dominators { sets }
    }

    /// Does `a` dominate `b`?
    pub fn dominates(&self, a: BlockId, b: BlockId) -> bool {
        self.sets[b.0 as usize].contains(a.0 as usize)
    }
}

/// A natural loop: the blocks of every back edge `latch -> header` (the header dominates
/// the latch) with the same header, merged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    /// The loop's header (its single entry).
    pub header: BlockId,
    /// Every block of the loop, header included, in block order.
    pub blocks: Vec<BlockId>,
}

impl Loop {
    /// Is `b` in the loop?
    pub fn contains(&self, b: BlockId) -> bool {
        self.blocks.binary_search(&b).is_ok()
    }

    /// The blocks of the loop with a successor outside it (where the trip count is
    /// decided).
    pub fn exiting_blocks(&self, f: &Function) -> Vec<BlockId> {
        self.blocks
            .iter()
            .copied()
            .filter(|b| successors(f, *b).iter().any(|s| !self.contains(*s)))
            .collect()
    }
}

/// The natural loops of the defined function `f`, by header in block order.
pub fn natural_loops(f: &Function) -> Vec<Loop> {
    let dom = Dominators::compute(f);
    let preds = predecessors(f);
    let mut loops: Vec<Loop> = Vec::new();
    for b in 0..f.blocks.len() {
        let latch = BlockId(b as u32);
        for header in successors(f, latch) {
            if !dom.dominates(header, latch) {
                continue;
            }
            // The loop body: the header plus everything reaching the latch backwards
            // without passing through the header.
            let mut body = vec![header];
            let mut work = vec![latch];
            while let Some(x) = work.pop() {
                if body.contains(&x) {
                    continue;
                }
                body.push(x);
                work.extend(preds[x.0 as usize].iter().copied());
            }
            match loops.iter_mut().find(|l| l.header == header) {
                Some(l) => l.blocks.extend(body),
                None => loops.push(Loop {
                    header,
                    blocks: body,
                }),
            }
        }
    }
    for l in &mut loops {
        l.blocks.sort();
        l.blocks.dedup();
    }
    loops.sort_by_key(|l| l.header);
    loops
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::{Block, LocId, Operand, Reg, TyId};

    /// A function whose blocks end with the given terminators (one instruction each).
    fn func(terms: Vec<Inst>) -> Function {
        let n = terms.len() as u32;
        Function {
            name: "f".into(),
            params: Vec::new(),
            ret_ty: TyId(0),
            is_var_arg: false,
            num_regs: 1,
            locs: vec![LocId(0); n as usize],
            insts: terms,
            blocks: (0..n)
                .map(|i| Block {
                    name: format!("b{i}").into(),
                    start: i,
                    end: i + 1,
                })
                .collect(),
            loc: LocId(0),
        }
    }

    fn cond(t: u32, f: u32) -> Inst {
        Inst::CondBr {
            cond: Operand::Reg(Reg(0)),
            t: BlockId(t),
            f: BlockId(f),
        }
    }

    fn br(t: u32) -> Inst {
        Inst::Br { target: BlockId(t) }
    }

    #[test]
    fn if_then_else_join() {
        // 0: if -> 1 | 2; 1 -> 3; 2 -> 3; 3: ret
        let f = func(vec![cond(1, 2), br(3), br(3), Inst::Ret { val: None }]);
        let pd = PostDominators::compute(&f);
        assert_eq!(pd.ipdom(BlockId(0)), Some(BlockId(3)));
        assert_eq!(pd.ipdom(BlockId(3)), None);
        assert!(pd.postdominates(BlockId(3), BlockId(1)));
        let cd = ControlDeps::compute(&f);
        assert_eq!(cd.of(BlockId(1)), &[BlockId(0)]);
        assert_eq!(cd.of(BlockId(2)), &[BlockId(0)]);
        assert!(cd.of(BlockId(3)).is_empty());
        assert!(cd.of(BlockId(0)).is_empty());
        assert_eq!(predecessors(&f)[3], vec![BlockId(1), BlockId(2)]);
        assert_eq!(block_containing(&f, 2), BlockId(2));
    }

    #[test]
    fn loop_body_and_header_depend_on_the_header() {
        // 0 -> 1; 1: while -> 2 | 3; 2 -> 1; 3: ret
        let f = func(vec![br(1), cond(2, 3), br(1), Inst::Ret { val: None }]);
        let cd = ControlDeps::compute(&f);
        assert_eq!(cd.of(BlockId(2)), &[BlockId(1)]);
        assert_eq!(cd.of(BlockId(1)), &[BlockId(1)]);
        assert!(cd.of(BlockId(3)).is_empty());
    }

    #[test]
    fn endless_loop_still_has_post_dominators() {
        // 0: if -> 1 | 2; 1 -> 1 (forever); 2: ret
        let f = func(vec![cond(1, 2), br(1), Inst::Ret { val: None }]);
        let cd = ControlDeps::compute(&f);
        assert_eq!(cd.of(BlockId(1)), &[BlockId(0)]);
        assert_eq!(cd.of(BlockId(2)), &[BlockId(0)]);
    }
    #[test]
    fn nested_natural_loops() {
        // 0 -> 1; 1: outer -> 2 | 5; 2: inner -> 3 | 4; 3 -> 2; 4 -> 1; 5: ret
        let f = func(vec![
            br(1),
            cond(2, 5),
            cond(3, 4),
            br(2),
            br(1),
            Inst::Ret { val: None },
        ]);
        let dom = Dominators::compute(&f);
        assert!(dom.dominates(BlockId(1), BlockId(4)));
        assert!(!dom.dominates(BlockId(3), BlockId(4)));
        let loops = natural_loops(&f);
        assert_eq!(loops.len(), 2);
        let b = |v: &[u32]| v.iter().map(|i| BlockId(*i)).collect::<Vec<_>>();
        assert_eq!(loops[0].header, BlockId(1));
        assert_eq!(loops[0].blocks, b(&[1, 2, 3, 4]));
        assert_eq!(loops[1].blocks, b(&[2, 3]));
        assert_eq!(loops[0].exiting_blocks(&f), b(&[1]));
        assert_eq!(loops[1].exiting_blocks(&f), b(&[2]));
    }
}
