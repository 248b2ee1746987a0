//! Splitting integer constants wider than 64 bits before `llvm-ir` reads a module.
//!
//! `llvm-ir` 0.11 represents an integer constant as `Constant::Int { bits, value: u64 }`,
//! reading it with `LLVMConstIntGetZExtValue`, so an `i128` constant such as the one clang
//! emits for `(__int128)1 << 100` silently loses its high bits. This pass loads the module
//! with the LLVM-C API, and replaces every such instruction operand by instructions
//! computing the same value from 64-bit words:
//!
//! ```text
//! %wide.lo = freeze i64 LO
//! %wide.hi = freeze i64 HI
//! %0 = zext i64 %wide.lo to i128
//! %1 = zext i64 %wide.hi to i128
//! %2 = shl i128 %1, 64
//! %3 = or i128 %0, %2
//! ```
//!
//! (`freeze` keeps the IR builder from folding the sequence back into one constant.) The
//! instructions go right before the user, or, for a `phi`, at the end of the incoming block,
//! and carry the user's debug location.
//!
//! `switch` case values must be constants: for a switch on a wide integer with cases outside
//! the 64-bit range, each such case value is replaced by an unused small value, and the
//! scrutinee is remapped to match with `icmp`/`select` instructions before the switch.
//!
//! `llvm-ir` also reads an `x86_fp80` (`long double`) constant without its value; each such
//! instruction operand becomes its 80 bits built the same way, then `bitcast` to
//! `x86_fp80`.
//!
//! A global whose initializer holds such constants is replaced by one holding the same bytes
//! under a type `llvm-ir` reads exactly (`globals.rs`). Wide constants inside constant
//! expressions and constant aggregates/vectors used as operands are left alone and
//! counted, so that the caller can warn.

//!
//! The same pass replaces the inline assembly that real C code uses (`cpuid`, identity
//! moves, barriers, `bswap`, `rdtsc`) by the IR it amounts to, and records why any other
//! cannot run (`inline_asm.rs`); and, built for LLVM 19, it rewrites constant GEPs to byte
//! offsets (`byte_geps.rs`: with opaque pointers `llvm-ir` does not tell their source
//! element type).

#[cfg(feature = "llvm19")]
mod byte_geps;
mod globals;
mod inline_asm;
mod var_names;
mod x87;

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::ffi::{c_char, c_void, CStr, CString};
use std::path::Path;

use llvm_sys::analysis::{LLVMVerifierFailureAction, LLVMVerifyModule};
use llvm_sys::bit_reader::LLVMParseBitcodeInContext2;
use llvm_sys::bit_writer::LLVMWriteBitcodeToFile;
use llvm_sys::core::*;
use llvm_sys::debuginfo::LLVMInstructionGetDebugLoc;
use llvm_sys::ir_reader::LLVMParseIRInContext;
use llvm_sys::prelude::*;
use llvm_sys::{LLVMDiagnosticSeverity, LLVMIntPredicate, LLVMTypeKind};

pub(crate) use self::inline_asm::AsmLeft;
pub(crate) use self::var_names::VarNames;
use crate::IrError;

/// What one rewrite did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WideStats {
    /// Instruction operands replaced by a computed value.
    pub rewritten_operands: usize,
    /// `switch` case values remapped to small ones.
    pub rewritten_cases: usize,
    /// Inline-assembly calls replaced by IR (`cpuid`, identity moves, barriers, `bswap`,
    /// `rdtsc`).
    pub rewritten_asm: usize,
    /// Globals whose initializer held wide constants, replaced by byte-exact images.
    pub rewritten_globals: usize,
    /// Constant GEPs rewritten to byte offsets (LLVM 19 builds only).
    pub byte_geps: usize,
    /// Constant GEPs left as they are (an index that is not an integer constant): the
    /// lowering reads them as byte offsets, or rejects them.
    pub geps_left: usize,
    /// Wide constants left as they are (in constant expressions, constant aggregates):
    /// `llvm-ir` will truncate them.
    pub unrewritten: usize,
}

impl WideStats {
    /// Did the rewrite change the module?
    pub fn changed(&self) -> bool {
        self.rewritten_operands
            + self.rewritten_cases
            + self.rewritten_globals
            + self.rewritten_asm
            + self.byte_geps
            > 0
    }
}

