//! Native verification of an injected bug, trusting no single build: on augur replay's
//! build the trigger must fail with the intended kind at the intended line, and so on
//! every independent build ([`crate::builds::INDEPENDENT`]) with no sanitizer report
//! before it; on every other input tried (path samples, explored tests, the program's
//! own test pool, random inputs, mutations of the program's own inputs and of the
//! trigger) the buggy program must behave exactly as the original (same exit status and
//! stdout) unless the bug fires. How often it fires on each kind of input is its
//! measured rarity.

use crate::builds::{Build, Flavour, INDEPENDENT};
use crate::sanitizer_reports::{self, Report};
use augur_env::{judge, Expect, NativeRun, Status, Verdict};
use rustc_hash::FxHashMap;
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

/// A test's objects.
pub type Objects = Vec<(String, Vec<u8>)>;

/// Where a base of non-triggering inputs comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Source {
    /// Samples of the seed path's inputs.
    PathSample,
    /// Tests of the exploration of the original program.
    Explored,
    /// The program's own tests (`--pool`).
    Pool,
    /// Uniformly random bytes for every object.
    Random,
    /// One of the program's own inputs (the `--pool` tests and the explored tests of the
    /// original; with none, the seed paths' inputs), drawn uniformly, with 1 to 4 of its
    /// bytes changed at random: what a tester or fuzzer starting from them meets.
    Mutated,
    /// The bug's trigger with 1 to 4 of its bytes changed at random: reported beside the
    /// others, never gating (a bug fires on every such mutation that misses the bytes
    /// its predicates read, so this bounds what rarity near the trigger can mean).
    NearTrigger,
}

impl Source {
    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Source::PathSample => "path_samples",
            Source::Explored => "explored",
            Source::Pool => "pool",
            Source::Random => "random",
            Source::Mutated => "mutated",
            Source::NearTrigger => "near_trigger",
        }
    }

    /// Is it there to measure rarity (the pool, random and mutated inputs, the trigger's
    /// mutations), rather than to check the bug on the path's own inputs?
    fn measures(self) -> bool {
        matches!(
            self,
            Source::Pool | Source::Random | Source::Mutated | Source::NearTrigger
        )
    }
}

/// Where a bug must fire: its error kind and the file name and line of its action.
#[derive(Clone, Debug)]
pub struct Target {
    /// augur's error kind (`assertion`, `out-of-bounds`, ...).
    pub error: &'static str,
    /// File name of the last point.
    pub file: String,
    /// Its line.
    pub line: u32,
}

/// What the first sanitizer report of a run (AddressSanitizer, UBSan, MemorySanitizer)
/// says, if any.
fn report(run: &NativeRun) -> Option<String> {
    sanitizer_reports::reports(&run.stderr)
        .into_iter()
        .next()
        .map(|r| r.what)
}

impl Target {
    /// Does `text` name this target's line (`FILE:LINE` followed by no digit)?
    fn named_in(&self, text: &str) -> bool {
        let at = format!("{}:{}", self.file, self.line);
        text.match_indices(&at).any(|(i, _)| {
            !text[i + at.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit())
        })
    }

    /// Did `run` fail with this bug: the right kind, reported at the right line?
    pub fn fired(&self, run: &NativeRun) -> bool {
        let kind_ok = matches!(
            judge(&Expect::Error(self.error.into()), run, 1.0),
            Verdict::Passed(_)
        );
        kind_ok && self.named_in(&String::from_utf8_lossy(&run.stderr))
    }

