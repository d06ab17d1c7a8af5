# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""An outside bot (tools/botlab/README.md, "Outside bots"): answers every decision with the first
legal action. Try it: ``python tools/arena.py --bots tools/examples/example_bot.py,greedy``."""
import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    print(msg["legal"][0], flush=True)
