#!/usr/bin/env bash
# Install Ray (https://www.ray.io, the `ray` package from PyPI) for scripts/augur_ray.py, into a
# virtual environment at $AUGUR_RAY_VENV (default: .venv-ray at the repository's root). Only
# for users who want to spread `augur run` over a Ray cluster: nothing else in augur needs it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${AUGUR_RAY_VENV:-$root/.venv-ray}"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet 'ray>=2.9'
"$venv/bin/python" -c 'import ray; print("ray", ray.__version__, "in", "'"$venv"'")'
