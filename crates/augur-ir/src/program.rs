//! The lowered program: dense ids for functions, blocks, registers and globals, operands
//! resolved to registers, immediates and relocations, type sizes and GEP offsets precomputed.
//!
//! The interpreter never sees an `llvm-ir` structure or a name in its hot loop: everything
//! here is an index.

use rustc_hash::FxHashMap;

/// Index of a function in [`Program::functions`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncId(pub u32);

/// Index of a global variable in [`Program::globals`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GlobalId(pub u32);

/// Index of a basic block inside its function.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

/// Index of a register (SSA value slot) in a function's frame.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reg(pub u32);

/// Index of a type in [`Program::types`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TyId(pub u32);

/// Index of a source location in [`Program::locs`]; `LocId(0)` is "unknown".
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct LocId(pub u32);

/// Index of a source file in [`Program::files`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// A position in the user's source.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SrcLoc {
    /// The file.
    pub file: FileId,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (0 when unknown).
    pub col: u32,
}

/// Floating-point formats the interpreter computes with.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FpKind {
    /// IEEE single.
    F32,
    /// IEEE double.
    F64,
    /// x86 80-bit extended, computed as a double (its storage is 16 bytes).
    F80,
}

impl FpKind {
    /// Width in bits of the value as the interpreter holds it.
    pub fn bits(self) -> u32 {
        match self {
            FpKind::F32 => 32,
            FpKind::F64 => 64,
            FpKind::F80 => 80,
        }
    }
}

/// A lowered type, with its layout.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// No value.
    Void,
    /// An integer of the given bit width (1..=128).
    Int(u32),
    /// A 64-bit pointer.
    Ptr,
    /// A floating-point value.
    Float(FpKind),
    /// A struct: each field's type and byte offset.
    Struct {
        /// (offset, type) per field.
        fields: Vec<(u64, TyId)>,
    },
    /// An array or vector of `len` elements `stride` bytes apart.
    Array {
        /// Element type.
        elem: TyId,
        /// Number of elements.
        len: u64,
        /// Distance between elements in bytes.
        stride: u64,
    },
    /// A function type (only appears behind pointers).
    Func,
}

/// A type with its store size, alloc size and alignment.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TypeInfo {
    /// The type.
    pub ty: Ty,
    /// Bytes a load or store of this type touches.
    pub store_size: u64,
    /// Bytes between consecutive elements of this type in an array.
    pub alloc_size: u64,
    /// ABI alignment in bytes.
    pub align: u64,
}

/// What an address constant is relative to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AddrBase {
    /// A global variable.
    Global(GlobalId),
    /// A function (its address is a function pointer).
    Func(FuncId),
}

/// A constant, after folding constant expressions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Const {
    /// An integer (or the bits of a float) of `width` bits.
    Int {
        /// Bit width.
        width: u32,
        /// Value (masked to width).
        value: u128,
    },
    /// The address of a global or function plus a byte offset.
    Addr {
        /// Base object.
        base: AddrBase,
        /// Byte offset.
        offset: i64,
    },
    /// An aggregate (struct or array) given element by element.
    Agg(Vec<Const>),
    /// An all-zero value of the given type (zeroinitializer / null aggregate).
    Zero(TyId),
    /// An undefined value of the given type (the interpreter uses zero).
    Undef(TyId),
}

/// An instruction operand.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// A register of the current frame.
    Reg(Reg),
    /// An integer (or float bits) immediate.
    Imm {
        /// Bit width.
        width: u32,
        /// Value.
        value: u128,
    },
    /// Any other constant (addresses, aggregates).
    Const(Box<Const>),
}

/// Integer binary operations: the expression pool's operators, with LLVM's semantics
/// (one enum for the interpreter, constant folding and expressions).
pub use augur_expr::BinOp as IntOp;

/// Floating-point binary operations.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FpOp {
    /// Addition.
    Add,
    /// Subtraction.
    Sub,
    /// Multiplication.
    Mul,
    /// Division.
    Div,
    /// Remainder (C `fmod`).
    Rem,
}

/// Integer comparison predicates.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum IntPred {
    /// ==
    Eq,
    /// !=
    Ne,
    /// unsigned >
    Ugt,
    /// unsigned >=
    Uge,
    /// unsigned <
    Ult,
    /// unsigned <=
    Ule,
    /// signed >
    Sgt,
    /// signed >=
    Sge,
    /// signed <
    Slt,
    /// signed <=
    Sle,
}

