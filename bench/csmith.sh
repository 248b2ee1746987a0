#!/usr/bin/env bash
# Csmith differential harness: generates programs with Csmith (seeds 1, 2, ...), compiles
# and runs each natively, runs it through augur (no symbolic input: exactly one path) and
# compares the printed checksums.
#
# Usage: bench/csmith.sh [COUNT] [FIRST-SEED]
#   COUNT       programs to consider, i.e. that finish natively within 1 s (default 300)
#   FIRST-SEED  first Csmith seed (default 1)
# Environment: JOBS (concurrent programs, default 2), AUGUR_MAX_TIME (default 60),
#   CSMITH_OPTS (extra csmith options), KEEP_DIR (where per-program files go; default a
#   fresh temporary directory, kept and printed at the end).
#
# Needs csmith and its headers: apt-get install -y csmith libcsmith-dev.
set -euo pipefail
cd "$(dirname "$0")/.."
# The benchmarks are LLVM 14 figures (native builds by clang-14, target/release/augur).
export AUGUR_LLVM=14
source scripts/deps.sh
command -v csmith >/dev/null || { echo "csmith: apt-get install -y csmith libcsmith-dev" >&2; exit 1; }
inc=""
for d in /usr/include/csmith /usr/include/csmith-*; do
  [ -f "$d/csmith.h" ] && { inc=$d; break; }
done
[ -n "$inc" ] || { echo "csmith.h not found: apt-get install -y libcsmith-dev" >&2; exit 1; }
cargo build --release -q -p augur-cli $AUGUR_CARGO_FEATURES
count=${1:-300}
first=${2:-1}
dir=${KEEP_DIR:-$(mktemp -d /tmp/augur-csmith.XXXXXX)}
mkdir -p "$dir"
echo "csmith harness: $count programs from seed $first, headers $inc, files in $dir" >&2
python3 - "$count" "$first" "$inc" "$dir" "${JOBS:-2}" "${AUGUR_MAX_TIME:-60}" "${CSMITH_OPTS:-}" <<'PY'
import json, os, re, shlex, statistics, subprocess, sys, threading, time
from concurrent.futures import ThreadPoolExecutor

count, first, inc, root = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
jobs, max_time, csmith_opts = int(sys.argv[5]), int(sys.argv[6]), shlex.split(sys.argv[7])
# A private copy, so that rebuilding augur during a run does not change the binary under test.
augur = os.path.join(root, "augur")
subprocess.run(["cp", "target/release/augur", augur], check=True)
lock = threading.Lock()
results = {}          # seed -> dict
considered = 0        # programs that finished natively within 1 s
next_seed = first
log = open(os.path.join(root, "results.jsonl"), "a")

