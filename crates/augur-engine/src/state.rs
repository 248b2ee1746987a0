//! Execution states: a stack of frames, an address space, a path condition and the
//! symbolic inputs created on the path. Cloning a state (forking) copies the frames and
//! shares memory objects until one side writes them.

use crate::extension::Extensions;
use crate::forkpath::{ForkPath, Trail};
use crate::memory::Memory;
use crate::value::Value;
use augur_expr::{ArrayId, Assignment, ExprId};
use augur_ir::{BlockId, FuncId, Reg};
use std::rc::Rc;

/// One activation record.
#[derive(Clone, Debug)]
pub struct Frame {
    /// The function.
    pub func: FuncId,
    /// Current block.
    pub block: BlockId,
    /// The block control came from (for phi nodes).
    pub prev_block: Option<BlockId>,
    /// Index of the next instruction in the function.
    pub pc: u32,
    /// Register file.
    pub regs: Vec<Value>,
    /// Stack objects to free on return.
    pub allocas: Vec<u64>,
    /// The varargs area of this call, if the function is variadic.
    pub varargs: Option<u64>,
    /// Register of the caller receiving the return value.
    pub ret_dst: Option<Reg>,
}

/// A named symbolic input created on the path (`make_symbolic`, nondet calls, argv ...).
#[derive(Clone, Debug)]
pub struct Symbolic {
    /// Name as given by the program (unique within the test).
    pub name: String,
    /// The array holding its bytes.
    pub array: ArrayId,
    /// Size in bytes.
    pub size: u64,
}

/// Unique id of a state in one run.
pub type StateId = u64;

/// The execution state of one path.
#[derive(Clone)]
pub struct State {
    /// Id (new for each fork child).
    pub id: StateId,
    /// Call stack; the last frame executes. Frames are shared between forked states until
    /// one side writes them (in practice only the executing frame is ever copied).
    pub frames: Vec<Rc<Frame>>,
    /// Address space.
    pub mem: Memory,
    /// Path condition (width-1 expressions, all true on this path).
    pub constraints: Vec<ExprId>,
    /// Symbolic inputs in creation order.
    pub symbolics: Vec<Symbolic>,
    /// The path's fork decisions (their number is its depth in the fork tree).
    pub path: ForkPath,
    /// The example values the solver gave the path ([`crate::Executor::example`]).
    pub examples: Trail<u128>,
    /// Instructions executed on this path.
    pub instructions: u64,
    /// Coverage generation at which this state last covered a new instruction.
    pub cov_gen: u64,
    /// Whether the path covered an instruction no path had covered, since its last fork.
    pub covered_new: bool,
    /// External functions whose results were havocked on the path, in first-call order.
    pub havocked: Vec<Rc<str>>,
    /// In seeded mode: the concrete input this state follows.
    pub seed: Option<Rc<SeedInput>>,
    /// Concrete values of this path's symbolic arrays in seeded mode.
    pub seed_values: Assignment,
    /// Drivers' per-path data (revision, position in a log ...), cloned on fork.
    pub ext: Extensions,
    /// Bytes written to standard output, in order.
    pub stdout: Vec<crate::memory::Byte>,
    /// Bytes written to standard error.
    pub stderr: Vec<crate::memory::Byte>,
    /// The program's outside world (standard input, files, descriptors, errno).
    pub env: EnvData,
}

/// The contents of a modelled input (standard input or a file), shared between states.
pub type Contents = Rc<[crate::memory::Byte]>;

/// What an open file descriptor refers to. Reading positions live in
/// [`EnvData::offsets`], one per open file description: descriptors made by `dup` share it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Descriptor {
    /// Standard input, at offset number `.0`.
    Stdin(usize),
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
    /// Modelled file number `file`, at offset number `offset`.
    File {
        /// Index in [`EnvData::files`].
        file: usize,
        /// Index in [`EnvData::offsets`].
        offset: usize,
    },
}

/// The per-path state of the modelled environment.
#[derive(Clone, Debug, Default)]
pub struct EnvData {
    /// Standard input's bytes (empty: immediate end of file).
    pub stdin: Contents,
    /// Modelled files: (name, contents).
    pub files: Vec<(String, Contents)>,
    /// Open descriptors, indexed by fd.
    pub fds: Vec<Option<Descriptor>>,
    /// The offset of each open file description (standard input's first).
    pub offsets: Vec<u64>,
    /// Address of the path's errno cell, once allocated.
    pub errno_addr: Option<u64>,
    /// `setjmp` targets by jmp_buf address: where `longjmp` resumes.
    pub jump_targets: Vec<JumpTarget>,
}

/// Where a `longjmp` through the jmp_buf at `buf` resumes: the frame of its `setjmp`
/// call (by stack depth) and the instruction after the call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JumpTarget {
    /// Address of the jmp_buf.
    pub buf: u64,
    /// Number of frames when `setjmp` was called.
    pub depth: usize,
    /// The function of that frame (a target whose frame is gone is invalid).
    pub func: FuncId,
    /// Index of the instruction after the `setjmp` call.
    pub pc: u32,
}

impl EnvData {
    /// An environment with descriptors 0, 1 and 2 open.
    pub fn new(stdin: Contents, files: Vec<(String, Contents)>) -> Self {
        EnvData {
            stdin,
            files,
            fds: vec![
                Some(Descriptor::Stdin(0)),
                Some(Descriptor::Stdout),
                Some(Descriptor::Stderr),
            ],
            offsets: vec![0],
            errno_addr: None,
            jump_targets: Vec::new(),
        }
    }
}

/// Concrete inputs that a seeded run follows: the objects of a test, by creation order.
#[derive(Clone, Debug, Default)]
pub struct SeedInput {
    /// (name, bytes) of each symbolic object, in the order the path creates them.
    pub objects: Vec<(String, Vec<u8>)>,
}

impl State {
    /// Number of forks on the path (its depth in the fork tree).
    #[inline]
    pub fn depth(&self) -> u32 {
        self.path.len() as u32
    }

    /// The executing frame.
    #[inline]
    pub fn frame(&self) -> &Frame {
        self.frames.last().expect("state has a frame")
    }

    /// The executing frame, mutably (copied first if another state shares it).
    #[inline]
    pub fn frame_mut(&mut self) -> &mut Frame {
        crate::cow::own(self.frames.last_mut().expect("state has a frame"))
    }

    /// Set a register of the executing frame.
    #[inline]
    pub fn set(&mut self, r: Reg, v: Value) {
        self.frame_mut().regs[r.0 as usize] = v;
    }
}
