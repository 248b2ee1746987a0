//! Constraints compiled into a flat program, for evaluating them under many assignments
//! (a model search tries thousands per second). The program has the [`Evaluator`]'s
//! semantics exactly; it owns all its data so it can move to another thread.
//!
//! [`Evaluator`]: crate::Evaluator

use crate::bits::{fold_bin, fold_cmp, mask, sign_extend};
use crate::float::{fold_fp_bin, fold_fp_cmp, fold_fp_conv, fold_fp_sqrt};
use crate::{
    ArrayId, Assignment, BinOp, CmpOp, ExprId, ExprKind, ExprPool, FpBinOp, FpCmpOp, FpConvOp,
};
use rustc_hash::FxHashMap;

/// The largest input (the bytes of all arrays of the constraints) a query is compiled for.
const MAX_INPUT_BYTES: u64 = 1 << 20;

/// Arrays up to this size get a buffer per store, copied from the one before: a read is
/// then one load instead of a walk down the chain of stores.
const MATERIALISED_BYTES: usize = 1024;

/// A register of the program: the value of one scalar node.
type Reg = u32;

/// An array-sorted node: where a read of it finds its byte.
enum ArrayNode {
    /// Input bytes `offset..offset + size` (one symbolic array); beyond them reads 0.
    Input { offset: usize, size: usize },
    /// Constant bytes; beyond them reads 0.
    Const(Box<[u8]>),
    /// `parent` with the byte at the index in register `index` set to register `value`;
    /// when `buffer` is given, the array's first bytes (as many as the chain's base has)
    /// are kept there in full by [`Op::Store`].
    Store {
        parent: u32,
        index: Reg,
        value: Reg,
        buffer: Option<u32>,
    },
}

impl ArrayNode {
    /// How many bytes the base of this node's chain of stores has.
    fn base_len(&self, nodes: &[ArrayNode]) -> usize {
        match self {
            ArrayNode::Input { size, .. } => *size,
            ArrayNode::Const(bytes) => bytes.len(),
            ArrayNode::Store { parent, .. } => nodes[*parent as usize].base_len(nodes),
        }
    }
}

/// The binary operators whose result is the `u64` result masked to the width.
#[derive(Copy, Clone)]
enum Ring {
    Add,
    Sub,
    Mul,
    And,
    Or,
    Xor,
}

impl Ring {
    /// `op` when it is one of these.
    fn of(op: BinOp) -> Option<Ring> {
        Some(match op {
            BinOp::Add => Ring::Add,
            BinOp::Sub => Ring::Sub,
            BinOp::Mul => Ring::Mul,
            BinOp::And => Ring::And,
            BinOp::Or => Ring::Or,
            BinOp::Xor => Ring::Xor,
            _ => return None,
        })
    }

    /// `a op b`, before masking.
    #[inline]
    fn apply(self, a: u64, b: u64) -> u64 {
        match self {
            Ring::Add => a.wrapping_add(b),
            Ring::Sub => a.wrapping_sub(b),
            Ring::Mul => a.wrapping_mul(b),
            Ring::And => a & b,
            Ring::Or => a | b,
            Ring::Xor => a ^ b,
        }
    }
}

