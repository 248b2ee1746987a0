#!/usr/bin/env bash
# `--jobs N` (default 2) against `--jobs 1` on bench/paths16.c (2^16 paths, augur run's
# default options: a test for each of the first 1,000 paths, then for paths covering new
# code): the two back to back, ROUNDS times (default 5), wall time of the whole command
# (compiling, splitting, merging included); prints each round and the best and median
# speed-up. Extra augur options after the two numbers, e.g. `bench/jobs.sh 5 2 --all-tests`.
# Usage: bench/jobs.sh [rounds] [jobs] [augur run options]
source "$(dirname "$0")/setup.sh"
rounds=${1:-5}
jobs=${2:-2}
shift $(( $# < 2 ? $# : 2 ))
extra=("$@")
wall() { # output dir, extra args...: seconds of `augur run bench/paths16.c`
  local dir=$1; shift
  rm -rf "$dir"
  local t0 t1
  t0=$(date +%s.%N)
  ./target/release/augur run bench/paths16.c -o "$dir" "${extra[@]}" "$@" 2>/dev/null
  t1=$(date +%s.%N)
  python3 -c "import json,sys; s=json.load(open('$dir/summary.json')); \
assert s['paths_completed'] == 65536, s['paths_completed']"
  python3 -c "print(f'{$t1 - $t0:.3f}')"
}
ratios=()
for r in $(seq "$rounds"); do
  one=$(wall "$out/one")
  many=$(wall "$out/many" --jobs "$jobs")
  ratio=$(python3 -c "print(f'{$one / $many:.2f}')")
  ratios+=("$ratio")
  echo "round $r: --jobs 1 ${one}s, --jobs $jobs ${many}s, speed-up ${ratio}x"
done
python3 - "${ratios[@]}" <<'PY'
import statistics, sys
r = sorted(float(x) for x in sys.argv[1:])
print(f"speed-up of --jobs over --jobs 1: best {r[-1]:.2f}x, median {statistics.median(r):.2f}x")
PY