/// Floating-point comparison predicates (LLVM's, ordered/unordered).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FpPred {
    /// Always false.
    False,
    /// Ordered and equal.
    Oeq,
    /// Ordered and greater.
    Ogt,
    /// Ordered and greater or equal.
    Oge,
    /// Ordered and less.
    Olt,
    /// Ordered and less or equal.
    Ole,
    /// Ordered and not equal.
    One,
    /// Neither is NaN.
    Ord,
    /// Either is NaN.
    Uno,
    /// Unordered or equal.
    Ueq,
    /// Unordered or greater.
    Ugt,
    /// Unordered or greater or equal.
    Uge,
    /// Unordered or less.
    Ult,
    /// Unordered or less or equal.
    Ule,
    /// Unordered or not equal.
    Une,
    /// Always true.
    True,
}

/// Integer and pointer casts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CastOp {
    /// Keep the low bits.
    Trunc,
    /// Zero-extend.
    ZExt,
    /// Sign-extend.
    SExt,
    /// Same bits (bitcast, ptrtoint/inttoptr of 64 bits, addrspacecast, freeze).
    Same,
}

/// Casts involving floating point.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FpCastOp {
    /// Float to float.
    Resize,
    /// Float to unsigned integer.
    ToUInt,
    /// Float to signed integer.
    ToSInt,
    /// Unsigned integer to float.
    FromUInt,
    /// Signed integer to float.
    FromSInt,
}

/// The target of a call.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Callee {
    /// A known function (defined or declared).
    Direct(FuncId),
    /// A function pointer.
    Indirect(Operand),
    /// Inline assembly the rewrite before lowering left (the interpreter runs none): why
    /// it cannot run, naming its assembly (None if the module was lowered without that
    /// rewrite).
    Asm(Option<Box<str>>),
}

