#!/usr/bin/env bash
# Fetch Debian's musl source (apt-get source, adding a deb-src line for Debian's archive
# when there is none) and build it to bitcode with clang-$AUGUR_LLVM into
# .deps/musl-llvm$AUGUR_LLVM (runtime/musl/build.sh), unless that build is up to date
# with runtime/musl. Sourced by scripts/deps.sh after the compilers are installed.
set -euo pipefail
augur_musl_build() {
  local root v out src stamp
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  v=$AUGUR_LLVM
  out=$root/.deps/musl-llvm$v
  src=$root/.deps/musl-src
  stamp=$( (cat "$root"/runtime/musl/build.sh "$root"/runtime/musl/*.c \
    "$root"/runtime/musl/arch/*.h "$root"/runtime/musl/arch/bits/*.h; "clang-$v" --version) |
    sha256sum | cut -c1-16)
  if [ -e "$out/musl.bc" ] && [ -e "$out/musl-fp80.bc" ] &&
    [ "$(cat "$out/stamp" 2>/dev/null)" = "$stamp" ]; then
    return 0
  fi
  if ! compgen -G "$src/musl-*/VERSION" >/dev/null; then
    local SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    if ! grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
      echo "augur: adding Debian's source archive to apt (for musl's source)" >&2
      printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' |
        $SUDO tee /etc/apt/sources.list.d/augur-deb-src.sources >/dev/null
      $SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
    fi
    mkdir -p "$src"
    (cd "$src" && apt-get source --download-only -qq musl >/dev/null 2>&1 &&
      tar xzf musl_*.orig.tar.gz)
  fi
  local musl
  musl=$(dirname "$(compgen -G "$src/musl-*/VERSION" | head -1)")
  bash "$root/runtime/musl/build.sh" "$musl" "$out" "clang-$v" "llvm-link-$v"
  echo "$stamp" >"$out/stamp"
}
augur_musl_build
