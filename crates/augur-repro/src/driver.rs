//! `augur repro`'s driver: the crash report matched to the program, the log checked to
//! come from this build, the verification build, then the re-execution directed along the
//! stack with SymCon answering the logged calls; the outcome is `repro.json`.

use crate::deadline::{Backstop, Deadline};
use crate::log::{hex, Log};
use crate::reexec::{command_line, goals, run as reexecute, CandidateSink, Findings, Found};
use crate::report::{match_frames, parse as parse_report, Matched, Report};
use crate::{build_id, build_recorder, BuildSpec, Native, SymCon};
use augur_engine::{
    DriverCommon, Executor, ExternalPolicy, Goal, Progress, SearchKind, TestPolicy,
};
use augur_env::EnvSpec;
use augur_ir::Program;
use serde_json::{json, Value as Json};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::Duration;

/// What to reproduce, in what.
pub struct Config {
    /// Program building, options, output directory, interruption.
    pub common: DriverCommon,
    /// The program's C sources (for the verification build and the build id).
    pub inputs: Vec<PathBuf>,
    /// Native-only files linked into the verification build.
    pub link: Vec<PathBuf>,
    /// The crash report (ASan/UBSan, gdb, augur JSON).
    pub crash: PathBuf,
    /// The recorded binary's log, if any.
    pub log: Option<PathBuf>,
    /// Concrete arguments after argv[0].
    pub program_args: Vec<String>,
    /// The symbolic environment.
    pub spec: EnvSpec,
    /// Time limit of each native verification run.
    pub timeout: Duration,
}

/// What the search found.
pub struct Outcome {
    /// The output directory.
    pub out: PathBuf,
    /// The crash report.
    pub report: Report,
    /// Its frames matched to the program.
    pub frames: Vec<Matched>,
    /// The goals along the stack.
    pub goals: Vec<Goal>,
    /// The verified reproduction, if any.
    pub found: Option<Found>,
    /// The input as a command line to paste, when it has one.
    pub command: Option<String>,
    /// The deepest goal reached, candidates seen, candidates blocked.
    pub goal: usize,
    /// Candidates (paths ending like the crash) seen.
    pub candidates: usize,
    /// Candidates verified natively and not reproducing.
    pub blocked: usize,
    /// Hard code on the crash's stack whose results the log does not hold.
    pub warnings: Vec<String>,
    json: Json,
}

