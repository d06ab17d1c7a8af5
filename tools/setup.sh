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
