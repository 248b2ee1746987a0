#!/bin/sh
# Build the libc models natively (public names renamed to model_<name>) and
# compare them against the host glibc; then check that every model file
# compiles to bitcode with augur's exact command, warning-free under -Wall.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
libc=$(dirname "$here")
out=${TMPDIR:-/tmp}/augur-libc-tests.$$
mkdir -p "$out"
trap 'rm -rf "$out"' EXIT
# The LLVM augur is built for (scripts/deps.sh exports AUGUR_LLVM): its clang and tools.
llvm=${AUGUR_LLVM:-14}
CC=${CC:-clang-$llvm}
# The model files (runtime/libc/models.txt, the list augur embeds); NATIVE: those compared
# against glibc.
MODELS=$(awk '!/^#/ && NF {print $1}' "$libc/models.txt")
NATIVE=$(awk '!/^#/ && NF && $2 != "bitcode-only" {print $1}' "$libc/models.txt")

status=0
echo "== bitcode build (augur's command, -Wall -Werror)"
for m in $MODELS; do
    "clang-$llvm" -c -emit-llvm -g -O0 -Xclang -disable-O0-optnone \
        -fno-discard-value-names -ffreestanding -fno-builtin -Wall -Wextra -Werror \
        "$libc/$m.c" -o "$out/$m.bc" || status=1
done
# augur's own programs: long double is double (strtold is strtod).
"clang-$llvm" -c -emit-llvm -g -O0 -Xclang -disable-O0-optnone -fno-discard-value-names \
    -ffreestanding -fno-builtin -Wall -Wextra -Werror -mlong-double-64 \
    "$libc/ldouble.c" -o "$out/ldouble64.bc.o" || status=1
"llvm-link-$llvm" "$out"/*.bc -o "$out/libc.bc" || status=1
# The linked models may only reach the outside through the primitives (and musl's regex engine).
undef=$("llvm-nm-$llvm" --undefined-only "$out/libc.bc" | awk '{print $2}' | LC_ALL=C sort | tr '\n' ' ')
expected="__musl_regcomp __musl_regexec __musl_regfree _exit abort aligned_alloc augur_errno_location augur_sys_chdir augur_sys_chmod augur_sys_close augur_sys_dup augur_sys_fail augur_sys_fd_dir augur_sys_getcwd augur_sys_link augur_sys_lseek augur_sys_mkdir augur_sys_mknod augur_sys_mode augur_sys_name augur_sys_open augur_sys_path augur_sys_pipe augur_sys_read augur_sys_readlink augur_sys_rename augur_sys_rmdir augur_sys_signalled augur_sys_stat augur_sys_symlink augur_sys_truncate augur_sys_umask augur_sys_unlink augur_sys_unsupported augur_sys_write free malloc realloc "
if [ "$undef" != "$expected" ]; then
    echo "unexpected undefined symbols in linked models: $undef"
    status=1
else
    echo "bitcode ok; undefined symbols: $undef"
fi

echo "== native comparison against glibc"
objs=""
for m in $NATIVE; do
    $CC -c -O0 -g -DAUGUR_NATIVE_TEST -ffreestanding -fno-builtin -Wall -Werror \
        -I"$libc" "$libc/$m.c" -o "$out/model_$m.o"
    objs="$objs $out/model_$m.o"
done
for t in shim test_main test_string test_ctype test_stdlib test_printf test_scanf test_stdio \
         test_unistd test_math test_locale test_process test_files test_dir test_thread; do
    $CC -c -O0 -g -Wall -Wno-format -Wno-format-security -Wno-format-extra-args \
        -Wno-deprecated-declarations -I"$here" "$here/$t.c" -o "$out/$t.o"
    objs="$objs $out/$t.o"
done
$CC $objs -lm -lpthread -o "$out/libc-tests"
"$out/libc-tests" || status=1
exit $status