/// Rewrite integer constants wider than 64 bits (which llvm-ir truncates) into instructions
/// computing them from 64-bit halves. Returns the number of wide constants left unrewritten.
///
/// `input` is bitcode, or textual IR if its extension is `.ll`; `output` is always written,
/// as bitcode.
pub fn split_wide_constants(input: &Path, output: &Path) -> Result<usize, IrError> {
    Ok(rewrite_file(input, output, true)?.unrewritten)
}

/// Like [`split_wide_constants`], but reports everything it did, and writes `output` only if
/// the module changed or `always_write` is set.
pub fn rewrite_file(input: &Path, output: &Path, always_write: bool) -> Result<WideStats, IrError> {
    Ok(rewrite(input, output, always_write)?.0)
}

/// The sizes of the globals a module declares without defining them, by name: what the
/// lowering cannot read from `llvm-ir` with opaque pointers (LLVM 19 builds only: empty
/// otherwise).
pub(crate) type DeclaredSizes = HashMap<String, u64>;

/// What the lowering needs to know of a module that `llvm-ir` does not tell.
#[derive(Debug, Default)]
pub(crate) struct ModuleFacts {
    /// The sizes of declared globals (read with opaque pointers only).
    #[cfg_attr(not(feature = "llvm19"), allow(dead_code))]
    pub declared: DeclaredSizes,
    /// Why each inline-assembly call left in the rewritten module cannot run.
    pub asm_left: AsmLeft,
    /// The source names of the stack slots LLVM renamed (a second `p` is `%p235`).
    pub var_names: VarNames,
}

/// [`rewrite_file`], also returning the [`ModuleFacts`] of the rewritten module.
pub(crate) fn rewrite(
    input: &Path,
    output: &Path,
    always_write: bool,
) -> Result<(WideStats, ModuleFacts), IrError> {
    let module = LoadedModule::parse(input).map_err(|e| crate::compile::not_valid(input, &e))?;
    #[cfg(feature = "llvm19")]
    let declared = byte_geps::declared_sizes(&module);
    #[cfg(not(feature = "llvm19"))]
    let declared = DeclaredSizes::new();
    let var_names = var_names::var_names(&module);
    let (stats, asm_left) = Rewriter::new(&module).run();
    if stats.changed() {
        // A failure here is a bug of this pass: say so rather than hand on broken IR.
        module.verify().map_err(|e| {
            IrError(format!(
                "{}: splitting wide integer constants produced invalid IR: {e}",
                input.display()
            ))
        })?;
    }
    if stats.changed() || always_write {
        module
            .write_bitcode(output)
            .map_err(|e| IrError(format!("{}: cannot write bitcode: {e}", output.display())))?;
    }
    let facts = ModuleFacts {
        declared,
        asm_left,
        var_names,
    };
    Ok((stats, facts))
}

/// Does the module at `path` (bitcode, or textual IR if `.ll`) use the `x86_fp80` type,
/// i.e. was it built with x87 `long double`s rather than augur's `-mlong-double-64`?
pub fn uses_x87_long_double(path: &Path) -> Result<bool, IrError> {
    let module = LoadedModule::parse(path).map_err(|e| crate::compile::not_valid(path, &e))?;
    Ok(x87::uses_x87(&module))
}

// ------------------------------------------------------------------ memory-safe wrappers

/// Copy an LLVM-allocated message into a `String` and free it. Null gives "".
///
/// # Safety
/// `msg` is null or a string allocated by LLVM that nothing else will free.
unsafe fn take_message(msg: *mut c_char) -> String {
    if msg.is_null() {
        return String::new();
    }
    // SAFETY: non-null and NUL-terminated, per the contract.
    let s = unsafe { CStr::from_ptr(msg) }
        .to_string_lossy()
        .into_owned();
    // SAFETY: LLVM allocated it and we own it (contract); it is not used afterwards.
    unsafe { LLVMDisposeMessage(msg) };
    s
}

/// The description of the last error the context reported, if any.
type DiagSlot = RefCell<Option<String>>;

