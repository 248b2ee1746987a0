#!/usr/bin/env bash
# Debian packages built through augur's documented path for a project (docs/projects.md:
# ./configure CC='augur cc', make, augur extract-bc), then each program run under the
# KLEE tutorial's options and its tests replayed natively. Prints, per program: bitcode
# files, paths, tests, line coverage, augur's peak memory, the stops on a missing function or an unmodelled
# call, and replay's verdict. Not in CI (it downloads and builds the packages).
#
#   bench/packages.sh                      # gzip, sed, diffutils, 60 s each
#   BUDGET=30 bench/packages.sh sed        # one package, 30 s
#   bench/packages.sh coreutils            # coreutils' printf, od, split, cksum, tac, wc, cat
#   PROGRAMS=all bench/packages.sh coreutils   # every program coreutils installs
#
# coreutils: only the programs run are made (the whole package takes long). PROGRAMS=LIST
# runs those programs (paths in the build tree) instead of the package's list; `all`, for
# coreutils, every program of its bin_PROGRAMS but `[` (test's other name). JOBS=N runs N
# programs at a time (default 1; the figures then share the machine).
#
# Cache: ~/.cache/augur-packages/PACKAGE (source, build, outputs). AUGUR=path/to/augur
# uses that binary instead of building the release one. MAX_MEMORY=MIB is augur's
# --max-memory (default 2048, as bench/busybox.sh: without it two symbolic hash programs
# side by side ran the machine out of memory).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/package-bench.sh"
budget=${BUDGET:-60}
cache=${AUGUR_PACKAGES_CACHE:-$HOME/.cache/augur-packages}
opts=(--sym-args 0 1 10 --sym-args 0 2 2 --sym-files 1 8 --sym-stdin 8 --max-memory "${MAX_MEMORY:-2048}")

# programs_of PACKAGE: the programs run (paths in its build tree; PROGRAMS when set). Run in
# the configured tree.
programs_of() {
    if [ "${PROGRAMS:-all}" != all ]; then
        echo "$PROGRAMS"
        return
    fi
    if [ "${PROGRAMS:-}" = all ] && [ "$1" = coreutils ]; then
        make_variable bin_PROGRAMS | tr ' ' '\n' | grep -v '^src/\[$' | tr '\n' ' '
        return
    fi
    case $1 in
        gzip) echo "gzip" ;;
        sed) echo "sed/sed" ;;
        diffutils) echo "src/cmp src/diff" ;;
        grep) echo "src/grep" ;;
        bc) echo "bc/bc dc/dc" ;;
        coreutils) echo "src/printf src/od src/split src/cksum src/tac src/wc src/cat" ;;
        *) echo "unknown package $1 (add it to programs_of)" >&2; return 2 ;;
    esac
}
# make_targets PACKAGE: what make builds in the configured tree (the current directory):
# all of it, but for coreutils its generated headers (automake's BUILT_SOURCES, which only
# `make all` makes otherwise) and the programs above.
make_targets() {
    case $1 in
        coreutils)
            make_variable BUILT_SOURCES
            programs_of coreutils
            ;;
        *) echo all ;;
    esac
}
# Features augur does not model, off (a package that lacks an option only warns).
configure_flags=(--disable-nls --with-included-regex --without-selinux --disable-perl-regexp
    --disable-acl --disable-xattr --disable-libcap --without-libgmp --without-openssl
    --disable-libsmack)
# Debian's patches leave configure.ac and Makefile.am newer than what they generate: make
# would run the autotools (not installed) again; the generated files are up to date.
no_autotools=(ACLOCAL=true AUTOCONF=true AUTOMAKE=true AUTOHEADER=true MAKEINFO=true)

# run_program WORK PATH: extract PATH's bitcode, `augur run` it for $budget seconds, replay
# its tests; its table row goes to WORK/rows/NAME.
run_program() {
    local work=$1 p=$2
    local name files out
    name=$(basename "$p")
    files=$("$augur" extract-bc "$work/src/$p" -o "$work/$name.bc" | sed -E 's/.*: ([0-9]+) bitcode.*/\1/')
    out=$work/out-$name
    rm -rf "$out"
    nice -n 5 "$augur" run "$work/$name.bc" --max-time "$budget" -o "$out" "${opts[@]}" \
        >"$work/run-$name.log" 2>&1 || true
    verdict=$("$augur" replay "$work/$name.bc" "$out" 2>&1 | tail -1 || true)
    python3 - "$out/summary.json" "$name" "$files" "$verdict" >"$work/rows/$name" <<'PY'
import json, sys
path, name, files, verdict = sys.argv[1:]
s = json.load(open(path))
cov = s["coverage"]
stops = sorted({e["message"] for e in s["errors"] if e["kind"] in ("unmodeled-external", "unsupported")})
print(f'{name:<14} {files:>5} {s["paths_completed"]:>7} {s["tests"]:>6} '
      f'{100 * cov["lines_covered"] / max(cov["lines_total"], 1):>8.1f}% '
      f'{s["peak_memory_mib"]:>4} MiB {len(stops):>6}  {verdict}')
for m in stops:
    print(f'    stop: {m}')
PY
    echo "$name done" >&2
}

ensure_augur
packages=("$@")
[ ${#packages[@]} -gt 0 ] || packages=(gzip sed diffutils)
jobs=${JOBS:-1}
printf '%-14s %5s %7s %6s %9s %7s %6s  %s\n' program files paths tests coverage memory stops replay
for package in "${packages[@]}"; do
    work=$cache/$package
    mkdir -p "$work/rows"
    fetch_deb_source "$package" configure
    # (configure is skipped when it has run: config.status is its last step)
    (cd "$work/src" && [ -e config.status ] ||
        AUGUR_CC_NATIVE_ONLY=1 FORCE_UNSAFE_CONFIGURE=1 ./configure -q CC="$augur cc" \
            CFLAGS="-O0 -g" "${configure_flags[@]}" >"$work/configure.log" 2>&1) || {
        echo "$package: configure failed (see $work/configure.log)" >&2
        continue
    }
    programs=$(cd "$work/src" && programs_of "$package")
    targets=$(cd "$work/src" && make_targets "$package")
    if [ "$(cat "$work/built" 2>/dev/null)" != "$targets" ]; then
        echo "$package: make with CC='augur cc' (minutes)" >&2
        # shellcheck disable=SC2086 # a list of targets
        (cd "$work/src" && nice -n 10 make -j2 -k "${no_autotools[@]}" $targets \
            >"$work/make.log" 2>&1) ||
            echo "$package: some targets failed to build (see $work/make.log)" >&2
        echo "$targets" >"$work/built"
    fi
    running=0
    for p in $programs; do
        rm -f "$work/rows/$(basename "$p")"
        if [ ! -x "$work/src/$p" ]; then
            echo "$(basename "$p"): not built (see $work/make.log)" >"$work/rows/$(basename "$p")"
            continue
        fi
        if [ "$running" -ge "$jobs" ]; then
            wait -n || true
            running=$((running - 1))
        fi
        run_program "$work" "$p" &
        running=$((running + 1))
    done
    wait
    for p in $programs; do
        cat "$work/rows/$(basename "$p")"
    done
done
