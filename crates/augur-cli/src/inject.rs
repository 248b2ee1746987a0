//! `augur inject`: synthesize rare, deep, verified bugs with their triggers (a corpus).

use crate::numbers;
use crate::seed;
use crate::session::{self, ExploreArgs};
use augur_inject::{Config, InjectOptions, Kind, Project, Setup};
use clap::Args;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Options of `augur inject`.
#[derive(Args, Debug)]
pub struct InjectArgs {
    /// Program sources (.c files; several are linked).
    #[arg(required_unless_present = "project", conflicts_with = "project")]
    inputs: Vec<PathBuf>,
    /// The program as a source tree (left untouched: it is built in copies) instead of
    /// .c files; needs --build and --program.
    #[arg(long, requires_all = ["build", "program"])]
    project: Option<PathBuf>,
    /// The tree's build command (run by `sh` in a copy, with CC, CFLAGS and LDFLAGS in
    /// its environment), again after each patch.
    #[arg(long, requires = "project")]
    build: Option<String>,
    /// Run once in each copy before its first build (e.g. `./configure`).
    #[arg(long, requires = "project")]
    configure: Option<String>,
    /// The executable the build makes, relative to the tree.
    #[arg(long, requires = "project")]
    program: Option<PathBuf>,
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
    /// The program's own tests (a test file, JSON or .ktest, or a directory of them;
    /// repeatable): each bug runs on all of them, which must behave as on the original
    /// unless they fire it; the share that fires it is reported.
    #[arg(long)]
    pool: Vec<PathBuf>,
    /// Random inputs and mutations of the program's own inputs (the pool and explored
    /// tests; half each, from --seed) run on each bug, as the pool, and as many
    /// mutations of its trigger, reported only.
    #[arg(long, default_value_t = 1000, allow_hyphen_values = true, value_parser = numbers::from_zero)]
    measure: u64,
    /// The highest share of the pool, random or mutated inputs (mutations of the pool and
    /// explored tests, not of the trigger) a bug may fire on: candidates are measured
    /// natively before one is chosen, and a bug firing more often is not emitted (1: no
    /// selection by rarity).
    #[arg(long, default_value_t = 0.001, allow_hyphen_values = true, value_parser = numbers::fraction)]
    max_fire_rate: f64,
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
    let pool = load_pool(&a.pool)?;
    let project = match &a.project {
        Some(root) => Some(Arc::new(build_project(&a, root)?)),
        None => None,
    };
    for p in &a.inputs {
        if p.extension().and_then(|e| e.to_str()) != Some("c") {
            return Err(format!(
                "{}: augur inject needs C sources (.c)",
                p.display()
            ));
        }
    }
    let work = session::workdir()?;
    let inputs = match &project {
        Some(p) => vec![p.bitcode().to_path_buf()],
        None => a.inputs.clone(),
    };
    let program = augur_env::load_program(&inputs, a.explore.cflags(), work.path())?;
    let entry = augur_env::entry_function(&program, &a.explore.entry, &inputs[0])?;
    let mut argv = vec![augur_env::program_name(&inputs[0])];
    argv.extend(a.program_args.iter().cloned());
    let sources = match &project {
        Some(p) => p.sources(),
        None => a.inputs.clone(),
    };
    let setup = Setup {
        program,
        entry,
        spec,
        argv,
        opts,
        sources,
        cflags: a.explore.cflags(),
        project,
    };
    let o = InjectOptions {
        seed_tests,
        bugs: a.bugs,
        points: a.points,
        samples: a.samples.max(1),
        pool,
        measure: a.measure as usize,
        max_fire_rate: a.max_fire_rate,
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

/// Build the project of `--project root` with `augur cc` and every independent compiler.
fn build_project(a: &InjectArgs, root: &Path) -> Result<augur_inject::Built, String> {
    if !root.is_dir() {
        return Err(format!("{}: not a directory", root.display()));
    }
    let project = Project {
        root: root.to_path_buf(),
        configure: a.configure.clone(),
        build: a.build.clone().expect("required by clap"),
        program: a.program.clone().expect("required by clap"),
    };
    let augur =
        std::env::current_exe().map_err(|e| format!("cannot find augur's executable: {e}"))?;
    augur_inject::Built::new(&project, &augur, &Messages)
}

/// The objects of every test named by `paths`: files, or directories whose `.json` and
/// `.ktest` files (a `.ktest` beside a `.json` of its name is the same test) are loaded
/// in name order.
fn load_pool(paths: &[PathBuf]) -> Result<Vec<augur_inject::Objects>, String> {
    let mut files = Vec::new();
    for p in paths {
        if !p.is_dir() {
            files.push(p.clone());
            continue;
        }
        let entries =
            std::fs::read_dir(p).map_err(|e| format!("{}: cannot read: {e}", p.display()))?;
        let mut here: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|f| match f.extension().and_then(|e| e.to_str()) {
                Some("json") => true,
                Some("ktest") => !f.with_extension("json").exists(),
                _ => false,
            })
            .collect();
        if here.is_empty() {
            return Err(format!("{}: no tests in it (.json or .ktest)", p.display()));
        }
        here.sort();
        files.extend(here);
    }
    files
        .iter()
        .map(|f| seed::load(f).map(|s| s.objects))
        .collect()
}

/// inject's phases as lines on stderr.
struct Messages;

impl augur_engine::Progress for Messages {
    fn message(&self, msg: &str) {
        eprintln!("augur: inject: {msg}");
    }
}