/// Record error diagnostics instead of letting LLVM print them and exit the process.
extern "C" fn record_diagnostic(info: LLVMDiagnosticInfoRef, slot: *mut c_void) {
    // SAFETY: LLVM hands back the `DiagSlot` registered with the context in
    // `Context::new`, which lives (boxed, at a fixed address) as long as the context;
    // `info` is valid for this call.
    unsafe {
        if LLVMGetDiagInfoSeverity(info) != LLVMDiagnosticSeverity::LLVMDSError {
            return;
        }
        let text = take_message(LLVMGetDiagInfoDescription(info));
        if let Ok(mut s) = (*(slot as *const DiagSlot)).try_borrow_mut() {
            s.get_or_insert(text);
        }
    }
}

/// An owned LLVM context whose error diagnostics are recorded.
struct Context {
    raw: LLVMContextRef,
    diag: Box<DiagSlot>,
}

impl Context {
    fn new() -> Self {
        let diag: Box<DiagSlot> = Box::default();
        // SAFETY: creating a context has no preconditions; the handler's context pointer is
        // the boxed slot, which outlives the context (the context is disposed first, in Drop).
        let raw = unsafe {
            let raw = LLVMContextCreate();
            LLVMContextSetDiagnosticHandler(
                raw,
                Some(record_diagnostic),
                &*diag as *const DiagSlot as *mut c_void,
            );
            raw
        };
        Context { raw, diag }
    }

    fn last_error(&self) -> Option<String> {
        self.diag.borrow_mut().take()
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        // SAFETY: we own the context; every module in it has been disposed (LoadedModule
        // drops its module before its context).
        unsafe { LLVMContextDispose(self.raw) }
    }
}

/// An owned memory buffer.
struct MemBuf(LLVMMemoryBufferRef);

impl MemBuf {
    fn from_file(path: &Path) -> Result<Self, String> {
        let cpath = path_cstring(path)?;
        let mut buf = std::ptr::null_mut();
        let mut msg = std::ptr::null_mut();
        // SAFETY: `cpath` is NUL-terminated; the out-pointers are valid locals.
        let failed =
            unsafe { LLVMCreateMemoryBufferWithContentsOfFile(cpath.as_ptr(), &mut buf, &mut msg) };
        if failed != 0 {
            // SAFETY: on failure LLVM sets `msg` to a message we own.
            return Err(unsafe { take_message(msg) });
        }
        Ok(MemBuf(buf))
    }

    /// Give up ownership (to a function that takes it).
    fn into_raw(self) -> LLVMMemoryBufferRef {
        let raw = self.0;
        std::mem::forget(self);
        raw
    }
}

impl Drop for MemBuf {
    fn drop(&mut self) {
        // SAFETY: we own the buffer and nothing borrows it any more.
        unsafe { LLVMDisposeMemoryBuffer(self.0) }
    }
}

fn path_cstring(path: &Path) -> Result<CString, String> {
    CString::new(path.as_os_str().as_encoded_bytes()).map_err(|_| "path contains NUL".into())
}

/// The items of one of LLVM's lists, from `first` on through `next`, up to the null that
/// ends it.
///
/// # Safety
/// `next` must be safe to call on every item of the list.
unsafe fn linked<T>(first: *mut T, next: impl Fn(*mut T) -> *mut T) -> Vec<*mut T> {
    let mut out = Vec::new();
    let mut item = first;
    while !item.is_null() {
        out.push(item);
        item = next(item);
    }
    out
}

/// The name of a value of a loaded module ("" when it has none).
fn value_name(v: LLVMValueRef) -> String {
    let mut len = 0;
    // SAFETY: `v` is a value of a module this pass holds; the name is `len` bytes the
    // module owns.
    unsafe {
        let p = LLVMGetValueName2(v, &mut len);
        String::from_utf8_lossy(std::slice::from_raw_parts(p.cast(), len)).into_owned()
    }
}

/// A module parsed into its own context. Every `LLVMValueRef` handled by this pass comes
/// from it and stays valid as long as it is alive.
struct LoadedModule {
    module: LLVMModuleRef,
    ctx: Context,
}

