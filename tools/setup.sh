#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# Sets up what the project's commands need; each step runs once (a stamp
# file remembers it) and again when its pins change.
#
#   bash tools/setup.sh --play   # only what playing needs: .venv with the simulator's
#                                # pins (tools/requirements-play.txt); no apt-get, npm
#                                # or sudo, works for any user (tools/play.sh runs this)
#   bash tools/setup.sh          # everything the tests and tools need (tools/test.sh):
#                                # tools/requirements.txt, Node.js packages, Debian packages
set -euo pipefail
cd "$(dirname "$0")/.."
play=0
case "${1:-}" in
  --play) play=1 ;;
  "") ;;
  *) echo "setup: unknown option ${1} (use --play, or nothing for everything)" >&2; exit 2 ;;
esac
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  if ! command -v "$PY" >/dev/null 2>&1; then
    echo "setup: no $PY: install Python 3.11 or newer (or set PYTHON=/path/to/python3)" >&2
    exit 1
  fi
  if ! "$PY" -m venv .venv >/dev/null 2>&1; then
    rm -rf .venv
    echo "setup: $PY cannot make a virtual environment: install its venv module (Debian: apt-get install python3-venv)" >&2
    exit 1
  fi
fi
# --no-compile: Python compiles what is imported when it is first imported
# (half the install time: most of Ray and Optuna is never imported here).
pip_install() {
  .venv/bin/python -m pip install --disable-pip-version-check --no-compile -q "$@"
}
# The pins: the simulator's (requirements-play.txt), and all of them
# (requirements.txt, which includes the simulator's with -r).
pins_play=$(cat tools/requirements-play.txt)
pins_all=$(cat tools/requirements.txt tools/requirements-play.txt)
stamp=.venv/.pisti-requirements
pstamp=.venv/.pisti-requirements-play
if [ "$play" = 1 ]; then
  if [ "$pins_all" != "$(cat "$stamp" 2>/dev/null)" ] && [ "$pins_play" != "$(cat "$pstamp" 2>/dev/null)" ]; then
    pip_install -r tools/requirements-play.txt
    printf '%s\n' "$pins_play" > "$pstamp"
  fi
  exit 0
fi
# The steps that do not depend on each other run side by side (the Python
# packages, the API check's environment, the Node.js packages, Debian's).
pids=()
names=()
# a step that stops the setup early lets the ones beside it finish (what
# can be installed is, and the next run skips it)
trap 'wait' EXIT
in_background() {  # NAME COMMAND...: run a step beside the others
  names+=("$1")
  shift
  "$@" &
  pids+=($!)
}
python_packages() {
  pip_install -r tools/requirements.txt
  printf '%s\n' "$pins_all" > "$stamp"
  printf '%s\n' "$pins_play" > "$pstamp"
}
if [ "$pins_all" != "$(cat "$stamp" 2>/dev/null)" ]; then
  in_background "the Python packages (tools/requirements.txt)" python_packages
fi
# The CircuitPython API check (tools/apicheck.py): pyright and CircuitPython's
# stubs in an environment of their own, without Blinka's modules, board-stubs
# set to the Pico (tools/requirements-apicheck.txt).
apicheck_env() {
  rm -rf .venv/apicheck
  .venv/bin/python -m venv .venv/apicheck
  .venv/apicheck/bin/python -m pip install --disable-pip-version-check --no-compile -q --no-deps \
    -r tools/requirements-apicheck.txt
  .venv/apicheck/bin/circuitpython_setboard raspberry_pi_pico >/dev/null
  cp tools/requirements-apicheck.txt "$astamp"
}
astamp=.venv/apicheck/.pisti-requirements
if ! cmp -s tools/requirements-apicheck.txt "$astamp" 2>/dev/null; then
  in_background "the API check's environment (tools/requirements-apicheck.txt)" apicheck_env
fi
# Debian packages, where missing: apt-get (through sudo when not root),
# without the packages they only recommend.
apt_install() {
  if ! command -v apt-get >/dev/null 2>&1; then
    return 1
  fi
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -q || return 1
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" || return 1
}
# Node.js and npm for the 32-bit heap gauge (tools/memgauge.py), then the
# pinned MicroPython WebAssembly port (tools/memgauge/package-lock.json)
# into tools/memgauge/node_modules.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  apt_install nodejs npm || true
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
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
  if ! apt_install chromium chromium-driver; then
    echo "setup: no /usr/bin/chromium: tests/test_web.py needs Chromium (PISTI_CHROMIUM=path)" >&2
  fi
fi
# The X11 bitmap fonts the device fonts are made from, and the tools that
# convert them (tools/make_fonts.py; tests/test_fonts.py rebuilds them and
# compares with the committed files): Debian's packages where missing.
if ! command -v pcf2bdf >/dev/null 2>&1 || ! command -v bdftopcf >/dev/null 2>&1 \
    || [ ! -e /usr/share/fonts/X11/misc/5x8.pcf.gz ]; then
  if ! apt_install xfonts-base xfonts-utils pcf2bdf; then
    echo "setup: tools/make_fonts.py needs xfonts-base, xfonts-utils and pcf2bdf (Debian packages)" >&2
  fi
fi
# mtools, with which the device tests (tests/test_device.py, tools/devicetest.py)
# pack the deployed game into the emulated Pico's CIRCUITPY image.
if ! command -v mcopy >/dev/null 2>&1; then
  if ! apt_install mtools; then
    echo "setup: tests/test_device.py needs mtools (a Debian package)" >&2
  fi
fi
wstamp=tools/web/node_modules/.pisti-package-lock
if ! cmp -s tools/web/package-lock.json "$wstamp" 2>/dev/null; then
  (cd tools/web && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
  cp tools/web/package-lock.json "$wstamp"
fi
failed=0
for i in "${!pids[@]}"; do
  if ! wait "${pids[$i]}"; then
    echo "setup: installing ${names[$i]} failed (see above)" >&2
    failed=1
  fi
done
trap - EXIT
exit "$failed"
