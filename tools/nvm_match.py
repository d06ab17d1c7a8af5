# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`tools.nvm_match`
=================

Flash wear of the console's saves measured THROUGH THE APP: whole rated
matches played by the firmware (``lib/pisti_app``) on the desktop shims,
back to back on one RP2040 nvm model (``tools.shims.nvm.FlashNvm``), the
console switched off and on between matches.

    .venv/bin/python tools/nvm_match.py [--matches 12] [--seed 1] [--shape pisti-2 ...]

Seat 0 is played by a greedy bot through the app's outside-bot hook
(``app.bots[0]``), so every save is the app's own: a hand's header when it
is dealt, one action record per decision of seat 0 (with the bots' replies),
the ranking and the end of each match. For each shape it prints erases per
match (target: at most one), bytes programmed and cut points per match, the
compactions (at a match's end, or in the middle of a game) and the
compaction exposure: the cut points inside a compaction at which a cut
would lose the ranking or the game in progress (from each compaction's
image layout; ``tests/test_table_saves.py`` cuts at every one of them for
one compaction and checks it through the app).
"""

import argparse
import os
import random
import sys
import tempfile

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if _ROOT not in sys.path:  # run as a script
    sys.path.insert(0, _ROOT)
if __name__ == "__main__":  # typed as python tools/nvm_match.py: the project's .venv
    from tools import useenv

    useenv.reexec("adafruit_blinka")
if os.path.join(_ROOT, "lib") not in sys.path:
    sys.path.append(os.path.join(_ROOT, "lib"))

import tools.shims as shims  # (sets BLINKA_OS_AGNOSTIC before board)
from tools.shims.nvm import FlashNvm

SHAPES = {
    "pisti-2": ("pisti:2:usta", 151),
    "pisti-4": ("pisti:4:usta", 151),
    "yedili-3": ("yedili:3:usta", None),
    "yedili-4": ("yedili:4:usta", None),
}
_PICO = os.path.join(_ROOT, "tools", "boards", "pico.toml")


def settings_toml(path, extra):
    """A settings.toml: the Pico profile plus ``extra`` {KEY: value}."""
    with open(_PICO, encoding="utf-8") as f:
        lines = [ln for ln in f if ln.split("=")[0].strip() not in extra]
    for k, v in extra.items():
        lines.append("\n%s = %s" % (k, ('"%s"' % v) if isinstance(v, str) else v))
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(lines) + "\n")
    return path


def play_match(nvm, start, target, seed, workdir, max_ms=4 * 3600 * 1000):
    """Boot the app on ``nvm`` with a rated PISTI_START game and let it play
    to the match end; returns a dict of what happened to the saves."""
    extra = {"PISTI_START": start, "PISTI_RATED": 1, "PISTI_SEED": seed, "PISTI_DELAY": 0}
    if target is not None:
        extra["PISTI_TARGET"] = target
    path = settings_toml(os.path.join(workdir, "settings.toml"), extra)
    rig = shims.install("pico", settings_path=path, nvm=nvm)
    try:
        import pisti_app
        from pisti_core.bots import make_bot

        app = pisti_app.boot()
        app.bots[0] = make_bot(app.session.game, "greedy", random.Random(seed))
        store = app.saves.store
        comps = []

        def seen(before):
            # A compaction since the last look (the boot's too: this store is
            # the boot's): what a cut during it could have lost.
            rank_end, settings_end, game_end, _ = store.image_layout
            mid = game_end != settings_end  # the image holds a game
            comps.append({"mid_game": mid,
                          "ranking": rank_end if before[0] else 0,
                          "game": game_end if mid and before[1] else 0})

        if store.compactions:  # at boot, or the match's first deal (the ranking and any game were there before)
            seen((store.ranking is not None, True))
        n = store.compactions
        elapsed = 0
        while app.screen.name != "match_end":
            before = (store.ranking is not None, store.game_header is not None)
            app.tick()
            rig.clock.advance(10)
            elapsed += 10
            if store.compactions != n:
                n = store.compactions
                seen(before)
            if app.screen.name == "hand_end":
                rig.keys.tap("A")
            if elapsed > max_ms:
                raise RuntimeError("the match did not end in %d virtual ms" % max_ms)
        st = app.status()
        return {"hands": st["hand"], "compactions": comps, "rankings": st["rankings"]}
    finally:
        rig.close()


def run_shape(name, matches, seed):
    """``matches`` rated matches of shape ``name`` on one nvm; the figures."""
    start, target = SHAPES[name]
    nvm = FlashNvm()
    out = {"name": name, "matches": matches, "hands": 0, "compactions": 0, "mid_game": 0,
           "exposed_ranking": 0, "exposed_game": 0}
    with tempfile.TemporaryDirectory() as work:
        for i in range(matches):
            r = play_match(nvm, start, target, seed + i, work)
            out["hands"] += r["hands"]
            for c in r["compactions"]:
                out["compactions"] += 1
                out["mid_game"] += 1 if c["mid_game"] else 0
                out["exposed_ranking"] += c["ranking"]
                out["exposed_game"] += c["game"]
            out["rankings"] = r["rankings"]
    out["erases"] = nvm.erases
    out["bytes"] = nvm.bytes_written
    out["cut_points"] = nvm.cut_points
    return out


def report(r):
    """The lines printed for one shape."""
    m = r["matches"]
    cp = r["cut_points"]
    played = sum(v["played"] for v in r["rankings"].values())
    return [
        "%s: %d rated matches (%d hands) through the app, one 4096-byte nvm; ranking lists %d"
        % (r["name"], m, r["hands"], played),
        "  erases per match          %.3f  (%d in all; target <= 1)" % (r["erases"] / m, r["erases"]),
        "  bytes programmed per match %.0f, cut points per match %.0f" % (r["bytes"] / m, cp / m),
        "  compactions                %d (%d in the middle of a game)" % (r["compactions"], r["mid_game"]),
        "  cut points losing the ranking      %d of %d (%.3f%%)"
        % (r["exposed_ranking"], cp, 100.0 * r["exposed_ranking"] / cp if cp else 0.0),
        "  cut points losing the game in play %d of %d (%.3f%%)"
        % (r["exposed_game"], cp, 100.0 * r["exposed_game"] / cp if cp else 0.0),
    ]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1].strip())
    ap.add_argument("--matches", type=int, default=12, help="matches per shape (default 12)")
    ap.add_argument("--seed", type=int, default=1, help="first PISTI_SEED (default 1)")
    ap.add_argument("--shape", action="append", choices=sorted(SHAPES),
                    help="a match shape (default: all); may repeat")
    args = ap.parse_args(argv)
    if args.matches < 1:
        ap.error("--matches must be at least 1")
    for name in args.shape or sorted(SHAPES):
        for line in report(run_shape(name, args.matches, args.seed)):
            print(line)
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
