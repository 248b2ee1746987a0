#!/usr/bin/env bash
# Build musl's C library to LLVM bitcode for augur's analysed programs: the functions
# augur's own libc models (runtime/libc) do not define are taken from it when a program is
# linked (`llvm-link --only-needed`: a model, or the program's own definition, always
# wins). musl's system calls go to the OS model (arch/syscall_arch.h here), its thread
# pointer and atomics are plain C (arch/pthread_arch.h, arch/atomic_arch.h), and its
# assembly files are left out (the generic C of each function is built instead).
#
#   build.sh MUSL_SRC OUT_DIR CLANG LLVM_LINK
#
# writes OUT_DIR/musl.bc (long double as double: augur's -mlong-double-64) and
# OUT_DIR/musl-fp80.bc (x87 long double: programs built without augur's flags), each
# linked from one bitcode file per source file. Which files are left out, and why, is
# the list `excluded` below.
set -euo pipefail
src=$(cd "$1" && pwd)
out=$2
clang=$3
link=$4
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
obj=$out/obj
mkdir -p "$obj/include/bits" "$obj/src/internal"
sed -f "$src/tools/mkalltypes.sed" "$src/arch/x86_64/bits/alltypes.h.in" \
  "$src/include/alltypes.h.in" >"$obj/include/bits/alltypes.h"
cp "$src/arch/x86_64/bits/syscall.h.in" "$obj/include/bits/syscall.h"
sed -n -e s/__NR_/SYS_/p <"$src/arch/x86_64/bits/syscall.h.in" >>"$obj/include/bits/syscall.h"
printf '#define VERSION "%s"\n' "$(cat "$src/VERSION")" >"$obj/src/internal/version.h"

# Left out: the dynamic linker and start-up (the engine starts the program), the
# allocator (the engine's malloc), thread creation and cancellation (clone, assembly),
# and every file that reads or writes musl's FILE internally: the program's FILEs are the
# models' (glibc's layout), so a musl function given one would misread it.
excluded() {
  case "$1" in
    src/ldso/* | src/env/__libc_start_main.c | src/env/__init_tls.c | src/env/__reset_tls.c) return 0 ;;
    src/malloc/memalign.c) return 1 ;;
    src/malloc/*) return 0 ;;
    src/thread/pthread_cancel.c | src/thread/pthread_create.c) return 0 ;;
  esac
  grep -q '"stdio_impl.h"' "$src/$1"
}

files=()
while IFS= read -r f; do
  excluded "$f" || files+=("$f")
done < <(cd "$src" && find src -mindepth 2 -maxdepth 2 -name '*.c' | LC_ALL=C sort)
files+=("$here/augur_musl.c")

# Compile every file into DIR (at most one job per core), then link them into OUT.
build() { # DIR OUT LONG_DOUBLE_FLAG
  local dir=$1 linked=$2
  local flags=(-c -emit-llvm -g -O0 -Xclang -disable-O0-optnone -fno-discard-value-names
    -std=c99 -nostdinc -ffreestanding -fno-stack-protector -fno-builtin -w "$3"
    -D_XOPEN_SOURCE=700
    "-fdebug-prefix-map=$src=/augur-runtime-musl" "-fdebug-prefix-map=$here=/augur-runtime-musl"
    -I"$here/arch" -I"$src/arch/x86_64" -I"$src/arch/generic" -I"$obj/src/internal"
    -I"$src/src/include" -I"$src/src/internal" -I"$obj/include" -I"$src/include")
  mkdir -p "$dir"
  local f n=0 jobs
  jobs=$(nproc)
  local bcs=()
  for f in "${files[@]}"; do
    local bc
    bc=$dir/$(basename "$(dirname "$f")")_$(basename "$f" .c).bc
    bcs+=("$bc")
    local extra=() path
    # warn()/err() name the program by musl's __progname, which musl's start-up sets;
    # the engine sets glibc's program_invocation_short_name (runtime/libc/error.c).
    [ "$f" = src/legacy/err.c ] && extra=(-D__progname=program_invocation_short_name)
    # String functions that read a word at a time (may_alias words, under __GNUC__) may
    # read past the end of a string: harmless natively within a page, out of bounds for
    # the engine's objects. Without __GNUC__ they read a byte at a time.
    # The regex engine under other names: programs built against glibc's <regex.h> (its
    # regex_t, an int regoff_t) call runtime/libc/regex.c, which calls these. Its
    # multibyte reads use musl's own mbtowc, byte-transparent in the C locale as glibc's
    # regex is (the models' mbtowc, glibc's, fails on bytes from 0x80).
    # realpath under another name too: augur_musl.c's realpath is glibc's, which
    # gives "/" for a leading "//" (musl keeps it, as POSIX allows).
    case "$f" in
      src/regex/regcomp.c | src/regex/regexec.c | src/regex/tre-mem.c | src/multibyte/mbtowc.c)
        extra=(-Dregcomp=__musl_regcomp -Dregexec=__musl_regexec -Dregfree=__musl_regfree
          -Dmbtowc=__musl_mbtowc) ;;
      src/misc/realpath.c) extra=(-Drealpath=__musl_realpath) ;;
    esac
    case "$f" in /*) path=$f ;; *) path=$src/$f ;; esac
    if grep -q may_alias "$path"; then extra+=(-U__GNUC__); fi
    (cd "$src" && "$clang" "${flags[@]}" "${extra[@]}" "$f" -o "$bc") &
    n=$((n + 1))
    if [ $((n % jobs)) -eq 0 ]; then wait -n || true; fi
    if [ $((n % 200)) -eq 0 ]; then echo "musl: $n of ${#files[@]} files compiled" >&2; fi
  done
  wait
  local missing=()
  for f in "${bcs[@]}"; do [ -e "$f" ] || missing+=("$f"); done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "musl: ${#missing[@]} files did not compile: ${missing[*]}" >&2
    exit 1
  fi
  "$link" "${bcs[@]}" -o "$linked.tmp"
  mv "$linked.tmp" "$linked"
  rm -rf "$dir"
}

echo "musl: building ${#files[@]} files of $(cat "$src/VERSION") to bitcode with $clang" >&2
build "$obj/ld64" "$out/musl.bc" -mlong-double-64
build "$obj/ld80" "$out/musl-fp80.bc" -mlong-double-80
echo "musl: wrote $out/musl.bc and $out/musl-fp80.bc" >&2
