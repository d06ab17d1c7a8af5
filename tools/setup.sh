#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# Creates .venv (once) and installs the pinned desktop requirements into it.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.pisti-requirements
if ! cmp -s tools/requirements.txt "$stamp" 2>/dev/null; then
  .venv/bin/python -m pip install --disable-pip-version-check -q -r tools/requirements.txt
  cp tools/requirements.txt "$stamp"
fi
# Node.js and npm for the 32-bit heap gauge (tools/memgauge.py): Debian's
# packages where they are missing, then the pinned MicroPython WebAssembly
# port (tools/memgauge/package-lock.json) into tools/memgauge/node_modules.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -q
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm
  else
    echo "setup: node and npm are needed by tools/memgauge.py: install Node.js 18 or newer" >&2
    exit 1
  fi
fi
nstamp=tools/memgauge/node_modules/.pisti-package-lock
if ! cmp -s tools/memgauge/package-lock.json "$nstamp" 2>/dev/null; then
  (cd tools/memgauge && npm ci --no-audit --no-fund --loglevel=error)
  cp tools/memgauge/package-lock.json "$nstamp"
fi