    /// Did `run` of `build` end as this bug's trigger must: fired it or, where the build
    /// cannot show the kind, with no sanitizer report? Else what it did.
    fn outcome(&self, build: &Build, run: &NativeRun) -> Result<&'static str, String> {
        let got = || augur_env::describe(run, build.timeout.as_secs_f64());
        if build.flavour.shows(self.error) {
            if self.fired(run) {
                Ok("fires")
            } else {
                Err(report(run).unwrap_or_else(got))
            }
        } else {
            match report(run) {
                None => Ok("clean (the kind shows under AddressSanitizer only)"),
                Some(r) => Err(r),
            }
        }
    }

    /// How the trigger ran on an independent build: `Ok` when it fired this bug (or, where
    /// the build cannot show the kind, ran with no sanitizer report), else what it did.
    /// A run stopped by a UBSan or MemorySanitizer report goes on past it: it passes if
    /// it then fires the bug and every report it made is one the original program's
    /// build of the same flavour makes on the same input (the original's own undefined
    /// behaviour, not the bug's).
    fn check(
        &self,
        build: &Build,
        trigger: &Objects,
        original: &Original,
    ) -> Result<Result<String, String>, String> {
        let run = build.run(trigger)?;
        let first = match self.outcome(build, &run) {
            Ok(how) => return Ok(Ok(how.to_string())),
            Err(first) => first,
        };
        if report(&run).is_none() {
            return Ok(Err(first));
        }
        let past = build.run_past_reports(trigger)?;
        let made = sanitizer_reports::reports(&past.stderr);
        let fires = !build.flavour.shows(self.error) || self.fired(&past);
        if !fires || made.is_empty() {
            return Ok(Err(first));
        }
        let own = match original.reports(build.flavour, trigger)? {
            Ok(own) => own,
            Err(e) => return Ok(Err(format!("{first} (and the original: {e})"))),
        };
        Ok(match made.iter().find(|r| !own.contains(r)) {
            Some(_) => Err(first),
            None => Ok(format!(
                "fires past the original's own report(s): {}",
                made.iter()
                    .map(|r| r.to_string())
                    .collect::<Vec<_>>()
                    .join("; ")
            )),
        })
    }
}

/// Counts of the inputs of one source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Inputs tried.
    pub tried: usize,
    /// Of which: behaved as the original.
    pub same: usize,
    /// Of which: fired the bug.
    pub fired: usize,
    /// Of which: fired another bug of the program (in one program: the first bug to
    /// fire ends the run).
    pub fired_other: usize,
    /// Of which: behaved differently without firing the bug (a failure).
    pub differed: usize,
}

/// The outcome of verifying one bug.
#[derive(Clone, Debug, Default)]
pub struct Verification {
    /// Did the trigger fire the bug on augur replay's build?
    pub trigger_fires: bool,
    /// How that trigger run ended (for the report).
    pub trigger_run: String,
    /// Per independent build: its name and how the trigger ran there (`Ok`: it fired).
    pub builds: Vec<(String, Result<String, String>)>,
    /// Per source of other inputs, their counts.
    pub tallies: Vec<(Source, Tally)>,
    /// In one-program mode: other bugs the trigger fired (must be none).
    pub crossed: usize,
    /// The first input on which the buggy program behaved differently from the original
    /// without firing a bug: which, and what each did.
    pub first_difference: Option<String>,
}

/// Characters shown of an input or an output in a difference.
const SHOWN: usize = 80;

/// `bytes` escaped as C would write them, cut at [`SHOWN`] characters.
fn shown(bytes: &[u8]) -> String {
    let text: String = bytes.escape_ascii().to_string();
    if text.chars().count() > SHOWN {
        format!("{}...", text.chars().take(SHOWN).collect::<String>())
    } else {
        text
    }
}

/// One input and what the original and the buggy program did on it.
fn difference(
    source: Source,
    objects: &Objects,
    original: &(Status, Vec<u8>),
    buggy: &NativeRun,
    timeout_s: f64,
) -> String {
    let input: Vec<String> = objects
        .iter()
        .map(|(name, bytes)| format!("{name}=\"{}\"", shown(bytes)))
        .collect();
    // The original's standard error is not kept: its end alone is described.
    let original_run = NativeRun {
        status: original.0,
        stdout: Vec::new(),
        stderr: Vec::new(),
        outputs: Vec::new(),
    };
    format!(
        "a {} input ({}): the original {}, stdout \"{}\"; the buggy program {}, stdout \"{}\"",
        source.name(),
        input.join(" "),
        augur_env::describe(&original_run, timeout_s),
        shown(&original.1),
        augur_env::describe(buggy, timeout_s),
        shown(&buggy.stdout)
    )
}

impl Verification {
    /// The counts over every source.
    pub fn total(&self) -> Tally {
        self.tallies
            .iter()
            .fold(Tally::default(), |a, (_, t)| Tally {
                tried: a.tried + t.tried,
                same: a.same + t.same,
                fired: a.fired + t.fired,
                fired_other: a.fired_other + t.fired_other,
                differed: a.differed + t.differed,
            })
    }

