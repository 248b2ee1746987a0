#!/usr/bin/env bash
# GNU coreutils under augur, as KLEE's coreutils experiment (run by hand, not by CI):
#   bench/coreutils.sh [-t SECONDS] [PROG ...]
# fetches coreutils' Debian source, builds it to bitcode (wllvm), natively with gcov and with
# ASan/UBSan (cached under $AUGUR_COREUTILS_DIR, default ~/.cache/augur-coreutils), runs
# `augur run` on each program (default: the 15 below) with KLEE's tutorial options for
# SECONDS (default 120) each, replays every test natively on the gcov build, and prints one
# table row per program: gcov line coverage of its own source file (src/PROG.c), tests,
# paths, errors, errors that reproduce on the ASan/UBSan build, functions augur stopped on
# for lack of a model, and augur's first problem line when it did not finish. Outputs stay
# in $work/out/PROG. AUGUR=BINARY uses that augur instead of building a release binary;
# MAX_MEMORY=MIB is augur's --max-memory (default 4096).
set -euo pipefail
budget=120
if [ "${1:-}" = -t ]; then budget=$2; shift 2; fi
progs=("$@")
[ ${#progs[@]} -gt 0 ] ||
    progs=(echo cat wc cut tr seq head basename paste printf od sort pr tac ptx)
# Without a memory limit augur's state count can take the machine (cat: 20 GB in 60 s).
max_memory=${MAX_MEMORY:-4096}
work=${AUGUR_COREUTILS_DIR:-$HOME/.cache/augur-coreutils}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

source "$here/coreutils-setup.sh"
setup_coreutils
ensure_augur

echo "budget ${budget}s per program"
echo "| program | gcov lines of its source | tests | paths | errors | reproduce" \
    "| unmodeled functions | augur problem |"
echo "|---|---|---|---|---|---|---|---|"
for prog in "${progs[@]}"; do
    bc=$work/bc/$prog.bc
    [ -f "$bc" ] || (cd "$work/bc/src" && extract-bc -o "$bc" "$prog" >/dev/null)
    out=$work/out/$prog
    rm -rf "$out"
    mkdir -p "$out"
    status=0
    "$augur" run "$bc" -o "$out" --max-time "$budget" --max-memory "$max_memory" \
        --sym-args 0 1 10 --sym-args 0 2 2 --sym-files 1 8 --sym-stdin 8 \
        >"$out/stdout.log" 2>"$out/stderr.log" || status=$?
    echo "$status" >"$out/status"
    python3 "$here/coreutils-report.py" "$work" "$prog" "$out"
done
