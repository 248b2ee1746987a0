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
#
# coreutils: only its programs listed below are made (the whole package takes long); its
# fifteen tutorial programs are bench/coreutils.sh's.
#
# Cache: ~/.cache/augur-packages/PACKAGE (source, build, outputs). AUGUR=path/to/augur
# uses that binary instead of building the release one.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/package-bench.sh"
budget=${BUDGET:-60}
cache=${AUGUR_PACKAGES_CACHE:-$HOME/.cache/augur-packages}
opts=(--sym-args 0 1 10 --sym-args 0 2 2 --sym-files 1 8 --sym-stdin 8)

# package: the programs it builds (paths in its build tree), and its configure options.
programs_of() {
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
            make -s -f Makefile -f - augur-built-sources \
                <<<'augur-built-sources: ; @echo $(BUILT_SOURCES)'
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

ensure_augur
packages=("$@")
[ ${#packages[@]} -gt 0 ] || packages=(gzip sed diffutils)
printf '%-14s %5s %7s %6s %9s %7s %6s  %s\n' program files paths tests coverage memory stops replay
for package in "${packages[@]}"; do
    work=$cache/$package
    mkdir -p "$work"
    fetch_deb_source "$package" configure
    programs=$(programs_of "$package")
    if [ ! -e "$work/built" ]; then
        echo "$package: configure and make with CC='augur cc' (a few minutes)" >&2
        # (configure is skipped when it has run: config.status is its last step)
        (cd "$work/src" && { [ -e config.status ] ||
            AUGUR_CC_NATIVE_ONLY=1 FORCE_UNSAFE_CONFIGURE=1 ./configure -q CC="$augur cc" \
                CFLAGS="-O0 -g" "${configure_flags[@]}" >"$work/configure.log" 2>&1; } &&
            nice -n 10 make -j2 "${no_autotools[@]}" $(make_targets "$package") \
                >"$work/make.log" 2>&1) || {
            echo "$package: build failed (see $work/*.log)" >&2
            continue
        }
        touch "$work/built"
    fi
    for p in $programs; do
        name=$(basename "$p")
        exe=$work/src/$p
        files=$("$augur" extract-bc "$exe" -o "$work/$name.bc" | sed -E 's/.*: ([0-9]+) bitcode.*/\1/')
        out=$work/out-$name
        rm -rf "$out"
        nice -n 5 "$augur" run "$work/$name.bc" --max-time "$budget" -o "$out" "${opts[@]}" \
            >"$work/run-$name.log" 2>&1 || true
        verdict=$("$augur" replay "$work/$name.bc" "$out" 2>&1 | tail -1 || true)
        python3 - "$out/summary.json" "$name" "$files" "$verdict" <<'PY'
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
    done
done
