#!/usr/bin/env bash
# `--jobs N` (default 2) against `--jobs 1` on bench/paths16.c (2^16 paths, augur run's
# default options: a test for each of the first 1,000 paths, then for paths covering new
# code): the two back to back, ROUNDS times (default 5). Wall time is the whole command's
# (compiling, splitting, merging included); CPU time (user + system, workers included) says
# what a loaded machine hides. Prints each round and the best and median speed-up. Extra
# augur options after the two numbers, e.g. `bench/jobs.sh 5 2 --all-tests`.
# Usage: bench/jobs.sh [rounds] [jobs] [augur run options]
source "$(dirname "$0")/setup.sh"
rounds=${1:-5}
jobs=${2:-2}
shift $(( $# < 2 ? $# : 2 ))
extra=("$@")
measure() { # output dir, extra args...: "wall cpu" seconds of `augur run bench/paths16.c`
  local dir=$1; shift
  rm -rf "$dir"
  /usr/bin/time -f "%e %U %S" -o "$out/time" \
    ./target/release/augur run bench/paths16.c -o "$dir" "${extra[@]}" "$@" 2>/dev/null
  python3 - "$dir/summary.json" "$out/time" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert s["paths_completed"] == 65536, s["paths_completed"]
wall, user, system = map(float, open(sys.argv[2]).read().split()[-3:])
print(f"{wall:.2f} {user + system:.2f}")
PY
}
ratios=()
for r in $(seq "$rounds"); do
  read -r one one_cpu < <(measure "$out/one")
  read -r many many_cpu < <(measure "$out/many" --jobs "$jobs")
  ratio=$(python3 -c "print(f'{$one / $many:.2f}')")
  ratios+=("$ratio")
  echo "round $r: --jobs 1 ${one}s (cpu ${one_cpu}s), --jobs $jobs ${many}s" \
    "(cpu ${many_cpu}s), speed-up ${ratio}x"
done
python3 - "${ratios[@]}" <<'PY'
import statistics, sys
r = sorted(float(x) for x in sys.argv[1:])
print(f"speed-up of --jobs over --jobs 1: best {r[-1]:.2f}x, median {statistics.median(r):.2f}x")
PY
