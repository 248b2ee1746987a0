#!/usr/bin/env python3
"""Replay augur's tests of one coreutils program natively on the gcov build and print one
table row: gcov line coverage of the program's own source file on augur's tests and on
KLEE's (when KLEE ran: OUT/klee, its .ktest files run by the same native runner, see
bench/ktest.py) and whether augur's is at least KLEE's, tests, paths, errors, errors that
reproduce natively (their test crashes the ASan/UBSan build: `augur replay` takes .bc
inputs, but clang adds UBSan's checks before bitcode, so a .bc replay misses them),
`augur replay`'s verdict (OUT/replay.log), unmodeled external functions, and augur's
first problem line when it did not finish.

usage: coreutils-report.py WORK PROG OUT
"""
import glob
import json
import os
import re
import subprocess
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ktest  # noqa: E402 (bench/ktest.py, beside this file)

TIMEOUT = 10
# A test may name any path (`rm -r /etc` fits in its ten bytes): harmless in augur's world,
# where nothing exists outside the working directory, and not natively. As root, the
# native runs are made as the unprivileged user nobody (uid and gid 65534), in a directory
# it owns, from a copy of the gcov build whose coverage files go to a directory of its own
# (`gcov_stage`, `gcov_collect`). A gcov run of
# BusyBox's `rm` tests as root once deleted /etc from the machine it ran on.
NOBODY = 65534
# augur's stderr lines that are not a problem: warnings, progress, errors found with a test.
PROGRESS = r"WARN |augur: (done:|output directory)|augur: error: .*\(test\d+\)$"


def environment(objects):
    """argv, stdin and files of a test, gated by the n_args counts as augur's replay does
    (crates/augur-env/src/replay/environment.rs): a count keeps only that many of the
    argNN objects that follow it; an argNN with no count before it is one argument."""
    argv, stdin, files = [], b"", {}
    keep = None
    for obj in objects:
        name, data = obj["name"], bytes(obj["bytes"])
        if re.fullmatch(r"n_args(_\d+)?", name):
            keep = max(int.from_bytes(data[:4], "little", signed=True), 0)
        elif re.fullmatch(r"arg\d\d+", name):
            if keep is None or keep > 0:
                argv.append(data.split(b"\0", 1)[0])
                if keep is not None:
                    keep -= 1
        elif name == "stdin":
            stdin = data
        elif name.startswith("file:"):
            files[name[len("file:"):]] = data
    return argv, stdin, files


def as_nobody():
    """subprocess.run's arguments making the child the user nobody, when this is root."""
    if os.geteuid() != 0:
        return {}
    return {"user": NOBODY, "group": NOBODY, "extra_groups": []}


def give_to_nobody(tree):
    """As root, make TREE nobody's (a native run writes its files there, or gcov's)."""
    if os.geteuid() != 0:
        return
    for top, dirs, names in os.walk(tree):
        for name in [top] + [os.path.join(top, n) for n in dirs + names]:
            os.lchown(name, NOBODY, NOBODY)


def gcov_stage(binary):
    """Where to run the gcov build BINARY from: as root, a copy in a fresh directory that
    nobody may pass through but not list (a test of `rm -rf /tmp` must not find it), with
    the environment that sends its coverage files to a directory of nobody's inside it
    (GCOV_PREFIX: the build may sit where nobody cannot go, as under /root); else BINARY
    itself. Returns (stage directory or None, path to run, environment to add)."""
    if os.geteuid() != 0:
        return None, binary, {}
    stage = tempfile.mkdtemp(prefix="augur-gcov-")
    os.chmod(stage, 0o711)
    copy = os.path.join(stage, os.path.basename(binary))
    shutil.copy2(binary, copy)
    os.chmod(copy, 0o755)
    out = os.path.join(stage, "gcda")
    os.mkdir(out)
    give_to_nobody(out)
    return stage, copy, {"GCOV_PREFIX": out, "GCOV_PREFIX_STRIP": "0"}


def gcov_collect(stage, build, objects):
    """Move the coverage files of OBJECTS (paths relative to BUILD) that the staged runs
    wrote under STAGE into BUILD, and remove STAGE."""
    if stage is None:
        return
    for obj in objects:
        gcda = os.path.join(build, obj[: -len(".o")] + ".gcda")
        staged = os.path.join(stage, "gcda", os.path.abspath(gcda).lstrip("/"))
        if os.path.exists(staged):
            shutil.move(staged, gcda)
    shutil.rmtree(stage, ignore_errors=True)


