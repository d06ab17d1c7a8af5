#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# Play the firmware on the desktop: sets up .venv with the simulator's pins
# (once: tools/setup.sh --play, no apt-get, npm or sudo), then runs the
# simulator (tools/sim.py) with your arguments, e.g.
#   bash tools/play.sh                       # in this terminal
#   bash tools/play.sh --window              # in a window
#   bash tools/play.sh --start pisti:2:usta  # straight into a game
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/tools/setup.sh" --play >&2
exec "$root/.venv/bin/python" "$root/tools/sim.py" "$@"
