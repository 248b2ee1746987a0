# Sourced by bench/coreutils.sh: fetch GNU coreutils' Debian source and build it three times
# under $work: bitcode (wllvm, for augur) and native gcc --coverage (for gcov on replayed tests),
# and natively with ASan and UBSan (to check that reported errors reproduce).
# Every step is skipped when already done.

# Debian's deb-src line, mirroring debian.sources (same URIs, suites, components).
ensure_deb_src() {
    local list=/etc/apt/sources.list.d/augur-deb-src.sources
    if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ /etc/apt/sources.list; then
        sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources >"$list"
        apt-get update -qq
    fi
}

# The source tree, unpacked once under $work/src.
fetch_source() {
    [ -x "$work/src/configure" ] && return
    ensure_deb_src
    mkdir -p "$work/fetch"
    (cd "$work/fetch" && apt-get source -qq coreutils >/dev/null)
    local dir
    dir=$(find "$work/fetch" -maxdepth 1 -type d -name 'coreutils-*' | head -1)
    rm -rf "$work/src"
    cp -a "$dir" "$work/src"
}

# Features augur does not model, turned off (unknown options only make configure warn).
configure_off=(--disable-nls --disable-acl --disable-xattr --disable-libcap --without-selinux
    --without-libgmp --without-openssl --disable-libsmack --without-libintl-prefix
    --without-libiconv-prefix)

# build NAME CC CFLAGS CONFIGURE_OPTIONS [ENV...]: configure and make one copy of the tree
# in $work/NAME (again when the command changed: .built holds it).
build() {
    local name=$1 cc=$2 cflags=$3 options=$4
    shift 4
    local stamp="$cc $cflags $options ${configure_off[*]}"
    [ -f "$work/$name/.built" ] && [ "$(cat "$work/$name/.built")" = "$stamp" ] && return
    echo "coreutils: building $name (a few minutes)" >&2
    rm -rf "$work/$name"
    cp -a "$work/src" "$work/$name"
    (
        cd "$work/$name"
        # shellcheck disable=SC2086 # options are words
        env "$@" FORCE_UNSAFE_CONFIGURE=1 CC="$cc" CFLAGS="$cflags" \
            ./configure -q "${configure_off[@]}" $options >configure.log 2>&1
        env "$@" make -j2 >make.log 2>&1
    ) || {
        echo "coreutils: the $name build failed, see $work/$name/{configure,make}.log" >&2
        exit 2
    }
    echo "$stamp" >"$work/$name/.built"
}

setup_coreutils() {
    mkdir -p "$work"
    fetch_source
    command -v extract-bc >/dev/null || pip install -q wllvm
    local wllvm_env=(LLVM_COMPILER=clang LLVM_CC_NAME=clang-14 LLVM_LINK_NAME=llvm-link-14)
    # gnulib's regex (glibc's own code) compiled into the programs, so that the bitcode
    # holds re_compile_pattern, re_search, ... as a KLEE user's build would.
    build bc wllvm "-O0 -g -Xclang -disable-O0-optnone -fno-discard-value-names \
-D__NO_STRING_INLINES -D_FORTIFY_SOURCE=0 -U__OPTIMIZE__" --with-included-regex \
        "${wllvm_env[@]}"
    build gcov gcc "-O0 -g --coverage" --with-included-regex
    build asan gcc "-O0 -g -fsanitize=address,undefined -fno-omit-frame-pointer" \
        --with-included-regex ASAN_OPTIONS=detect_leaks=0
}