/// One instruction: computes register `dst` from registers (and array nodes).
enum Op {
    /// Fills the buffer of store node `node` (its parent's bytes, then the stored one).
    Store {
        node: u32,
    },
    Select {
        dst: Reg,
        array: u32,
        index: Reg,
    },
    Ite {
        dst: Reg,
        cond: Reg,
        then: Reg,
        els: Reg,
    },
    Concat {
        dst: Reg,
        hi: Reg,
        lo: Reg,
        lo_width: u32,
    },
    Extract {
        dst: Reg,
        src: Reg,
        lo: u32,
        mask: u64,
    },
    SExt {
        dst: Reg,
        src: Reg,
        from: u32,
        to: u32,
    },
    Not {
        dst: Reg,
        src: Reg,
        mask: u64,
    },
    /// An operator whose masked result needs no more care (the common case, kept apart
    /// from the general `Bin` for speed).
    Ring {
        dst: Reg,
        op: Ring,
        a: Reg,
        b: Reg,
        mask: u64,
    },
    Eq {
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    Bin {
        dst: Reg,
        op: BinOp,
        a: Reg,
        b: Reg,
        width: u32,
    },
    Cmp {
        dst: Reg,
        op: CmpOp,
        a: Reg,
        b: Reg,
        width: u32,
    },
    /// A floating-point node; `b` is unused by the unary ones.
    Float {
        dst: Reg,
        op: FloatOp,
        a: Reg,
        b: Reg,
        width: u32,
    },
}

/// The operation of a floating-point node, with its result width for a conversion.
#[derive(Copy, Clone)]
enum FloatOp {
    Bin(FpBinOp),
    Cmp(FpCmpOp),
    Sqrt,
    Conv(FpConvOp, u32),
}

impl FloatOp {
    /// The value for operands `a` and `b` (unused by unary ones) of `width` bits.
    fn apply(self, a: u64, b: u64, width: u32) -> u64 {
        let (a, b) = (u128::from(a), u128::from(b));
        (match self {
            FloatOp::Bin(op) => fold_fp_bin(op, a, b, width),
            FloatOp::Cmp(op) => u128::from(fold_fp_cmp(op, a, b, width)),
            FloatOp::Sqrt => fold_fp_sqrt(a, width),
            FloatOp::Conv(op, to) => fold_fp_conv(op, a, width, to),
        }) as u64
    }
}

/// The working memory of [`CompiledQuery::holds`]: registers and store buffers.
pub struct Scratch {
    regs: Vec<u64>,
    buffers: Vec<Vec<u8>>,
}

/// A conjunction of width-1 constraints as a flat program over numbered 64-bit registers. The
/// input is one byte string: the arrays of the constraints laid end to end
/// ([`CompiledQuery::arrays`]).
pub struct CompiledQuery {
    ops: Vec<Op>,
    /// Every register's value before evaluation (constants stay; the rest are written).
    initial: Vec<u64>,
    array_nodes: Vec<ArrayNode>,
    /// The size of each store buffer.
    buffers: Vec<usize>,
    /// The symbolic arrays in input order, with their sizes.
    arrays: Vec<(ArrayId, usize)>,
    input_len: usize,
    /// Per constraint, in order: the end of its instructions and its result register.
    checks: Vec<(usize, Reg)>,
}

/// Translation state of [`CompiledQuery::compile`].
#[derive(Default)]
struct Compiler {
    ops: Vec<Op>,
    initial: Vec<u64>,
    array_nodes: Vec<ArrayNode>,
    buffers: Vec<usize>,
    /// Arrays up to this size get store buffers.
    buffered: usize,
    regs: FxHashMap<ExprId, Reg>,
    array_of: FxHashMap<ExprId, u32>,
    offsets: FxHashMap<ArrayId, usize>,
}

impl Compiler {
    fn reg(&self, e: ExprId) -> Reg {
        self.regs[&e]
    }

    fn fresh(&mut self, value: u64) -> Reg {
        self.initial.push(value);
        (self.initial.len() - 1) as Reg
    }

