#!/usr/bin/env bash
# augur record / repro on a real program (run by hand, not by CI): GNU coreutils' `cut` with
# a fault injected by hand (bench/repro/cut-fault.patch: a first field starting with `#!`
# is copied into an 8-byte stack buffer), built from its source tree through `augur cc`:
#   bench/repro-coreutils.sh [BUDGET-SECONDS (default 300)]
# fetches coreutils' Debian source (`apt-get source`, cached under
# $AUGUR_REPRO_COREUTILS_DIR, default ~/.cache/augur-repro-coreutils), applies the patch,
# runs `./configure CC='augur cc'` and `make src/cut` (that program only), extracts its
# bitcode, builds the recording binary from it (`augur record cut.bc`), crashes it once
# with a field input (its ASan report and log kept), then runs `augur repro` from the
# report and the log with a symbolic standard input, and replays the input found on the
# recorded binary without the log: printed are the times, the status, the input, and the
# crash line of the field run and of the replay. AUGUR=BINARY uses that augur instead of
# building a release binary.
set -euo pipefail
budget=${1:-300}
work=${AUGUR_REPRO_COREUTILS_DIR:-$HOME/.cache/augur-repro-coreutils}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
patch=$here/repro/cut-fault.patch
# The field's command line and input: the first field is a `#!` tag longer than 8 bytes.
args=(-d: -f2)
field_input='#!/usr/bin/env:python3\n'

source "$here/coreutils-setup.sh" # fetch_deb_source, ensure_augur, configure_off
mkdir -p "$work"
fetch_deb_source coreutils configure
ensure_augur
export ASAN_OPTIONS=detect_leaks=0
secs() { python3 -c "import time; print(f'{time.time() - $1:.1f}')"; }

# The patched tree, configured with augur cc (again when the patch changed), then `cut`
# made: the generated headers first (BUILT_SOURCES, which only `make all` makes), then
# src/cut and what it links.
tree=$work/cut-fault
# -O0: at -O2 the native objects inline gnulib's `extern inline` functions (icalloc, ...),
# so the linker takes no object defining them and the -O0 bitcode would lack their bodies.
cflags="-O0 -g"
stamp="$(sha256sum "$patch" | cut -c1-16) $cflags ${configure_off[*]}"
if [ ! -f "$tree/.configured" ] || [ "$(cat "$tree/.configured")" != "$stamp" ]; then
    rm -rf "$tree"
    cp -a "$work/src" "$tree"
    (cd "$tree" && patch -s -p1 <"$patch")
    start=$(date +%s.%N)
    echo "cut: configure with CC='augur cc' (minutes)" >&2
    (cd "$tree" && FORCE_UNSAFE_CONFIGURE=1 ./configure -q CC="$augur cc" CFLAGS="$cflags" \
        "${configure_off[@]}" >configure.log 2>&1) ||
        { echo "configure failed: $tree/configure.log" >&2; exit 2; }
    echo "cut: configured in $(secs "$start") s" >&2
    echo "$stamp" >"$tree/.configured"
fi
start=$(date +%s.%N)
built_sources=$(cd "$tree" && echo 'print: ; @echo $(BUILT_SOURCES)' |
    make -s -f Makefile -f - print)
# shellcheck disable=SC2086 # a list of files
(cd "$tree" && make -j2 $built_sources >make.log 2>&1 && make -j2 src/cut >>make.log 2>&1) ||
    { echo "make failed: $tree/make.log" >&2; exit 2; }
echo "cut: made in $(secs "$start") s" >&2

run=$work/run
rm -rf "$run"
mkdir -p "$run"
cd "$run"
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
    "log $(stat -c %s field.augurlog) bytes, $("$augur" record --show field.augurlog |
        sed -n 2p)"

# The developer's side: the report, the log and the bitcode.
start=$(date +%s.%N)
status=0
"$augur" repro cut.bc --crash report.txt --log field.augurlog --sym-stdin 24 \
    --max-time "$budget" -o out -- "${args[@]}" 2>repro.log || status=$?
echo "repro: exit $status in $(secs "$start") s: $(grep -m1 'reproduced' repro.log || true)"
grep -m1 'augur: input:' repro.log || true
[ $status -eq 0 ] || exit 1

# The input found, replayed on the recorded binary with the real functions (no log).
python3 -c "
import json, sys
j = json.load(open('out/repro.json'))
sys.stdout.buffer.write(bytes(next(o['bytes'] for o in j['objects'] if o['name'] == 'stdin')))
" >found.stdin
status=0
./cut-rec "${args[@]}" <found.stdin >/dev/null 2>replay.txt || status=$?
replay_site=$(grep -m1 -o 'cut\.c:[0-9]*' replay.txt || echo "no crash")
echo "native replay without the log: exit $status, crash at $replay_site" \
    "(field: $field_site): $([ "$replay_site" = "$field_site" ] && echo same || echo DIFFERENT)"
