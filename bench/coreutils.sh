#!/usr/bin/env bash
# GNU coreutils under augur, as KLEE's coreutils experiment (run by hand, not by CI):
#   bench/coreutils.sh [-t SECONDS] [all | PROG ...]
# fetches coreutils' Debian source, builds it to bitcode (wllvm), natively with gcov and with
# ASan/UBSan (cached under $AUGUR_COREUTILS_DIR, default ~/.cache/augur-coreutils), runs
# `augur run` on each program (default: the 15 of KLEE's tutorial below; `all`: every
# program of coreutils' bin_PROGRAMS but `[`, test's other name) with KLEE's tutorial options
# for SECONDS (default 120) each, then `augur replay` of its tests and, when `klee` is on
# PATH, KLEE on the same bitcode with the same options and budget (`--libc=uclibc
# --posix-runtime`, in a scratch directory; as nobody when this is root). Each test of
# either tool runs natively on the gcov build, and one table row per program gives: gcov
# line coverage of its own source file (src/PROG.c) on augur's tests and on KLEE's, whether
# augur's is at least KLEE's, tests, paths, errors, errors that reproduce on the ASan/UBSan
# build, replay's verdict, functions augur stopped on for lack of a model, and augur's
# first problem line when it did not finish. Outputs stay in $work/out/PROG (KLEE's in
# $work/out/PROG/klee). AUGUR=BINARY uses that augur instead of building a release binary;
# MAX_MEMORY=MIB is augur's --max-memory and KLEE's (default 4096); JOBS=N runs N programs
# at a time (default 1: two tools side by side share the machine when KLEE runs).
set -euo pipefail
budget=120
if [ "${1:-}" = -t ]; then budget=$2; shift 2; fi
progs=("$@")
[ ${#progs[@]} -gt 0 ] ||
    progs=(echo cat wc cut tr seq head basename paste printf od sort pr tac ptx)
# Without a memory limit augur's state count can take the machine (cat: 20 GB in 60 s).
max_memory=${MAX_MEMORY:-4096}
jobs=${JOBS:-1}
work=${AUGUR_COREUTILS_DIR:-$HOME/.cache/augur-coreutils}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
opts=(--sym-args 0 1 10 --sym-args 0 2 2 --sym-files 1 8 --sym-stdin 8)

source "$here/coreutils-setup.sh"
setup_coreutils
ensure_augur
if [ "${progs[*]}" = all ]; then
    mapfile -t progs < <(cd "$work/bc" && make_variable bin_PROGRAMS | tr ' ' '\n' |
        grep -v -e '^src/\[$' -e '^$' | sed 's|^src/||')
fi
klee=""
if command -v klee >/dev/null; then
    klee=yes
else
    echo "coreutils: klee is not on PATH: augur only (no side by side)" >&2
fi

# as_nobody COMMAND...: COMMAND as the user nobody when this is root (a KLEE test may name
# any path, and KLEE's POSIX runtime passes calls on concrete paths to the real system).
as_nobody() {
    if [ "$(id -u)" -eq 0 ]; then
        setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"
    else
        "$@"
    fi
}

# run_klee PROG BC OUT: KLEE on BC for the budget, its tests in OUT/klee.
run_klee() {
    local prog=$1 bc=$2 out=$3 scratch
    scratch=$(mktemp -d)
    cp "$bc" "$scratch/$prog.bc"
    chmod -R a+rwX "$scratch"
    (cd "$scratch" && as_nobody klee --output-dir="$scratch/klee" --libc=uclibc --posix-runtime \
        --max-time="${budget}s" --max-memory="$max_memory" --watchdog "$scratch/$prog.bc" \
        "${opts[@]}" >"$out/klee.log" 2>&1) || true
    [ -d "$scratch/klee" ] && cp -r "$scratch/klee" "$out/klee"
    rm -rf "$scratch"
}

# run_prog PROG: augur run, augur replay and KLEE on PROG; its row in $work/out/PROG/row.
run_prog() {
    local prog=$1
    local bc=$work/bc/$prog.bc
    [ -f "$bc" ] || (cd "$work/bc/src" && extract-bc -o "$bc" "$prog" >/dev/null)
    local out=$work/out/$prog
    rm -rf "$out"
    mkdir -p "$out"
    local status=0
    "$augur" run "$bc" -o "$out" --max-time "$budget" --max-memory "$max_memory" "${opts[@]}" \
        >"$out/stdout.log" 2>"$out/stderr.log" || status=$?
    echo "$status" >"$out/status"
    [ ! -f "$out/summary.json" ] || "$augur" replay "$bc" "$out" >"$out/replay.log" 2>&1 || true
    [ -z "$klee" ] || run_klee "$prog" "$bc" "$out"
    python3 "$here/coreutils-report.py" "$work" "$prog" "$out" >"$out/row" ||
        echo "| $prog | the report failed |" >"$out/row"
    echo "coreutils: $prog done" >&2
}

echo "coreutils: ${#progs[@]} programs, ${budget}s each, $jobs at a time" >&2
in_parallel "$jobs" run_prog "${progs[@]}"

side="KLEE side by side"
[ -n "$klee" ] || side="KLEE not on PATH: its columns say not run"
echo "budget ${budget}s per program, --max-memory $max_memory, $jobs at a time, $side"
echo "| program | augur: gcov lines of its source | KLEE: gcov lines | augur >= KLEE | tests" \
    "| paths | errors | reproduce | replay | unmodeled functions | augur problem |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for prog in "${progs[@]}"; do
    cat "$work/out/$prog/row"
done
