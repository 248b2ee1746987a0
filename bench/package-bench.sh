# Sourced by the benchmarks on Debian source packages (bench/coreutils-setup.sh,
# bench/busybox.sh, bench/packages.sh): fetching the source, wllvm, a Makefile's variable, jobs in parallel,
# augur's release binary, BusyBox built with augur cc. Each function uses
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

# make_variable NAME: the value of the configured Makefile's variable NAME (in its tree).
make_variable() {
    make -s -f Makefile -f - augur-variable <<<"augur-variable: ; @echo \$($1)"
}

# in_parallel N FUNCTION ITEM...: FUNCTION ITEM for each item, N at a time; returns when
# all have ended.
in_parallel() {
    local jobs=$1 function=$2 running=0 item
    shift 2
    for item in "$@"; do
        if [ "$running" -ge "$jobs" ]; then
            wait -n || true
            running=$((running - 1))
        fi
        "$function" "$item" &
        running=$((running + 1))
    done
    wait
}

# augur's release binary: $AUGUR when set, else built from this source tree ($here/..).
ensure_augur() {
    augur=${AUGUR:-}
    if [ -z "$augur" ]; then
        echo "building augur (release)" >&2
        (cd "$here/.." && export AUGUR_LLVM=14 && source scripts/deps.sh >/dev/null &&
            nice -n 10 cargo build --release -q -p augur-cli $AUGUR_CARGO_FEATURES)
        augur=$here/../target/release/augur
    fi
}

# busybox_build NAME CC CFLAGS LDFLAGS: Debian 12's BusyBox (1.35; fetch_deb_source busybox
# Makefile first) copied to $work/NAME, configured with `make defconfig` less FEATURE_SUID,
# CFLAGS and LDFLAGS as its EXTRA flags (last on each command line), and made with CC;
# again only when that command changed ($work/NAME/.built holds it). CC augur-cc is
# `augur cc` ($augur, from ensure_augur) under the one-word name BusyBox's CC wants.
# FEATURE_SUID: main() drops privileges for most applets when the real uid is not 0
# (check_suid: setgid(getgid()), setuid(getuid())); augur's world runs as uid 1000, and
# natively as root the code does nothing either way.
busybox_build() {
    local name=$1 cc=$2 cflags=$3 ldflags=$4
    local stamp="$cc $cflags $ldflags -FEATURE_SUID"
    [ -f "$work/$name/.built" ] && [ "$(cat "$work/$name/.built")" = "$stamp" ] && return
    echo "busybox: building $name with $cc (many minutes)" >&2
    rm -rf "$work/$name"
    cp -a "$work/src" "$work/$name"
    mkdir -p "$work/bin"
    ln -sf "$(realpath "$augur")" "$work/bin/augur-cc"
    (
        export PATH=$work/bin:$PATH
        cd "$work/$name"
        make defconfig >config.log 2>&1
        sed -i -e "s/^CONFIG_FEATURE_SUID=.*/# CONFIG_FEATURE_SUID is not set/" \
            -e "s|^CONFIG_EXTRA_CFLAGS=.*|CONFIG_EXTRA_CFLAGS=\"$cflags\"|" \
            -e "s|^CONFIG_EXTRA_LDFLAGS=.*|CONFIG_EXTRA_LDFLAGS=\"$ldflags\"|" .config
        (yes "" || true) | make CC="$cc" HOSTCC=gcc oldconfig >>config.log 2>&1
        # Progress: one line per 200 files compiled.
        nice -n 10 make -j2 CC="$cc" HOSTCC=gcc 2>&1 | tee make.log |
            awk -v name="$name" '/^  CC /{ if (++n % 200 == 0) {
                print "busybox: " name ": " n " files compiled" > "/dev/stderr" } }'
    ) || {
        echo "busybox: the $name build failed, see $work/$name/{config,make}.log" >&2
        exit 2
    }
    echo "$stamp" >"$work/$name/.built"
}

# busybox_bitcode NAME: BusyBox built by `augur cc` in $work/NAME (busybox_build), its
# bitcode extracted to $work/NAME/busybox.bc, as docs/projects.md tells a user to.
busybox_bitcode() {
    local name=$1
    busybox_build "$name" augur-cc "" ""
    if [ ! -f "$work/$name/busybox.bc" ] || [ "$work/$name/busybox.bc" -ot "$work/$name/.built" ]; then
        "$augur" extract-bc "$work/$name/busybox_unstripped" -o "$work/$name/busybox.bc" >/dev/null
    fi
}
