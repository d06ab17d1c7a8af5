#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# Play the firmware in a browser: set up what the page needs (tools/setup.sh --web),
# build the page (tools/web/build.py) and serve it on http://127.0.0.1:8000/.
#   bash tools/web.sh                 # build into .venv/web and serve it
#   bash tools/web.sh --port 8080     # another port
#   bash tools/web.sh --build DIR     # only write the static folder (any static host serves it)
set -euo pipefail
cd "$(dirname "$0")/.."
out=".venv/web"
port=8000
build_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build_only=1; out="${2:?--build needs a folder}"; shift 2 ;;
    --port) port="${2:?--port needs a number}"; shift 2 ;;
    -h|--help) sed -n '4,8p' "$0"; exit 0 ;;
    *) echo "web.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
case "$port" in
  ''|*[!0-9]*) echo "web.sh: --port takes a number from 1 to 65535, not $port" >&2; exit 2 ;;
esac
if [ "$port" -lt 1 ] || [ "$port" -gt 65535 ]; then
  echo "web.sh: --port takes a number from 1 to 65535, not $port" >&2
  exit 2
fi
bash tools/setup.sh --web
.venv/bin/python tools/web/build.py "$out"
if [ "$build_only" = 1 ]; then
  exit 0
fi
exec .venv/bin/python tools/web/serve.py "$out" --port "$port"
