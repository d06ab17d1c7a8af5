#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The browser page's crash probe: every documented start mode on both
profiles, from empty saves, with varied seeds, in headless Chromium.

    python tools/web/probe.py [--rounds N] [--seed N] [--parallel N] [--site DIR] [-v]

One round loads each of pisti:2, pisti:4, yedili:2, yedili:3, yedili:4 at
each bot level (acemi, kalfa, usta) on the Pico profile and with
profile=featherwing (30 loads), each with its own seed, and plays a few
moves on the virtual clock (keys=...). It prints the loads, the modes, and
how each load ended: traps (a WebAssembly trap, a traceback, any error on
the page: must be 0), out-of-memory notices, watchdog stops, time-outs.
Exit status 1 if any load did not end cleanly. Needs what tests/test_web.py
needs (bash tools/setup.sh installs it).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CHROMIUM = os.environ.get("PISTI_CHROMIUM", "/usr/bin/chromium")

GAMES = ("pisti:2", "pisti:4", "yedili:2", "yedili:3", "yedili:4")
LEVELS = ("acemi", "kalfa", "usta")
PROFILES = ("pico", "featherwing")
# a few moves at the table: A plays on the Pico; on the FeatherWing B selects
KEYS = {"pico": "A*6", "featherwing": "B*6"}


def modes():
    return [g + ":" + lv for g in GAMES for lv in LEVELS]


def queries(rounds, seed0=1, keys=KEYS):
    """Every (mode, profile) once a round, each with its own seed."""
    out = []
    seed = seed0
    for _ in range(rounds):
        for profile in PROFILES:
            for mode in modes():
                q = "?seed=%d&start=%s&delay=0&keys=%s" % (seed, mode, keys[profile])
                if profile != "pico":
                    q += "&profile=" + profile
                out.append(q)
                seed += 1
    return out


def verdict(load):
    """How a load ended: ok, trap, oom, watchdog or timeout."""
    if load["state"] == "timeout":
        return "timeout"
    if load["state"] == "hung":
        return "watchdog"
    if load["errors"] or load["state"] == "error":
        return "trap"
    if load["state"] == "oom":
        return "oom"
    return "ok"


def serve(site):
    server = subprocess.Popen([sys.executable, os.path.join(HERE, "serve.py"), site, "--port", "0"],
                              stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    return server, line.split(" on ")[1].split(" ")[0]


def run_loads(site, loads, out_dir, verbose=False, extra=None):
    """Serve ``site`` and load each query of ``loads`` (browser_test.mjs); the result dict."""
    server, url = serve(site)
    try:
        plan = dict({"live": False, "loads": loads, "chromium": CHROMIUM, "verbose": verbose, "loadTimeout": 180000},
                    **(extra or {}))
        plan_file = os.path.join(out_dir, "probe-plan.json")
        out_file = os.path.join(out_dir, "probe-out.json")
        with open(plan_file, "w", encoding="utf-8") as f:
            json.dump(plan, f)
        subprocess.run(["node", os.path.join(HERE, "browser_test.mjs"), url, plan_file, out_file],
                       check=True, cwd=HERE, timeout=3600)
        with open(out_file, encoding="utf-8") as f:
            return json.load(f)
    finally:
        server.terminate()
        server.wait(10)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=2, help="rounds of 30 loads (default 2)")
    p.add_argument("--seed", type=int, default=1, help="the first seed (default 1)")
    p.add_argument("--site", help="a page already built (tools/web/build.py DIR); default: build one")
    p.add_argument("--parallel", type=int, default=1, help="pages at a time (default 1)")
    p.add_argument("-v", "--verbose", action="store_true", help="one line a load as it ends")
    a = p.parse_args(argv)
    if a.rounds < 1:
        p.error("--rounds must be 1 or more")
    with tempfile.TemporaryDirectory(prefix="pisti-probe-") as tmp:
        site = a.site
        if not site:
            site = os.path.join(tmp, "site")
            subprocess.run([sys.executable, os.path.join(HERE, "build.py"), site], check=True, cwd=ROOT,
                           stdout=subprocess.DEVNULL)
        t0 = time.monotonic()
        result = run_loads(site, queries(a.rounds, a.seed), tmp, a.verbose, {"parallel": max(1, a.parallel)})
    if result["errors"]:
        print("probe: the browser run failed: %s" % result["errors"][0], file=sys.stderr)
        return 1
    counts = {}
    bad = []
    for load in result["loads"]:
        v = verdict(load)
        counts[v] = counts.get(v, 0) + 1
        if v != "ok":
            bad.append((v, load))
    n = len(result["loads"])
    print("probe: %d loads, %d modes x %d profiles, %d rounds, %.0f s" % (
        n, len(modes()), len(PROFILES), a.rounds, time.monotonic() - t0))
    print("probe: ok %d, traps %d, out-of-memory notices %d, watchdog stops %d, time-outs %d" % (
        counts.get("ok", 0), counts.get("trap", 0), counts.get("oom", 0), counts.get("watchdog", 0),
        counts.get("timeout", 0)))
    for v, load in bad[:20]:
        what = (load["errors"] or [load["error"]] or [""])[0] or load["state"]
        print("  %s %s: %s" % (v, load["query"], what.strip().splitlines()[-1][:160] if what.strip() else ""))
    return 0 if not bad or all(v == "oom" for v, _ in bad) else 1


if __name__ == "__main__":
    sys.exit(main())
