# Sourced by bench/coreutils.sh: fetch GNU coreutils' Debian source and build it three times
# under $work: bitcode (wllvm, for augur) and native gcc --coverage (for gcov on replayed tests),
# and natively with ASan and UBSan (to check that reported errors reproduce).
# Every step is skipped when already done. Python tools (wllvm) go into a virtual environment
# of their own ($work/venv, package-bench.sh), never into the system's Python; apt-get waits
# for the dpkg lock; the builds say every 30 s how far they are.

source "$(dirname "${BASH_SOURCE[0]}")/package-bench.sh"

# Features augur does not model, turned off (unknown options only make configure warn).
configure_off=(--disable-nls --disable-acl --disable-xattr --disable-libcap --without-selinux
    --without-libgmp --without-openssl --disable-libsmack --without-libintl-prefix
    --without-libiconv-prefix)

# with_heartbeat NAME DIR COMMAND...: run COMMAND; every 30 s while it runs, say how many
# object files DIR holds so far.
with_heartbeat() {
    local name=$1 dir=$2
    shift 2
    "$@" &
    local pid=$! start=$SECONDS last=$SECONDS status=0
    while kill -0 "$pid" 2>/dev/null; do
        sleep 2
        if [ $((SECONDS - last)) -ge 30 ]; then
            last=$SECONDS
            echo "coreutils: still building $name: $(find "$dir" -name '*.o' | wc -l)" \
                "object files so far ($((SECONDS - start)) s)" >&2
        fi
    done
    wait "$pid" || status=$?
    return $status
}

# build NAME CC CFLAGS CONFIGURE_OPTIONS [ENV...]: configure and make one copy of the tree
# in $work/NAME (again when the command changed: .built holds it).
build() {
    local name=$1 cc=$2 cflags=$3 options=$4
    shift 4
    local stamp="$cc $cflags $options ${configure_off[*]}"
    [ -f "$work/$name/.built" ] && [ "$(cat "$work/$name/.built")" = "$stamp" ] && return
    echo "coreutils: building $name (a few minutes): configure" >&2
    rm -rf "$work/$name"
    cp -a "$work/src" "$work/$name"
    local failed=0
    # shellcheck disable=SC2086 # options are words
    (cd "$work/$name" && env "$@" FORCE_UNSAFE_CONFIGURE=1 CC="$cc" CFLAGS="$cflags" \
        ./configure -q "${configure_off[@]}" $options >configure.log 2>&1) || failed=1
    if [ $failed = 0 ]; then
        echo "coreutils: building $name: make (a line every 30 s)" >&2
        with_heartbeat "$name" "$work/$name" \
            sh -c 'cd "$1" && shift && env "$@" make -j2 >make.log 2>&1' sh "$work/$name" "$@" ||
            failed=1
    fi
    [ $failed = 0 ] || {
        echo "coreutils: the $name build failed, see $work/$name/{configure,make}.log" >&2
        exit 2
    }
    echo "$stamp" >"$work/$name/.built"
    echo "coreutils: built $name: $(find "$work/$name" -name '*.o' | wc -l) object files" >&2
}

setup_coreutils() {
    mkdir -p "$work"
    fetch_deb_source coreutils configure
    ensure_wllvm
    # gnulib's regex (glibc's own code) compiled into the programs, so that the bitcode
    # holds re_compile_pattern, re_search, ... as a KLEE user's build would.
    build bc wllvm "-O0 -g -Xclang -disable-O0-optnone -fno-discard-value-names \
-D__NO_STRING_INLINES -D_FORTIFY_SOURCE=0 -U__OPTIMIZE__" --with-included-regex
    build gcov gcc "-O0 -g --coverage" --with-included-regex
    build asan gcc "-O0 -g -fsanitize=address,undefined -fno-omit-frame-pointer" \
        --with-included-regex ASAN_OPTIONS=detect_leaks=0
}