    /// Compiles node `n`, whose children are compiled.
    fn node(&mut self, pool: &ExprPool, n: ExprId) {
        let array = |node: ArrayNode, c: &mut Compiler| {
            c.array_nodes.push(node);
            let id = (c.array_nodes.len() - 1) as u32;
            c.array_of.insert(n, id);
        };
        let op = match *pool.kind(n) {
            ExprKind::ArraySym(a) => {
                let size = pool.array_size(a) as usize;
                let offset = self.offsets[&a];
                return array(ArrayNode::Input { offset, size }, self);
            }
            ExprKind::ArrayConst(ref bytes) => {
                return array(ArrayNode::Const(bytes.to_vec().into()), self);
            }
            ExprKind::Store {
                array: parent,
                index,
                value,
            } => {
                let parent = self.array_of[&parent];
                let len = self.array_nodes[parent as usize].base_len(&self.array_nodes);
                let buffer = (len <= self.buffered).then(|| {
                    self.buffers.push(len);
                    (self.buffers.len() - 1) as u32
                });
                let node = ArrayNode::Store {
                    parent,
                    index: self.reg(index),
                    value: self.reg(value),
                    buffer,
                };
                array(node, self);
                if buffer.is_some() {
                    let node = (self.array_nodes.len() - 1) as u32;
                    self.ops.push(Op::Store { node });
                }
                return;
            }
            ExprKind::Const { value, .. } => {
                let r = self.fresh(value as u64);
                self.regs.insert(n, r);
                return;
            }
            ExprKind::Select { array, index } => Op::Select {
                dst: 0,
                array: self.array_of[&array],
                index: self.reg(index),
            },
            ExprKind::Ite { cond, then, els } => Op::Ite {
                dst: 0,
                cond: self.reg(cond),
                then: self.reg(then),
                els: self.reg(els),
            },
            ExprKind::Concat { hi, lo } => Op::Concat {
                dst: 0,
                hi: self.reg(hi),
                lo: self.reg(lo),
                lo_width: pool.width(lo),
            },
            ExprKind::Extract { expr, lo, width } => Op::Extract {
                dst: 0,
                src: self.reg(expr),
                lo,
                mask: mask(width) as u64,
            },
            ExprKind::ZExt { expr, .. } => {
                // Registers hold values zero above their width: the same register serves.
                let r = self.reg(expr);
                self.regs.insert(n, r);
                return;
            }
            ExprKind::SExt { expr, width } => Op::SExt {
                dst: 0,
                src: self.reg(expr),
                from: pool.width(expr),
                to: width,
            },
            ExprKind::Not(e) => Op::Not {
                dst: 0,
                src: self.reg(e),
                mask: mask(pool.width(e)) as u64,
            },
            ExprKind::Bin { op, lhs, rhs } if Ring::of(op).is_some() => Op::Ring {
                dst: 0,
                op: Ring::of(op).expect("checked"),
                a: self.reg(lhs),
                b: self.reg(rhs),
                mask: mask(pool.width(lhs)) as u64,
            },
            ExprKind::Cmp {
                op: CmpOp::Eq,
                lhs,
                rhs,
            } => Op::Eq {
                dst: 0,
                a: self.reg(lhs),
                b: self.reg(rhs),
            },
            ExprKind::Bin { op, lhs, rhs } => Op::Bin {
                dst: 0,
                op,
                a: self.reg(lhs),
                b: self.reg(rhs),
                width: pool.width(lhs),
            },
            ExprKind::Cmp { ref op, lhs, rhs } => Op::Cmp {
                dst: 0,
                op: op.clone(),
                a: self.reg(lhs),
                b: self.reg(rhs),
                width: pool.width(lhs),
            },
            ExprKind::FpBin { op, lhs, rhs } => self.float(FloatOp::Bin(op), pool, lhs, rhs),
            ExprKind::FpCmp { op, lhs, rhs } => self.float(FloatOp::Cmp(op), pool, lhs, rhs),
            ExprKind::FpSqrt(x) => self.float(FloatOp::Sqrt, pool, x, x),
            ExprKind::FpConv { op, expr, width } => {
                self.float(FloatOp::Conv(op, width), pool, expr, expr)
            }
        };
        let dst = self.fresh(0);
        self.regs.insert(n, dst);
        self.ops.push(op.with_dst(dst));
    }
}

impl Compiler {
    /// The instruction of a floating-point node with operands `a` and `b`.
    fn float(&self, op: FloatOp, pool: &ExprPool, a: ExprId, b: ExprId) -> Op {
        Op::Float {
            dst: 0,
            op,
            a: self.reg(a),
            b: self.reg(b),
            width: pool.width(a),
        }
    }
}

impl Op {
    /// This instruction writing register `r`.
    fn with_dst(mut self, r: Reg) -> Op {
        match &mut self {
            Op::Select { dst, .. }
            | Op::Ite { dst, .. }
            | Op::Concat { dst, .. }
            | Op::Extract { dst, .. }
            | Op::SExt { dst, .. }
            | Op::Not { dst, .. }
            | Op::Ring { dst, .. }
            | Op::Eq { dst, .. }
            | Op::Bin { dst, .. }
            | Op::Cmp { dst, .. }
            | Op::Float { dst, .. } => *dst = r,
            Op::Store { .. } => {}
        }
        self
    }
}

impl CompiledQuery {
    /// `constraints` (width-1 expressions of `pool`) compiled, constraint by constraint so
    /// that evaluation stops at the first one that fails (registers are 64-bit); None when
    /// a value is wider than 64 bits or their arrays hold more than a mebibyte.
    pub fn compile(pool: &ExprPool, constraints: &[ExprId]) -> Option<CompiledQuery> {
        Self::compile_buffering(pool, constraints, MATERIALISED_BYTES)
    }

