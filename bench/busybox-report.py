#!/usr/bin/env python3
"""The figures of bench/busybox.sh.

usage: busybox-report.py row WORK APPLET OUT    one table row (and OUT/stops.json)
       busybox-report.py table WORK APPLET...   the table, then augur's stops over all

A row: gcov line coverage of the applet's own source files (the tests run again on the
gcov build with argv[0] the applet), tests, paths, the program's errors by kind, augur's
stops (paths ended on a missing function, an unmodelled system call or another
unsupported construct: distinct names), `augur replay`'s counts, and augur's first
problem line when it did not finish.
"""
import collections
import glob
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "coreutils_report", os.path.join(HERE, "coreutils-report.py"))
coreutils = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(coreutils)

# augur's own limits, not the program's errors.
LIMITS = ("unmodeled-external", "unsupported")
SYSCALL = re.compile(r"system call number (\d+) \(x86-64\) is not modelled")
FUNCTION = re.compile(r"external function `([^`]+)`")


def stop_name(kind, message):
    """(category, name) of one of augur's stops: a missing function, a system call number
    or another unsupported message."""
    m = FUNCTION.search(message)
    if kind == "unmodeled-external" and m:
        return "function", m.group(1)
    m = SYSCALL.search(message)
    if m:
        return "syscall", int(m.group(1))
    # Numbers in a message (addresses, sizes) would split one construct into many.
    return "unsupported", message


# Seconds a test may run on the gcov build; a test killed then leaves no gcov data.
GCOV_TIMEOUT = 5
# After this many timeouts the applet's tests of partial paths are not run (`yes`).
GCOV_TIMEOUTS = 3


def run_gcov(binary, applet, test, gcov_env):
    """Run the gcov build on one test, argv[0] the applet, in a fresh directory, as nobody
    when this is root (coreutils-report.py says why), with GCOV_ENV; False when it timed
    out."""
    argv, stdin, files = coreutils.environment(test["objects"])
    env = dict(os.environ, LC_ALL="C", **gcov_env)
    with tempfile.TemporaryDirectory() as cwd:
        coreutils.write_files(cwd, files)
        try:
            subprocess.run([applet.encode()] + argv, executable=binary, input=stdin,
                           cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=GCOV_TIMEOUT,
                           **coreutils.as_nobody())
        except subprocess.TimeoutExpired:
            return False
    return True


def applet_sources(build, applet):
    """The objects holding the applet's own code: DIR/APPLET.o of DIR/APPLET.c (awk's
    editors/awk.c, ...)."""
    found = []
    for gcno in sorted(glob.glob(os.path.join(build, "*", f"{applet}.gcno"))):
        obj = os.path.relpath(gcno, build)[: -len(".gcno")] + ".o"
        if os.path.exists(os.path.join(build, obj[: -len(".o")] + ".c")):
            found.append(obj)
    return found


def line_coverage(build, objects):
    """gcov's executed/total lines of the .c files of OBJECTS (od.c's od_bloaty.c too)."""
    covered = total = 0
    for obj in objects:
        out = subprocess.run(["gcov", "-n", "-o", obj, obj[: -len(".o")] + ".c"],
                             cwd=build, capture_output=True, text=True).stdout
        for m in re.finditer(r"File '([^']+\.c)'\nLines executed:([\d.]+)% of (\d+)", out):
            n = int(m.group(3))
            covered += round(float(m.group(2)) * n / 100)
            total += n
    if not total:
        return "no data"
    return f"{covered}/{total} ({100 * covered / total:.0f}%)"


