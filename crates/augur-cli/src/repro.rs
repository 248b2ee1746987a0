//! `augur repro`: find an input that reproduces a field crash from its report (stack
//! trace) and, optionally, the log of `augur record`'s binary; verify it natively.

use crate::numbers;
use crate::record::split_cflags;
use crate::session::{self, ExploreArgs};
use crate::{outdir, progress::Progress};
use augur_engine::{Executor, ExternalPolicy, SearchKind, TestPolicy};
use augur_repro::{hex, CandidateSink, GoalObserver, Log, Matched, Native, Report, SymCon};
use clap::Args;
use serde_json::json;
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Options of `augur repro`.
#[derive(Args, Debug)]
pub struct ReproArgs {
    /// Program sources (.c files, linked together).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// The crash report: an ASan/UBSan report, gdb `bt` output or an augur test JSON.
    #[arg(long, value_name = "REPORT")]
    crash: PathBuf,
    /// The log the recorded binary wrote (omitted: a search directed by the stack alone).
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Native-only files linked into the verification build (as given to `augur record`).
    #[arg(long = "link", value_name = "FILE")]
    link: Vec<PathBuf>,
    /// Output directory (default: a new augur-out-N, linked as augur-out-last).
    #[arg(short = 'o', long = "output-dir")]
    output_dir: Option<PathBuf>,
    /// Time limit of each native verification run, in seconds.
    #[arg(long, default_value_t = 10.0, allow_hyphen_values = true, value_parser = numbers::seconds)]
    timeout: f64,
    #[command(flatten)]
    explore: ExploreArgs,
    /// Concrete arguments passed to the program (after `--`).
    #[arg(last = true)]
    program_args: Vec<String>,
}

/// The report, parsed and matched to the program (errors name the file).
fn read_report(path: &Path, program: &augur_ir::Program) -> Result<(Report, Vec<Matched>), String> {
    let text = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let rep = augur_repro::parse_report(&String::from_utf8_lossy(&text))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let frames = augur_repro::match_frames(&rep, program);
    if frames.is_empty() {
        return Err(format!(
            "{}: no frame of the program: its {} frame(s) name no function of the program at a line it has code on",
            path.display(),
            rep.frames.len()
        ));
    }
    Ok((rep, frames))
}

/// The log, checked to come from this build of the program.
fn read_log(path: &Path, inputs: &[PathBuf], cflags: &[String]) -> Result<Log, String> {
    let log = Log::read(path)?;
    let id = augur_repro::build_id(inputs, cflags)?;
    if log.build_id != id {
        return Err(format!(
            "{}: the log is of another build of the program (log build {}, this build {})",
            path.display(),
            &hex(&log.build_id)[..16],
            &hex(&id)[..16]
        ));
    }
    Ok(log)
}

