#!/usr/bin/env bash
# A current Z3 for augur's solver, installed when missing; sourced by deps.sh (after its
# AUGUR_SUDO and augur_apt).
#
# Debian 12's libz3 is 4.8.12 (2021). On the bit-vector queries symbolic execution asks it
# is many times slower than a current Z3: a 6-byte state machine (tests/programs/
# inject_project) got 109 solver calls answered in 40 s from 4.8.12 and 8,839 from 5.4.1
# (docs/benchmarks.md, "Z3"). Debian has no newer one for bookworm, and building Z3 from
# source takes longer than the whole test suite, so the library comes from Z3's own
# binary release on PyPI (the z3-solver wheel, MIT, built for manylinux_2_27: any glibc
# from 2.27), pinned by version and SHA-256.
#
# It goes to $AUGUR_Z3_DIR (libz3.so.MAJOR.MINOR and the libz3.so link), a directory of
# its own that ld.so learns of through /etc/ld.so.conf.d/augur-z3.conf: the programs it
# links find it by its soname, and nothing else on the machine sees a new libz3.so
# (Debian's libz3.so.4 stays, libLLVM needs it). .cargo/config.toml points z3-sys at the
# directory (Z3_LIBRARY_PATH_OVERRIDE) and off pkg-config, which would name Debian's.
set -euo pipefail
AUGUR_Z3_VERSION=5.4.1
AUGUR_Z3_DIR=/usr/local/lib/augur-z3
augur_z3_soname=libz3.so.${AUGUR_Z3_VERSION%.*}
augur_z3_wheel=z3_solver-$AUGUR_Z3_VERSION.0-py3-none-manylinux_2_27_x86_64.whl
augur_z3_sha256=e680ce083683abca5d07c3e55c2f620ff9a29cb91c548eeeea27ae29e8060522
# augur_z3_install: download, check and install the library; each step's failure ends it
# (explicitly: errexit does not hold where the caller tests the result).
augur_z3_install() {
  local tmp
  if ! python3 -m pip --version >/dev/null 2>&1; then
    augur_apt update -qq || return 1
    augur_apt install -y -qq --no-install-recommends python3-pip >/dev/null || return 1
  fi
  tmp=$(mktemp -d) || return 1
  python3 -m pip download -q --no-deps --only-binary=:all: --platform manylinux_2_27_x86_64 \
    "z3-solver==$AUGUR_Z3_VERSION.0" -d "$tmp" || return 1
  echo "$augur_z3_sha256  $tmp/$augur_z3_wheel" | sha256sum --check --quiet || return 1
  python3 -m zipfile -e "$tmp/$augur_z3_wheel" "$tmp/wheel" || return 1
  $AUGUR_SUDO install -D -m 0755 "$tmp/wheel/z3/lib/$augur_z3_soname" \
    "$AUGUR_Z3_DIR/$augur_z3_soname" || return 1
  $AUGUR_SUDO ln -sf "$augur_z3_soname" "$AUGUR_Z3_DIR/libz3.so" || return 1
  echo "$AUGUR_Z3_DIR" | $AUGUR_SUDO tee /etc/ld.so.conf.d/augur-z3.conf >/dev/null || return 1
  $AUGUR_SUDO ldconfig || return 1
  rm -rf "$tmp"
}
if [ ! -e "$AUGUR_Z3_DIR/$augur_z3_soname" ] || [ ! -e /etc/ld.so.conf.d/augur-z3.conf ]; then
  echo "installing Z3 $AUGUR_Z3_VERSION (PyPI's z3-solver) into $AUGUR_Z3_DIR" >&2
  if ! augur_z3_install; then
    echo "augur: could not install Z3 $AUGUR_Z3_VERSION from PyPI (scripts/z3.sh): see above" >&2
    return 2 2>/dev/null || exit 2
  fi
fi
export AUGUR_Z3_VERSION
