#!/usr/bin/env bash
# Set up (if needed) and run every test: the libc models against glibc, then the workspace
# (unit and end-to-end tests).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
bash runtime/libc/tests/run.sh
cargo test --workspace 2>&1