impl LoadedModule {
    fn parse(path: &Path) -> Result<Self, String> {
        let ctx = Context::new();
        let buf = MemBuf::from_file(path)?;
        let mut module = std::ptr::null_mut();
        if path.extension().and_then(|e| e.to_str()) == Some("ll") {
            let mut msg = std::ptr::null_mut();
            // SAFETY: valid context and buffer; LLVMParseIRInContext takes ownership of the
            // buffer (hence `into_raw`); out-pointers are valid locals.
            let failed =
                unsafe { LLVMParseIRInContext(ctx.raw, buf.into_raw(), &mut module, &mut msg) };
            if failed != 0 || module.is_null() {
                // SAFETY: on failure `msg` is null or a message we own.
                return Err(unsafe { take_message(msg) });
            }
        } else {
            // SAFETY: valid context and buffer; this function does not take the buffer,
            // which `buf` disposes of when dropped at the end of this function (the parsed
            // module does not refer to it).
            let failed = unsafe { LLVMParseBitcodeInContext2(ctx.raw, buf.0, &mut module) };
            if failed != 0 || module.is_null() {
                return Err(ctx
                    .last_error()
                    .unwrap_or_else(|| "cannot parse bitcode".into()));
            }
        }
        Ok(LoadedModule { module, ctx })
    }

    /// Its functions, declarations included.
    fn functions(&self) -> Vec<LLVMValueRef> {
        // SAFETY: valid module; iteration over its own function list.
        unsafe {
            linked(LLVMGetFirstFunction(self.module), |f| {
                LLVMGetNextFunction(f)
            })
        }
    }

    /// Its global variables.
    fn globals(&self) -> Vec<LLVMValueRef> {
        // SAFETY: valid module; iteration over its own global list.
        unsafe { linked(LLVMGetFirstGlobal(self.module), |g| LLVMGetNextGlobal(g)) }
    }

    /// The blocks of its function `f` (none for a declaration).
    fn blocks(&self, f: LLVMValueRef) -> Vec<LLVMBasicBlockRef> {
        // SAFETY: `f` is a function of the module (invariant); declarations have no blocks.
        unsafe { linked(LLVMGetFirstBasicBlock(f), |bb| LLVMGetNextBasicBlock(bb)) }
    }

    /// The instructions of its block `bb`.
    fn instructions(&self, bb: LLVMBasicBlockRef) -> Vec<LLVMValueRef> {
        // SAFETY: `bb` is a block of the module (invariant).
        unsafe { linked(LLVMGetFirstInstruction(bb), |i| LLVMGetNextInstruction(i)) }
    }

    fn verify(&self) -> Result<(), String> {
        let mut msg = std::ptr::null_mut();
        // SAFETY: valid module; `msg` is a valid out-pointer, set to a message we own.
        let broken = unsafe {
            LLVMVerifyModule(
                self.module,
                LLVMVerifierFailureAction::LLVMReturnStatusAction,
                &mut msg,
            )
        };
        // SAFETY: LLVMVerifyModule always sets `msg` (possibly empty) and we own it.
        let text = unsafe { take_message(msg) };
        if broken != 0 {
            return Err(text.lines().next().unwrap_or("broken module").to_string());
        }
        Ok(())
    }

    fn write_bitcode(&self, path: &Path) -> Result<(), String> {
        let cpath = path_cstring(path)?;
        // SAFETY: valid module and NUL-terminated path.
        if unsafe { LLVMWriteBitcodeToFile(self.module, cpath.as_ptr()) } != 0 {
            return Err("write failed".into());
        }
        Ok(())
    }
}

impl Drop for LoadedModule {
    fn drop(&mut self) {
        // SAFETY: we own the module; it is disposed before its context (dropped after this).
        unsafe { LLVMDisposeModule(self.module) }
    }
}

/// An owned instruction builder.
struct Builder(LLVMBuilderRef);

impl Drop for Builder {
    fn drop(&mut self) {
        // SAFETY: we own the builder.
        unsafe { LLVMDisposeBuilder(self.0) }
    }
}

// ------------------------------------------------------------------ wide integer values

