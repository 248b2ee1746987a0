#!/usr/bin/env bash
# augur explain fault benchmark: for each suite bench/explain/faults/NAME/ (one golden
# program NAME/*.c, its single-fault versions in faults.txt, a test pool in pool.txt),
# every version is explained against the golden program on its first failing test (the
# first test of the pool whose output differs, natively compiled); prints per version the
# fault line, the lines the report leads with and whether the fault line is among them,
# then per suite and overall the hits and the median and maximum report size.
# Usage: bench/explain-faults.sh   (AUGUR=path/to/augur to use another build)
set -euo pipefail
cd "$(dirname "$0")/.."
# The benchmarks are LLVM 14 figures (native builds by clang-14, target/release/augur).
export AUGUR_LLVM=14
source scripts/deps.sh
if [ -z "${AUGUR:-}" ]; then
  cargo build --release -q -p augur-cli $AUGUR_CARGO_FEATURES
  AUGUR=target/release/augur
fi
out=$(mktemp -d -p "$( [ -d /dev/shm ] && echo /dev/shm || echo /tmp )")
trap 'rm -rf "$out"' EXIT
AUGUR=$(realpath "$AUGUR") python3 - "$out" bench/explain/faults/*/ <<'PY'
import glob, json, os, statistics, subprocess, sys
out = sys.argv[1]

def build(name, src, d):
    os.makedirs(d, exist_ok=True)
    open(f"{d}/{name}", "w").write(src)
    subprocess.run(["clang-14", "-w", "-O0", "-o", f"{d}/prog", f"{d}/{name}"], check=True)
    return d

def output(d, t):
    return subprocess.run([f"{d}/prog"] + t, capture_output=True).stdout

def suite(here):
    """Explain every fault of the suite in `here`; (hit, report size) per fault."""
    [path] = glob.glob(f"{here}/*.c")
    prog = os.path.basename(path)
    golden = open(path).read()
    pool = [l.split() for l in open(f"{here}/pool.txt") if l.strip() and not l.startswith("#")]
    work = f"{out}/{os.path.basename(os.path.normpath(here))}"
    g = build(prog, golden, f"{work}/golden")
    expected = [output(g, t) for t in pool]
    results = []
    for line in open(f"{here}/faults.txt"):
        if line.startswith("#") or not line.strip():
            continue
        name, text, fault = line.rstrip("\n").split("\t")
        assert golden.count(text) == 1, f"{name}: the text must occur once in {prog}"
        src = golden.replace(text, fault)
        at = next(i + 1 for i, (a, b) in enumerate(zip(golden.splitlines(), src.splitlines())) if a != b)
        b = build(prog, src, f"{work}/{name}")
        test = next((t for t, e in zip(pool, expected) if output(b, t) != e), None)
        if test is None:
            print(f"{name:20} no test of the pool finds the fault")
            continue
        o = subprocess.run([os.environ["AUGUR"], "explain", "--golden", f"{g}/{prog}", "--buggy",
                            f"{b}/{prog}", "-o", f"{b}/out", "--"] + test,
                           capture_output=True, text=True)
        try:
            r = json.load(open(f"{b}/out/report.json"))
        except OSError:
            print(f"{name:20} augur failed: {o.stderr.strip()}")
            results.append((False, 0))
            continue
        lines = sorted({(l["file"].split("/")[-2], l["line"]) for l in r["lines"]})
        hit = (name, at) in lines or ("golden", at) in lines
        results.append((hit, len(lines)))
        shown = " ".join(f"{'b' if f == name else 'g'}{n}" for f, n in lines)
        print(f"{name:20} line {at:3} {'hit ' if hit else 'MISS'} {len(lines):2} lines: {shown}")
    return results

def summary(what, results):
    hits, sizes = sum(h for h, _ in results), [n for _, n in results]
    print(f"{what}: {hits} of {len(results)} reports name the fault line "
          f"({100 * hits / max(len(results), 1):.0f}%); report size median "
          f"{statistics.median(sizes) if sizes else 0}, max {max(sizes, default=0)}")

everything = []
for here in sys.argv[2:]:
    print(f"== {here}")
    results = suite(here)
    summary(here, results)
    everything += results
summary("all suites", everything)
PY
