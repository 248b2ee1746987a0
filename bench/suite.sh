#!/usr/bin/env bash
# Where the test suite's time goes: runs ./scripts/test.sh (what CI runs) in a fresh clone
# of this repository's HEAD, every line time-stamped, then prints the time of each part
# (set-up and clippy, the LLVM 14 build, each LLVM 14 test binary, the LLVM 19 part)
# and the total. CI's machine is slower than the 2-core development VM (1,966 s there
# against 1,222 s here for the same commit): read the figures against each other.
# Usage: bench/suite.sh [CLONE_DIR (a new temporary directory)]
# AUGUR_MUSL_DIR=... reuses a musl build (else the clone builds its own, about a minute).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$(mktemp -d)}
rm -rf "$dir"
git clone -q "$repo" "$dir"
log="$dir.log"
echo "bench/suite.sh: $(git -C "$dir" log --oneline -1) in $dir, log in $log" >&2
start=$(date +%s)
set +e
(cd "$dir" && ./scripts/test.sh 2>&1) | while IFS= read -r l; do
  printf '%s %s\n' "$(date +%s)" "$l"
done >"$log"
status=${PIPESTATUS[0]}
set -e
end=$(date +%s)
python3 - "$log" "$start" "$end" <<'PY'
import re, sys
log, start, end = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
lines = []
for raw in open(log):
    t, _, rest = raw.rstrip("\n").partition(" ")
    lines.append((int(t), rest))
def first(pattern, after=0):
    for t, l in lines:
        if t >= after and re.search(pattern, l):
            return t
    return None
rows = []
built = first(r"Finished `test` profile")
rows.append(("set-up, clippy, libc checks, LLVM 14 build", (built or end) - start))
binary, since = None, None
llvm19 = first(r"^== LLVM 19")
for t, l in lines:
    m = re.search(r"Running (?:unittests )?(?:tests/)?(\S+) \(.*deps/([a-z_0-9]+)-", l)
    if m and (llvm19 is None or t < llvm19):
        binary = m.group(2) if m.group(1).startswith("src/") else m.group(1).removesuffix(".rs")
        since = t
    m = re.search(r"test result: .* finished in ([0-9.]+)s", l)
    if m and binary and (llvm19 is None or t < llvm19):
        rows.append((f"  LLVM 14 tests: {binary}", float(m.group(1))))
        binary = None
if llvm19:
    rows.append(("LLVM 14 tests, all", llvm19 - (built or start)))
    rows.append(("LLVM 19 part (build, libc checks, tests)", end - llvm19))
rows.append(("total", end - start))
for name, secs in rows:
    if not name.startswith("  ") or secs >= 5:
        print(f"{name:<50} {secs:>8.1f} s")
for t, l in lines:
    if l.startswith("cargo tests"):
        print(l)
PY
exit "$status"
