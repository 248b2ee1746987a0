#!/usr/bin/env bash
# Set up (if needed), build augur, and run it on the bundled example.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
cargo build --release -q -p augur-cli $AUGUR_CARGO_FEATURES
"${CARGO_TARGET_DIR:-target}/release/augur" run examples/password.c -o augur-out-example "$@"
echo
echo "The tests are in augur-out-example/; the error's input:"
grep -l '"kind": "error"' augur-out-example/test*.json | head -n 1 | xargs cat