def write_files(cwd, files):
    """A test's files in the native run's directory CWD (nobody's when this is root)."""
    for name, data in files.items():
        path = os.path.join(cwd, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    give_to_nobody(cwd)


def run_native(binary, test, extra_env=None):
    """Run a native build on one test in a fresh directory holding its files, as nobody
    when this is root, with EXTRA_ENV; returns (exit status, negative for a signal, or None
    on timeout; stderr)."""
    argv, stdin, files = environment(test["objects"])
    env = dict(os.environ, LC_ALL="C", ASAN_OPTIONS="detect_leaks=0", **(extra_env or {}))
    with tempfile.TemporaryDirectory() as cwd:
        write_files(cwd, files)
        try:
            res = subprocess.run([binary.encode()] + argv, input=stdin, cwd=cwd, env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                 timeout=TIMEOUT, **as_nobody())
            return res.returncode, res.stderr
        except subprocess.TimeoutExpired:
            return None, b""


def main_object(build, prog):
    """The object and source of PROG's own code, relative to the build: src/PROG.o of
    src/PROG.c, or the object automake names for the program's own flags, src/PROG-SRC.o of
    src/SRC.c (md5sum-digest.o of digest.c)."""
    # (PROG-* before *-PROG: basenc's own object is basenc-basenc.o, not base32-basenc.o)
    patterns = (f"{prog}", f"{prog}-*", f"*-{prog}")
    for pattern in patterns:
        for gcno in sorted(glob.glob(os.path.join(build, "src", pattern + ".gcno"))):
            stem = os.path.basename(gcno)[: -len(".gcno")]
            source = f"src/{stem.split('-', 1)[-1]}.c"
            if os.path.exists(os.path.join(build, source)):
                return f"src/{stem}.o", source
    return None


def line_coverage(build, obj, source):
    """gcov's executed/total lines of SOURCE."""
    out = subprocess.run(["gcov", "-n", "-o", obj, source], cwd=build,
                         capture_output=True, text=True).stdout
    m = re.search(rf"File '{re.escape(source)}'\nLines executed:([\d.]+)% of (\d+)", out)
    if not m:
        return "no data"
    total = int(m.group(2))
    return f"{round(float(m.group(1)) * total / 100)}/{total} ({m.group(1)}%)"


def reproduces(binary, test):
    """Whether a test crashes the ASan/UBSan build: a sanitizer report or a signal."""
    status, stderr = run_native(binary, test)
    return (status is not None and status < 0) or b"Sanitizer" in stderr \
        or b"runtime error:" in stderr


def first_problem(out):
    """augur's first stderr line that is neither progress nor an error found with a test,
    or the signal that killed it."""
    try:
        with open(os.path.join(out, "status")) as f:
            status = int(f.read())
        if status > 128:
            return f"killed by signal {status - 128}"
    except (FileNotFoundError, ValueError):
        pass
    try:
        with open(os.path.join(out, "stderr.log"), errors="replace") as f:
            for line in f:
                line = re.sub(r"\x1b\[[0-9;]*m", "", line).strip()
                if not re.match(PROGRESS, line):
                    return line
    except FileNotFoundError:
        pass
    return "augur did not finish"


# Seconds a test may run natively; a test killed then leaves no gcov data.
# After GCOV_TIMEOUTS timeouts a program's tests of partial paths are not run natively
# (`yes`); after GIVE_UP_TIMEOUTS none of its tests are (`sleep`: every test may run out).
GCOV_TIMEOUTS = 3
GIVE_UP_TIMEOUTS = 20


def run_for_coverage(binary, tests, extra_env):
    """Run BINARY natively on each test (timeouts bounded as above); returns a note on the
    tests that timed out or were not run, empty when every test ran to its end."""
    timeouts = not_run = 0
    for test in tests:
        partial = test.get("outcome", {}).get("kind") == "partial"
        if timeouts >= GIVE_UP_TIMEOUTS or (timeouts >= GCOV_TIMEOUTS and partial):
            not_run += 1
        elif run_native(binary, test, extra_env)[0] is None:
            timeouts += 1
    if not timeouts:
        return ""
    return f" ({timeouts} tests timed out natively" + (f", {not_run} not run)" if not_run else ")")


def coverage_of(build, prog, found, tests):
    """gcov's line coverage of PROG's own source (FOUND: main_object's answer) on TESTS,
    from fresh counts."""
    if not found:
        return "no .gcno"
    gcda = os.path.join(build, found[0][: -len(".o")] + ".gcda")
    if os.path.exists(gcda):
        os.remove(gcda)
    stage, binary, gcov_env = gcov_stage(os.path.join(build, "src", prog))
    note = run_for_coverage(binary, tests, gcov_env)
    gcov_collect(stage, build, [found[0]])
    return line_coverage(build, *found) + note


def covered_lines(coverage):
    """The covered-line count of a coverage_of answer, or None."""
    m = re.match(r"(\d+)/\d+", coverage)
    return int(m.group(1)) if m else None


def klee_tests(out):
    """KLEE's tests of the program (OUT/klee/*.ktest) as augur tests, or None when KLEE
    did not run."""
    klee = os.path.join(out, "klee")
    if not os.path.isdir(klee):
        return None
    return [ktest.as_augur_test(ktest.read_ktest(path))
            for path in sorted(glob.glob(os.path.join(klee, "*.ktest")))]


def replay_counts(out):
    """`augur replay`'s last line (N passed, M failed...) and its first failure, or what it
    printed instead."""
    try:
        with open(os.path.join(out, "replay.log"), errors="replace") as f:
            lines = [line.rstrip("\n") for line in f]
    except FileNotFoundError:
        return "-", None
    last = lines[-1] if lines else "no output"
    failed = [line for line in lines if ": FAILED: " in line]
    if not re.match(r"\d+ passed, \d+ failed", last):
        return "replay: " + last, None
    return last, failed[0] if failed else None


def main():
    work, prog, out = sys.argv[1:4]
    build = os.path.join(work, "gcov")
    summary_path = os.path.join(out, "summary.json")
    if not os.path.exists(summary_path):
        print(f"| {prog} | - | - | - | - | - | - | - | - | - | {first_problem(out)} |")
        return
    with open(summary_path) as f:
        summary = json.load(f)
    tests = []
    for path in sorted(glob.glob(os.path.join(out, "test*.json"))):
        with open(path) as f:
            tests.append((path, json.load(f)))
    found = main_object(build, prog)
    coverage = coverage_of(build, prog, found, [t for _, t in tests])
    klee = klee_tests(out)
    if klee is None:
        klee_coverage, verdict = "not run", "-"
    else:
        klee_coverage = coverage_of(build, prog, found, klee)
        a, k = covered_lines(coverage), covered_lines(klee_coverage)
        verdict = "-" if a is None or k is None else ("yes" if a >= k else f"no ({a - k})")
    unmodeled = sorted({m.group(1) for _, t in tests
                        if t["outcome"].get("error") == "unmodeled-external"
                        and (m := re.search(r"`([^`]+)`", t["outcome"].get("message", "")))})
    # augur's own limits are not the program's errors.
    limits = ("unmodeled-external", "unsupported")
    errors = [e for e in summary["errors"] if e["kind"] not in limits]
    unsupported = sorted({f"unsupported: {e['message']} "
                          f"({os.path.basename(e['file'])}:{e['line']})"
                          for e in summary["errors"] if e["kind"] == "unsupported"})
    by_number = {int(re.search(r"test(\d+)\.json$", path).group(1)): t for path, t in tests}
    asan = os.path.join(work, "asan", "src", prog)
    repro = sum(1 for e in errors if e.get("test") in by_number
                and reproduces(asan, by_number[e["test"]]))
    kinds = sorted({e["kind"] for e in errors})
    replay, failure = replay_counts(out)
    if failure:
        with open(os.path.join(out, "replay-failure"), "w") as f:
            f.write(failure + "\n")
    print(f"| {prog} | {coverage} | {klee_coverage} | {verdict} | {summary['tests']} "
          f"| {summary['paths_completed']} (+{summary['paths_partial']} partial) "
          f"| {len(errors)}{' ' + ','.join(kinds) if kinds else ''} | {repro} | {replay} "
          f"| {', '.join(unmodeled) or '-'} | {'; '.join(unsupported)} |")


if __name__ == "__main__":
    main()
