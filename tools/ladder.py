# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
The ladder: Usta and Kalfa against the search reference (and greedy) in the
duplicate arena, per mode, with 95% intervals; a Markdown table (and a
short one for the README) and a plot (PNG, Pillow).

    python tools/ladder.py --ref pimcgu64h1a8 --deals 400 --seed 7 --out ladder.json --plot ladder.png
    python tools/ladder.py --from ladder.json --plot ladder.png    # redraw, no games
    python tools/ladder.py --from ladder.json --brief              # a row a mode (the README's table)
    python tools/ladder.py --modes pisti2 --merge ladder.json --out ladder.json   # one mode again

Rows (A vs B, A's mean hand points minus B's; Pis Yedili: penalty avoided):
Pişti 2p and 4p, ``usta`` and ``kalfa`` against ``--ref`` and against
``greedy``; Pis Yedili 4p against ``--yref`` (the Pis Yedili reference,
``pimcg8`` by default: tools/botlab/pimc_yedili.py) and against greedy
(``--yref ""`` for greedy only). ``--ray`` / RAY_ADDRESS shards every row's
deals over Ray.
"""

import argparse
import json
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(_HERE)
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

from tools import arena


def rows_for(ref, modes=("pisti2", "pisti4", "yedili4"), yref=None):
    """The matchups: (game, players, A, B); ``yref`` is Pis Yedili's reference."""
    out = []
    for m in modes:
        game, players = m[:-1], int(m[-1])
        r = ref if game == "pisti" else yref
        refs = ([r] if r else []) + ["greedy"]
        for b in refs:
            for a in ("usta", "kalfa"):
                out.append((game, players, a, b))
    return out


def run_ladder(ref, deals, seed, jobs=1, use_ray=False, modes=("pisti2", "pisti4", "yedili4"),
               progress=False, ref_deals=None, yref=None):
    """Play every row; a list of dicts (game, players, a, b, deals, mean_diff, ci95, ...)."""
    res = []
    for game, players, a, b in rows_for(ref, modes, yref):
        n = ref_deals if (ref_deals and b != "greedy") else deals
        r = arena.run(game, players, [a, b], n, seed, jobs=jobs, progress=progress,
                      use_ray=use_ray)
        res.append({"game": game, "players": players, "a": a, "b": b, "deals": n,
                    "seed": seed, "mean_diff": r["mean_diff"], "ci95": r["ci95"],
                    "hand_win_rate": r["hand_win_rate"],
                    "ms_per_decision": r["ms_per_decision"], "seconds": r["seconds"]})
    return res


def merge(old, new):
    """``new`` in place of ``old``'s rows of the same modes, in mode order."""
    played = {(r["game"], r["players"]) for r in new}
    keep = [r for r in old if (r["game"], r["players"]) not in played]
    order = {"pisti": 0, "yedili": 1}
    return sorted(keep + new, key=lambda r: (order[r["game"]], r["players"]))


def _mode(r):
    return "%s %dp" % ("Pişti" if r["game"] == "pisti" else "Pis Yedili", r["players"])


def markdown(rows):
    """The ladder as a Markdown table."""
    out = ["| mode | A vs B | deals (seed) | A's mean diff per hand | 95% interval |",
           "|---|---|---|---|---|"]
    for r in rows:
        m, c = r["mean_diff"], r["ci95"] or 0.0
        out.append("| %s | %s vs %s | %d (%d) | %+.2f | %+.2f .. %+.2f |"
                   % (_mode(r), r["a"], r["b"], r["deals"], r["seed"], m, m - c, m + c))
    return "\n".join(out)


def brief(rows):
    """The ladder as a short Markdown table, a row a mode: Usta's and Kalfa's mean
    with its 95% half-width against the mode's reference and against greedy."""
    out = ["| mode | deals: reference / greedy | Usta vs reference | Kalfa vs reference | Usta vs greedy"
           " | Kalfa vs greedy |", "|---|---|---|---|---|---|"]
    modes = []
    for r in rows:
        if _mode(r) not in modes:
            modes.append(_mode(r))
    for m in modes:
        got = {(r["a"], r["b"] == "greedy"): r for r in rows if _mode(r) == m}
        ref = next((r for r in rows if _mode(r) == m and r["b"] != "greedy"), None)
        cells = []
        for key in (("usta", False), ("kalfa", False), ("usta", True), ("kalfa", True)):
            r = got.get(key)
            cells.append("%+.2f ± %.2f" % (r["mean_diff"], r["ci95"] or 0.0) if r else "")
        greedy = got.get(("usta", True))
        deals = "%s / %s" % ("%d (`%s`)" % (ref["deals"], ref["b"]) if ref else "-",
                             greedy["deals"] if greedy else "-")
        out.append("| %s | %s | %s |" % (m, deals, " | ".join(cells)))
    return "\n".join(out)