/// One lowered instruction. Every instruction carries a source location in
/// [`Function::locs`] at the same index.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Inst {
    /// Integer arithmetic or bitwise operation on `width`-bit values.
    Bin {
        /// Operation.
        op: IntOp,
        /// Destination.
        dst: Reg,
        /// Left operand.
        a: Operand,
        /// Right operand.
        b: Operand,
        /// Bit width.
        width: u32,
    },
    /// Floating-point arithmetic.
    FBin {
        /// Operation.
        op: FpOp,
        /// Destination.
        dst: Reg,
        /// Left operand.
        a: Operand,
        /// Right operand.
        b: Operand,
        /// Format.
        kind: FpKind,
    },
    /// Floating-point negation.
    FNeg {
        /// Destination.
        dst: Reg,
        /// Operand.
        a: Operand,
        /// Format.
        kind: FpKind,
    },
    /// Integer or pointer comparison.
    ICmp {
        /// Predicate.
        pred: IntPred,
        /// Destination (i1).
        dst: Reg,
        /// Left operand.
        a: Operand,
        /// Right operand.
        b: Operand,
    },
    /// Floating-point comparison.
    FCmp {
        /// Predicate.
        pred: FpPred,
        /// Destination (i1).
        dst: Reg,
        /// Left operand.
        a: Operand,
        /// Right operand.
        b: Operand,
        /// Format.
        kind: FpKind,
    },
    /// Integer/pointer cast to `width` bits.
    Cast {
        /// Kind of cast.
        op: CastOp,
        /// Destination.
        dst: Reg,
        /// Operand.
        a: Operand,
        /// Result width in bits.
        width: u32,
    },
    /// Cast involving floating point.
    FpCast {
        /// Kind of cast.
        op: FpCastOp,
        /// Destination.
        dst: Reg,
        /// Operand.
        a: Operand,
        /// Source format (for float sources) .
        from: FpKind,
        /// Result format (for float results).
        to: FpKind,
        /// Integer width on the integer side.
        int_width: u32,
    },
    /// `cond ? t : f`.
    Select {
        /// Destination.
        dst: Reg,
        /// Condition (i1).
        cond: Operand,
        /// Value if true.
        t: Operand,
        /// Value if false.
        f: Operand,
    },
    /// Stack allocation of `count` elements of `elem_size` bytes.
    Alloca {
        /// Destination (pointer).
        dst: Reg,
        /// Size of one element.
        elem_size: u64,
        /// Number of elements.
        count: Operand,
        /// Alignment in bytes.
        align: u64,
        /// The source variable it holds, if any: the value name, or the debug
        /// information's name where LLVM made the value name unique (`%p235` holds `p`;
        /// two slots of one function may so hold variables of one name). A parameter's
        /// slot is `NAME.addr`.
        var: Option<Box<str>>,
    },
    /// Load a value of type `ty` from `addr`.
    Load {
        /// Destination.
        dst: Reg,
        /// Address.
        addr: Operand,
        /// Loaded type.
        ty: TyId,
    },
    /// Store `val` of type `ty` at `addr`.
    Store {
        /// Address.
        addr: Operand,
        /// Value.
        val: Operand,
        /// Stored type.
        ty: TyId,
    },
    /// Address arithmetic: `base + offset + sum(sext(index) * scale)`.
    Gep {
        /// Destination.
        dst: Reg,
        /// Base pointer.
        base: Operand,
        /// Constant part of the offset.
        offset: i64,
        /// Variable parts: (index, its bit width, scale in bytes).
        indices: Vec<(Operand, u32, u64)>,
    },
    /// Read a field of an aggregate register.
    ExtractValue {
        /// Destination.
        dst: Reg,
        /// Aggregate.
        agg: Operand,
        /// Path of field indices.
        path: Vec<u32>,
    },
    /// Replace a field of an aggregate.
    InsertValue {
        /// Destination.
        dst: Reg,
        /// Aggregate.
        agg: Operand,
        /// New field value.
        elem: Operand,
        /// Path of field indices.
        path: Vec<u32>,
    },
    /// Function call.
    Call {
        /// Destination (None for void).
        dst: Option<Reg>,
        /// Callee.
        callee: Callee,
        /// Arguments.
        args: Vec<Operand>,
        /// Return type.
        ret_ty: TyId,
    },
    /// SSA phi node: the value flowing in from the predecessor block.
    Phi {
        /// Destination.
        dst: Reg,
        /// (predecessor, value).
        incoming: Vec<(BlockId, Operand)>,
    },
    /// Return from the function.
    Ret {
        /// Returned value.
        val: Option<Operand>,
    },
    /// Unconditional branch.
    Br {
        /// Target.
        target: BlockId,
    },
    /// Conditional branch.
    CondBr {
        /// Condition (i1).
        cond: Operand,
        /// Target if true.
        t: BlockId,
        /// Target if false.
        f: BlockId,
    },
    /// Multi-way branch.
    Switch {
        /// Scrutinee.
        val: Operand,
        /// Case values and targets.
        cases: Vec<(u128, BlockId)>,
        /// Default target.
        default: BlockId,
    },
    /// Control must not reach here.
    Unreachable,
    /// An instruction augur does not interpret (its LLVM name).
    Unsupported(Box<str>),
}

impl Inst {
    /// The register this instruction defines, if any.
    pub fn dst(&self) -> Option<Reg> {
        match self {
            Inst::Bin { dst, .. }
            | Inst::FBin { dst, .. }
            | Inst::FNeg { dst, .. }
            | Inst::ICmp { dst, .. }
            | Inst::FCmp { dst, .. }
            | Inst::Cast { dst, .. }
            | Inst::FpCast { dst, .. }
            | Inst::Select { dst, .. }
            | Inst::Alloca { dst, .. }
            | Inst::Load { dst, .. }
            | Inst::Gep { dst, .. }
            | Inst::ExtractValue { dst, .. }
            | Inst::InsertValue { dst, .. }
            | Inst::Phi { dst, .. } => Some(*dst),
            Inst::Call { dst, .. } => *dst,
            _ => None,
        }
    }

