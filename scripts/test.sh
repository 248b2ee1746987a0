#!/usr/bin/env bash
# Set up (if needed) and run every test (CI runs this, nothing else):
# 1. on LLVM 14: formatting and lints (cargo fmt --check, clippy with warnings as errors), the
#    libc models against glibc, then the workspace (unit and end-to-end tests);
# 2. on LLVM 19 (augur-ir's feature `llvm19`, in the same target directory): the libc
#    models against glibc built with clang-19, and
#    the end-to-end test files of LLVM19_TESTS below, those most tied to the LLVM version.
# Ends with one line per LLVM totalling its cargo tests, and their sum.
# AUGUR_TEST_LLVM19=0 leaves out part 2 (for local runs). With AUGUR_LLVM set, the script
# runs part 1 on that LLVM alone (AUGUR_LLVM=19: the whole suite on LLVM 19); so it does
# where LLVM 14 cannot be installed (Debian 13), and where clang-19 is installed and
# clang-14 is not (the user's own clang).
# docs/llvm.md, "What CI runs", says the same and how long part 2 takes.
set -euo pipefail
cd "$(dirname "$0")/.."
llvm19=1
if [ -n "${AUGUR_LLVM:-}" ] || [ "${AUGUR_TEST_LLVM19:-1}" = 0 ]; then
  llvm19=0
elif ! command -v clang-14 >/dev/null && ! apt-cache show clang-14 >/dev/null 2>&1; then
  # No LLVM 14 here nor in the archive (Debian 13): the whole suite on LLVM 19.
  echo "augur: no LLVM 14 to install: testing on LLVM 19 alone" >&2
  export AUGUR_LLVM=19
  llvm19=0
elif command -v clang-19 >/dev/null && command -v llvm-link-19 >/dev/null &&
  ! command -v clang-14 >/dev/null; then
  # The user's own clang is 19 and there is no clang-14: the whole suite on LLVM 19,
  # nothing of LLVM 14 installed. (A machine with neither, as CI's, gets and tests both.)
  echo "augur: clang-19 here and no clang-14: testing on LLVM 19 alone" >&2
  export AUGUR_LLVM=19
  llvm19=0
fi
export AUGUR_LLVM=${AUGUR_LLVM:-14}
# The end-to-end test files run on LLVM 19 (crates/augur-cli/tests/NAME.rs): the LLVM version
# and its bitcode, the C language's constructs, error kinds and their locations, x87 long
# doubles, native replay, record/repro (pointee types from C prototypes), libc files and
# the symbolic environment, musl and the OS model, all over the libc models built by clang-19.
LLVM19_TESTS=(llvm_version language error_kinds long_double replay repro libc_files libc_system
  environment)
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
status=0

# count LOG LABEL: one line totalling the `test result:` lines of a cargo test log.
count() {
  awk -v label="$2" '/^test result:/ { p += $4; f += $6 }
    END { printf "cargo tests%s: %d passed, %d failed\n", label, p, f }' "$1"
}

source scripts/deps.sh
cargo fmt --all --check
# (AUGUR_CARGO_FEATURES, from deps.sh, chooses the LLVM: word-split on purpose)
# shellcheck disable=SC2086
cargo clippy --workspace --all-targets -q $AUGUR_CARGO_FEATURES -- -D warnings
bash runtime/libc/tests/run.sh
touch "$logs/first" "$logs/llvm19"
# shellcheck disable=SC2086
cargo test --workspace $AUGUR_CARGO_FEATURES 2>&1 | tee "$logs/first" || status=1

if [ "$llvm19" = 1 ]; then
  echo "== LLVM 19: the libc models against glibc, and cargo test -p augur-cli" \
    "--test ${LLVM19_TESTS[*]}"
  start=$SECONDS
  set +e
  (
    set -e
    export AUGUR_LLVM=19
    # The same target directory: the crates that do not depend on the LLVM are not built
    # again, the others are built with augur-ir's feature `llvm19` beside those of 14.
    source scripts/deps.sh
    bash runtime/libc/tests/run.sh
    args=()
    for t in "${LLVM19_TESTS[@]}"; do args+=(--test "$t"); done
    # shellcheck disable=SC2086
    cargo test -p augur-cli $AUGUR_CARGO_FEATURES "${args[@]}" 2>&1 | tee "$logs/llvm19"
  )
  [ $? = 0 ] || status=1
  set -e
  echo "LLVM 19 part: $((SECONDS - start)) s"
  count "$logs/first" ", LLVM $AUGUR_LLVM"
  count "$logs/llvm19" ", LLVM 19"
  cat "$logs/first" "$logs/llvm19" >"$logs/all"
  count "$logs/all" ", both LLVMs"
else
  count "$logs/first" ", LLVM $AUGUR_LLVM"
fi
exit "$status"
