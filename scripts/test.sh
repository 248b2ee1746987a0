#!/usr/bin/env bash
# Set up (if needed) and run every test of the workspace.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
cargo test --workspace 2>&1
