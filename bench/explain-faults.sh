#!/usr/bin/env bash
# augur explain fault benchmark: every single-fault version of bench/explain/faults/heat.c
# listed in faults.txt is explained against the golden heat.c on its first failing test
# from pool.txt (the first test whose output differs, natively compiled); prints per
# version the fault line, the reported lines and whether the fault line is among them,
# then the hits and the median and maximum report size (distinct reported lines).
# Usage: bench/explain-faults.sh   (AUGUR=path/to/augur to use another build)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
if [ -z "${AUGUR:-}" ]; then
  cargo build --release -q -p augur-cli
  AUGUR=target/release/augur
fi
out=$(mktemp -d -p "$( [ -d /dev/shm ] && echo /dev/shm || echo /tmp )")
trap 'rm -rf "$out"' EXIT
AUGUR=$(realpath "$AUGUR") python3 - "$out" <<'PY'
import json, os, statistics, subprocess, sys
out, here = sys.argv[1], "bench/explain/faults"
golden = open(f"{here}/heat.c").read()
pool = [l.split() for l in open(f"{here}/pool.txt") if l.strip() and not l.startswith("#")]

def build(src, d):
    os.makedirs(d, exist_ok=True)
    open(f"{d}/heat.c", "w").write(src)
    subprocess.run(["clang-14", "-w", "-O0", "-o", f"{d}/heat", f"{d}/heat.c"], check=True)
    return d

def output(d, t):
    return subprocess.run([f"{d}/heat"] + t, capture_output=True).stdout

g = build(golden, f"{out}/golden")
expected = [output(g, t) for t in pool]
sizes, hits, rows = [], 0, 0
for line in open(f"{here}/faults.txt"):
    if line.startswith("#") or not line.strip():
        continue
    name, text, fault = line.rstrip("\n").split("\t")
    assert golden.count(text) == 1, f"{name}: the text must occur once in heat.c"
    src = golden.replace(text, fault)
    at = next(i + 1 for i, (a, b) in enumerate(zip(golden.splitlines(), src.splitlines())) if a != b)
    b = build(src, f"{out}/{name}")
    test = next((t for t, e in zip(pool, expected) if output(b, t) != e), None)
    if test is None:
        print(f"{name:20} no test of the pool finds the fault")
        continue
    o = subprocess.run([os.environ["AUGUR"], "explain", "--golden", f"{g}/heat.c", "--buggy",
                        f"{b}/heat.c", "-o", f"{out}/{name}/out", "--"] + test,
                       capture_output=True, text=True)
    rows += 1
    try:
        r = json.load(open(f"{out}/{name}/out/report.json"))
    except OSError:
        print(f"{name:20} augur failed: {o.stderr.strip()}")
        sizes.append(0)
        continue
    lines = sorted({(l["file"].split("/")[-2], l["line"]) for u in r["unexplained"] for l in u["lines"]})
    hit = (name, at) in lines or ("golden", at) in lines
    hits += hit
    sizes.append(len(lines))
    shown = " ".join(f"{'b' if f == name else 'g'}{n}" for f, n in lines)
    print(f"{name:20} line {at:3} {'hit ' if hit else 'MISS'} {len(lines):2} lines: {shown}")
print(f"\n{hits} of {rows} reports name the fault line ({100 * hits / max(rows, 1):.0f}%); "
      f"report size median {statistics.median(sizes) if sizes else 0}, max {max(sizes, default=0)}")
PY
