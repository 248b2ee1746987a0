#!/usr/bin/env bash
# augur record / repro on a real program (run by hand, not by CI): GNU coreutils' `cut` with
# a fault injected by hand, built from its source tree through `augur cc`:
#   bench/repro-coreutils.sh [BUDGET-SECONDS (default 300)]
# Two faults, each a patch of src/cut.c: a first field starting with `#!` is copied into an
# 8-byte stack buffer (bench/repro/cut-fault.patch), or one whose gnulib hash_pjw falls in
# one bucket is (bench/repro/cut-hash-fault.patch). Fetches coreutils' Debian source
# (`apt-get source`, cached under $AUGUR_REPRO_COREUTILS_DIR, default
# ~/.cache/augur-repro-coreutils), runs `./configure CC='augur cc'` once, then for each
# fault: applies it, makes src/cut (that program only), extracts its bitcode, builds the
# recording binary from it (`augur record cut.bc`), crashes it once with a field input (its
# ASan report and log kept), runs `augur repro` from the report with the log and without
# it (a symbolic standard input of 24 bytes, BUDGET seconds), and replays the input found
# natively on the recorded binary. Printed: times, statuses, the input, and the crash line
# of the field run and of the replay. AUGUR=BINARY uses that augur instead of building a
# release binary.
set -euo pipefail
budget=${1:-300}
work=${AUGUR_REPRO_COREUTILS_DIR:-$HOME/.cache/augur-repro-coreutils}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The field's command line and input (both faults): the first field is a `#!` tag longer
# than 8 bytes.
args=(-d: -f2)
field_input='#!/usr/bin/env:python3\n'

source "$here/coreutils-setup.sh" # fetch_deb_source, ensure_augur, configure_off
mkdir -p "$work"
fetch_deb_source coreutils configure
ensure_augur
export ASAN_OPTIONS=detect_leaks=0
secs() { python3 -c "import time; print(f'{time.time() - $1:.1f}')"; }

# The tree configured with augur cc (again when the flags changed), the fault patched into
# a pristine src/cut.c at every run, then `cut` made: the generated headers first
# (BUILT_SOURCES, which only `make all` makes), then src/cut and what it links.
tree=$work/cut-fault
# -O0: at -O2 the native objects inline gnulib's `extern inline` functions (icalloc, ...),
# so the linker takes no object defining them and the -O0 bitcode would lack their bodies.
cflags="-O0 -g"
stamp="$cflags ${configure_off[*]}"
if [ ! -f "$tree/.configured" ] || [ "$(cat "$tree/.configured")" != "$stamp" ]; then
    rm -rf "$tree"
    cp -a "$work/src" "$tree"
    start=$(date +%s.%N)
    echo "cut: configure with CC='augur cc' (minutes)" >&2
    (cd "$tree" && FORCE_UNSAFE_CONFIGURE=1 ./configure -q CC="$augur cc" CFLAGS="$cflags" \
        "${configure_off[@]}" >configure.log 2>&1) ||
        { echo "configure failed: $tree/configure.log" >&2; exit 2; }
    echo "cut: configured in $(secs "$start") s" >&2
    echo "$stamp" >"$tree/.configured"
fi
built_sources=$(cd "$tree" && echo 'print: ; @echo $(BUILT_SOURCES)' |
    make -s -f Makefile -f - print)

# reproduce NAME PATCH: cut with the fault of PATCH made, recorded, crashed in the field,
# reproduced with and without the log, the input found replayed; outputs in $work/NAME.
reproduce() {
    local name=$1 patch=$2 start status nolog
    echo "== $name: $(basename "$patch")"
    cp "$work/src/src/cut.c" "$tree/src/cut.c"
    (cd "$tree" && patch -s -p1 <"$patch")
    start=$(date +%s.%N)
    # shellcheck disable=SC2086 # a list of files
    (cd "$tree" && make -j2 $built_sources >make.log 2>&1 && make src/cut >>make.log 2>&1) ||
        { echo "make failed: $tree/make.log" >&2; exit 2; }
    echo "cut made in $(secs "$start") s"
    rm -rf "${work:?}/$name"
    mkdir -p "$work/$name"
    cd "$work/$name"
    "$augur" extract-bc "$tree/src/cut" -o cut.bc
    start=$(date +%s.%N)
    "$augur" record cut.bc -o cut-rec 2>record.log || { cat record.log >&2; exit 2; }
    echo "record: $(tail -n 1 record.log) ($(secs "$start") s)"

    # The field: the recorded binary crashes once, writing its ASan report and its log.
    status=0
    printf "$field_input" | AUGUR_LOG=field.augurlog ./cut-rec "${args[@]}" 2>report.txt ||
        status=$?
    [ $status -ne 0 ] || { echo "the field input did not crash cut" >&2; exit 2; }
    field_site=$(grep -m1 -o 'cut\.c:[0-9]*' report.txt)
    echo "field: $(grep -m1 -o 'AddressSanitizer: [a-z-]*' report.txt) at $field_site;" \
        "log $("$augur" record --show field.augurlog | sed -n 2p)"
    "$augur" record --show field.augurlog | tail -n +3 | head -n 5

    # The developer's side: the report, the log and the bitcode; then without the log.
    start=$(date +%s.%N)
    status=0
    "$augur" repro cut.bc --crash report.txt --log field.augurlog --sym-stdin 24 \
        --max-time "$budget" -o out -- "${args[@]}" 2>repro.log || status=$?
    echo "repro with the log: exit $status in $(secs "$start") s:" \
        "$(grep -m1 'reproduced' repro.log || true)"
    grep -m1 'augur: input:' repro.log || true
    start=$(date +%s.%N)
    nolog=0
    "$augur" repro cut.bc --crash report.txt --sym-stdin 24 --max-time "$budget" \
        -o out-nolog -- "${args[@]}" 2>repro-nolog.log || nolog=$?
    echo "repro without the log: exit $nolog in $(secs "$start") s:" \
        "$(grep -m1 'reproduced' repro-nolog.log || true)"
    [ $status -eq 0 ] || return 0

    # The input found, replayed natively on the recorded binary: with the real functions
    # (no log) for "full", with the logged results substituted for "with-log".
    python3 -c "
import json, sys
j = json.load(open('out/repro.json'))
sys.stdout.buffer.write(bytes(next(o['bytes'] for o in j['objects'] if o['name'] == 'stdin')))
" >found.stdin
    local how env=()
    how=$(python3 -c "import json; print(json.load(open('out/repro.json'))['status'])")
    [ "$how" = full ] || env=(AUGUR_LOG_REPLAY=field.augurlog)
    status=0
    env "${env[@]}" ./cut-rec "${args[@]}" <found.stdin >/dev/null 2>replay.txt || status=$?
    replay_site=$(grep -m1 -o 'cut\.c:[0-9]*' replay.txt || echo "no crash")
    echo "native replay ($how): exit $status, crash at $replay_site (field: $field_site):" \
        "$([ "$replay_site" = "$field_site" ] && echo same || echo DIFFERENT)"
}

reproduce plain "$here/repro/cut-fault.patch"
reproduce hashed "$here/repro/cut-hash-fault.patch"
