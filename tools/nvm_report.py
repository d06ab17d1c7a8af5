# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`tools.nvm_report`
==================

Flash wear and power-cut exposure of the save log (``pisti_core.nvlog``) on
the RP2040 nvm model (``tools.shims.nvm``), over scripted matches.

    .venv/bin/python tools/nvm_report.py [--matches 50] [--seed 1] [--exact]

For each match shape (Pişti, 2 players; Pis Yedili, 4 players) it plays
``--matches`` scripted matches back to back on one nvm and prints erases,
bytes programmed and cut points (bytes programmed + erases) per match, and
the compaction exposure: the cut points that fall inside a compaction (its
erase and its 4096 programmed bytes: a cut there could cost more than the
one write) and, of those, the ones at which a cut does lose something, and
which blob: the ranking, the settings or the game in progress. The counts
come from each compaction's image layout; ``--exact`` also cuts the power
at every one of those cut points, restarts, loads and tallies what came
back (slower).

The workload builders and the cut sweep are also used by tests/test_nvlog.py.
"""

import argparse
import os
import random
import sys

if __package__ in (None, ""):  # run as a script: put the repo root on the path
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if __name__ == "__main__":  # typed as python tools/nvm_report.py: the project's .venv
    from tools import useenv

    useenv.reexec()

from pisti_core.nvlog import Store
from tools.shims.nvm import FlashNvm, PowerCut

RANKING_BYTES = 60  # 5 game variants x 3 levels x (games u16, points i16)
SETTINGS_BYTES = 12


# -- scripted workloads ------------------------------------------------------------
def _deck(rng, cards):
    deck = list(range(cards))
    rng.shuffle(deck)
    return bytes(c % 256 for c in deck)


def _ranking(rng):
    return bytes(rng.randrange(256) for _ in range(RANKING_BYTES))


def settings_op(rng):
    return ("settings", bytes(rng.randrange(256) for _ in range(SETTINGS_BYTES)))


def pisti_match(rng, hands=6):
    """Ops of a 2-player Pişti match: per hand a header with its 52-card deck,
    then 24 action records (the player's card and the bot's reply, 2 bytes
    each), then the ranking update and the end of the game."""
    ops = []
    for hand in range(hands):
        header = bytes((1, 2, rng.randrange(3), 1, hand % 2, hand, 0, rng.randrange(160),
                        0, rng.randrange(160))) + _deck(rng, 52)
        ops.append(("start", header))
        for _ in range(24):
            ops.append(("act", bytes(rng.randrange(256) for _ in range(rng.choice((2, 4, 4, 4))))))
    ops.append(("ranking", _ranking(rng)))
    ops.append(("end", None))
    return ops


def yedili_match(rng, hands=4, turns=36):
    """Ops of a 4-player Pis Yedili match: per hand a header with its two
    104-card decks, then ``turns`` action records (the player's action or
    actions and the three bots' replies: 2 to 12 bytes), then the ranking
    update and the end of the game."""
    ops = []
    for hand in range(hands):
        scores = bytes(rng.randrange(100) for _ in range(8))
        header = bytes((2, 4, rng.randrange(3), 1, hand % 4, hand)) + scores + _deck(rng, 104)
        ops.append(("start", header))
        for _ in range(turns):
            n = 2 * rng.randint(1, 6)
            ops.append(("act", bytes(rng.randrange(256) for _ in range(n))))
    ops.append(("ranking", _ranking(rng)))
    ops.append(("end", None))
    return ops


SHAPES = {"pisti-2": pisti_match, "yedili-4": yedili_match}


def apply_op(store, op):
    """Perform one scripted op on a loaded Store."""
    kind, data = op
    if kind == "settings":
        store.put_settings(data)
    elif kind == "ranking":
        store.put_ranking(data)
    elif kind == "start":
        store.start_game(data)
    elif kind == "act":
        store.add_actions(data)
    elif kind == "end":
        store.end_game()
    else:
        raise ValueError("unknown op %r" % (kind,))


def state_of(store):
    """What a restart must show: (settings, ranking, game header, actions)."""
    return (store.settings, store.ranking, store.game_header, bytes(store.game_actions))


# -- exposure ----------------------------------------------------------------------------
def exposure(store, before):
    """Cut points of the compaction just written by ``store`` at which a cut
    loses something, from its image layout: dict ranking / settings / game /
    any. A blob is lost when it was saved before the write, is meant to be
    there after it, and is absent after the restart."""
    rank_end, settings_end, game_end, _ = store.image_layout
    # Cut after k units (k = 1 is the erase, k = 1 + j: j bytes programmed):
    # a record survives once j reaches its end offset, so it is lost for
    # k = 1 .. end, that is ``end`` cut points.
    out = {
        "ranking": rank_end if store.ranking is not None and before[1] is not None else 0,
        "settings": settings_end if store.settings is not None and before[0] is not None else 0,
        "game": game_end if store.game_header is not None and before[2] is not None else 0,
    }
    out["any"] = max(out.values())
    return out


def classify(got, before, after):
    """'before', 'after', or a '+'-joined list of what was lost or damaged."""
    if got == before:
        return "before"
    if got == after:
        return "after"
    parts = (("settings", got[0], before[0], after[0]), ("ranking", got[1], before[1], after[1]),
             ("game", got[2:], before[2:], after[2:]))
    lost = []
    for name, g, b, a in parts:
        if g == b or g == a:
            continue
        absent = g is None or g[0] is None
        if absent and not (b is None or b[0] is None):
            lost.append(name)
        else:
            lost.append(name + "-damaged")
    return "+".join(lost) or "mixed"


def sweep_write(image, op, before, after, size=4096, points=None):
    """Cut the power at every cut point of ``op`` applied, after a restart,
    to the flash ``image`` (or only at the cut points ``points``, numbered
    from 1); restart again, load and classify the state. Returns
    (outcome -> count, set of load statuses, flash after the op)."""
    outcomes = {}
    statuses = set()
    cuts, done = cut_outcomes(image, op, before, after, size, points)
    for _, status, out in cuts:
        statuses.add(status)
        outcomes[out] = outcomes.get(out, 0) + 1
    return outcomes, statuses, done


def cut_outcomes(image, op, before, after, size=4096, points=None):
    """What each cut point of ``op`` on the flash ``image`` leaves: returns
    (list of (cut point, load status, outcome), flash after the whole op).
    ``points``: the cut points to try (default all, 1 .. the op's cost)."""
    ref = FlashNvm(size=size, data=image)
    store = Store(ref)
    store.load()
    if state_of(store) != before:
        raise AssertionError("the flash image does not load as the state before")
    apply_op(store, op)
    cost = ref.cut_points
    cuts = []
    for k in range(1, cost + 1) if points is None else points:
        if not 1 <= k <= cost:
            raise ValueError("cut point %d: the op has 1 .. %d" % (k, cost))
        nvm = FlashNvm(size=size, data=image)
        store = Store(nvm)
        store.load()
        nvm.cut_after_bytes = k
        try:
            apply_op(store, op)
        except PowerCut:
            pass
        else:
            raise AssertionError("cut point %d of %d never came" % (k, cost))
        again = Store(nvm.restart())
        status = again.load()
        cuts.append((k, status, classify(state_of(again), before, after)))
    return cuts, ref.snapshot()


# -- the report ------------------------------------------------------------------------
def run_shape(name, matches, seed, exact=False, size=4096):
    """Play ``matches`` scripted matches of shape ``name`` on one nvm."""
    rng = random.Random(seed)
    nvm = FlashNvm(size=size)
    store = Store(nvm)
    store.load()
    apply_op(store, settings_op(rng))
    base = (nvm.erases, nvm.bytes_written, nvm.writes)
    tot = {"window": 0, "any": 0, "ranking": 0, "settings": 0, "game": 0}
    checked = {}
    compactions = 0
    for _ in range(matches):
        for op in SHAPES[name](rng):
            before = state_of(store)
            image = nvm.snapshot() if exact else None
            n0 = store.compactions
            apply_op(store, op)
            if store.compactions != n0:
                compactions += 1
                exp = exposure(store, before)
                exp["window"] = 1 + size  # the erase, then every byte of the sector
                for key in tot:
                    tot[key] += exp[key]
                if exact:
                    outs, _, done = sweep_write(image, op, before, state_of(store), size)
                    if done != nvm.snapshot():
                        raise AssertionError("a restarted store wrote another image")
                    for out, c in outs.items():
                        parts = out.split("+")
                        for key in ("ranking", "settings", "game"):
                            if key in parts:
                                checked[key] = checked.get(key, 0) + c
                        if out not in ("before", "after"):
                            checked["any"] = checked.get("any", 0) + c
                        checked["window"] = checked.get("window", 0) + c
    erases = nvm.erases - base[0]
    written = nvm.bytes_written - base[1]
    writes = nvm.writes - base[2]
    return {
        "name": name, "matches": matches, "erases": erases, "bytes": written,
        "writes": writes, "cut_points": erases + written, "compactions": compactions,
        "exposure": tot, "checked": checked if exact else None,
    }


def _print(r):
    m = r["matches"]
    cp = r["cut_points"]
    print("%s: %d matches back to back, one 4096-byte nvm" % (r["name"], m))
    print("  erases per match          %.3f  (%d in all; target <= 1)" % (r["erases"] / m, r["erases"]))
    print("  bytes programmed per match %.0f  (writes per match %.1f)" % (r["bytes"] / m, r["writes"] / m))
    print("  cut points per match       %.0f  (bytes programmed + erases)" % (cp / m))
    for key, label in (("window", "inside a compaction"), ("any", "something lost"),
                       ("ranking", "ranking lost"), ("settings", "settings lost"),
                       ("game", "game in progress lost")):
        n = r["exposure"][key]
        print("  %-31s %7.1f per match  (%d of %d cut points, %.3f%%)"
              % (label, n / m, n, cp, 100.0 * n / cp if cp else 0.0))
    if r["checked"] is not None:
        c = r["checked"]
        same = all(c.get(k, 0) == r["exposure"][k] for k in r["exposure"])
        print("  exact sweep (cut, restart, load at each of those %d cut points): "
              "ranking lost %d, settings %d, game %d, anything %d: %s"
              % (c.get("window", 0), c.get("ranking", 0), c.get("settings", 0), c.get("game", 0),
                 c.get("any", 0), "as counted above" if same else "DIFFERS from the counts above"))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1].strip())
    ap.add_argument("--matches", type=int, default=50, help="matches per shape (default 50)")
    ap.add_argument("--seed", type=int, default=1, help="workload seed (default 1)")
    ap.add_argument("--exact", action="store_true",
                    help="also cut the power at every compaction cut point and check")
    args = ap.parse_args(argv)
    if args.matches < 1:
        ap.error("--matches must be at least 1")
    ok = True
    for name in SHAPES:
        r = run_shape(name, args.matches, args.seed, args.exact)
        _print(r)
        if r["checked"] is not None:
            ok = ok and all(r["checked"].get(k, 0) == v for k, v in r["exposure"].items())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
