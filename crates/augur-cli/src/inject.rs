//! `augur inject`: synthesize rare, deep, verified bugs with their triggers (a corpus).

use crate::numbers;
use crate::seed;
use crate::session::{self, ExploreArgs};
use augur_inject::{Config, InjectOptions, Kind, Setup};
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// Options of `augur inject`.
#[derive(Args, Debug)]
pub struct InjectArgs {
    /// Program sources (.c files; several are linked).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Arguments passed to the program (after `--`).
    #[arg(last = true)]
    program_args: Vec<String>,
    /// Output directory of the corpus.
    #[arg(short = 'o', long = "output-dir", required = true)]
    output_dir: PathBuf,
    #[command(flatten)]
    explore: ExploreArgs,
    /// A seed path: the path of this test (JSON or .ktest); repeatable. Without one,
    /// seed paths come from exploring the program.
    #[arg(long)]
    seed_test: Vec<PathBuf>,
    /// Bugs to inject.
    #[arg(long, default_value_t = 1, allow_hyphen_values = true, value_parser = numbers::count)]
    bugs: usize,
    /// Transition points per bug.
    #[arg(long, default_value_t = 3, allow_hyphen_values = true, value_parser = numbers::count)]
    points: usize,
    /// Path samples for counting, and inputs tried when verifying each bug.
    #[arg(long, default_value_t = 40, allow_hyphen_values = true, value_parser = numbers::count)]
    samples: usize,
    /// The bug action.
    #[arg(long, default_value = "assert",
          value_parser = ["assert", "oob-write", "null-deref", "use-after-free", "div-zero"])]
    kind: String,
    /// Put all bugs into one program (a LAVA-M style corpus).
    #[arg(long)]
    one_program: bool,
    /// Seconds of exploration for seed paths and verification inputs.
    #[arg(long, default_value_t = 10.0, allow_hyphen_values = true, value_parser = numbers::seconds)]
    explore_time: f64,
    /// Timeout of each native run, in seconds.
    #[arg(long, default_value_t = 10.0, allow_hyphen_values = true, value_parser = numbers::seconds)]
    timeout: f64,
}

/// Run `augur inject`.
pub fn run(a: InjectArgs) -> Result<(), String> {
    if a.bugs == 0 || a.points == 0 {
        return Err("--bugs and --points must be at least 1".into());
    }
    let opts = a.explore.options()?;
    let spec = a.explore.env_spec()?;
    let seed_tests = a
        .seed_test
        .iter()
        .map(|t| seed::load(t))
        .collect::<Result<Vec<_>, _>>()?;
    for p in &a.inputs {
        if p.extension().and_then(|e| e.to_str()) != Some("c") {
            return Err(format!(
                "{}: augur inject needs C sources (.c)",
                p.display()
            ));
        }
    }
    let work = session::workdir()?;
    let program = augur_env::load_program(&a.inputs, a.explore.cflags(), work.path())?;
    let entry = augur_env::entry_function(&program, &a.explore.entry, &a.inputs[0])?;
    let mut argv = vec![augur_env::program_name(&a.inputs[0])];
    argv.extend(a.program_args.iter().cloned());
    let setup = Setup {
        program,
        entry,
        spec,
        argv,
        opts,
        sources: a.inputs.clone(),
        cflags: a.explore.cflags(),
    };
    let o = InjectOptions {
        seed_tests,
        bugs: a.bugs,
        points: a.points,
        samples: a.samples.max(1),
        kind: Kind::parse(&a.kind).expect("checked by clap"),
        one_program: a.one_program,
        explore_time: session::positive("explore-time", a.explore_time)?,
        seed: a.explore.seed,
        timeout: session::positive("timeout", a.timeout)?.max(Duration::from_millis(100)),
        deadline: setup.opts.max_time.map(|t| std::time::Instant::now() + t),
    };
    let outcome = augur_inject::driver(&Config { setup, options: o }, &Messages)?;
    outcome.write(&a.output_dir)?;
    print!("{}", augur_inject::table(&outcome));
    eprintln!(
        "augur: inject: {} of {} bug(s) emitted into {}",
        outcome.bugs.len(),
        a.bugs,
        a.output_dir.display()
    );
    Ok(())
}

/// inject's phases as lines on stderr.
struct Messages;

impl augur_engine::Progress for Messages {
    fn message(&self, msg: &str) {
        eprintln!("augur: inject: {msg}");
    }
}