/// The value of an integer constant of `width` bits as printed by LLVM (`iN <decimal>`,
/// signed), as little-endian 64-bit words of its two's complement representation.
fn parse_printed_int(text: &str, width: u32) -> Option<Vec<u64>> {
    let digits = text.trim().rsplit(' ').next()?;
    let (neg, digits) = match digits.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, digits),
    };
    if digits.is_empty() {
        return None;
    }
    let mut words = vec![0u64; width.div_ceil(64) as usize];
    for c in digits.chars() {
        let mut carry = c.to_digit(10)? as u128;
        for w in words.iter_mut() {
            let x = *w as u128 * 10 + carry;
            *w = x as u64;
            carry = x >> 64;
        }
    }
    if neg {
        let mut carry = 1u128;
        for w in words.iter_mut() {
            let x = (!*w) as u128 + carry;
            *w = x as u64;
            carry = x >> 64;
        }
    }
    let top_bits = width % 64;
    if top_bits != 0 {
        *words.last_mut()? &= (1u64 << top_bits) - 1;
    }
    Some(words)
}

/// The bits of an `x86_fp80` constant as printed by LLVM (`x86_fp80 0xK<20 hex digits>`),
/// as little-endian 64-bit words.
fn parse_printed_fp80(text: &str) -> Option<Vec<u64>> {
    let hex = text.trim().rsplit(' ').next()?.strip_prefix("0xK")?;
    if hex.len() != 20 {
        return None;
    }
    let v = u128::from_str_radix(hex, 16).ok()?;
    Some(vec![v as u64, (v >> 64) as u64])
}

/// Does the (unsigned) value fit in 64 bits, i.e. survive `LLVMConstIntGetZExtValue`?
fn fits_u64(words: &[u64]) -> bool {
    words.iter().skip(1).all(|w| *w == 0)
}

// ------------------------------------------------------------------ the rewrite

/// Walks one module and rewrites it. Invariant: every `LLVMValueRef`/`LLVMTypeRef` it
/// handles belongs to `module`, which outlives it.
struct Rewriter<'m> {
    module: &'m LoadedModule,
    builder: Builder,
    stats: WideStats,
    /// Number of wide constants inside a constant (by identity; constants are uniqued).
    memo: HashMap<LLVMValueRef, usize>,
    /// Why each inline-assembly call left cannot run.
    asm_left: AsmLeft,
}

impl<'m> Rewriter<'m> {
    fn new(module: &'m LoadedModule) -> Self {
        // SAFETY: valid context.
        let builder = Builder(unsafe { LLVMCreateBuilderInContext(module.ctx.raw) });
        Rewriter {
            module,
            builder,
            stats: WideStats::default(),
            memo: HashMap::new(),
            asm_left: AsmLeft::new(),
        }
    }

    fn run(mut self) -> (WideStats, AsmLeft) {
        #[cfg(feature = "llvm19")]
        {
            let geps = self.byte_geps();
            self.stats.byte_geps = geps.rewritten;
            self.stats.geps_left = geps.left;
        }
        for f in self.module.functions() {
            let name = value_name(f);
            for bb in self.module.blocks(f) {
                // Snapshot first: rewriting inserts instructions.
                for inst in self.module.instructions(bb) {
                    if !self.rewrite_inline_asm(&name, inst) {
                        self.rewrite_instruction(inst);
                    }
                }
            }
        }
        for g in self.module.globals() {
            // SAFETY: `g` is a global variable of the module (invariant).
            let init = unsafe { LLVMGetInitializer(g) };
            if init.is_null() {
                continue;
            }
            let lost = self.count_wide_in_constant(init);
            if lost == 0 {
                continue;
            }
            if self.rewrite_global(g, init) {
                self.stats.rewritten_globals += 1;
            } else {
                self.stats.unrewritten += lost;
            }
        }
        (self.stats, self.asm_left)
    }

    /// The 64-bit words of `v` if it is an integer constant wider than 64 bits.
    fn wide_int_words(&self, v: LLVMValueRef) -> Option<Vec<u64>> {
        // SAFETY: `v` is a value of the module (invariant); only ConstantInts are printed.
        unsafe {
            if LLVMIsAConstantInt(v).is_null() {
                return None;
            }
            let width = LLVMGetIntTypeWidth(LLVMTypeOf(v));
            if width <= 64 {
                return None;
            }
            parse_printed_int(&take_message(LLVMPrintValueToString(v)), width)
        }
    }

