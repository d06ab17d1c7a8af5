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
# The browser page (tools/web.sh) and its test (tests/test_web.py): Debian's
# chromium and chromium-driver where missing, and the pinned playwright-core
# that drives that Chromium (tools/web/package-lock.json; it downloads no browser).
if [ ! -x /usr/bin/chromium ]; then
  if command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -q
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver
  else
    echo "setup: no /usr/bin/chromium: tests/test_web.py needs Chromium (PISTI_CHROMIUM=path)" >&2
  fi
fi
# The X11 bitmap fonts the device fonts are made from, and the tools that
# convert them (tools/make_fonts.py; tests/test_fonts.py rebuilds them and
# compares with the committed files): Debian's packages where missing.
if ! command -v pcf2bdf >/dev/null 2>&1 || ! command -v bdftopcf >/dev/null 2>&1 \
    || [ ! -e /usr/share/fonts/X11/misc/5x8.pcf.gz ]; then
  if command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -q
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q xfonts-base xfonts-utils pcf2bdf
  else
    echo "setup: tools/make_fonts.py needs xfonts-base, xfonts-utils and pcf2bdf (Debian packages)" >&2
  fi
fi
wstamp=tools/web/node_modules/.pisti-package-lock
if ! cmp -s tools/web/package-lock.json "$wstamp" 2>/dev/null; then
  (cd tools/web && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
  cp tools/web/package-lock.json "$wstamp"
fi
# The CircuitPython API check (tools/apicheck.py): pyright and CircuitPython's
# stubs in an environment of their own, without Blinka's modules, board-stubs
# set to the Pico (tools/requirements-apicheck.txt).
astamp=.venv/apicheck/.pisti-requirements
if ! cmp -s tools/requirements-apicheck.txt "$astamp" 2>/dev/null; then
  rm -rf .venv/apicheck
  .venv/bin/python -m venv .venv/apicheck
  .venv/apicheck/bin/python -m pip install --disable-pip-version-check -q --no-deps -r tools/requirements-apicheck.txt
  .venv/apicheck/bin/circuitpython_setboard raspberry_pi_pico >/dev/null
  cp tools/requirements-apicheck.txt "$astamp"
fi
