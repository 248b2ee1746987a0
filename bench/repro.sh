#!/usr/bin/env bash
# augur record / repro benchmark. For each crashing program of the end-to-end tests
# (crates/augur-cli/tests/repro) and of bench/repro (one per kind of hard function SymCrash
# is for: a helper deciding an input-dependent loop, a hash, a cipher, floating point with
# and without math calls, atof): the recorded binary crashes on a field input, then
# `augur repro` runs with the log, without it, and plain `augur run` runs with the same
# budget; printed: the status of each, the time to reproduce, and the bytes logged. Then
# the recording's runtime overhead on a CPU-heavy run (bench/repro/heavy.c: medians of the
# wall and CPU times of 10 interleaved runs, instrumented vs the same build without wrappers).
# Usage: bench/repro.sh [BUDGET-SECONDS (default 30)] [PROGRAM...] (default: all programs)
source "$(dirname "$0")/setup.sh"
python3 - "$out" "${1:-30}" "${@:2}" <<'PY'
import json, os, re, resource, statistics, subprocess, sys, time
out, budget, only = sys.argv[1], sys.argv[2], sys.argv[3:]
augur = os.path.abspath("target/release/augur")
tests, bench = "crates/augur-cli/tests/repro", "bench/repro"
# directory, name, field input, symbolic argument size, native-only files
cases = [(tests, "checksum", "kfo-open-sesame", 16, []), (tests, "mathpow", "7", 4, []),
         (tests, "collatz", "27", 4, []), (tests, "recursive", "((((((x", 8, []),
         (tests, "environment", "zebra-crossing", 12, []),
         (tests, "external", "19", 4, ["vendor"]), (tests, "control", "Alexander", 8, []),
         (bench, "loopcall", "27", 4, []), (bench, "hash", "zebra-42", 8, []),
         (bench, "cipher", "s3cr3t!!", 8, []), (bench, "fpmath", "873", 4, []),
         (bench, "fpratio", "7", 2, []), (bench, "atof", "12.3", 5, [])]
cases = [c for c in cases if not only or c[1] in only]

def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)

def repro(src, name, sym, link, extra, tag):
    d = os.path.join(out, f"{name}-{tag}")
    r = run([augur, "repro", f"{src}/{name}.c", "--crash", f"{out}/{name}.report",
             "--sym-arg", str(sym), "--max-time", budget, "-o", d, *link, *extra])
    j = json.load(open(os.path.join(d, "repro.json")))
    return j["status"], j["time_s"]

print(f"{'program':12} {'log bytes':>9} {'with log':>18} {'without log':>22} {'plain run':>12}")
for src, name, inp, sym, link in cases:
    link = sum((["--link", f"{src}/{l}.c"] for l in link), [])
    binary = os.path.join(out, name)
    run([augur, "record", f"{src}/{name}.c", "-o", binary, *link], check=True)
    log = f"{out}/{name}.augurlog"
    env = dict(os.environ, AUGUR_LOG=log, GREET_MODE="wide", ASAN_OPTIONS="detect_leaks=0")
    r = run([binary, inp], env=env)
    open(f"{out}/{name}.report", "w").write(r.stderr)
    size = os.path.getsize(log)
    s1, t1 = repro(src, name, sym, link, ["--log", log], "log")
    s2, t2 = repro(src, name, sym, link, [], "nolog")
    line = re.search(rf"{name}\.c:(\d+):\d+: runtime error|{name}\.c:(\d+):\d+\n", r.stderr)
    crash_line = next(g for g in line.groups() if g) if line else "?"
    p = run([augur, "run", f"{src}/{name}.c", "--sym-arg", str(sym), "--max-time", budget,
             "-o", os.path.join(out, f"{name}-run")])
    plain = "found" if f"{name}.c:{crash_line}:" in p.stderr else "missed"
    fmt = lambda s, t: f"{s} {t:.2f}s" if s != "not-reproduced" else f"{s}"
    print(f"{name:12} {size:>9} {fmt(s1, t1):>18} {fmt(s2, t2):>22} {plain:>12}", flush=True)

if only:  # the overhead is measured on full runs only
    sys.exit(0)
# Overhead: the same sanitizer build with and without the recording wrappers.
heavy = "bench/repro/heavy.c"
rec, plain = os.path.join(out, "heavy-rec"), os.path.join(out, "heavy-plain")
run([augur, "record", heavy, "-o", rec], check=True)
run([augur, "record", heavy, "--not-hard", "digest", "-o", plain], check=True)
def once(binary):
    """Wall and CPU (user + system) seconds of one run."""
    r0, t = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    run([binary, "10000000"], env=dict(os.environ, AUGUR_LOG=os.path.join(out, "heavy.log")),
        check=True)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.perf_counter() - t, (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime)
# Interleaved, so that the machine's load weighs on both alike.
runs = [(once(plain), once(rec)) for _ in range(10)]
for i, what in ((0, "wall"), (1, "cpu")):
    a = statistics.median(r[0][i] for r in runs)
    b = statistics.median(r[1][i] for r in runs)
    print(f"overhead on heavy.c 10000000, {what} time (median of 10, interleaved): "
          f"plain {a:.3f}s, recorded {b:.3f}s, {100 * (b - a) / a:+.1f}%")
print(f"heavy.c log: {os.path.getsize(os.path.join(out, 'heavy.log'))} bytes")
PY