    /// The words of `v` if it is an integer constant that `llvm-ir` would truncate.
    fn truncated_int(&self, v: LLVMValueRef) -> Option<Vec<u64>> {
        self.wide_int_words(v).filter(|w| !fits_u64(w))
    }

    /// The 80 bits of `v` as little-endian words if it is an `x86_fp80` constant.
    fn fp80_words(&self, v: LLVMValueRef) -> Option<Vec<u64>> {
        // SAFETY: `v` is a value of the module (invariant); only ConstantFPs are printed.
        unsafe {
            if LLVMIsAConstantFP(v).is_null()
                || LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMTypeKind::LLVMX86_FP80TypeKind
            {
                return None;
            }
            parse_printed_fp80(&take_message(LLVMPrintValueToString(v)))
        }
    }

    /// The words of `v` if `llvm-ir` would lose its value: a wide integer or an x86_fp80.
    fn lost_constant(&self, v: LLVMValueRef) -> Option<Vec<u64>> {
        self.truncated_int(v).or_else(|| self.fp80_words(v))
    }

    fn rewrite_instruction(&mut self, inst: LLVMValueRef) {
        // SAFETY: `inst` is an instruction of the module (invariant), hence a User.
        let (is_phi, is_switch, n) = unsafe {
            (
                !LLVMIsAPHINode(inst).is_null(),
                !LLVMIsASwitchInst(inst).is_null(),
                LLVMGetNumOperands(inst).max(0) as u32,
            )
        };
        // Per incoming block of a phi: a block may appear several times, always with the
        // same value, which must stay one value.
        let mut phi_values: HashMap<LLVMBasicBlockRef, LLVMValueRef> = HashMap::new();
        // A switch's other operands are the default destination and (case, destination)
        // pairs, handled by `rewrite_switch`.
        let n = if is_switch { n.min(1) } else { n };
        for i in 0..n {
            // SAFETY: `i` is in range.
            let op = unsafe { LLVMGetOperand(inst, i) };
            if let Some(words) = self.lost_constant(op) {
                let new = if is_phi {
                    // SAFETY: for a phi, operand `i` is incoming value `i`.
                    let from = unsafe { LLVMGetIncomingBlock(inst, i) };
                    match phi_values.get(&from) {
                        Some(v) => Some(*v),
                        None => {
                            let v = self.build_at_end_of(from, inst, op, &words);
                            if let Some(v) = v {
                                phi_values.insert(from, v);
                            }
                            v
                        }
                    }
                } else {
                    self.position_before(inst, inst);
                    Some(self.build_constant(op, &words))
                };
                match new {
                    Some(new) => {
                        // SAFETY: `new` has the operand's type; `i` is in range.
                        unsafe { LLVMSetOperand(inst, i, new) };
                        self.stats.rewritten_operands += 1;
                    }
                    None => self.stats.unrewritten += 1,
                }
            } else if self.is_plain_constant(op) {
                self.stats.unrewritten += self.count_wide_in_constant(op);
            }
        }
        if is_switch {
            self.rewrite_switch(inst);
        }
    }

    /// Is `v` a constant that is not a global value (whose operands are not instruction
    /// data: a global variable's operand is its initializer, counted separately)?
    fn is_plain_constant(&self, v: LLVMValueRef) -> bool {
        // SAFETY: `v` is a value of the module (invariant).
        unsafe { !LLVMIsAConstant(v).is_null() && LLVMIsAGlobalValue(v).is_null() }
    }

    /// How many integer constants that `llvm-ir` would truncate does constant `c` contain?
    fn count_wide_in_constant(&mut self, c: LLVMValueRef) -> usize {
        if let Some(n) = self.memo.get(&c) {
            return *n;
        }
        let n = if let Some(words) = self.wide_int_words(c) {
            usize::from(!fits_u64(&words))
        } else if self.fp80_words(c).is_some() {
            1
        } else if self.is_plain_constant(c) {
            // SAFETY: a non-global constant is a User.
            let ops = unsafe { LLVMGetNumOperands(c).max(0) as u32 };
            let mut n = 0;
            for i in 0..ops {
                // SAFETY: `i` is in range.
                let op = unsafe { LLVMGetOperand(c, i) };
                n += self.count_wide_in_constant(op);
            }
            n
        } else {
            0
        };
        self.memo.insert(c, n);
        n
    }