def plot(path, rows, title):
    """Horizontal bars with their 95% intervals, one per row, grouped by mode."""
    from PIL import Image, ImageDraw
    w = 720
    rh = 26
    top = 40
    h = top + rh * len(rows) + 40
    img = Image.new("RGB", (w, h), "white")
    dr = ImageDraw.Draw(img)
    dr.text((10, 10), title, fill="black")
    vals = [r["mean_diff"] or 0.0 for r in rows]
    cis = [r["ci95"] or 0.0 for r in rows]
    lo = min([0.0] + [v - c for v, c in zip(vals, cis, strict=True)]) - 0.5
    hi = max([0.0] + [v + c for v, c in zip(vals, cis, strict=True)]) + 0.5
    x0, x1 = 260, w - 60

    def x(v):
        return x0 + (v - lo) / (hi - lo) * (x1 - x0)

    dr.line((x(0), top - 6, x(0), h - 34), fill="gray")
    step = 1 if hi - lo < 12 else 2
    v = int(lo) - int(lo) % step
    while v <= hi:
        if v >= lo:
            dr.line((x(v), h - 34, x(v), h - 30), fill="gray")
            dr.text((x(v) - 6, h - 26), "%+d" % v if v else "0", fill="gray")
        v += step
    last = None
    for i, (r, v, c) in enumerate(zip(rows, vals, cis, strict=True)):
        y = top + i * rh
        mode = _mode(r)
        if mode != last:
            dr.line((10, y, w - 10, y), fill=(220, 220, 220))
            last = mode
        # Pillow's default font has no "ş": the plot writes Pisti.
        dr.text((10, y + 7), "%s: %s vs %s" % (mode.replace("ş", "s"), r["a"], r["b"]),
                fill="black")
        col = (70, 110, 180) if r["a"] == "usta" else (150, 170, 120)
        dr.rectangle((min(x(0), x(v)), y + 6, max(x(0), x(v)), y + rh - 6), fill=col)
        dr.line((x(v - c), y + rh // 2, x(v + c), y + rh // 2), fill="black", width=2)
        for e in (v - c, v + c):
            dr.line((x(e), y + 8, x(e), y + rh - 8), fill="black", width=2)
        dr.text((x1 + 6, y + 7), "%+.2f" % v, fill="black")
    img.save(path)


def main(argv=None):
    ap = argparse.ArgumentParser(description="The bot ladder against the search reference.")
    ap.add_argument("--ref", default="pimcgu64h1a8",
                    help="the reference bot (Pişti rows; the strongest measured, tools/botlab/README.md)")
    ap.add_argument("--yref", default="pimcg8", help="the reference bot (Pis Yedili rows; \"\": none)")
    ap.add_argument("--deals", type=int, default=400, help="deals a row against greedy")
    ap.add_argument("--ref-deals", type=int, default=None,
                    help="deals a row against the reference (default --deals)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--modes", default="pisti2,pisti4,yedili4")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--ray", action="store_true")
    ap.add_argument("--out", metavar="FILE.json", help="write the rows as JSON")
    ap.add_argument("--from", dest="src", metavar="FILE.json", help="read rows, play nothing")
    ap.add_argument("--merge", metavar="FILE.json",
                    help="keep that file's rows of the modes not played now")
    ap.add_argument("--plot", metavar="FILE.png")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--brief", action="store_true", help="print a row a mode (the README's table)")
    a = ap.parse_args(argv)
    try:
        if a.src:
            with open(a.src) as f:
                rows = json.load(f)
        else:
            modes = tuple(m.strip() for m in a.modes.split(",") if m.strip())
            for m in modes:
                if m not in ("pisti2", "pisti4", "yedili2", "yedili3", "yedili4"):
                    raise ValueError("unknown mode %r (like pisti2, yedili4)" % m)
            rows = run_ladder(a.ref, a.deals, a.seed, a.jobs, arena.ray_wanted(a.ray), modes,
                              not a.quiet and sys.stderr.isatty(), a.ref_deals, a.yref)
            if a.merge:
                with open(a.merge) as f:
                    old = json.load(f)
                rows = merge(old, rows)
    except (ValueError, OSError) as e:
        sys.stderr.write("ladder: %s\n" % e)
        return 2
    if a.out:
        with open(a.out, "w") as f:
            json.dump(rows, f, indent=1)
    if a.plot:
        plot(a.plot, rows, "Ladder: A's mean points per hand over B (duplicate deals, 95%)")
    print(brief(rows) if a.brief else markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
