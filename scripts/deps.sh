#!/usr/bin/env bash
# Install what augur needs on Debian 12 when it is missing, for one LLVM version N: clang-N
# and llvm-link-N (to compile C to LLVM N bitcode), llvm-N-dev (llvm-sys links libLLVM-N),
# libclang-rt-N-dev (AddressSanitizer/UBSan for the native builds of `augur replay`), make
# and cmake (project builds through `augur cc`), and a current Z3 (z3.sh: Debian's is
# 4.8.12, many times slower). Sourced by the other scripts.
#
# N is AUGUR_LLVM (14 or 19) when it is set, else the newest supported LLVM the machine has
# (19, then 14), else 14 (Debian 12's clang). It says which, and exports what the build of
# that version needs: AUGUR_LLVM, LLVM_SYS_<N>_PREFIX, and AUGUR_CARGO_FEATURES, cargo's
# flags choosing that version (`cargo build $AUGUR_CARGO_FEATURES`: empty for 14, the
# default; `--no-default-features --features augur-ir/llvm19` for 19). The two builds share
# one target directory and the crates that do not depend on the version.
set -euo pipefail
augur_has_llvm() {
  command -v "clang-$1" >/dev/null && command -v "llvm-link-$1" >/dev/null &&
    [ -e "/usr/lib/llvm-$1/lib/libLLVM-$1.so" ]
}
if [ -z "${AUGUR_LLVM:-}" ]; then
  AUGUR_LLVM=14
  for v in 19 14; do
    if augur_has_llvm "$v"; then
      AUGUR_LLVM=$v
      break
    fi
  done
fi
case "$AUGUR_LLVM" in
  14 | 19) ;;
  *)
    echo "AUGUR_LLVM=$AUGUR_LLVM: augur builds for LLVM 14 or 19" >&2
    return 2 2>/dev/null || exit 2
    ;;
esac
# Root's commands (here, in z3.sh and musl.sh) run as root, or through sudo.
AUGUR_SUDO=""
[ "$(id -u)" -eq 0 ] || AUGUR_SUDO=sudo
# augur_apt ARG...: apt-get as root, not interactive, waiting up to 10 minutes for the
# dpkg lock (another apt-get, unattended-upgrades).
augur_apt() {
  $AUGUR_SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 "$@"
}
missing=()
v=$AUGUR_LLVM
command -v "clang-$v" >/dev/null || missing+=("clang-$v")
command -v "llvm-link-$v" >/dev/null || missing+=("llvm-$v")
[ -e "/usr/lib/llvm-$v/lib/libLLVM-$v.so" ] || missing+=("llvm-$v-dev")
# augur inject verifies each bug on gcc builds besides clang's.
command -v gcc >/dev/null || missing+=(gcc)
compgen -G "/usr/lib/llvm-$v/lib/clang/*/lib/linux/libclang_rt.asan-x86_64.a" >/dev/null ||
  missing+=("libclang-rt-$v-dev")
# The builds `augur cc` takes part in (docs/projects.md; tests/projects.rs): Make, CMake,
# and libcrypt's headers for the test project.
command -v make >/dev/null || missing+=(make)
command -v cmake >/dev/null || missing+=(cmake)
[ -e /usr/include/crypt.h ] || missing+=(libcrypt-dev)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  augur_apt update -qq
  augur_apt install -y -qq "${missing[@]}" >/dev/null
fi
export AUGUR_LLVM
if [ "$AUGUR_LLVM" = 19 ]; then
  export LLVM_SYS_191_PREFIX=/usr/lib/llvm-19
  export AUGUR_CARGO_FEATURES="--no-default-features --features augur-ir/llvm19"
else
  export LLVM_SYS_140_PREFIX=/usr/lib/llvm-14
  export AUGUR_CARGO_FEATURES=""
fi
echo "augur: LLVM $AUGUR_LLVM (set AUGUR_LLVM=14 or 19 to choose)" >&2
source "$(dirname "${BASH_SOURCE[0]}")/z3.sh"
source "$(dirname "${BASH_SOURCE[0]}")/musl.sh"
