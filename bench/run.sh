#!/usr/bin/env bash
# Benchmark harness: runs augur (release build) on the bench programs and prints figures
# from each run's summary.json. Usage: bench/run.sh [max-time-seconds]
source "$(dirname "$0")/setup.sh"
limit=${1:-300}
# (Tests go to memory: writing 131,072 small files costs seconds on some disks. Every path
# gets its test, --all-tests, so that figures stay comparable with earlier runs.)
run() { # name, search, extra args...
  local name=$1 search=$2; shift 2
  /usr/bin/time -f "%M" -o "$out/$name.rss" ./target/release/augur run "bench/$name.c" -o "$out/$name" \
    --search "$search" --max-time "$limit" --all-tests "$@" 2>"$out/$name.log" || true
  python3 - "$out/$name/summary.json" "$out/$name.rss" "$name" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); rss = int(open(sys.argv[2]).read().split()[-1]) / 1024
t = max(s["time_s"], 1e-9); name = sys.argv[3]
print(f"{name:10} time {t:8.2f}s  instructions {s['instructions']:>12,} ({s['instructions']/t/1e6:6.2f} M/s)  "
      f"paths {s['paths_completed']:>6} (+{s['paths_partial']} partial, {s['paths_completed']/t:8.1f}/s)  "
      f"peak {rss:7.1f} MiB  solver calls {s['solver']['solver_calls']} / queries {s['solver']['queries']} "
      f"(cache hits {s['solver']['cache_hits']}), solver {s['solver']['time_s']:.2f}s")
PY
}
run concrete dfs
run paths16 dfs
run sort dfs
run symindex dfs
run symhash dfs
