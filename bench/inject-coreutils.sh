#!/usr/bin/env bash
# augur inject on GNU coreutils through the source-tree path (run by hand, not by CI):
#   bench/inject-coreutils.sh [MINUTES (10)] [PROG ...]
# fetches coreutils' Debian source (9.1 on bookworm; cached under
# $AUGUR_INJECT_COREUTILS_DIR, default ~/.cache/augur-inject-coreutils), configures it once
# (clang-14; `configured/`, with its generated headers and no objects), and for each
# program (default: the 10 below) runs
#   augur inject --project configured --build 'make CC="$CC" ... src/PROG' --program src/PROG
#     --pool out/PROG/pool --one-program
# for BUGS (default 4) bugs, the pool being the program's invocations by coreutils' own test
# suite that fit the symbolic inputs (bench/inject/coreutils_pool.py): every bug is in one
# program, as in Apocalypse's corpus, verified there on the six builds of the tree (augur
# cc's bitcode replayed, clang and gcc -O0/-O2 with ASan+UBSan, clang MSan) and measured on
# the test suite's inputs. Then the program's patch goes into a tree built by `augur cc`
# (`hunt/`), the program is rebuilt and its bitcode extracted, and every tool hunts the
# program for MINUTES: `augur run`, AFL++ when `afl-fuzz` is on PATH (a tree built by
# afl-clang-fast, argv and stdin from AFL's bytes through bench/inject/afl_main.c), KLEE
# when `klee` is on PATH (on the same bitcode; KLEE must read LLVM 14 bitcode). A tool
# finds a bug when one of its tests fails at the bug's line with the bug's message. Prints
# the bugs emitted per program, per bug the time each tool took to it, per tool the bugs
# found, the overlap and whether no tool finds more than 1.5 times what another finds.
# Outputs stay in $work/out/PROG.
# Each inject builds the library once per build (six times): minutes per program.
# AUGUR=BINARY uses that augur instead of building a release binary; BUGS=N bugs per
# program; EXPLORE=S seconds of inject's exploration (default 60); MAX_FIRE_RATE=R inject's
# --max-fire-rate (default inject's, 0.001; 1 selects nothing by rarity); KEEP=1 keeps the
# corpus an earlier run injected into a program (one program holding every bug; only the
# hunts run again); NO_AFL=1 skips AFL++.
set -euo pipefail
minutes=${1:-10}
[ $# -gt 0 ] && shift
progs=("$@")
[ ${#progs[@]} -gt 0 ] || progs=(expr seq tr cut fold paste wc head nl basename)
bugs=${BUGS:-4}
explore=${EXPLORE:-60}
budget=$((minutes * 60))
work=${AUGUR_INJECT_COREUTILS_DIR:-$HOME/.cache/augur-inject-coreutils}
mkdir -p "$work" && work=$(cd "$work" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The inputs of every tool: up to two arguments of up to 4 bytes, 8 bytes of stdin.
max_args=2 arg_len=4 stdin_len=8
opts=(--sym-args 0 "$max_args" "$arg_len" --sym-stdin "$stdin_len")
afl_argv="-DAFL_ARGV=$max_args -DAFL_ARG_LEN=$arg_len"
# AFL++'s seed: zeros for the count byte, the arguments and stdin
afl_len=$((1 + max_args * arg_len + stdin_len))

source "$here/coreutils-setup.sh" # fetch_deb_source, configure_off, ensure_augur
fetch_deb_source coreutils configure
ensure_augur
export AUGUR_LLVM=14
source "$here/../scripts/deps.sh" >/dev/null
# The libc models' world has only the C locale (augur replay runs natively with LC_ALL=C):
# so must the native runs here (AFL++ and its crashes), whatever the user's LANG (under
# C.UTF-8 wc counts words on another path).
export LC_ALL=C

# configured/: the source configured once, its generated headers made (a copy's
# `make src/PROG` needs them), no object: every copy builds all it links with its own CC.
if [ ! -f "$work/configured/.configured" ]; then
    echo "coreutils: configuring (once)" >&2
    rm -rf "$work/configured"
    cp -a "$work/src" "$work/configured"
    (cd "$work/configured" && FORCE_UNSAFE_CONFIGURE=1 CC=clang-14 ./configure -q \
        "${configure_off[@]}" --with-included-regex >configure.log 2>&1)
    (cd "$work/configured" &&
        bs=$(printf 'augur-built-sources:\n\t@echo $(BUILT_SOURCES)\n' |
            make -s -f Makefile -f - augur-built-sources) &&
        # shellcheck disable=SC2086 # a list of files
        make -j2 $bs >built-sources.log 2>&1)
    touch "$work/configured/.configured"
fi

# tree NAME CC CFLAGS LDFLAGS: a copy of configured/ in $work/NAME whose programs are built
# with that compiler (each program on demand, by `make src/PROG`); copied afresh when an
# earlier run made it with another compiler (say another augur binary's `augur cc`).
tree() {
    local name=$1 want
    want=$(printf '%s\n' "$2" "$3" "$4")
    [ -d "$work/$name" ] && [ "$(cat "$work/$name/.compiler" 2>/dev/null)" = "$want" ] && return
    rm -rf "$work/$name"
    cp -a "$work/configured" "$work/$name"
    printf '%s\n' "$want" >"$work/$name/.compiler"
}
# make_prog NAME PROG: (re)build src/PROG in tree NAME with its compiler.
make_prog() {
    local cc cflags ldflags
    { read -r cc; read -r cflags; read -r ldflags; } <"$work/$1/.compiler"
    (cd "$work/$1" && make -j2 CC="$cc" CFLAGS="$cflags" LDFLAGS="$ldflags" "src/$2" \
        >>make.log 2>&1)
}

# pristine NAME PATCH: the files PATCH changes, in tree NAME, as configured/ has them (a
# fresh mtime, so that make rebuilds them), whatever an interrupted run left there.
pristine() {
    local f
    sed -n 's|^+++ b/||p' "$2" | while read -r f; do
        cp "$work/configured/$f" "$work/$1/$f"
        rm -f "$work/$1/$f.rej" "$work/$1/$f.orig"
    done
}
# patch_in NAME PATCH: PATCH applied to the pristine files of tree NAME.
patch_in() {
    pristine "$1" "$2"
    (cd "$work/$1" && patch -s -p1 <"$2")
}

tree hunt "$augur cc" "-O0" ""
# AFL++ is Debian 12's afl++ (4.04c, its afl-clang-fast on clang-14): installed when missing
# (as scripts/deps.sh installs, waiting for the dpkg lock), unless NO_AFL=1.
if [ -z "${NO_AFL:-}" ] && ! command -v afl-fuzz >/dev/null; then
    echo "installing: afl++" >&2
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    $SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
        install -y -qq afl++ >/dev/null
fi
afl=""
if [ -z "${NO_AFL:-}" ] && command -v afl-fuzz >/dev/null && command -v afl-clang-fast >/dev/null; then
    afl=yes
    mkdir -p "$work"
    # shellcheck disable=SC2086
    afl-clang-fast -c -O1 $afl_argv "$here/inject/afl_main.c" -o "$work/afl_main.o"
    tree afl afl-clang-fast "-O1 -Dmain=afl_program_main" "$work/afl_main.o"
    export AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
        AFL_NO_AFFINITY=1
else
    echo "AFL++: afl-fuzz (and afl-clang-fast) not on PATH: skipped" >&2
fi
klee=""
if command -v klee >/dev/null; then klee=yes; else echo "KLEE: klee not on PATH: skipped" >&2; fi

# found_by_tests DIR FILE LINE START: seconds from START to the first test file in DIR
# whose outcome is an assertion at FILE:LINE (by file name), else "-".
found_by_tests() {
    python3 - "$@" <<'PY'
import glob, json, os, sys
d, file, line, start = sys.argv[1], os.path.basename(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
hits = []
for f in glob.glob(d + "/test*.json"):
    o = json.load(open(f)).get("outcome", {})
    if o.get("error") == "assertion" and o.get("line") == line \
            and os.path.basename(str(o.get("file", ""))) == file:
        hits.append(os.path.getmtime(f) - start)
print(f"{min(hits):.1f}" if hits else "-")
PY
}

# afl_found BIN CRASHES FILE LINE N: seconds from AFL++'s start to the first saved crash
# (by the time in its name) on which BIN fails bug N's assertion at FILE:LINE, else "-".
afl_found() {
    local bin=$1 crashes=$2 file=$3 line=$4 n=$((10#$5)) c ms="" err
    for c in "$crashes"/id:*; do
        [ -f "$c" ] || continue
        # (the crash's exit status is no failure here: pipefail is on)
        err=$(cd "$scratch" && timeout 10 "$bin" <"$c" 2>&1 >/dev/null || true)
        if grep -F "$file:$line:" <<<"$err" | grep -qF "augur-inject bug $n'"; then
            ms=$(printf '%s\n' "$ms" "${c##*time:}" | sed 's/,.*//' | sort -n | sed '/^$/d' | head -1)
        fi
    done
    if [ -n "$ms" ]; then awk -v ms="$ms" 'BEGIN { printf "%.1f\n", ms / 1000 }'; else echo -; fi
}

# The programs AFL++ and KLEE run write the files their operands name (`uniq IN OUT`):
# they run in a scratch directory, not in the caller's.
scratch=$work/scratch
mkdir -p "$scratch"
rows=$work/rows
: >"$rows"
build='make -j2 CC="$CC" CFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS"'
emitted=$work/emitted
: >"$emitted"
for prog in "${progs[@]}"; do
    out=$work/out/$prog
    if [ -n "${KEEP:-}" ] && [ -f "$out/corpus/summary.json" ] && [ -f "$out/inject.seconds" ] &&
        grep -q '"one_program": true' "$out/corpus/summary.json"; then
        echo "coreutils: $prog: keeping the corpus of an earlier run (KEEP=1)" >&2
    else
        rm -rf "$out"
        mkdir -p "$out"
        # The program's own test-suite invocations that fit the symbolic inputs.
        python3 "$here/inject/coreutils_pool.py" "$work/src" "$prog" "$out/pool" \
            "$max_args" "$arg_len" "$stdin_len"
        pool=()
        compgen -G "$out/pool/*.json" >/dev/null && pool=(--pool "$out/pool")
        echo "coreutils: $prog: augur inject ($bugs bugs; six builds of the tree)" >&2
        t0=$SECONDS
        "$augur" inject --project "$work/configured" --build "$build src/$prog" \
            --program "src/$prog" "${opts[@]}" "${pool[@]}" --bugs "$bugs" --one-program \
            --explore-time "$explore" ${MAX_FIRE_RATE:+--max-fire-rate "$MAX_FIRE_RATE"} \
            --seed 1 -o "$out/corpus" >"$out/inject.txt" 2>"$out/inject.log" || {
            echo "coreutils: $prog: inject failed: $(grep error "$out/inject.log" | tail -1)" >&2
            echo "$prog 0 $bugs -" >>"$emitted"
            continue
        }
        echo $((SECONDS - t0)) >"$out/inject.seconds"
    fi
    echo "$prog $(python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print(s["emitted"], s["requested"])' \
        "$out/corpus/summary.json") $(cat "$out/inject.seconds")" >>"$emitted"
    cat "$out/inject.txt"
    all=$out/corpus/program/program.patch
    [ -f "$all" ] || { echo "coreutils: $prog: no bug emitted" >&2; continue; }
    # The buggy program (every bug in it, as Apocalypse's corpus has them): its bitcode
    # from the augur cc tree, hunted by each tool for MINUTES.
    patch_in hunt "$all"
    ok=yes
    make_prog hunt "$prog" && "$augur" extract-bc "$work/hunt/src/$prog" \
        -o "$out/$prog.bc" >/dev/null || ok=""
    pristine hunt "$all"
    [ -n "$ok" ] || { echo "coreutils: $prog: the patched tree does not build" >&2; continue; }
    echo "coreutils: $prog: augur run for ${minutes} min" >&2
    start_augur=$(date +%s.%N)
    rm -rf "$out/run"
    "$augur" run "$out/$prog.bc" "${opts[@]}" --max-time "$budget" --max-memory 4096 \
        -o "$out/run" >/dev/null 2>&1 || true
    afl_bin=""
    if [ -n "$afl" ]; then
        # The buggy program built by afl-clang-fast with the harness.
        rm -f "$out/afl-bin"
        patch_in afl "$all"
        make_prog afl "$prog" && cp "$work/afl/src/$prog" "$out/afl-bin" || true
        pristine afl "$all"
        if [ -x "$out/afl-bin" ]; then
            afl_bin=$out/afl-bin
            rm -rf "$out/afl" "$out/afl-in"
            mkdir -p "$out/afl-in"
            head -c "$afl_len" /dev/zero >"$out/afl-in/zero"
            echo "coreutils: $prog: AFL++ for ${minutes} min" >&2
            (cd "$scratch" && timeout $((budget + 60)) nice -n 10 afl-fuzz -V "$budget" \
                -i "$out/afl-in" -o "$out/afl" -- "$afl_bin" >"$out/afl.log" 2>&1) || true
        else
            echo "coreutils: $prog: the patched tree does not build with afl-clang-fast" >&2
        fi
    fi
    if [ -n "$klee" ]; then
        start_klee=$(date +%s.%N)
        rm -rf "$out/klee"
        (cd "$scratch" && klee --output-dir="$out/klee" --libc=uclibc --posix-runtime \
            --max-time="${budget}s" "$out/$prog.bc" "${opts[@]}" >/dev/null 2>&1) || true
    fi
    for bug in "$out"/corpus/bug*/; do
        [ -d "$bug" ] || continue
        id=$(basename "$bug")
        read -r file line < <(python3 -c \
            'import json,sys; b=json.load(open(sys.argv[1])); print(b["file"], b["line"])' \
            "$bug/bug.json")
        t_augur=$(found_by_tests "$out/run" "$file" "$line" "$start_augur")
        t_afl=n/a
        if [ -n "$afl" ]; then
            t_afl=err
            [ -z "$afl_bin" ] ||
                t_afl=$(afl_found "$afl_bin" "$out/afl/default/crashes" "$file" "$line" "${id#bug}")
        fi
        t_klee=n/a
        [ -z "$klee" ] || t_klee=$(python3 - "$out/klee" "$file" "$line" "$start_klee" <<'PY'
import glob, os, sys
d, file, line, start = sys.argv[1], os.path.basename(sys.argv[2]), sys.argv[3], float(sys.argv[4])
hits = [os.path.getmtime(f) - start for f in glob.glob(d + "/*.assert.err")
        if f"{file}:{line}" in open(f, errors="replace").read()]
print(f"{min(hits):.1f}" if hits else "-")
PY
)
        echo "$prog $id $file:$line $t_augur $t_afl $t_klee" >>"$rows"
    done
done

python3 - "$rows" "$minutes" "$emitted" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
progs = [l.split() for l in open(sys.argv[3]) if l.strip()]
print(f"{'program':9} {'emitted':>7} {'inject s':>8}")
for p in progs:
    print(f"{p[0]:9} {p[1] + '/' + p[2]:>7} {p[3]:>8}")
print(f"emitted {sum(int(p[1]) for p in progs)}/{sum(int(p[2]) for p in progs)} bugs")
tools = ["augur run", "AFL++", "KLEE"]
print(f"{'program':9} {'bug':7} {'at':22} {'augur run s':>11} {'AFL++ s':>8} {'KLEE s':>7}")
for r in rows:
    print(f"{r[0]:9} {r[1]:7} {r[2]:22} {r[3]:>11} {r[4]:>8} {r[5]:>7}")
print(f"{len(rows)} bugs, {sys.argv[2]} min per program and tool")
found = {}
for i, t in enumerate(tools if rows else []):
    if all(r[3 + i] == "n/a" for r in rows):
        print(f"{t}: not run")
        continue
    hit = {(r[0], r[1]): float(r[3 + i]) for r in rows if r[3 + i] not in ("-", "n/a", "err")}
    found[t] = set(hit)
    med = f", median {statistics.median(hit.values()):.1f} s to a bug" if hit else ""
    print(f"{t}: found {len(hit)}/{len(rows)}{med}")
names = list(found)
for a in range(len(names)):
    for b in range(a + 1, len(names)):
        x, y = found[names[a]], found[names[b]]
        print(f"{names[a]} and {names[b]}: both {len(x & y)}, only {names[a]} "
              f"{len(x - y)}, only {names[b]} {len(y - x)}")
if found:
    every = set().union(*found.values())
    print(f"found by no tool: {len(rows) - len(every)}")
if len(found) > 1:
    n = [len(f) for f in found.values()]
    ok = min(n) > 0 and max(n) <= 1.5 * min(n)
    print(f"no tool finds more than 1.5x what another finds: {'holds' if ok else 'does not hold'} "
          f"({' vs '.join(str(k) for k in n)})")
PY
