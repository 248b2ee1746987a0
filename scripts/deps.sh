#!/usr/bin/env bash
# Install what augur needs on Debian 12 when it is missing: clang-14 and llvm-link-14
# (to compile C to LLVM 14 bitcode), llvm-14-dev (llvm-sys links libLLVM-14), libz3-dev and
# libclang-rt-14-dev (AddressSanitizer/UBSan for the native builds of `augur replay`).
set -euo pipefail
missing=()
command -v clang-14 >/dev/null || missing+=(clang-14)
command -v llvm-link-14 >/dev/null || missing+=(llvm-14)
[ -e /usr/lib/llvm-14/lib/libLLVM-14.so ] || missing+=(llvm-14-dev)
[ -e /usr/include/z3.h ] || missing+=(libz3-dev)
compgen -G '/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.asan-x86_64.a' >/dev/null ||
  missing+=(libclang-rt-14-dev)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
export LLVM_SYS_140_PREFIX=/usr/lib/llvm-14
