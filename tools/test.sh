#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# Sets everything up, runs the linter (ruff, tools/ruff.toml: a finding fails
# the command), then the whole test suite (host and MicroPython) on every
# core (pytest-xdist; tests marked xdist_group share a worker) and names the
# 25 slowest. Arguments go to pytest (e.g. -n 0 for one process).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
export PATH="$PWD/.venv/bin:$PATH"
.venv/bin/ruff check --no-cache --config tools/ruff.toml .
exec .venv/bin/python -m pytest -p no:cacheprovider -n auto --dist loadgroup --durations 25 tests "$@"
