#!/usr/bin/env bash
# BusyBox under augur, as KLEE's second OSDI'08 subject (issue 22; run by hand, not by CI):
#   bench/busybox.sh [-t SECONDS] [APPLET ...]
# As root the first time (apt-get source needs Debian's deb-src line, added when missing).
# It fetches Debian 12's BusyBox source (1.35), configures it with `make defconfig` (less the
# options in config_off below) and builds it twice under $AUGUR_BUSYBOX_DIR (default
# ~/.cache/augur-busybox), each step skipped when done: to ONE bitcode, busybox.bc (wllvm
# from a Python venv in $work/venv, clang-14 at -O0 -g with augur's analysis flags,
# extract-bc on busybox_unstripped), and natively with gcc --coverage (for gcov). Then, for
# each applet (default: the 23 coreutils also has, plus sed, grep and awk), `augur run` on
# $work/applets/APPLET.bc (a link to busybox.bc: augur names argv[0] after the input's
# file stem, and BusyBox dispatches on argv[0]) with KLEE's tutorial options for SECONDS
# (default 60), `augur replay` of every test (native build of the same bitcode, linked with
# -lm -lresolv as BusyBox is), the tests run again on the gcov build (argv[0] the applet),
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

# defconfig's options turned off, and why. FEATURE_SUID: main() drops privileges for most
# applets when the real uid is not 0 (check_suid: setgid(getgid()), setuid(getuid())), and
# augur's world runs as uid 1000 while setgid and setuid (system calls 106 and 105) are not
# modelled: every applet stopped there. Natively as root the code does nothing either way.
# (clang 14 builds the rest of defconfig as it is.)
config_off=(FEATURE_SUID)

# build NAME CC CFLAGS LDFLAGS: `make defconfig` less config_off, then make, in a copy of the
# tree at $work/NAME (again when the command changed: .built holds it).
build() {
    local name=$1 cc=$2 cflags=$3 ldflags=$4
    local stamp="$cc $cflags $ldflags ${config_off[*]}"
    [ -f "$work/$name/.built" ] && [ "$(cat "$work/$name/.built")" = "$stamp" ] && return
    echo "busybox: building $name (several minutes)" >&2
    rm -rf "$work/$name"
    cp -a "$work/src" "$work/$name"
    (
        cd "$work/$name"
        make defconfig >config.log 2>&1
        local opt
        for opt in "${config_off[@]}"; do
            sed -i "s/^CONFIG_$opt=.*/# CONFIG_$opt is not set/" .config
        done
        sed -i -e "s|^CONFIG_EXTRA_CFLAGS=.*|CONFIG_EXTRA_CFLAGS=\"$cflags\"|" \
            -e "s|^CONFIG_EXTRA_LDFLAGS=.*|CONFIG_EXTRA_LDFLAGS=\"$ldflags\"|" .config
        (yes "" || true) | make CC="$cc" HOSTCC=gcc oldconfig >>config.log 2>&1
        # Progress: one line per 200 files compiled.
        nice -n 10 make -j2 CC="$cc" HOSTCC=gcc 2>&1 | tee make.log |
            awk -v name="$name" '/^  CC /{ if (++n % 200 == 0) {
                print "busybox: " name ": " n " files compiled" > "/dev/stderr" } }'
    ) || {
        echo "busybox: the $name build failed, see $work/$name/{config,make}.log" >&2
        exit 2
    }
    echo "$stamp" >"$work/$name/.built"
}

mkdir -p "$work"
fetch_deb_source busybox Makefile
ensure_wllvm
# The CONFIG_EXTRA_CFLAGS come last on the command line: -O0 there wins over BusyBox's -Os.
build bc wllvm "-O0 -Xclang -disable-O0-optnone -g -fno-discard-value-names" ""
if [ ! -f "$work/busybox.bc" ] || [ "$work/busybox.bc" -ot "$work/bc/.built" ]; then
    echo "busybox: extract-bc busybox_unstripped" >&2
    extract-bc -o "$work/busybox.bc" "$work/bc/busybox_unstripped" >/dev/null
fi
# BusyBox's two compiler-only inline assembly statements, which augur does not run
# (issue 22): the measured runs are on $work/busybox-noasm.bc (see busybox_noasm).
if [ ! -f "$work/busybox-noasm.bc" ] || [ "$work/busybox-noasm.bc" -ot "$work/busybox.bc" ]; then
    busybox_noasm "$work/busybox.bc" "$work/busybox-noasm.bc"
fi
build gcov gcc "-O0 -g --coverage" "--coverage"
ensure_augur

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
        "$augur" replay "$bc" "$out/tests" --cflags "-lm -lresolv" >"$out/replay.log" \
            2>&1 || status=$?
    fi
    echo "$status" >"$out/replay-status"
    python3 "$here/busybox-report.py" row "$work" "$applet" "$out" >"$out/row" ||
        echo "| $applet | the report failed |" >"$out/row"
    echo "busybox: $applet done" >&2
}

mkdir -p "$work/applets" "$work/out"
for applet in "${applets[@]}"; do
    ln -sf ../busybox-noasm.bc "$work/applets/$applet.bc"
done
# The bitcode as built, for the record: where the first applet stops.
mkdir -p "$work/as-built"
ln -sf ../busybox.bc "$work/as-built/${applets[0]}.bc"
rm -rf "$work/out/as-built"
"$augur" run "$work/as-built/${applets[0]}.bc" -o "$work/out/as-built" --max-time 10 \
    >/dev/null 2>&1 || true
echo "busybox: ${#applets[@]} applets, ${budget}s each, $jobs at a time" >&2
running=0
for applet in "${applets[@]}"; do
    if [ "$running" -ge "$jobs" ]; then
        wait -n || true
        running=$((running - 1))
    fi
    run_applet "$applet" &
    running=$((running + 1))
done
wait

echo "budget ${budget}s per applet, --max-memory $max_memory, $jobs applets at a time"
python3 "$here/busybox-report.py" table "$work" "${applets[@]}"
