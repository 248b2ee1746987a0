#!/usr/bin/env bash
# `augur explain` on two independent implementations (issue 20; run by hand, not by CI):
#   bench/explain-busybox.sh [CASE ...]
# BusyBox 1.35 (the "buggy" program) against GNU coreutils 9.1 (the "golden" one), as in
# Banerjee et al.'s evaluation. Both come from Debian 12's sources (`apt-get source`, as
# root the first time) and are built with `augur cc` under $AUGUR_EXPLAIN_DIR (default
# ~/.cache/augur-explain-busybox), each step skipped when done: BusyBox with `make
# defconfig` less FEATURE_SUID (see bench/package-bench.sh) into one busybox.bc, coreutils with
# ./configure (bench/coreutils-setup.sh's options) and make, one PROG.bc per program. Then,
# for each case below (default: all), both programs run natively on the input (their
# outputs and exit statuses are shown), and `augur explain --golden coreutils/PROG.bc
# --buggy applets/PROG.bc` explains the difference, within 10 minutes. BusyBox's applet
# is chosen by argv[0], which augur takes from the bitcode's file stem: applets/PROG.bc is
# a link to busybox.bc. Each report and its time are printed; the outputs stay in
# $work/out/CASE. AUGUR=BINARY uses that augur instead of building a release binary.
set -euo pipefail
root=${AUGUR_EXPLAIN_DIR:-$HOME/.cache/augur-explain-busybox}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/coreutils-setup.sh"

# The inputs: NAME|PROGRAM|STANDARD INPUT (printf format, or empty for none)|ARGUMENTS
# (one per line after the first three fields, separated by |). Each makes BusyBox and
# coreutils behave differently (stdout, stderr's presence or the exit status).
cases=(
    "tr-escaped-dash|tr|ab1-c\n|a\\-c|X"
    "tr-repeat|tr|abc\n|abc|[x*]"
    "printf-q|printf||%q\n|a b"
    "printf-u-escape|printf||\\u0041\n"
    "printf-trailing|printf||%d\n|1a"
    "printf-overflow|printf||%d\n|99999999999999999999"
    "cut-decreasing|cut|abcdef\n|-b|3-2"
    "cut-zero|cut|abc\n|-c|0-2"
    "cut-output-delimiter|cut|a:b:c\n|-d:|-f|1,3|--output-delimiter=X"
    "seq-negative|seq||-w|-1|1"
    "seq-format|seq||-f|%03g|2"
    "seq-float|seq||0.1|0.1|0.3"
    "expand-list|expand|a\tb\n|-t|2,6"
    "dirname-slashes|dirname||//"
    "wc-columns|wc|a b\nc\n|-lw"
)
wanted=("$@")

mkdir -p "$root/bin"
ensure_augur
augur=$(realpath "$augur")
# `augur cc` under the one-word name builds want in CC.
ln -sf "$augur" "$root/bin/augur-cc"
export PATH=$root/bin:$PATH

# coreutils: configured with coreutils-setup.sh's options, built with augur cc.
coreutils_build() {
    local work=$root/coreutils
    mkdir -p "$work"
    [ -f "$work/src/.built" ] && return
    fetch_deb_source coreutils configure
    echo "coreutils: building with augur cc (many minutes)" >&2
    (
        cd "$work/src"
        FORCE_UNSAFE_CONFIGURE=1 ./configure -q CC=augur-cc "${configure_off[@]}" \
            --with-included-regex >configure.log 2>&1
        nice -n 10 make -j2 >make.log 2>&1
    ) || {
        echo "coreutils: the build failed, see $work/src/{configure,make}.log" >&2
        exit 2
    }
    touch "$work/src/.built"
}

# golden_bitcode PROG: coreutils' PROG.bc, with the bodies of gnulib's extern inline
# functions (xset_binary_mode, ...): the native build at -O2 inlined them, so the program
# links no object defining them, while its -O0 bitcode calls them. They come from the
# bitcode of the whole library (lib.bc), linking only what is needed.
golden_bitcode() {
    local prog=$1 work=$root/coreutils
    [ -f "$work/lib.bc" ] || llvm-link-14 -o "$work/lib.bc" "$work"/src/lib/.libcoreutils_a-*.o.bc
    "$augur" extract-bc "$work/src/src/$prog" -o "$work/$prog-as-built.bc" >/dev/null
    llvm-link-14 -o "$root/golden/$prog.bc" "$work/$prog-as-built.bc" --only-needed "$work/lib.bc"
}

(work=$root/busybox && fetch_deb_source busybox Makefile && busybox_bitcode bc)
coreutils_build
mkdir -p "$root/applets" "$root/golden" "$root/out"

# run_case NAME PROG STDIN ARGS...: both natively, then augur explain.
run_case() {
    local name=$1 prog=$2 input=$3
    shift 3
    local out=$root/out/$name
    rm -rf "$out"
    mkdir -p "$out"
    # shellcheck disable=SC2059 # the input is a printf format
    printf "$input" >"$out/stdin"
    ln -sf ../busybox/bc/busybox.bc "$root/applets/$prog.bc"
    [ -f "$root/golden/$prog.bc" ] || golden_bitcode "$prog"
    echo "=== $name: $prog$(printf " '%s'" "$@")${input:+ < '$input'}"
    local status
    for side in coreutils busybox; do
        local bin=$root/coreutils/src/src/$prog argv0=$prog
        [ $side = busybox ] && bin=$root/busybox/bc/busybox_unstripped
        status=0
        (exec -a "$argv0" "$bin" "$@" <"$out/stdin" >"$out/$side.stdout" 2>"$out/$side.stderr") ||
            status=$?
        printf '%-9s exit %d, stdout %s, stderr %s\n' "$side" "$status" \
            "$(head -c 60 "$out/$side.stdout" | od -An -c | tr -s ' ' | head -2 | tr -d '\n')" \
            "$(head -c 60 "$out/$side.stderr" | tr '\n' ' ')"
    done
    local stdin_arg=()
    [ -z "$input" ] || stdin_arg=(--stdin "$out/stdin")
    local start=$SECONDS
    status=0
    timeout 600 "$augur" explain --golden "$root/golden/$prog.bc" \
        --buggy "$root/applets/$prog.bc" "${stdin_arg[@]}" -o "$out/explain" -- "$@" \
        >"$out/report.txt" 2>"$out/explain.log" || status=$?
    cat "$out/report.txt"
    [ $status = 0 ] || echo "augur explain: exit $status: $(tail -1 "$out/explain.log")"
    echo "time $((SECONDS - start)) s"
    echo
}

for c in "${cases[@]}"; do
    IFS='|' read -r -a fields <<<"$c"
    name=${fields[0]}
    if [ ${#wanted[@]} -gt 0 ] && [[ ! " ${wanted[*]} " =~ " $name " ]]; then
        continue
    fi
    # The arguments, their escapes (\n, \t) kept as written: they are the programs' text.
    run_case "$name" "${fields[1]}" "${fields[2]}" "${fields[@]:3}"
done