    /// Put the builder right before `at`, with `user`'s debug location (or `at`'s, if the
    /// user has none).
    fn position_before(&self, at: LLVMValueRef, user: LLVMValueRef) {
        // SAFETY: both are instructions of the module (invariant); a null location just
        // clears the builder's.
        unsafe {
            let mut loc = LLVMInstructionGetDebugLoc(user);
            if loc.is_null() {
                loc = LLVMInstructionGetDebugLoc(at);
            }
            LLVMPositionBuilderBefore(self.builder.0, at);
            LLVMSetCurrentDebugLocation2(self.builder.0, loc);
        }
    }

    /// Build the value of constant `op` (words `words`) before the terminator of `bb`, for
    /// phi `phi`. None if the block has no terminator.
    fn build_at_end_of(
        &self,
        bb: LLVMBasicBlockRef,
        phi: LLVMValueRef,
        op: LLVMValueRef,
        words: &[u64],
    ) -> Option<LLVMValueRef> {
        // SAFETY: `bb` is a block of the module (invariant).
        let term = unsafe { LLVMGetBasicBlockTerminator(bb) };
        if term.is_null() {
            return None;
        }
        self.position_before(term, phi);
        Some(self.build_constant(op, words))
    }

    /// Emit, at the builder's position, instructions computing the value of the constant
    /// `op` (an integer or an `x86_fp80`) from its little-endian 64-bit `words`.
    fn build_constant(&self, op: LLVMValueRef, words: &[u64]) -> LLVMValueRef {
        // SAFETY: `op` is a constant of the module (invariant); an x86_fp80 has 80 bits, so
        // the bitcast from i80 is valid.
        unsafe {
            let ty = LLVMTypeOf(op);
            if LLVMGetTypeKind(ty) != LLVMTypeKind::LLVMX86_FP80TypeKind {
                return self.build_words(ty, words);
            }
            let bits = self.build_words(LLVMIntTypeInContext(self.module.ctx.raw, 80), words);
            LLVMBuildBitCast(self.builder.0, bits, ty, c"fp80".as_ptr())
        }
    }

    /// Emit, at the builder's position, instructions computing the integer of type `ty`
    /// whose little-endian 64-bit words are `words`.
    fn build_words(&self, ty: LLVMTypeRef, words: &[u64]) -> LLVMValueRef {
        let b = self.builder.0;
        let empty = c"";
        let mut acc: Option<LLVMValueRef> = None;
        // SAFETY: the builder is positioned in the module; `ty` is an integer type of its
        // context wider than 64 bits, so the zext and shift amounts (< width) are valid.
        unsafe {
            let i64t = LLVMInt64TypeInContext(self.module.ctx.raw);
            for (k, &w) in words.iter().enumerate() {
                if k > 0 && w == 0 {
                    continue;
                }
                let name = match (words.len(), k) {
                    (2, 0) => c"wide.lo".to_owned(),
                    (2, 1) => c"wide.hi".to_owned(),
                    _ => CString::new(format!("wide.w{k}")).unwrap_or_default(),
                };
                let part = LLVMBuildFreeze(b, LLVMConstInt(i64t, w, 0), name.as_ptr());
                let mut part = LLVMBuildZExt(b, part, ty, empty.as_ptr());
                if k > 0 {
                    part =
                        LLVMBuildShl(b, part, LLVMConstInt(ty, 64 * k as u64, 0), empty.as_ptr());
                }
                acc = Some(match acc {
                    None => part,
                    Some(a) => LLVMBuildOr(b, a, part, empty.as_ptr()),
                });
            }
            acc.expect("words is never empty")
        }
    }

