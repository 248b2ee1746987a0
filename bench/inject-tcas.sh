#!/usr/bin/env bash
# augur inject on Siemens tcas, the evaluation of Apocalypse's section on hand-seeded
# faults: injects BUGS bugs (default 4) into tcas with its twelve inputs symbolic
# (bench/inject/tcas_main.c replaces its main), with a test pool of 1578 inputs
# (bench/inject/tcas_pool.py, fixed seed) and 10,000 random and mutated inputs; prints
# augur's table, then checks the corpus without augur (bench/inject/independent.py):
# per bug, the independent builds its trigger fires on, and how many pool inputs fire it
# or behave differently without firing it.
# tcas is not shipped here (SIR's licence): give its tcas.c as TCAS_C.
# Usage: TCAS_C=path/to/tcas.c bench/inject-tcas.sh [BUGS (4)] [EXPLORE_SECONDS (60)]
source "$(dirname "$0")/setup.sh"
bugs=${1:-4}
explore=${2:-60}
: "${TCAS_C:?give the path of Siemens tcas.c as TCAS_C}"
# tcas' own main (K&R, reading argv with atoi) is cut off; ours makes the inputs symbolic.
sed '/^main(argc, argv)/,$d' "$TCAS_C" > "$out/tcas.c"
cat bench/inject/tcas_main.c >> "$out/tcas.c"
python3 bench/inject/tcas_pool.py "$out/pool" 1578 1
./target/release/augur inject "$out/tcas.c" --bugs "$bugs" --seed 1 \
  --explore-time "$explore" --pool "$out/pool" --measure 10000 -o "$out/corpus"
python3 bench/inject/independent.py "$out/corpus" "$out/tcas.c" "$out/pool" runtime
