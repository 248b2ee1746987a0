#!/usr/bin/env bash
# augur inject benchmark: injects bugs into the programs of examples/inject, then hunts
# each bug for a time budget with `augur run` and with AFL++ (Debian's afl++ package,
# installed when missing), and prints per bug who found it and when, its rarity (the
# share of random 1-4 byte mutations of its trigger that fire it), and per tool the bugs
# found and the overlap. As a stand-in for a hand-seeded fault, the same programs also
# get single-guard bugs (--points 1), whose rarity is printed beside.
# Usage: bench/inject.sh [BUDGET_SECONDS (30)] [BUGS_PER_PROGRAM (2)]
source "$(dirname "$0")/setup.sh"
budget=${1:-30}
bugs=${2:-2}
if ! command -v afl-fuzz >/dev/null; then
  echo "bench/inject.sh: installing AFL++ (Debian package afl++)" >&2
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq afl++ >/dev/null
fi
aflcc=$(command -v afl-clang-fast || command -v afl-cc)
export AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1
augur=./target/release/augur
rows="$out/rows"; : > "$rows"

# name | augur's input options | how AFL's bytes become the input (afl_main.c) | input bytes
programs=(
  "machine.c|--sym-stdin 4||4"
  "cli.c|--sym-args 0 2 3|-DAFL_ARGV=2 -DAFL_ARG_LEN=3|7"
  "tcas.c|||16"
)
for entry in "${programs[@]}"; do
  IFS='|' read -r prog opts aflflags len <<<"$entry"
  name=${prog%.c}
  mode=bytes; [ -n "$aflflags" ] && mode=argv:2:3
  # shellcheck disable=SC2086
  $augur inject "examples/inject/$prog" $opts --bugs "$bugs" --seed 1 -o "$out/$name" >/dev/null 2>&1 || true
  # shellcheck disable=SC2086
  $augur inject "examples/inject/$prog" $opts --bugs "$bugs" --points 1 --seed 1 -o "$out/$name-1" >/dev/null 2>&1 || true
  for corpus in "$out/$name" "$out/$name-1"; do
    for bug in "$corpus"/bug*/; do
      [ -d "$bug" ] || continue
      src="$bug/$prog"
      # shellcheck disable=SC2086
      clang-14 -w -O0 -Dmain=afl_program_main -I bench/inject $aflflags "$src" bench/inject/afl_main.c -o "$bug/plain"
      rarity=$(python3 bench/inject/rarity.py "$bug/plain" "$bug/trigger.json" "$mode" 400 7)
      if [ "$corpus" != "$out/$name" ]; then
        echo "$name $(basename "$bug") single - - - $rarity" >> "$rows"; continue
      fi
      line=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['line'])" "$bug/bug.json")
      # augur run: the time a test showing the bug was written, after the start.
      start=$(date +%s.%N)
      # shellcheck disable=SC2086
      $augur run "$src" $opts --max-time "$budget" -o "$bug/run" >/dev/null 2>&1 || true
      at=$(python3 - "$bug/run" "$line" "$start" <<'PY'
import glob, json, os, sys
d, line, start = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
hits = [os.path.getmtime(f) - start for f in sorted(glob.glob(d + "/test*.json"))
        if json.load(open(f))["outcome"].get("error") == "assertion"
        and json.load(open(f))["outcome"].get("line") == line]
print(f"{min(hits):.1f}" if hits else "-")
PY
)
      # AFL++ from an all-zero seed (not the trigger).
      mkdir -p "$bug/afl-in"; head -c "$len" /dev/zero > "$bug/afl-in/zero"
      # shellcheck disable=SC2086
      AFL_QUIET=1 "$aflcc" -w -O1 -Dmain=afl_program_main -I bench/inject $aflflags "$src" bench/inject/afl_main.c -o "$bug/afl-bin" >/dev/null 2>&1
      timeout $((budget + 30)) afl-fuzz -V "$budget" -i "$bug/afl-in" -o "$bug/afl" -- "$bug/afl-bin" >/dev/null 2>&1 || true
      afl=$(python3 - "$bug/afl" <<'PY'
import glob, re, sys
ts = [int(m.group(1)) / 1000 for f in glob.glob(sys.argv[1] + "/default/crashes/id:*")
      if (m := re.search(r"time:(\d+)", f))]
print(f"{min(ts):.1f}" if ts else "-")
PY
)
      npoints=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['points']))" "$bug/bug.json")
      echo "$name $(basename "$bug") $npoints $line $at $afl $rarity" >> "$rows"
    done
  done
done
python3 - "$rows" "$budget" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
ets = [r for r in rows if r[2] != "single"]
single = [float(r[6]) for r in rows if r[2] == "single"]
print(f"{'program':10} {'bug':7} {'points':>6} {'line':>5} {'augur run s':>11} {'AFL++ s':>8} {'rarity':>8}")
for r in ets:
    print(f"{r[0]:10} {r[1]:7} {r[2]:>6} {r[3]:>5} {r[4]:>11} {r[5]:>8} {r[6]:>8}")
a = {(r[0], r[1]) for r in ets if r[4] != "-"}
f = {(r[0], r[1]) for r in ets if r[5] != "-"}
print(f"budget {sys.argv[2]}s per bug and tool; {len(ets)} bugs")
print(f"augur run found {len(a)}, AFL++ found {len(f)}, both {len(a & f)}, neither {len(ets) - len(a | f)}")
if ets:
    print(f"median rarity: ETS bugs {statistics.median(float(r[6]) for r in ets):.4f}"
          + (f", single-guard bugs {statistics.median(single):.4f}" if single else ""))
PY
