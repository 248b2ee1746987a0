# Sourced by the benchmarks on Debian source packages (bench/coreutils-setup.sh,
# bench/busybox.sh): fetching the source, wllvm, augur's release binary. Each function uses
# $work, the benchmark's cache directory, and skips what is already done.

# Debian's deb-src line, mirroring debian.sources (same URIs, suites, components).
ensure_deb_src() {
    local list=/etc/apt/sources.list.d/augur-deb-src.sources
    if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ /etc/apt/sources.list; then
        sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources >"$list"
        apt-get -o DPkg::Lock::Timeout=600 update -qq
    fi
}

# fetch_deb_source PACKAGE FILE: `apt-get source PACKAGE` (Debian's patches applied) into
# $work/fetch, its tree copied once to $work/src (skipped when $work/src/FILE exists).
fetch_deb_source() {
    local package=$1 file=$2
    [ -e "$work/src/$file" ] && return
    local dir
    # (No fetch directory yet is no error, whatever `set -o pipefail` says.)
    dir=$(find "$work/fetch" -maxdepth 1 -type d -name "$package-*" 2>/dev/null | head -1 || true)
    if [ -z "$dir" ]; then
        ensure_deb_src
        echo "$package: fetching Debian's source" >&2
        mkdir -p "$work/fetch"
        (cd "$work/fetch" && apt-get -o DPkg::Lock::Timeout=600 source -qq "$package" >/dev/null)
        dir=$(find "$work/fetch" -maxdepth 1 -type d -name "$package-*" | head -1)
    fi
    rm -rf "$work/src"
    cp -a "$dir" "$work/src"
}

# wllvm and extract-bc from a Python virtual environment in $work/venv (never the system
# Python's packages), put first on PATH, set up to compile with clang-14.
ensure_wllvm() {
    if [ ! -x "$work/venv/bin/extract-bc" ]; then
        if ! python3 -m venv "$work/venv" 2>/dev/null; then
            echo "installing python3-venv (for wllvm's virtual environment)" >&2
            local sudo=""
            [ "$(id -u)" -eq 0 ] || sudo=sudo
            $sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
                install -y -qq python3-venv >/dev/null
            rm -rf "$work/venv"
            python3 -m venv "$work/venv"
        fi
        echo "installing wllvm into $work/venv" >&2
        "$work/venv/bin/pip" install -q wllvm
    fi
    export PATH="$work/venv/bin:$PATH"
    export LLVM_COMPILER=clang LLVM_CC_NAME=clang-14 LLVM_LINK_NAME=llvm-link-14
}

# augur's release binary: $AUGUR when set, else built from this source tree ($here/..).
ensure_augur() {
    augur=${AUGUR:-}
    if [ -z "$augur" ]; then
        echo "building augur (release)" >&2
        (cd "$here/.." && export AUGUR_LLVM=14 && source scripts/deps.sh >/dev/null &&
            nice -n 10 cargo build --release -q -p augur-cli)
        augur=$here/../target/release/augur
    fi
}

# busybox_noasm IN OUT: BusyBox's bitcode IN without its two compiler-only inline assembly
# statements, which augur does not run (issue 22): barrier() (include/libbb.h: asm
# volatile("":::"memory"), 103 calls) and not_const_pp() (an empty asm whose output is tied
# to its input, so that clang forgets that a pointer points to const; 45 calls) become what
# they do at -O0, nothing and the identity (a getelementptr of 0).
busybox_noasm() {
    llvm-dis-14 "$1" -o - | sed -E \
        -e '/^ *call void asm sideeffect "", "~\{memory\},~\{dirflag\},~\{fpsr\},~\{flags\}"\(\)/d' \
        -e 's/call i8\* asm sideeffect "# forget that p points to const", "=r,0,~\{dirflag\},~\{fpsr\},~\{flags\}"\(i8\* ([^)]+)\)( #[0-9]+)?/getelementptr i8, i8* \1, i64 0/' |
        llvm-as-14 -o "$2"
    echo "busybox: inline assembly left in $2:" \
        "$(llvm-dis-14 "$2" -o - | grep -c ' asm sideeffect ')" \
        "(TLS arithmetic of wget/ssl_client)" >&2
}