impl Outcome {
    /// Write `repro.json` into `dir`.
    pub fn write(&self, dir: &Path) -> Result<(), String> {
        let path = dir.join("repro.json");
        std::fs::write(
            &path,
            serde_json::to_vec_pretty(&self.json).expect("serialises"),
        )
        .map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The goal the search got to, for people.
    pub fn goal_reached(&self) -> &Goal {
        &self.goals[self.goal.min(self.goals.len() - 1)]
    }
}

/// The report, parsed and matched to the program (errors name the file).
fn read_report(path: &Path, program: &Program) -> Result<(Report, Vec<Matched>), String> {
    let text = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let rep = parse_report(&String::from_utf8_lossy(&text))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let frames = match_frames(&rep, program);
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
    let id = build_id(inputs, cflags)?;
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

/// The facts of a run that do not change while it searches, and `repro.json` from them
/// and the findings so far.
struct Facts<'a> {
    c: &'a Config,
    rep: &'a Report,
    frames: &'a [Matched],
    log: Option<&'a Log>,
    goals: usize,
    argv0: &'a str,
    warnings: &'a [String],
}

impl Facts<'_> {
    /// `repro.json` for the findings `p` of the run on `ex` (None: before the search),
    /// `time_s` seconds in.
    fn json(&self, p: &Findings, ex: Option<&Executor>, time_s: f64) -> Json {
        let found = p.found.as_ref();
        let summary = ex.map_or(Json::Null, augur_engine::summary_json);
        let command =
            found.and_then(|f| command_line(self.argv0, &self.c.program_args, &f.objects));
        json!({
            "status": found.map_or("not-reproduced", |f| f.how.name()),
            "report": {
                "file": self.c.crash.display().to_string(),
                "format": format!("{:?}", self.rep.format),
                "error": self.rep.headline,
                "kinds": self.rep.kinds,
            },
            "frames": self.frames.iter().map(|f| json!({"function": f.function, "file": f.file, "line": f.line})).collect::<Vec<_>>(),
            "log": self.log.map(|l| json!({
                "file": self.c.log.as_ref().map(|p| p.display().to_string()),
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
            "goals": self.goals,
            "warnings": self.warnings,
            "time_s": found.map_or(time_s, |f| f.time_s),
            "solver": summary["solver"],
            "paths": summary["paths_completed"],
        })
    }
}

/// Search for an input reproducing the crash of `c.crash`; verify it natively. The whole
/// of it, builds included, keeps to `--max-time` (see [`crate::deadline`]). Write the
/// outcome with [`Outcome::write`] (into [`Outcome::out`]).
pub fn driver(c: &Config, progress: &dyn Progress) -> Result<Outcome, String> {
    let deadline = Deadline::starting_now(c.common.opts.max_time);
    let program = augur_env::load_program(&c.inputs, c.common.cflags.clone(), &c.common.work)?;
    let entry = augur_env::entry_function(&program, &c.common.entry, &c.inputs[0])?;
    let argv0 = augur_env::program_name(&c.inputs[0]);
    let (rep, frames) = read_report(&c.crash, &program)?;
    let log = c
        .log
        .as_deref()
        .map(|p| read_log(p, &c.inputs, &c.common.cflags))
        .transpose()?
        .map(Rc::new);
    let out = augur_engine::prepare_output_dir(c.common.output_dir.as_deref())?;
    let backstop = Backstop::start(&deadline, out.clone(), c.common.work.clone());
    let goals = goals(&frames);
    let warnings = crate::unrecorded::warnings(&program, &frames, log.as_deref());
    let facts = Facts {
        c,
        rep: &rep,
        frames: &frames,
        log: log.as_deref(),
        goals: goals.len(),
        argv0: &argv0,
        warnings: &warnings,
    };
    backstop.update(facts.json(&Findings::default(), None, deadline.elapsed_s()));

    // The verification build: the recorded functions wrapped, as in the field.
    let hard: Vec<String> = log
        .iter()
        .flat_map(|l| l.functions.iter().map(|f| f.name.clone()))
        .collect();
    let binary = c.common.work.join("verify-bin");
    build_recorder(&BuildSpec {
        inputs: &c.inputs,
        cflags: &c.common.cflags,
        link: &c.link,
        hard: &hard,
        out: &binary,
    })?;
    let native = Native {
        binary,
        // Native runs happen in a scratch directory: the log by its absolute path.
        log: c
            .log
            .as_deref()
            .map(std::path::absolute)
            .transpose()
            .map_err(|e| format!("{e}"))?,
        argv0: argv0.clone(),
        args: c.program_args.clone(),
        timeout: c.timeout,
        deadline: deadline.at,
    };

    let mut opts = c.common.opts.clone();
    opts.search = vec![SearchKind::Directed(goals.clone())];
    opts.externals = ExternalPolicy::Havoc;
    // Every ended path is a possible candidate, however often its crash was seen.
    opts.tests = TestPolicy::All;
    // The search has what the builds left of the time.
    opts.max_time = deadline.search_time().or(opts.max_time);
    let shared = Rc::new(RefCell::new(Findings::default()));
    let mut argv = vec![argv0.clone()];
    argv.extend(c.program_args.iter().cloned());
    let sink = CandidateSink::new(
        program.clone(),
        rep.clone(),
        frames.clone(),
        native,
        &out,
        argv.clone(),
        shared.clone(),
        c.common.interrupt.clone(),
        deadline.start,
    )?;
    let mut ex = Executor::new(
        program.clone(),
        &augur_env::handlers(),
        opts,
        Box::new(sink),
    );
    ex.set_interrupt_flag(c.common.interrupt.clone());
    if let Some(l) = &log {
        ex.add_extension(Box::new(SymCon::new(l.clone())));
    }
    ex.add_observer(Box::new(crate::GoalObserver::new(
        ex.program.clone(),
        goals.clone(),
        shared.clone(),
    )));
    let st = ex.initial_state(None);
    augur_env::start(&mut ex, st, entry, &c.spec, &argv);
    reexecute(&mut ex, &shared, &goals, &mut |ex, msg| {
        progress.message(&msg);
        backstop.update(facts.json(&shared.borrow(), Some(ex), deadline.elapsed_s()));
    });

    let p = shared.borrow();
    if let Some(e) = &p.error {
        backstop.done();
        return Err(e.clone());
    }
    let json = facts.json(&p, Some(&ex), deadline.elapsed_s());
    backstop.done();
    let found = p.found.clone();
    let command = found
        .as_ref()
        .and_then(|f| command_line(&argv0, &c.program_args, &f.objects));
    Ok(Outcome {
        out,
        report: rep,
        frames,
        goals,
        found,
        command,
        goal: p.goal,
        candidates: p.candidates,
        blocked: p.blocked,
        warnings: warnings.clone(),
        json,
    })
}
