#!/usr/bin/env bash
# augur explain benchmark: prints trace, slice, conjunct, query, time and memory figures of
# `augur explain` (release build) on docs/explain.md's examples and on a loop over standard
# input of growing size (bench/explain/classes.c against a copy whose digit test stops at 8).
# Usage: bench/explain.sh
source "$(dirname "$0")/setup.sh"
figures() { # name, then explain's arguments
  local name=$1; shift
  ./target/release/augur explain -o "$out/$name" "$@" >/dev/null 2>&1 || true
  python3 - "$out/$name/report.json" "$name" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); f = r["figures"]; g, b = f["golden"], f["buggy"]
lines = sorted({(l["file"].split("/")[-1], l["line"]) for u in r["unexplained"] for l in u["lines"]})
print(f"{sys.argv[2]:14} trace {g['trace_length']:>6}/{b['trace_length']:<6} slice {g['slice_size']:>6}/{b['slice_size']:<6} "
      f"conjuncts {g['wp_conjuncts']:>4}/{b['wp_conjuncts']:<4} queries {f['solver_queries']:>5} "
      f"time {f['time_s']:6.2f}s peak {f['peak_memory_mib']} MiB  lines {lines}")
PY
}
figures arp --golden examples/explain/arp-golden.c --buggy examples/explain/arp-buggy.c -- -A inet
figures discount --golden examples/explain/discount-golden.c --buggy examples/explain/discount-buggy.c -- 30 5
sed "s|buf\[i\] <= '9') /\* DIGIT \*/|buf[i] < '9') /* DIGIT */|" bench/explain/classes.c > "$out/classes-buggy.c"
for n in 100 300 500; do
  python3 -c "import sys; sys.stdout.write(''.join(chr(b'abcXYZ0189 '[i * 7 % 11]) for i in range($n)))" > "$out/in$n"
  figures "classes-$n" --golden bench/explain/classes.c --buggy "$out/classes-buggy.c" --stdin "$out/in$n"
done
