#!/usr/bin/env bash
# Fetch Debian's musl source (apt-get source, adding a deb-src line for Debian's archive
# when there is none) and build it to bitcode with clang-$AUGUR_LLVM into
# .deps/musl-llvm$AUGUR_LLVM (runtime/musl/build.sh), unless that build is up to date
# with runtime/musl. For LLVM 19 an up-to-date LLVM 14 build is used instead when there is
# one (LLVM 19 reads LLVM 14's bitcode; augur-env's musl_dir() finds it). Sourced by
# scripts/deps.sh after the compilers are installed.
set -euo pipefail
augur_musl_build() {
  local root v out src
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  v=$AUGUR_LLVM
  out=$root/.deps/musl-llvm$v
  src=$root/.deps/musl-src
  # stamp VERSION: what a build by clang-VERSION of today's runtime/musl is stamped with.
  stamp() {
    (cat "$root"/runtime/musl/build.sh "$root"/runtime/musl/*.c \
      "$root"/runtime/musl/arch/*.h "$root"/runtime/musl/arch/bits/*.h
      "clang-$1" --version 2>/dev/null || echo "no clang-$1") | sha256sum | cut -c1-16
  }
  # up_to_date DIR VERSION
  up_to_date() {
    [ -e "$1/musl.bc" ] && [ -e "$1/musl-fp80.bc" ] && [ "$(cat "$1/stamp" 2>/dev/null)" = "$(stamp "$2")" ]
  }
  if up_to_date "$out" "$v"; then
    return 0
  fi
  if [ "$v" != 14 ] && up_to_date "$root/.deps/musl-llvm14" 14; then
    echo "augur: musl: using LLVM 14's bitcode build (.deps/musl-llvm14)" >&2
    return 0
  fi
  if ! compgen -G "$src/musl-*/VERSION" >/dev/null; then
    if ! grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
      echo "augur: adding Debian's source archive to apt (for musl's source)" >&2
      printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' |
        $AUGUR_SUDO tee /etc/apt/sources.list.d/augur-deb-src.sources >/dev/null
      augur_apt update -qq
    fi
    mkdir -p "$src"
    (cd "$src" && apt-get source --download-only -qq musl >/dev/null 2>&1 &&
      tar xzf musl_*.orig.tar.gz)
  fi
  local musl
  musl=$(dirname "$(compgen -G "$src/musl-*/VERSION" | head -1)")
  bash "$root/runtime/musl/build.sh" "$musl" "$out" "clang-$v" "llvm-link-$v"
  stamp "$v" >"$out/stamp"
}
augur_musl_build