    /// [`CompiledQuery::compile`], giving store buffers to arrays of up to `buffered`
    /// bytes.
    pub(crate) fn compile_buffering(
        pool: &ExprPool,
        constraints: &[ExprId],
        buffered: usize,
    ) -> Option<CompiledQuery> {
        let mut c = Compiler {
            buffered,
            ..Compiler::default()
        };
        let arrays = pool.arrays_of_all(constraints);
        let total: u64 = arrays.iter().map(|&a| pool.array_size(a)).sum();
        if total > MAX_INPUT_BYTES {
            return None;
        }
        let mut layout = Vec::with_capacity(arrays.len());
        let mut offset = 0;
        for a in arrays {
            let size = pool.array_size(a) as usize;
            c.offsets.insert(a, offset);
            layout.push((a, size));
            offset += size;
        }
        let mut checks = Vec::with_capacity(constraints.len());
        for &constraint in constraints {
            for n in pool.post_order(&[constraint], |n| {
                c.regs.contains_key(&n) || c.array_of.contains_key(&n)
            }) {
                if pool.width(n) > 64 {
                    return None;
                }
                c.node(pool, n);
            }
            checks.push((c.ops.len(), c.reg(constraint)));
        }
        Some(CompiledQuery {
            ops: c.ops,
            initial: c.initial,
            array_nodes: c.array_nodes,
            buffers: c.buffers,
            arrays: layout,
            input_len: offset,
            checks,
        })
    }

    /// The symbolic arrays the input holds, in order, with their sizes in bytes.
    pub fn arrays(&self) -> &[(ArrayId, usize)] {
        &self.arrays
    }

    /// The size of the input in bytes.
    pub fn input_len(&self) -> usize {
        self.input_len
    }

    /// The number of instructions one evaluation runs at most.
    pub fn instructions(&self) -> usize {
        self.ops.len()
    }

    /// Fresh working memory for [`CompiledQuery::holds`] (reused across calls).
    pub fn scratch(&self) -> Scratch {
        Scratch {
            regs: self.initial.clone(),
            buffers: self.buffers.iter().map(|&len| vec![0; len]).collect(),
        }
    }

    /// Whether every constraint holds when the arrays hold `input` (of
    /// [`CompiledQuery::input_len`] bytes). `scratch` comes from
    /// [`CompiledQuery::scratch`].
    pub fn holds(&self, input: &[u8], scratch: &mut Scratch) -> bool {
        let mut start = 0;
        for &(end, result) in &self.checks {
            for op in &self.ops[start..end] {
                self.run(op, input, scratch);
            }
            if scratch.regs[result as usize] != 1 {
                return false;
            }
            start = end;
        }
        true
    }

    /// Whether each constraint holds, in order, when the arrays hold `input`: unlike
    /// [`CompiledQuery::holds`], every constraint is evaluated (to tell which of many
    /// candidate predicates an input satisfies). `out` is cleared first.
    pub fn holds_each(&self, input: &[u8], scratch: &mut Scratch, out: &mut Vec<bool>) {
        out.clear();
        for op in &self.ops {
            self.run(op, input, scratch);
        }
        out.extend(
            self.checks
                .iter()
                .map(|&(_, result)| scratch.regs[result as usize] == 1),
        );
    }

