#!/usr/bin/env bash
# Benchmark harness: runs augur (release build) on the bench programs and prints figures
# from each run's summary.json. Usage: bench/run.sh [max-time-seconds]
source "$(dirname "$0")/setup.sh"
limit=${1:-300}
# (Tests go to memory, $out, but for paths16_disk: there the 131,072 files go to disk, as a
# user gets them, under $TMPDIR or /tmp. Every path gets its test, --all-tests, so that
# figures stay comparable with earlier runs; `wall` includes writing out the last tests.)
# KLEE on the same program, when `klee` is on PATH: its bitcode built with bench/klee/augur.h
# (augur's API as KLEE's), its time and paths printed with augur's time over KLEE's.
# KLEE_INCLUDE names the directory holding klee/klee.h when it is not next to the binary.
# (Untested here: no KLEE is installed on the machines this was written on.)
klee_inc=${KLEE_INCLUDE:-$(dirname "$(command -v klee 2>/dev/null || echo /usr/bin/klee)")/../include}
klee_run() { # name, augur's time
  local name=$1 augur_t=$2 dir="$out/klee-$1"
  command -v klee >/dev/null || return 0
  # shellcheck disable=SC2086 # DEFS is a list of -D flags
  clang-14 -c -emit-llvm -g -O0 -Xclang -disable-O0-optnone -I bench/klee -I "$klee_inc" \
    $DEFS "bench/${SRC:-$name}.c" -o "$out/$name.bc"
  local start end
  start=$(date +%s.%N)
  klee --output-dir="$dir" --solver-backend=z3 --max-time="${limit}s" --search=dfs \
    "$out/$name.bc" >"$dir.log" 2>&1 || true
  end=$(date +%s.%N)
  python3 - "$dir" "$start" "$end" "$augur_t" "$name" <<'PY'
import glob, re, sys
d, start, end, augur_t, name = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
info = open(f"{d}/info").read() if glob.glob(f"{d}/info") else ""
paths = re.search(r"completed paths = (\d+)", info)
errors = len(glob.glob(f"{d}/*.err"))
t = end - start
print(f"{'':10} KLEE  {t:8.2f}s  paths {paths.group(1) if paths else '?':>6}  errors {errors}  "
      f"augur/KLEE time {augur_t / t:.3f}")
PY
}
# run NAME SEARCH [ARGS...]: bench/NAME.c, or bench/$SRC.c built with the -D flags in $DEFS;
# tests into $OUT_ROOT/NAME ($out unless set).
run() {
  local name=$1 search=$2; shift 2
  local dir="${OUT_ROOT:-$out}/$name"
  /usr/bin/time -f "%e %M" -o "$out/$name.rss" ./target/release/augur run "bench/${SRC:-$name}.c" \
    --cflags "${DEFS:-}" -o "$dir" \
    --search "$search" --max-time "$limit" --all-tests "$@" 2>"$out/$name.log" || true
  python3 - "$dir/summary.json" "$out/$name.rss" "$name" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); wall, rss = open(sys.argv[2]).read().split()[-2:]
rss = int(rss) / 1024; t = max(s["time_s"], 1e-9); name = sys.argv[3]
print(f"{name:10} time {t:8.2f}s (wall {float(wall):6.2f}s)  instructions {s['instructions']:>12,} ({s['instructions']/t/1e6:6.2f} M/s)  "
      f"paths {s['paths_completed']:>6} (+{s['paths_partial']} partial, {s['paths_completed']/t:8.1f}/s)  "
      f"peak {rss:7.1f} MiB  solver calls {s['solver']['solver_calls']} / queries {s['solver']['queries']} "
      f"(cache hits {s['solver']['cache_hits']}, timeouts {s['solver']['timeouts']}, sampled {s['solver'].get('sampled', 0)}), solver {s['solver']['time_s']:.2f}s")
PY
  klee_run "$name" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["time_s"])' "$dir/summary.json")"
}
run concrete dfs
run paths16 dfs
# The same exploration with its 65,536 tests written to disk, as `augur run` does for a user.
disk=$(mktemp -d -p "${TMPDIR:-/tmp}")
trap 'rm -rf "$out" "$disk"' EXIT
SRC=paths16 OUT_ROOT=$disk run paths16_disk dfs
run sort dfs
run symindex dfs
run symhash dfs
# symhash's variations: smaller (solvable), more rounds, a larger table, 16-bit indices.
SRC=symhash DEFS="-DTABLE=32 -DROUNDS=3 -DIN_BYTES=4 -DHASH_MASK=0xff -DTARGET=0x5a -DINIT_MUL=7 -DINIT_ADD=3" \
  run symhash_small dfs
SRC=symhash DEFS="-DROUNDS=12" run symhash_rounds dfs
SRC=symhash DEFS="-DTABLE=256" run symhash_256 dfs
SRC=symhash DEFS="-DTABLE=4096 -DINDEX_BYTES=2" run symhash_wide dfs