    /// The operands this instruction reads, in field order (phi nodes excepted: their
    /// incoming value depends on the predecessor block). For a call: the function pointer
    /// (if indirect) then the arguments.
    pub fn operands(&self) -> Vec<&Operand> {
        match self {
            Inst::Bin { a, b, .. }
            | Inst::FBin { a, b, .. }
            | Inst::ICmp { a, b, .. }
            | Inst::FCmp { a, b, .. } => vec![a, b],
            Inst::FNeg { a, .. } | Inst::Cast { a, .. } | Inst::FpCast { a, .. } => vec![a],
            Inst::Select { cond, t, f, .. } => vec![cond, t, f],
            Inst::Alloca { count, .. } => vec![count],
            Inst::Load { addr, .. } => vec![addr],
            Inst::Store { addr, val, .. } => vec![addr, val],
            Inst::Gep { base, indices, .. } => std::iter::once(base)
                .chain(indices.iter().map(|i| &i.0))
                .collect(),
            Inst::ExtractValue { agg, .. } => vec![agg],
            Inst::InsertValue { agg, elem, .. } => vec![agg, elem],
            Inst::Call { callee, args, .. } => {
                let target = match callee {
                    Callee::Indirect(op) => Some(op),
                    Callee::Direct(_) | Callee::Asm(_) => None,
                };
                target.into_iter().chain(args.iter()).collect()
            }
            Inst::Ret { val } => val.iter().collect(),
            Inst::CondBr { cond, .. } => vec![cond],
            Inst::Switch { val, .. } => vec![val],
            Inst::Phi { .. } | Inst::Br { .. } | Inst::Unreachable | Inst::Unsupported(_) => {
                Vec::new()
            }
        }
    }

    /// Is this a block terminator?
    pub fn is_terminator(&self) -> bool {
        matches!(
            self,
            Inst::Ret { .. }
                | Inst::Br { .. }
                | Inst::CondBr { .. }
                | Inst::Switch { .. }
                | Inst::Unreachable
        )
    }
}

/// A basic block: a range of [`Function::insts`].
#[derive(Clone, Debug)]
pub struct Block {
    /// The block's LLVM name (for messages).
    pub name: Box<str>,
    /// Index of its first instruction.
    pub start: u32,
    /// One past its last instruction (the terminator).
    pub end: u32,
}

/// A function: a body, or a declaration the environment must provide.
#[derive(Clone, Debug)]
pub struct Function {
    /// Its name.
    pub name: String,
    /// Parameter registers, in order, and their types.
    pub params: Vec<(Reg, TyId)>,
    /// Return type.
    pub ret_ty: TyId,
    /// Does it take `...`?
    pub is_var_arg: bool,
    /// Number of registers in a frame.
    pub num_regs: u32,
    /// All instructions, blocks being ranges of it; the entry block is block 0.
    pub insts: Vec<Inst>,
    /// Source location of each instruction.
    pub locs: Vec<LocId>,
    /// Blocks.
    pub blocks: Vec<Block>,
    /// Location of the function's definition.
    pub loc: LocId,
}

impl Function {
    /// Has a body (is not just a declaration)?
    pub fn is_defined(&self) -> bool {
        !self.blocks.is_empty()
    }
}

/// A global variable.
#[derive(Clone, Debug)]
pub struct Global {
    /// Its name.
    pub name: String,
    /// The type of its contents.
    pub ty: TyId,
    /// Size in bytes.
    pub size: u64,
    /// Alignment in bytes.
    pub align: u64,
    /// Initial value; None for an external declaration.
    pub init: Option<Const>,
    /// Declared constant (read-only)?
    pub is_constant: bool,
}

/// A whole lowered program.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// All functions, defined and declared.
    pub functions: Vec<Function>,
    /// All globals.
    pub globals: Vec<Global>,
    /// Interned types.
    pub types: Vec<TypeInfo>,
    /// Interned source locations; index 0 is a placeholder for "unknown".
    pub locs: Vec<SrcLoc>,
    /// Source file paths, as clang recorded them (joined with the directory).
    pub files: Vec<String>,
    /// Function lookup by name.
    pub func_by_name: FxHashMap<String, FuncId>,
    /// Global lookup by name.
    pub global_by_name: FxHashMap<String, GlobalId>,
}

impl Program {
    /// The function with this id.
    pub fn func(&self, f: FuncId) -> &Function {
        &self.functions[f.0 as usize]
    }

    /// The type with this id.
    pub fn ty(&self, t: TyId) -> &TypeInfo {
        &self.types[t.0 as usize]
    }

    /// The source location, if known.
    pub fn loc(&self, l: LocId) -> Option<&SrcLoc> {
        if l.0 == 0 {
            None
        } else {
            self.locs.get(l.0 as usize)
        }
    }

    /// The path of a source file.
    pub fn file(&self, f: FileId) -> &str {
        &self.files[f.0 as usize]
    }

    /// Look up a function by name.
    pub fn func_named(&self, name: &str) -> Option<FuncId> {
        self.func_by_name.get(name).copied()
    }
}