    /// Executes one instruction.
    #[inline]
    fn run(&self, op: &Op, input: &[u8], scratch: &mut Scratch) {
        let v = |r: &[u64], reg: Reg| r[reg as usize];
        let r = &mut scratch.regs;
        let (dst, value) = match *op {
            Op::Store { node } => return self.fill(node, input, scratch),
            Op::Select { dst, array, index } => {
                let i = v(r, index);
                (dst, self.select(array, i, input, r, &scratch.buffers))
            }
            Op::Ite {
                dst,
                cond,
                then,
                els,
            } => (dst, v(r, if v(r, cond) == 1 { then } else { els })),
            Op::Concat {
                dst,
                hi,
                lo,
                lo_width,
            } => (dst, (v(r, hi) << lo_width) | v(r, lo)),
            Op::Extract { dst, src, lo, mask } => (dst, (v(r, src) >> lo) & mask),
            Op::SExt { dst, src, from, to } => {
                (dst, sign_extend(v(r, src).into(), from, to) as u64)
            }
            Op::Not { dst, src, mask } => (dst, !v(r, src) & mask),
            Op::Ring {
                dst,
                op,
                a,
                b,
                mask,
            } => (dst, op.apply(v(r, a), v(r, b)) & mask),
            Op::Eq { dst, a, b } => (dst, u64::from(v(r, a) == v(r, b))),
            Op::Bin {
                dst,
                ref op,
                a,
                b,
                width,
            } => (
                dst,
                fold_bin(op, v(r, a).into(), v(r, b).into(), width) as u64,
            ),
            Op::Cmp {
                dst,
                ref op,
                a,
                b,
                width,
            } => {
                let holds = fold_cmp(op, v(r, a).into(), v(r, b).into(), width);
                (dst, u64::from(holds))
            }
            Op::Float {
                dst,
                op,
                a,
                b,
                width,
            } => (dst, op.apply(v(r, a), v(r, b), width)),
        };
        r[dst as usize] = value;
    }

    /// Fills the buffer of store node `node`: its parent's bytes, then the stored byte.
    fn fill(&self, node: u32, input: &[u8], scratch: &mut Scratch) {
        let ArrayNode::Store {
            parent,
            index,
            value,
            buffer: Some(b),
        } = self.array_nodes[node as usize]
        else {
            unreachable!("only stores with a buffer are filled")
        };
        let b = b as usize;
        let mut out = std::mem::take(&mut scratch.buffers[b]);
        match &self.array_nodes[parent as usize] {
            ArrayNode::Input { offset, size } => {
                out.copy_from_slice(&input[*offset..offset + size])
            }
            ArrayNode::Const(bytes) => out.copy_from_slice(bytes),
            ArrayNode::Store { buffer, .. } => {
                let from = buffer.expect("a chain's stores all have buffers or none");
                out.copy_from_slice(&scratch.buffers[from as usize]);
            }
        }
        let at = scratch.regs[index as usize];
        if let Some(byte) = usize::try_from(at).ok().and_then(|at| out.get_mut(at)) {
            *byte = scratch.regs[value as usize] as u8;
        }
        scratch.buffers[b] = out;
    }

    /// The byte of array node `array` at index `i`.
    fn select(&self, mut array: u32, i: u64, input: &[u8], r: &[u64], buffers: &[Vec<u8>]) -> u64 {
        loop {
            match &self.array_nodes[array as usize] {
                ArrayNode::Store {
                    parent,
                    index,
                    value,
                    buffer,
                } => {
                    let kept = buffer.and_then(|b| {
                        let at = usize::try_from(i).ok()?;
                        buffers[b as usize].get(at)
                    });
                    if let Some(&byte) = kept {
                        return u64::from(byte);
                    }
                    if r[*index as usize] == i {
                        return r[*value as usize];
                    }
                    array = *parent;
                }
                ArrayNode::Input { offset, size } => {
                    return match usize::try_from(i) {
                        Ok(i) if i < *size => u64::from(input[offset + i]),
                        _ => 0,
                    };
                }
                ArrayNode::Const(bytes) => {
                    let byte = usize::try_from(i).ok().and_then(|i| bytes.get(i));
                    return u64::from(byte.copied().unwrap_or(0));
                }
            }
        }
    }

    /// `input` as an assignment of the arrays (every array a full byte vector).
    pub fn assignment(&self, input: &[u8]) -> Assignment {
        let mut out = Assignment::default();
        let mut offset = 0;
        for &(a, size) in &self.arrays {
            out.set(a, input[offset..offset + size].to_vec());
            offset += size;
        }
        out
    }

    /// `model` laid out as an input (bytes it lacks are 0).
    pub fn input_of(&self, model: &Assignment) -> Vec<u8> {
        let mut input = Vec::with_capacity(self.input_len);
        for &(a, size) in &self.arrays {
            let start = input.len();
            input.extend(model.get(a).unwrap_or(&[]).iter().take(size));
            input.resize(start + size, 0);
        }
        input
    }
}
