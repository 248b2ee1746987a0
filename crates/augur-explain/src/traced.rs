//! Tracing one run: the program runs on the seed in seeded mode, with a
//! [`Tracer`] observing every instruction; the finished trace is analysed into an
//! [`Execution`].

use crate::trace::{Tracer, Watch};
use crate::Execution;
use augur_engine::{Executor, MemorySink, Options, SeedInput};
use augur_env::EnvSpec;
use augur_ir::{FuncId, Program};
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// What to run and on what input.
pub struct Run<'a> {
    /// The program's name in messages.
    pub name: &'a str,
    /// The function to start from.
    pub entry: FuncId,
    /// The engine's options.
    pub opts: &'a Options,
    /// The symbolic environment (arguments, standard input, files).
    pub spec: &'a EnvSpec,
    /// The input: values of the symbolic objects.
    pub seed: &'a SeedInput,
    /// `argv[0]` and the fixed arguments.
    pub argv: &'a [String],
    /// The variable to watch, when the user named the criterion.
    pub watch: Option<Watch>,
    /// Set (by Ctrl-C) to stop the run; a stopped run is reported as not finished.
    pub interrupt: Arc<AtomicBool>,
}

/// Run `program` as `run` says, recording it, and analyse the recorded run.
pub fn run_traced(program: Program, run: Run) -> Result<Execution, String> {
    let mut ex = Executor::new(
        program,
        &augur_env::handlers(),
        run.opts.clone(),
        Box::new(MemorySink::default()),
    );
    ex.set_interrupt_flag(run.interrupt);
    let prog: Rc<Program> = ex.program.clone();
    let (recorder, trace) = Tracer::new(prog.clone(), run.watch);
    ex.add_observer(Box::new(recorder));
    let st = ex.initial_state(Some(run.seed.clone()));
    augur_env::start(&mut ex, st, run.entry, run.spec, run.argv);
    ex.run(&mut |_| {});
    let trace = std::mem::take(&mut *trace.borrow_mut());
    let pool = std::mem::take(&mut ex.pool);
    Execution::new(run.name, prog, pool, trace)
}