/// Run `augur repro`.
pub fn run(a: ReproArgs) -> Result<(), String> {
    let mut opts = a.explore.options()?;
    let spec = a.explore.env_spec()?;
    let timeout = session::positive("timeout", a.timeout)?;
    let cflags = split_cflags(&a.explore.cflags);
    let work = session::workdir()?;
    let program = session::load_inputs(&a.inputs, cflags.clone(), work.path())?;
    let entry = session::entry_function(&program, &a.explore.entry, &a.inputs[0])?;
    let (rep, frames) = read_report(&a.crash, &program)?;
    let log = a
        .log
        .as_deref()
        .map(|p| read_log(p, &a.inputs, &cflags))
        .transpose()?
        .map(Rc::new);
    let out = outdir::prepare(a.output_dir.as_deref())?;

    // The verification build: the recorded functions wrapped, as in the field.
    let hard: Vec<String> = log
        .iter()
        .flat_map(|l| l.functions.iter().map(|f| f.name.clone()))
        .collect();
    let binary = work.path().join("verify-bin");
    augur_repro::build_recorder(&augur_repro::BuildSpec {
        inputs: &a.inputs,
        cflags: &cflags,
        link: &a.link,
        hard: &hard,
        out: &binary,
    })?;
    let argv0 = session::program_name(&a.inputs[0]);
    let native = Native {
        binary,
        // Native runs happen in a scratch directory: the log by its absolute path.
        log: a
            .log
            .as_deref()
            .map(std::path::absolute)
            .transpose()
            .map_err(|e| format!("{e}"))?,
        argv0: argv0.clone(),
        args: a.program_args.clone(),
        timeout,
    };

    let goals = augur_repro::goals(&frames);
    opts.search = vec![SearchKind::Directed(goals.clone())];
    opts.externals = ExternalPolicy::Havoc;
    // Every ended path is a possible candidate, however often its crash was seen.
    opts.tests = TestPolicy::All;
    let shared = Rc::new(RefCell::new(augur_repro::Progress::default()));
    let stop = Arc::new(AtomicBool::new(false));
    let mut argv = vec![argv0.clone()];
    argv.extend(a.program_args.iter().cloned());
    let sink = CandidateSink::new(
        program.clone(),
        rep.clone(),
        frames.clone(),
        native,
        &out,
        argv.clone(),
        shared.clone(),
        stop.clone(),
    )?;
    let mut ex = Executor::new(program, &augur_env::handlers(), opts, Box::new(sink));
    ex.set_interrupt_flag(stop);
    session::stop_on_ctrl_c(&ex);
    if let Some(l) = &log {
        ex.add_extension(Box::new(SymCon::new(l.clone())));
    }
    ex.add_observer(Box::new(GoalObserver::new(
        ex.program.clone(),
        goals.clone(),
        shared.clone(),
    )));
    session::start(&mut ex, entry, &spec, &argv, None);
    let progress = Progress::new();
    augur_repro::reexecute(&mut ex, &shared, &goals, &mut |_, msg| {
        progress.message(msg)
    });
    progress.finish();

    let p = shared.borrow();
    if let Some(e) = &p.error {
        return Err(e.clone());
    }
    let summary = augur_engine::summary_json(&ex);
    let found = p.found.as_ref();
    let command =
        found.and_then(|f| augur_repro::command_line(&argv0, &a.program_args, &f.objects));
    let result = json!({
        "status": found.map_or("not-reproduced", |f| f.how.name()),
        "report": {
            "file": a.crash.display().to_string(),
            "format": format!("{:?}", rep.format),
            "error": rep.headline,
            "kinds": rep.kinds,
        },
        "frames": frames.iter().map(|f| json!({"function": f.function, "file": f.file, "line": f.line})).collect::<Vec<_>>(),
        "log": log.as_ref().map(|l| json!({
            "file": a.log.as_ref().map(|p| p.display().to_string()),
            "functions": l.functions.iter().map(|f| f.name.clone()).collect::<Vec<_>>(),
            "calls": l.calls.len(),
            "bytes": l.bytes,
        })),
        "objects": found.map(|f| f.objects.iter().map(|(n, b)| json!({"name": n, "bytes": b})).collect::<Vec<_>>()),
        "test": found.map(|_| "test000001.json"),
        "command": command,
        "hard_calls_substituted": found.map(|f| f.substituted),
        "candidates": p.candidates,
        "blocked": p.blocked,
        "goal_reached": p.goal + 1,
        "goals": goals.len(),
        "time_s": found.map_or(ex.stats.time_s, |f| f.time_s),
        "solver": summary["solver"],
        "paths": summary["paths_completed"],
    });
    let path = out.join("repro.json");
    std::fs::write(
        &path,
        serde_json::to_vec_pretty(&result).expect("serialises"),
    )
    .map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("augur: output directory is {}", out.display());
    match found {
        Some(f) => {
            eprintln!(
                "augur: reproduced ({}) in {:.2}s: {}",
                f.how.name(),
                f.time_s,
                rep.headline
            );
            if let Some(c) = &command {
                eprintln!("augur: input: {c}");
            }
            Ok(())
        }
        None => {
            eprintln!(
                "augur: not reproduced: reached goal {}/{} ({}), {} candidate(s), {} blocked",
                p.goal + 1,
                goals.len(),
                goals[p.goal.min(goals.len() - 1)],
                p.candidates,
                p.blocked
            );
            std::process::exit(1);
        }
    }
}
