# Sourced by the benchmark scripts: from the repository root, with the dependencies set
# up and a release build of augur; `$out` is a scratch directory removed on exit (in memory,
# /dev/shm, when present, so that figures measure augur and not the file system).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# The benchmarks are LLVM 14 figures (native builds by clang-14, target/release/augur).
export AUGUR_LLVM=14
source scripts/deps.sh
cargo build --release -q -p augur-cli $AUGUR_CARGO_FEATURES
out=$(mktemp -d -p "$( [ -d /dev/shm ] && echo /dev/shm || echo /tmp )")
trap 'rm -rf "$out"' EXIT