    /// Replace every case value of `sw` that `llvm-ir` would truncate by an unused small
    /// value `k`, and the scrutinee `x` by
    /// `x == W ? k : x == k ? spare : x` (for every such case `W`), where `spare` is no case.
    fn rewrite_switch(&mut self, sw: LLVMValueRef) {
        // SAFETY: `sw` is a switch of the module (invariant): operand 0 is the scrutinee,
        // then the default destination, then (value, destination) pairs.
        let (cond, n) = unsafe { (LLVMGetOperand(sw, 0), LLVMGetNumOperands(sw).max(0) as u32) };
        // SAFETY: as above; the width is only asked of an integer type.
        let (ty, wide_int) = unsafe {
            let ty = LLVMTypeOf(cond);
            (
                ty,
                LLVMGetTypeKind(ty) == LLVMTypeKind::LLVMIntegerTypeKind
                    && LLVMGetIntTypeWidth(ty) > 64,
            )
        };
        if !wide_int {
            return;
        }
        let mut used = HashSet::new();
        let mut wide = Vec::new();
        for idx in (2..n).step_by(2) {
            // SAFETY: `idx` is a case-value operand index in range.
            let v = unsafe { LLVMGetOperand(sw, idx) };
            match self.wide_int_words(v) {
                Some(words) if fits_u64(&words) => {
                    used.insert(words[0]);
                }
                Some(words) => wide.push((idx, words)),
                None => self.stats.unrewritten += 1,
            }
        }
        if wide.is_empty() {
            return;
        }
        let mut next = 0u64;
        let mut fresh = || {
            while used.contains(&next) {
                next += 1;
            }
            used.insert(next);
            next
        };
        let keys: Vec<u64> = wide.iter().map(|_| fresh()).collect();
        let spare = fresh();
        self.position_before(sw, sw);
        let b = self.builder.0;
        let empty = c"";
        // SAFETY: the builder is positioned before the switch; all values have type `ty`
        // (or i1 for the comparisons); the case indices are in range, and the new case
        // values are distinct from each other and from the remaining cases.
        unsafe {
            let konst = |v: u64| LLVMConstInt(ty, v, 0);
            let mut x = cond;
            for (&(idx, ref words), &k) in wide.iter().zip(&keys) {
                let is_k = LLVMBuildICmp(
                    b,
                    LLVMIntPredicate::LLVMIntEQ,
                    cond,
                    konst(k),
                    empty.as_ptr(),
                );
                x = LLVMBuildSelect(b, is_k, konst(spare), x, empty.as_ptr());
                let w = self.build_words(ty, words);
                let is_w = LLVMBuildICmp(b, LLVMIntPredicate::LLVMIntEQ, cond, w, empty.as_ptr());
                x = LLVMBuildSelect(b, is_w, konst(k), x, c"wide.switch".as_ptr());
                LLVMSetOperand(sw, idx, konst(k));
                self.stats.rewritten_cases += 1;
            }
            LLVMSetOperand(sw, 0, x);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_printed_long_doubles() {
        // 2.5L: sign 0, exponent 0x4000, mantissa 0xA000000000000000.
        assert_eq!(
            parse_printed_fp80("x86_fp80 0xK4000A000000000000000"),
            Some(vec![0xA000_0000_0000_0000, 0x4000])
        );
        assert_eq!(parse_printed_fp80("x86_fp80 0xK4000"), None);
        assert_eq!(parse_printed_fp80("double 2.5"), None);
    }

    #[test]
    fn parses_printed_ints() {
        let one100 = parse_printed_int("i128 1267650600228229401496703205376", 128).unwrap();
        assert_eq!(one100, vec![0, 1 << 36]);
        assert_eq!(
            parse_printed_int("i128 -1", 128).unwrap(),
            vec![u64::MAX, u64::MAX]
        );
        assert_eq!(parse_printed_int("i128 5", 128).unwrap(), vec![5, 0]);
        let v = -((3i128) << 90);
        let w = parse_printed_int(&format!("i128 {v}"), 128).unwrap();
        assert_eq!(w, vec![v as u64, ((v as u128) >> 64) as u64]);
        assert_eq!(
            parse_printed_int("i72 -1", 72).unwrap(),
            vec![u64::MAX, 0xff]
        );
        assert!(parse_printed_int("i128 x", 128).is_none());
        assert!(fits_u64(&[u64::MAX, 0]));
        assert!(!fits_u64(&[0, 1]));
    }
}