    /// The counts of one source (zero when none was tried).
    pub fn tally(&self, s: Source) -> Tally {
        self.tallies
            .iter()
            .find(|(x, _)| *x == s)
            .map(|(_, t)| *t)
            .unwrap_or_default()
    }

    /// Independent builds the trigger fired on (or ran clean on).
    pub fn builds_ok(&self) -> usize {
        self.builds.iter().filter(|(_, r)| r.is_ok()).count()
    }

    /// Did the bug pass?
    pub fn passed(&self) -> bool {
        self.trigger_fires
            && self.builds_ok() == self.builds.len()
            && self.total().differed == 0
            && self.crossed == 0
    }

    /// One line: what went wrong or right.
    pub fn summary(&self) -> String {
        let trigger = if self.trigger_fires {
            "trigger fires".to_string()
        } else {
            format!("trigger does not fire ({})", self.trigger_run)
        };
        let failed: Vec<String> = self
            .builds
            .iter()
            .filter_map(|(n, r)| r.as_ref().err().map(|e| format!("{n}: {e}")))
            .collect();
        let builds = if failed.is_empty() {
            format!("on {} independent build(s)", self.builds.len())
        } else {
            format!("not on {}", failed.join("; "))
        };
        let t = self.total();
        let first = self
            .first_difference
            .as_ref()
            .map(|d| format!(" (first: {d})"))
            .unwrap_or_default();
        format!(
            "{trigger} {builds}; {} input(s): {} as the original, {} fire, {}{} differ{first}; {} other trigger(s) fire it",
            t.tried,
            t.same,
            t.fired,
            match t.fired_other {
                0 => String::new(),
                n => format!("{n} fire another bug, "),
            },
            t.differed,
            self.crossed
        )
    }
}

/// What one input did on the buggy program (and the original).
enum Judged {
    /// It fired the bug verified.
    Fired,
    /// It fired another bug of the program.
    FiredOther,
    /// It behaved as on the original.
    Same,
    /// It behaved otherwise: how (see [`difference`]).
    Differed(String),
}

/// Makes the original program's build of an independent flavour.
type MakeBuild<'a> = Box<dyn Fn(Flavour) -> Result<Build, String> + Sync + 'a>;

/// The original program's build, with its runs remembered (inputs recur across bugs),
/// and its independent builds, each made when a trigger's run first needs it (to tell
/// the original's own sanitizer reports from a bug's).
pub struct Original<'a> {
    build: Build,
    runs: Mutex<FxHashMap<Objects, (Status, Vec<u8>)>>,
    independent: Vec<(Flavour, OnceLock<Result<Build, String>>)>,
    make: MakeBuild<'a>,
}

impl<'a> Original<'a> {
    /// The original program as built by `build`, its independent builds by `make`.
    pub fn new(
        build: Build,
        make: impl Fn(Flavour) -> Result<Build, String> + Sync + 'a,
    ) -> Original<'a> {
        Original {
            build,
            runs: Mutex::default(),
            independent: INDEPENDENT.iter().map(|f| (*f, OnceLock::new())).collect(),
            make: Box::new(make),
        }
    }

    /// The sanitizer reports its build of `flavour` makes on `objects`, going on past
    /// each (the outer error: the run failed; the inner: the build did).
    fn reports(
        &self,
        flavour: Flavour,
        objects: &Objects,
    ) -> Result<Result<Vec<Report>, String>, String> {
        let Some((_, cell)) = self.independent.iter().find(|(f, _)| *f == flavour) else {
            return Ok(Err(format!("no build as {}", flavour.name())));
        };
        match cell.get_or_init(|| (self.make)(flavour)) {
            Ok(build) => Ok(Ok(sanitizer_reports::reports(
                &build.run_past_reports(objects)?.stderr,
            ))),
            Err(e) => Ok(Err(e.clone())),
        }
    }

    /// Exit status and stdout of the original on `objects`.
    fn behaviour(&self, objects: &Objects) -> Result<(Status, Vec<u8>), String> {
        let known = self
            .runs
            .lock()
            .expect("a run panicked")
            .get(objects)
            .cloned();
        if let Some(b) = known {
            return Ok(b);
        }
        let r = self.build.run(objects)?;
        let b = (r.status, r.stdout);
        let mut runs = self.runs.lock().expect("a run panicked");
        runs.insert(objects.clone(), b.clone());
        Ok(b)
    }
}

