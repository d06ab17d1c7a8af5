#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# Sets everything up, then runs the whole test suite (host and MicroPython).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
export PATH="$PWD/.venv/bin:$PATH"
exec .venv/bin/python -m pytest -p no:cacheprovider tests "$@"