def native(seed, d):
    """Generate and run natively; the native stdout, or None (skip) with a reason."""
    src = os.path.join(d, "prog.c")
    r = subprocess.run(["csmith", "--seed", str(seed), "-o", src, *csmith_opts],
                       capture_output=True, text=True, cwd=d)  # csmith writes platform.info
    if r.returncode != 0:
        return None, "csmith failed"
    exe = os.path.join(d, "prog")
    r = subprocess.run(["clang-14", "-O0", "-w", "-mlong-double-64", "-I", inc, src, "-o", exe],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return None, "native compile failed"
    try:
        r = subprocess.run(["timeout", "1", exe], capture_output=True, text=True, timeout=5)
    except subprocess.TimeoutExpired:
        return None, "native timeout"
    if r.returncode == 124:
        return None, "native timeout"
    if r.returncode != 0:
        return None, f"native exit {r.returncode}"
    return r.stdout, None

def run_augur(d):
    """Run augur; (verdict, reason, seconds)."""
    out = os.path.join(d, "augur-out")
    subprocess.run(["rm", "-rf", out])
    t0 = time.monotonic()
    try:
        r = subprocess.run([augur, "run", os.path.join(d, "prog.c"), "--cflags", f"-w -I {inc}",
                            "-o", out, "--max-time", str(max_time)],
                           capture_output=True, text=True, timeout=max_time + 60)
    except subprocess.TimeoutExpired:
        return None, "augur hung (killed)", time.monotonic() - t0, ""
    dt = time.monotonic() - t0
    with open(os.path.join(d, "augur.log"), "w") as f:
        f.write(r.stderr)
    if r.returncode < 0:
        return None, f"augur killed by signal {-r.returncode}", dt, ""
    if "panicked" in r.stderr:
        return None, "augur panic", dt, ""
    try:
        t = json.load(open(os.path.join(out, "test000001.json")))
    except (OSError, ValueError):
        last = (r.stderr.strip().splitlines()[-1:] or [""])[0]
        # Group alike messages: drop temporary paths, function names and long operands.
        last = re.sub(r"/tmp/\S+/linked\.bc: ", "", last)
        last = re.sub(r"in function `[^`]*`: ", "", last)
        last = re.sub(r" \(.*", "", last)
        last = re.sub(r"integer type i\d+ ", "integer type iN ", last)
        return None, "no test: " + last[:100], dt, ""
    if os.path.exists(os.path.join(out, "test000002.json")):
        return None, "more than one path", dt, t.get("stdout", "")
    o = t.get("outcome", {})
    kind = o.get("kind")
    if kind == "exit":
        return t.get("stdout", ""), None, dt, ""
    if kind == "error":
        return None, f"error: {o.get('error')}", dt, t.get("stdout", "")
    if o.get("reason") == "max-time reached":
        return None, f"augur timeout ({max_time} s)", dt, t.get("stdout", "")
    return None, f"outcome {kind}" + (f" ({o.get('reason')})" if o.get("reason") else ""), dt, t.get("stdout", "")

def one(seed):
    global considered
    d = os.path.join(root, f"s{seed}")
    os.makedirs(d, exist_ok=True)
    want, skip = native(seed, d)
    rec = {"seed": seed}
    if skip:
        rec.update(verdict="skipped", reason=skip)
    else:
        with lock:
            if considered >= count:
                return
            considered += 1
        got, fail, dt, partial = run_augur(d)
        rec["time"] = round(dt, 3)
        if fail:
            rec.update(verdict="failure", reason=fail)
        elif got == want:
            rec.update(verdict="agree")
        else:
            rec.update(verdict="disagree", reason=f"native {want.strip()!r} augur {got.strip()!r}")
    with lock:
        results[seed] = rec
        log.write(json.dumps(rec) + "\n"); log.flush()
        extra = f" {rec['time']:.2f}s" if "time" in rec else ""
        print(f"seed {seed:5}: {rec['verdict']}{extra} {rec.get('reason', '')}", file=sys.stderr, flush=True)

def worker():
    global next_seed
    while True:
        with lock:
            if considered >= count:
                return
            seed = next_seed; next_seed += 1
        one(seed)

t_start = time.monotonic()
ths = [threading.Thread(target=worker) for _ in range(jobs)]
for t in ths: t.start()
for t in ths: t.join()
wall = time.monotonic() - t_start

rs = list(results.values())
by = lambda v: [r for r in rs if r["verdict"] == v]
agree, dis, fail, skip = by("agree"), by("disagree"), by("failure"), by("skipped")
cons = len(agree) + len(dis) + len(fail)
times = [r["time"] for r in rs if "time" in r]
print()
print(f"programs tried:        {len(rs)} (seeds {first}..{max(results) if results else first})")
print(f"skipped:               {len(skip)}")
reasons = {}
for r in skip: reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
for k, v in sorted(reasons.items(), key=lambda kv: -kv[1]): print(f"    {v:4}  {k}")
print(f"considered:            {cons}")
print(f"agreed:                {len(agree)}")
print(f"disagreed:             {len(dis)}" + ("  seeds " + " ".join(str(r['seed']) for r in dis) if dis else ""))
print(f"augur failures:        {len(fail)}")
reasons = {}
for r in fail: reasons.setdefault(r["reason"], []).append(r["seed"])
for k, v in sorted(reasons.items(), key=lambda kv: -len(kv[1])):
    print(f"    {len(v):4}  {k}  (seeds {' '.join(map(str, sorted(v)[:10]))}{' ...' if len(v) > 10 else ''})")
if cons:
    print(f"agreement rate:        {100.0 * len(agree) / cons:.2f}% ({len(agree)}/{cons})")
if times:
    print(f"augur time / program:  mean {statistics.mean(times):.2f}s, median {statistics.median(times):.2f}s, max {max(times):.2f}s")
print(f"wall time:             {wall:.0f}s with {jobs} jobs; files in {root}")
PY