/// The buggy program's builds.
pub struct Buggy<'a> {
    /// augur replay's build.
    pub replay: &'a Build,
    /// The independent builds (or why one does not compile).
    pub independent: &'a [(Flavour, Result<Build, String>)],
}

/// Verify bug `own` of the bugs in `buggy` (their `targets`): `trigger` must fire it on
/// every build; each of `inputs` must behave as on `original` unless it fires a bug.
/// Past `deadline`, the inputs that measure rarity are no longer tried.
pub fn verify(
    buggy: &Buggy,
    original: &Original,
    own: usize,
    targets: &[Target],
    trigger: &Objects,
    inputs: &[(Source, Objects)],
    deadline: Option<Instant>,
) -> Result<Verification, String> {
    let t = buggy.replay.run(trigger)?;
    let mut v = Verification {
        trigger_fires: targets[own].fired(&t),
        trigger_run: augur_env::describe(&t, buggy.replay.timeout.as_secs_f64()),
        crossed: (0..targets.len())
            .filter(|&j| j != own && targets[j].fired(&t))
            .count(),
        ..Verification::default()
    };
    for (flavour, b) in buggy.independent {
        let outcome = match b {
            Ok(b) => targets[own].check(b, trigger, original)?,
            Err(e) => Err(e.clone()),
        };
        v.builds.push((flavour.name(), outcome));
    }
    // Each input on the buggy program, and on the original unless it fires a bug: on
    // every core, each run reduced at once to what the tally needs (a run's output may be
    // large), tallied below in input order.
    let timeout_s = buggy.replay.timeout.as_secs_f64();
    let judged = augur_env::map_in_order(
        inputs,
        deadline,
        |(source, _)| source.measures(),
        |(source, objects)| -> Result<Judged, String> {
            let b = buggy.replay.run(objects)?;
            if targets[own].fired(&b) {
                return Ok(Judged::Fired);
            }
            if targets.iter().any(|t| t.fired(&b)) {
                return Ok(Judged::FiredOther);
            }
            let was = original.behaviour(objects)?;
            Ok(if was.0 == b.status && was.1 == b.stdout {
                Judged::Same
            } else {
                Judged::Differed(difference(*source, objects, &was, &b, timeout_s))
            })
        },
    );
    let mut tallies: Vec<(Source, Tally)> = Vec::new();
    for ((source, _), judged) in inputs.iter().zip(judged) {
        if tallies.last().is_none_or(|(s, _)| s != source) {
            tallies.push((*source, Tally::default()));
        }
        let tally = &mut tallies.last_mut().expect("pushed above").1;
        tally.tried += 1;
        match judged? {
            Judged::Fired => tally.fired += 1,
            Judged::FiredOther => tally.fired_other += 1,
            Judged::Same => tally.same += 1,
            Judged::Differed(how) => {
                tally.differed += 1;
                v.first_difference.get_or_insert(how);
            }
        }
    }
    v.tallies = tallies;
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builds::{independent, Flavour};
    use std::path::PathBuf;
    use std::time::Duration;

    /// A program with a one-transition ETS whose predicate reads `flag`; `ASSIGN` is the
    /// statement before the transition.
    const PROGRAM: &str = r#"#include "augur.h"
#include <stdio.h>
int augur_bug1;
int f(int a) {
  int flag;
  ASSIGN
  { augur_bug1 += (augur_bug1 == 0) & ((long long)(int)(a) <= (long long)(int)(flag)); if (augur_bug1 == 1) { extern void __assert_fail(const char *, const char *, unsigned int, const char *); __assert_fail("augur-inject bug 1", __FILE__, __LINE__, __func__); } }
  flag = a > 3;
  return flag;
}
int main(void) { int a; augur_make_symbolic(&a, sizeof a, "a"); printf("%d\n", f(a)); return 0; }
"#;

    /// A signed overflow on every path where `a < 0`, reported by UBSan (by the
    /// independent builds, not by augur replay's).
    const OVERFLOW: &str =
        "{ volatile int big = 2147483647; volatile int s = big + (a < 0); (void)s; }";

    fn verify_with(assign: &str) -> Verification {
        verify_beside("", assign)
    }

    /// Verify the bug of PROGRAM with `shared` and `assign` as its `ASSIGN` against the
    /// original with `shared` and `flag = 0;` (each file named `prog.c`, as inject
    /// writes them).
    fn verify_beside(shared: &str, assign: &str) -> Verification {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| {
            let p: PathBuf = dir.path().join(name);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, text).unwrap();
            vec![p]
        };
        let buggy = write(
            "prog.c",
            &PROGRAM.replace("ASSIGN", &format!("{shared} {assign}")),
        );
        let t = Duration::from_secs(10);
        let orig = write(
            "original/prog.c",
            &PROGRAM
                .replace("ASSIGN", &format!("{shared} flag = 0;"))
                .replace("augur_bug1 == 1", "0"),
        );
        let original = Original::new(
            Build::new(&orig, &[], &[], t, Flavour::Replay).unwrap(),
            |f| Build::new(&orig, &[], &[], t, f),
        );
        let replay = Build::new(&buggy, &[], &[], t, Flavour::Replay).unwrap();
        let independent = independent(&buggy, &[], &[], t);
        let target = Target {
            error: "assertion",
            file: "prog.c".into(),
            line: 7,
        };
        let trigger: Objects = vec![("a".into(), (-5i32).to_le_bytes().to_vec())];
        let others: Vec<(Source, Objects)> = (1..=4i32)
            .map(|a| {
                (
                    Source::Random,
                    vec![("a".into(), (a * 100).to_le_bytes().to_vec())],
                )
            })
            .collect();
        let b = Buggy {
            replay: &replay,
            independent: &independent,
        };
        verify(&b, &original, 0, &[target], &trigger, &others, None).unwrap()
    }

    #[test]
    fn a_bug_fires_on_every_independent_build() {
        let v = verify_with("flag = 0;");
        assert!(v.passed(), "{}", v.summary());
        assert_eq!(v.builds.len(), 5);
        assert!(v.builds.iter().any(|(n, _)| n.starts_with("gcc -O2")));
        assert_eq!(
            v.tally(Source::Random),
            Tally {
                tried: 4,
                same: 4,
                ..Tally::default()
            }
        );
    }

    #[test]
    fn the_first_input_the_bug_changes_without_firing_is_shown() {
        let v = verify_with("flag = 0; if (a == 300) return 9;");
        assert!(!v.passed());
        assert_eq!(v.tally(Source::Random).differed, 1);
        assert_eq!(
            v.first_difference.as_deref(),
            Some(
                "a random input (a=\",\\x01\\x00\\x00\"): the original exit 0, stdout \"1\\n\"; \
                 the buggy program exit 0, stdout \"9\\n\""
            )
        );
    }

    #[test]
    fn a_predicate_over_an_unassigned_local_is_refused() {
        let v = verify_with("");
        assert!(!v.passed());
        let msan = &v.builds.last().unwrap();
        assert!(msan.0.contains("memory"), "{msan:?}");
        let why = msan.1.as_ref().unwrap_err();
        assert!(
            why.starts_with("MemorySanitizer: use-of-uninitialized-value"),
            "{why}"
        );
    }

    #[test]
    fn a_bug_fires_past_the_original_s_own_undefined_behaviour() {
        let v = verify_beside(OVERFLOW, "flag = 0;");
        assert!(v.passed(), "{}", v.summary());
        let past: Vec<&str> = v
            .builds
            .iter()
            .filter_map(|(_, r)| r.as_ref().ok().map(String::as_str))
            .filter(|how| how.starts_with("fires past the original's own report"))
            .collect();
        // The four builds with UBSan (clang and gcc, -O0 and -O2) report the overflow,
        // as they do on the original; MemorySanitizer's build has no UBSan.
        assert_eq!(past.len(), 4, "{:?}", v.builds);
        assert!(
            past.iter()
                .all(|how| how.contains("UBSan: signed integer overflow")
                    && how.ends_with("prog.c:6")),
            "{past:?}"
        );
    }

    #[test]
    fn a_bug_s_own_undefined_behaviour_is_refused() {
        let v = verify_with(&format!("flag = 0; {OVERFLOW}"));
        assert!(!v.passed());
        let refused: Vec<&String> = v
            .builds
            .iter()
            .filter_map(|(_, r)| r.as_ref().err())
            .collect();
        assert_eq!(refused.len(), 4, "{:?}", v.builds);
        assert!(
            refused
                .iter()
                .all(|why| why.starts_with("UBSan: signed integer overflow")),
            "{refused:?}"
        );
    }
}
