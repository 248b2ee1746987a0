//! Execution states: a stack of frames, an address space, a path condition and the
//! symbolic inputs created on the path. Cloning a state (forking) copies the frames and
//! shares memory objects until one side writes them. The fields are the engine's; drivers
//! and the environment read them through accessors and change them only through the
//! few methods below (memory, output streams, unwinding, extension data).

use crate::extension::Extensions;
use crate::forkpath::{ForkPath, Trail};
use crate::memory::{Byte, Memory};
use crate::registers::Registers;
use crate::value::Value;
use augur_expr::{ArrayId, Assignment, ExprId};
use augur_ir::{BlockId, FuncId, Reg};
use rustc_hash::FxHashMap;
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
    pub regs: Registers,
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
    pub(crate) id: StateId,
    /// Call stack; the last frame executes. Frames are shared between forked states until
    /// one side writes them (in practice only the executing frame is ever copied).
    pub(crate) frames: Vec<Rc<Frame>>,
    /// Address space.
    pub(crate) mem: Memory,
    /// Path condition (width-1 expressions, all true on this path).
    pub(crate) constraints: Vec<ExprId>,
    /// Symbolic inputs in creation order.
    pub(crate) symbolics: Vec<Symbolic>,
    /// The path's fork decisions (their number is its depth in the fork tree).
    pub(crate) path: ForkPath,
    /// The example values the solver gave the path ([`crate::Executor::example`]).
    pub(crate) examples: Trail<u128>,
    /// Input bytes the solver's models gave the path at its forks and example values, by
    /// array, the latest over the earlier (each model covers the constraints related to
    /// its query; an assumption's constraint gives none): what a test of the path is first
    /// tried with (`executor/test_inputs.rs`). Shared on fork, bytes and all, until a side
    /// learns a model.
    pub(crate) example_inputs: Rc<FxHashMap<ArrayId, Rc<Vec<u8>>>>,
    /// Instructions executed on this path.
    pub(crate) instructions: u64,
    /// Coverage generation at which this state last covered a new instruction.
    pub(crate) cov_gen: u64,
    /// Whether the path covered an instruction no path had covered, since its last fork.
    pub(crate) covered_new: bool,
    /// External functions whose results were havocked on the path, in first-call order.
    pub(crate) havocked: Vec<Rc<str>>,
    /// In seeded mode: the concrete input this state follows.
    pub(crate) seed: Option<Rc<SeedInput>>,
    /// Concrete values of this path's symbolic arrays in seeded mode.
    pub(crate) seed_values: Assignment,
    /// Drivers' per-path data (revision, position in a log ...), cloned on fork.
    pub(crate) ext: Extensions,
    /// Bytes written to standard output, in order.
    pub(crate) stdout: crate::OutputStream,
    /// Bytes written to standard error.
    pub(crate) stderr: crate::OutputStream,
}

/// Concrete inputs that a seeded run follows: the objects of a test, by creation order.
#[derive(Clone, Debug, Default)]
pub struct SeedInput {
    /// (name, bytes) of each symbolic object, in the order the path creates them.
    pub objects: Vec<(String, Vec<u8>)>,
}

impl State {
    /// Lay a solver's model for this path over its example inputs (arrays it assigns
    /// replace theirs).
    pub(crate) fn learn_inputs(&mut self, model: Option<Assignment>) {
        if let Some(model) = model {
            let inputs = Rc::make_mut(&mut self.example_inputs);
            for (array, bytes) in model.arrays {
                inputs.insert(array, Rc::new(bytes));
            }
        }
    }

    /// The path's example inputs as an assignment.
    pub(crate) fn example_assignment(&self) -> Assignment {
        Assignment {
            arrays: self
                .example_inputs
                .iter()
                .map(|(a, bytes)| (*a, bytes.to_vec()))
                .collect(),
        }
    }

    /// Id (new for each fork child).
    #[inline]
    pub fn id(&self) -> StateId {
        self.id
    }

    /// Call stack; the last frame executes.
    #[inline]
    pub fn frames(&self) -> &[Rc<Frame>] {
        &self.frames
    }

    /// Address space.
    #[inline]
    pub fn mem(&self) -> &Memory {
        &self.mem
    }

    /// Address space, for writing (objects are copied on first write).
    #[inline]
    pub fn mem_mut(&mut self) -> &mut Memory {
        &mut self.mem
    }

    /// Path condition (width-1 expressions, all true on this path).
    #[inline]
    pub fn constraints(&self) -> &[ExprId] {
        &self.constraints
    }

    /// Symbolic inputs in creation order.
    #[inline]
    pub fn symbolics(&self) -> &[Symbolic] {
        &self.symbolics
    }

    /// The path's fork decisions.
    #[inline]
    pub fn path(&self) -> &ForkPath {
        &self.path
    }

    /// The example values the solver gave the path.
    #[inline]
    pub fn examples(&self) -> &Trail<u128> {
        &self.examples
    }

    /// Instructions executed on this path.
    #[inline]
    pub fn instructions(&self) -> u64 {
        self.instructions
    }

    /// In seeded mode: the concrete input this state follows.
    #[inline]
    pub fn seed(&self) -> Option<&SeedInput> {
        self.seed.as_deref()
    }

    /// Concrete values of this path's symbolic arrays in seeded mode.
    #[inline]
    pub fn seed_values(&self) -> &Assignment {
        &self.seed_values
    }

    /// Drivers' per-path data.
    #[inline]
    pub fn ext(&self) -> &Extensions {
        &self.ext
    }

    /// Drivers' per-path data, for writing (each value copied on its first write).
    #[inline]
    pub fn ext_mut(&mut self) -> &mut Extensions {
        &mut self.ext
    }

    /// Standard output: the bytes written (the first [`crate::MAX_KEPT_OUTPUT`] kept).
    #[inline]
    pub fn stdout(&self) -> &crate::OutputStream {
        &self.stdout
    }

    /// Standard error: the bytes written (the first [`crate::MAX_KEPT_OUTPUT`] kept).
    #[inline]
    pub fn stderr(&self) -> &crate::OutputStream {
        &self.stderr
    }

    /// Append bytes to standard output (`err`: standard error).
    pub fn write_output(&mut self, err: bool, bytes: impl IntoIterator<Item = Byte>) {
        if err {
            self.stderr.append(bytes)
        } else {
            self.stdout.append(bytes)
        }
    }

    /// Remove the frames above the first `depth` and their stack objects (`longjmp`).
    pub fn unwind_to(&mut self, depth: usize) {
        while self.frames.len() > depth {
            self.pop_frame();
        }
    }

    /// Remove the top frame and its stack objects.
    pub(crate) fn pop_frame(&mut self) -> Rc<Frame> {
        let frame = self.frames.pop().expect("a frame to return from");
        for a in &frame.allocas {
            self.mem.remove(*a);
        }
        frame
    }

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
