#!/usr/bin/env bash
# BusyBox under augur, as KLEE's second OSDI'08 subject (issue 22; run by hand, not by CI):
#   bench/busybox.sh [-t SECONDS] [APPLET ...]
# As root the first time (apt-get source needs Debian's deb-src line, added when missing).
# It fetches Debian 12's BusyBox source (1.35) and builds it twice under $AUGUR_BUSYBOX_DIR
# (default ~/.cache/augur-busybox), each step skipped when done: through augur's documented
# path for a project (`make CC='augur cc'`, then `augur extract-bc`: bc/busybox.bc; see
# busybox_bitcode in package-bench.sh), and natively with gcc --coverage (for gcov), both
# `make defconfig` less FEATURE_SUID. Then, for each applet (default: the 23 coreutils also
# has, plus sed, grep and awk), `augur run` on $work/applets/APPLET.bc (a link to
# busybox.bc: augur names argv[0] after the input's file stem, and BusyBox dispatches on
# argv[0]) with KLEE's tutorial options for SECONDS (default 60), `augur replay` of every
# test (native build of the same bitcode, linked with the libraries BusyBox's link named,
# which augur cc recorded), the tests run again on the gcov build (argv[0] the applet),
# and one table row each: gcov lines of the applet's own source, tests, paths, the
# program's errors by kind, augur's stops (missing functions, system calls, other
# unsupported constructs) and replay's counts. After the table: every missing function,
# unmodelled system call and other `unsupported` message over all applets, with counts.
# Outputs stay in $work/out/APPLET. JOBS=N runs N applets at a time (default 2);
# MAX_MEMORY=MIB is augur's --max-memory (default 2048); AUGUR=BINARY uses that augur
# instead of building a release binary. KLEE is not run (not side by side).
set -euo pipefail
budget=60
if [ "${1:-}" = -t ]; then budget=$2; shift 2; fi
applets=("$@")
[ ${#applets[@]} -gt 0 ] ||
    applets=(basename cat cut dirname echo expand fold head nl od paste printf seq sort tac
        tail tr uniq wc yes cksum comm expr sed grep awk)
max_memory=${MAX_MEMORY:-2048}
jobs=${JOBS:-2}
work=${AUGUR_BUSYBOX_DIR:-$HOME/.cache/augur-busybox}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/package-bench.sh"

mkdir -p "$work"
ensure_augur
fetch_deb_source busybox Makefile
busybox_bitcode bc
busybox_build gcov gcc "-O0 -g --coverage" --coverage

# run_applet APPLET: augur run, augur replay and the gcov run, into $work/out/APPLET.
run_applet() {
    local applet=$1
    local bc=$work/applets/$applet.bc out=$work/out/$applet
    rm -rf "$out"
    mkdir -p "$out"
    local status=0
    "$augur" run "$bc" -o "$out/tests" --max-time "$budget" --max-memory "$max_memory" \
        --sym-args 0 1 10 --sym-args 0 2 2 --sym-files 1 8 --sym-stdin 8 \
        >"$out/stdout.log" 2>"$out/stderr.log" || status=$?
    echo "$status" >"$out/status"
    status=0
    if [ -d "$out/tests" ]; then
        "$augur" replay "$bc" "$out/tests" >"$out/replay.log" 2>&1 || status=$?
    fi
    echo "$status" >"$out/replay-status"
    python3 "$here/busybox-report.py" row "$work" "$applet" "$out" >"$out/row" ||
        echo "| $applet | the report failed |" >"$out/row"
    echo "busybox: $applet done" >&2
}

mkdir -p "$work/applets" "$work/out"
for applet in "${applets[@]}"; do
    ln -sf ../bc/busybox.bc "$work/applets/$applet.bc"
done
echo "busybox: ${#applets[@]} applets, ${budget}s each, $jobs at a time" >&2
in_parallel "$jobs" run_applet "${applets[@]}"

echo "budget ${budget}s per applet, --max-memory $max_memory, $jobs applets at a time"
python3 "$here/busybox-report.py" table "$work" "${applets[@]}"
