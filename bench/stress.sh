#!/usr/bin/env bash
# The whole test suite under load, as on a busy machine: CPU hogs beside it (two per
# core), three times in a row (ROUNDS=N to change). Results must not depend on timing:
# every round must pass. Prints each round's time and verdict; exits 1 on a failed round.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-3}
hogs=$(( $(nproc) * 2 ))
pids=()
stop_hogs() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap stop_hogs EXIT
for _ in $(seq "$hogs"); do
  ( while :; do :; done ) &
  pids+=($!)
done
echo "stress: $hogs CPU hogs on $(nproc) cores, $rounds rounds of scripts/test.sh"
failed=0
for r in $(seq "$rounds"); do
  start=$(date +%s)
  log=$(mktemp)
  if ./scripts/test.sh >"$log" 2>&1; then verdict=passed; else verdict=FAILED; failed=1; fi
  echo "stress: round $r: $verdict in $(( $(date +%s) - start )) s ($(tail -1 "$log"))"
  if [ "$verdict" = FAILED ]; then
    grep -E "^test .* FAILED|panicked at|^failures:" "$log" | head -20 || true
  fi
  rm -f "$log"
done
exit "$failed"