def row(work, applet, out):
    summary_path = os.path.join(out, "tests", "summary.json")
    if not os.path.exists(summary_path):
        print(f"| {applet} | - | - | - | - | - | - | {coreutils.first_problem(out)} |")
        return
    with open(summary_path) as f:
        summary = json.load(f)
    tests = []
    for path in sorted(glob.glob(os.path.join(out, "tests", "test*.json"))):
        with open(path) as f:
            tests.append(json.load(f))
    build = os.path.join(work, "gcov")
    objects = applet_sources(build, applet)
    for obj in objects:
        gcda = os.path.join(build, obj[: -len(".o")] + ".gcda")
        if os.path.exists(gcda):
            os.remove(gcda)
    binary = os.path.join(build, "busybox_unstripped")
    if os.path.exists(binary):
        stage, staged, gcov_env = coreutils.gcov_stage(binary)
        timeouts = not_run = 0
        for test in tests:
            if timeouts >= GCOV_TIMEOUTS and test["outcome"].get("kind") == "partial":
                not_run += 1
            elif not run_gcov(staged, applet, test, gcov_env):
                timeouts += 1
        coreutils.gcov_collect(stage, build, objects)
        coverage = line_coverage(build, objects) if objects else "no .gcno"
        if timeouts:
            coverage += f" ({timeouts} tests timed out natively"
            coverage += f", {not_run} partial not run)" if not_run else ")"
    else:
        coverage = "no gcov build"
    # Every test's outcome (summary.json keeps one error per place: the system call
    # numbers, all stopped at the same line of syscall.c, would show as one).
    stops = collections.Counter()
    errors = collections.Counter()
    for test in tests:
        outcome = test["outcome"]
        kind = outcome.get("error")
        if kind in LIMITS:
            stops[json.dumps(stop_name(kind, outcome.get("message", "")))] += 1
        elif kind:
            errors[kind] += 1
    with open(os.path.join(out, "stops.json"), "w") as f:
        json.dump(dict(stops), f)
    names = collections.defaultdict(list)
    for key in sorted(stops):
        category, name = json.loads(key)
        names[category].append(str(name))
    stop_text = "; ".join(f"{len(v)} {k}{'s' if len(v) > 1 else ''}: {', '.join(v)}"
                          for k, v in sorted(names.items()))
    replay, failure = coreutils.replay_counts(out)
    problem = coreutils.first_problem(out)
    if problem == "augur did not finish":
        problem = ""
    print(f"| {applet} | {coverage} | {summary['tests']} "
          f"| {summary['paths_completed']} (+{summary['paths_partial']} partial) "
          f"| {sum(errors.values())}"
          f"{' ' + ', '.join(f'{k} {v}' for k, v in sorted(errors.items())) if errors else ''} "
          f"| {sum(stops.values())} | {stop_text or '-'} | {replay} | {problem} |")
    if failure:
        with open(os.path.join(out, "replay-failure"), "w") as f:
            f.write(failure + "\n")


def table(work, applets):
    print("| applet | gcov lines of its source | tests | paths | program errors "
          "| tests stopped by augur's limits | distinct stops | replay | augur problem |")
    print("|---|---|---|---|---|---|---|---|---|")
    totals = collections.defaultdict(collections.Counter)
    where = collections.defaultdict(set)
    failures = []
    for applet in applets:
        out = os.path.join(work, "out", applet)
        try:
            with open(os.path.join(out, "row")) as f:
                sys.stdout.write(f.read())
        except FileNotFoundError:
            print(f"| {applet} | no result |")
        try:
            with open(os.path.join(out, "stops.json")) as f:
                for key, n in json.load(f).items():
                    category, name = json.loads(key)
                    totals[category][name] += n
                    where[(category, name)].add(applet)
        except FileNotFoundError:
            pass
        try:
            with open(os.path.join(out, "replay-failure")) as f:
                failures.append((applet, f.read().strip()))
        except FileNotFoundError:
            pass
    titles = {"function": "Missing functions (no body and no model)",
              "syscall": "Unmodelled system calls (x86-64 number)",
              "unsupported": "Other unsupported"}
    for category, title in titles.items():
        print(f"\n{title}: {len(totals[category])} distinct "
              "(tests ending there, applets)")
        for name, n in sorted(totals[category].items(), key=lambda kv: (-kv[1], str(kv[0]))):
            print(f"- {name}: {n} tests, {len(where[(category, name)])} applets "
                  f"({', '.join(sorted(where[(category, name)]))})")
    print(f"\nReplay failures (first of each applet): {len(failures)} applets")
    for applet, line in failures:
        print(f"- {applet}: {line}")


def main():
    if sys.argv[1] == "row":
        row(*sys.argv[2:5])
    else:
        table(sys.argv[2], sys.argv[3:])


if __name__ == "__main__":
    main()
