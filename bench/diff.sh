#!/usr/bin/env bash
# augur diff benchmark: one meta run over a base and ten revisions against eleven separate
# `augur run`s of the same programs, printing instructions and time of each. Two bases:
# bench/diff/base.c (the patched code is a function of its own) and bench/diff/inline.c
# (the patched code is inside main, after the shared loop). Usage: bench/diff.sh
source "$(dirname "$0")/setup.sh"
bodies=(
  "score % 7"                                 # base
  "score - 7 * (score / 7)"                   # same as the base
  "(score + 7) % 7"                           # same as the base
  "score % 7 + (score > 100000)"              # same (score never gets that large)
  "score % 5"
  "score % 7 + (score > 20000)"
  "score % 7 + (score > 40000)"
  "score % 7 == 3 ? 4 : score % 7"
  "score % 8"
  "(score % 7) ^ (score > 60000)"
  "score % 6"
)
measure() { # base file
local tag; tag=$(basename "$1" .c)
revs=()
for i in "${!bodies[@]}"; do
  sed "s|score % 7; /\* CLASSIFY \*/|${bodies[$i]};|" "$1" > "$out/$tag-rev$i.c"
  revs+=("$out/$tag-rev$i.c")
done
start=$(date +%s.%N)
./target/release/augur diff "${revs[@]}" -o "$out/meta-$tag" >"$out/meta-$tag.txt" 2>"$out/meta-$tag.log"
meta_wall=$(echo "$(date +%s.%N) - $start" | bc)
separate_instr=0; separate_time=0
start=$(date +%s.%N)
for r in "${revs[@]}"; do
  n=$(basename "$r" .c)
  ./target/release/augur run "$r" -o "$out/$n" 2>/dev/null
  separate_instr=$(python3 -c "import json;print($separate_instr+json.load(open('$out/$n/summary.json'))['instructions'])")
  separate_time=$(python3 -c "import json;print($separate_time+json.load(open('$out/$n/summary.json'))['time_s'])")
done
separate_wall=$(echo "$(date +%s.%N) - $start" | bc)
python3 - "$out/meta-$tag/summary.json" "$separate_instr" "$separate_time" "$meta_wall" "$separate_wall" "$1" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
si, st, mw, sw = int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
print(f"meta run (11 revisions): exploration {s['instructions']:>10,} instructions, {s['time_s']:6.2f}s; "
      f"whole diff (pairing, {s['differential_tests']} tests re-run natively and in the engine) {mw:6.2f}s wall")
print(f"11 separate augur runs : exploration {si:>10,} instructions, {st:6.2f}s; {sw:6.2f}s wall")
print(f"meta / separate        : instructions {s['instructions']/si:.2f}x, exploration time {s['time_s']/st:.2f}x")
print(f"{sys.argv[6]}: classes: {[[n.split('/')[-1] for n in c] for c in s['classes']]}")
PY
}
measure bench/diff/base.c
measure bench/diff/inline.c
