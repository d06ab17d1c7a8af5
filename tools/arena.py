# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
Bot arena in duplicate format: every deal is played again with the seats
swapped, so that card luck cancels out.

Seating (bots ``A,B``; every orientation plays the same deck, same dealer):

* Pişti 2 players, Pis Yedili 2 players: ``AB`` then ``BA``.
* Pişti 4 players (partnerships, P-1): ``ABAB`` then ``BABA``.
* Pis Yedili 3-4 players: A alone against copies of B, in every seat in
  turn (``ABB``, ``BAB``, ``BBA``; with four players four rotations).

Deal ``d`` (0-based) is dealt by seat ``d % players``, from a deck drawn with
a generator seeded by ``(--seed, d)``; bots draw their random choices from
generators seeded the same way, so a run repeats exactly, whatever ``--jobs``.
Each orientation also plays matches (P-13 / Y-16) over consecutive deals:
a match starts afresh after one ends, and at the start of every block of
200 deals (matches cut by a block's end are not counted).

Figures, per matchup (``mean_diff`` and the rates are from A's side):

* ``mean_diff``: per deal, the mean over its orientations of A's hand points
  minus B's (Pişti: side totals, P-12; Pis Yedili: B's mean penalty minus
  A's, i.e. penalty avoided), averaged over deals; ``ci95`` is the half-width
  of its 95% confidence interval (1.96 standard errors, deals independent).
* ``hand_win_rate``: Pişti, the share of hands A's side scored more (ties
  count half); Pis Yedili, the share of hands A went out (Y-12).
* ``match_win_rate``: share of completed matches A('s side) won (shared
  first place counts 1/k). ``fair_share`` is what an equal bot gets.
* ``pisti_per_hand`` and ``jack_pisti_per_hand`` per bot (Pişti),
  ``ms_per_decision`` (mean) and ``ms_worst`` per bot.

An outside bot that fails (tools/botlab/README.md, "Outside bots") loses the match it plays in; the
failure is reported with the seat and the offending line, and the deal is
left out of the hand figures.

Exit status: 0; 1 when an outside bot failed at least once (the ERROR lines,
``errors`` in the JSON: the figures then count forfeits, not play); 2 for
bad usage.

Examples::

    python tools/arena.py --game pisti --players 2 --bots usta,greedy --deals 1000 --seed 7
    python tools/arena.py --game pisti --players 2 --bots ./mybot.py,usta --deals 50 --json
    python tools/arena.py --game pisti --players 2 --deals 500 --plot ladder.png
    python tools/arena.py --bots usta,usta --deals 1000 --micropython   # device-side timing
    python tools/arena.py --bots usta,pimc64 --deals 4000 --ray          # over a Ray cluster

``--ray`` (or RAY_ADDRESS set) sends the blocks of deals to Ray as tasks: the
cluster at RAY_ADDRESS (the project's folder travels as the tasks' working
directory), or a local one started with ``--jobs`` CPUs. Blocks are merged in
deal order, so the figures are those of the local run to the last digit.
Ray's usage statistics are switched off wherever the arena starts Ray.

A progress line (deals done, rate, time left) goes to stderr on a terminal;
``--json`` and ``--quiet`` silence it, ``--progress`` forces it.
"""

import argparse
import json
import math
import os
import random
import sys
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(_HERE)
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)
if __name__ == "__main__":  # typed as python tools/arena.py: the project's .venv
    from tools import useenv

    useenv.reexec()

from pisti_core import GAMES, PLAYERS
from pisti_core.bots import LEVELS, REFERENCE
from pisti_core.match import Match, deal_deck
from tools.botlab import games_of, is_lab
from tools.botproto import DEFAULT_TIMEOUT, BotFailure, is_program, player, program_problem

BLOCK = 200  # deals per independent block (matches restart at each block)
_GAMES = dict(zip(GAMES, PLAYERS, strict=True))  # each game's player counts (P-1, Y-1)


def layouts(game, players):
    """Per orientation, which bot (0 = A, 1 = B) sits in each seat."""
    if players == 2:
        return [(0, 1), (1, 0)]
    if game == "pisti":
        return [(0, 1, 0, 1), (1, 0, 1, 0)]
    return [tuple(0 if s == r else 1 for s in range(players)) for r in range(players)]


def _seed(seed, d, k):
    return (seed * 1000003 + d) * 64 + k


class _Stats:
    """Additive figures of a block of deals (merged across workers)."""

    def __init__(self):
        self.diffs = []
        self.hand_wins = 0.0
        self.hands = 0
        self.match_wins = 0.0
        self.matches = 0
        self.pisti = [0, 0]
        self.jpisti = [0, 0]
        self.bot_hands = [0, 0]
        self.time = [0.0, 0.0]
        self.worst = [0.0, 0.0]
        self.decisions = [0, 0]
        self.errors = []

    def merge(self, o):
        self.diffs.extend(o.diffs)
        self.hand_wins += o.hand_wins
        self.hands += o.hands
        self.match_wins += o.match_wins
        self.matches += o.matches
        for i in (0, 1):
            self.pisti[i] += o.pisti[i]
            self.jpisti[i] += o.jpisti[i]
            self.bot_hands[i] += o.bot_hands[i]
            self.time[i] += o.time[i]
            self.worst[i] = max(self.worst[i], o.worst[i])
            self.decisions[i] += o.decisions[i]
        self.errors.extend(o.errors)


def _hand_figures(game, hand, who, st):
    """A's diff and hand-win share for a finished hand; counts piştis."""
    n = hand.players
    if game == "pisti":
        p = hand.points()
        a_side = 0 if who[0] == 0 else 1
        for side in (0, 1):
            b = who[side]
            st.pisti[b] += hand.pistis[side]
            st.jpisti[b] += hand.jpistis[side]
            st.bot_hands[b] += n // 2
        d = p[a_side] - p[1 - a_side]
        return d, 1.0 if d > 0 else 0.5 if d == 0 else 0.0
    pen = hand.penalties()
    a = [s for s in range(n) if who[s] == 0]
    b = [s for s in range(n) if who[s] == 1]
    pa = sum(pen[s] for s in a) / len(a)
    pb = sum(pen[s] for s in b) / len(b)
    return pb - pa, 1.0 if hand.winner in a else 0.0


def _match_share(game, m, who):
    w = m.winners()
    if game == "pisti":
        a_sides = [0 if who[0] == 0 else 1]
    else:
        a_sides = [s for s in range(m.players) if who[s] == 0]
    return sum(1 for x in w if x in a_sides) / len(w)


def run_block(args, tick=None):
    """Play deals ``start .. start+count-1``; returns a _Stats. ``tick(1)``
    is called after each deal."""
    game, players, names, start, count, seed, target, timeout = args
    lay = layouts(game, players)
    st = _Stats()
    rngs = [random.Random(0) for _ in range(players)]
    # One player object per (bot, seat); outside programs keep running.
    seats = [[player(names[b], game, rngs[s], timeout, s) for s in range(players)]
             for b in (0, 1)]
    matches = [None] * len(lay)
    perf = time.perf_counter
    try:
        for d in range(start, start + count):
            deck = deal_deck(game, players, random.Random(_seed(seed, d, 63)).randrange)
            diffs = []
            wins = []
            failed = False
            for o, who in enumerate(lay):
                m = matches[o]
                if m is None:
                    m = matches[o] = Match(game, players, target, d % players)
                h = m.deal(deck)
                for s in range(players):
                    rngs[s].seed(_seed(seed, d, 8 * o + s))
                bots = [seats[who[s]][s] for s in range(players)]
                try:
                    while not h.over:
                        s = h.turn
                        obs = m.observe(s)
                        t0 = perf()
                        a = bots[s].choose(obs)
                        dt = perf() - t0
                        b = who[s]
                        st.time[b] += dt
                        st.decisions[b] += 1
                        if dt > st.worst[b]:
                            st.worst[b] = dt
                        if not h.is_legal(a):
                            raise BotFailure("chose the illegal action %r" % (a,), s, None,
                                             names[b])
                        h.play(a)
                except BotFailure as e:
                    failed = True
                    fb = who[e.seat] if e.seat is not None else who[h.turn]
                    st.errors.append({"deal": d, "orientation": o, "seat": e.seat,
                                      "bot": names[fb], "line": e.line,
                                      "message": e.describe()})
                    # The failing bot's side loses this match (a forfeit).
                    st.match_wins += 0.0 if fb == 0 else 1.0
                    st.matches += 1
                    matches[o] = None
                    continue
                dd, w = _hand_figures(game, h, who, st)
                diffs.append(dd)
                wins.append(w)
                m.end_hand()
                if m.over:
                    st.match_wins += _match_share(game, m, who)
                    st.matches += 1
                    matches[o] = None
            if not failed:
                st.diffs.append(sum(diffs) / len(diffs))
                st.hand_wins += sum(wins)
                st.hands += len(wins)
            if tick:
                tick(1)
    finally:
        for row in seats:
            for b in row:
                if hasattr(b, "close"):
                    b.close()
    return st


class Progress:
    """One progress line on stderr: deals done, rate, time left. Shown only
    when enabled (a terminal, no --json, no --quiet)."""

    def __init__(self, total, label, enabled, unit="deals", stream=None):
        self.total = total
        self.done = 0
        self.label = label
        self.enabled = enabled
        self.unit = unit
        self.stream = stream or sys.stderr
        self.t0 = time.monotonic()

    def line(self):
        """The current line's text."""
        el = time.monotonic() - self.t0
        rate = self.done / el if el > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else None
        w = 20
        f = self.done / self.total if self.total else 1.0
        bar = "#" * int(w * f) + "." * (w - int(w * f))
        return "%s [%s] %d/%d %s, %.1f %s/s, %s left" % (
            self.label, bar, self.done, self.total, self.unit, rate, self.unit,
            "?" if left is None else _hms(left))

    def add(self, k):
        self.done += k
        if not self.enabled:
            return
        self.stream.write("\r" + self.line() + " ")
        if self.done >= self.total:
            self.stream.write("\n")
        self.stream.flush()


def _hms(sec):
    sec = int(sec + 0.5)
    if sec >= 3600:
        return "%dh%02dm" % (sec // 3600, sec % 3600 // 60)
    if sec >= 60:
        return "%dm%02ds" % (sec // 60, sec % 60)
    return "%ds" % sec


def ray_wanted(flag):
    """Whether to shard over Ray: ``--ray``, or RAY_ADDRESS set."""
    return bool(flag or os.environ.get("RAY_ADDRESS"))


def ray_start(jobs=None):
    """Connect to the Ray cluster at RAY_ADDRESS, or start a local one with
    ``jobs`` CPUs; usage statistics off (RAY_USAGE_STATS_ENABLED=0)."""
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    import ray
    if ray.is_initialized():
        return ray
    env = {"env_vars": {"RAY_USAGE_STATS_ENABLED": "0"}}
    addr = os.environ.get("RAY_ADDRESS")
    if addr and addr != "local":
        # The project's code travels to the cluster's workers.
        env["working_dir"] = _ROOT
        env["excludes"] = [".git", ".venv", "node_modules", "*.png", "*.mpy"]
        ray.init(address=addr, runtime_env=env, log_to_driver=False)
    else:
        env["env_vars"]["PYTHONPATH"] = _ROOT
        ray.init(num_cpus=max(1, jobs or os.cpu_count() or 1), include_dashboard=False,
                 runtime_env=env, log_to_driver=False)
    return ray


def _ray_block(task):
    if _ROOT not in sys.path:
        sys.path.insert(0, _ROOT)
    return run_block(task).__dict__


def ray_map(func, tasks, jobs=None, done=None):
    """``[func(t) for t in tasks]`` as Ray tasks, results in task order;
    ``done(i)`` is called as task i finishes."""
    ray = ray_start(jobs)
    remote = ray.remote(num_cpus=1)(func)
    refs = [remote.remote(t) for t in tasks]
    index = {r: i for i, r in enumerate(refs)}
    out = [None] * len(refs)
    pending = list(refs)
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for r in ready:
            i = index[r]
            out[i] = ray.get(r)
            if done:
                done(i)
    return out


def _stats(d):
    st = _Stats()
    st.__dict__.update(d)
    return st


def run(game, players, names, deals, seed=0, target=None, jobs=1, timeout=DEFAULT_TIMEOUT,
        progress=False, use_ray=False, keep_diffs=False):
    """Play a duplicate matchup; returns the JSON-ready summary dict.
    ``use_ray`` shards the blocks of deals over Ray (same figures);
    ``keep_diffs`` adds ``diffs``, A's mean difference deal by deal."""
    if game not in _GAMES:
        raise ValueError("unknown game %r (pisti or yedili)" % (game,))
    if players not in _GAMES[game]:
        raise ValueError("%s is for %s players, not %r"
                         % (game, " or ".join(map(str, _GAMES[game])), players))
    if len(names) != 2:
        raise ValueError("--bots takes two names, like usta,greedy")
    for nm in names:
        if is_lab(nm):
            gs = games_of(nm)
            if not gs:
                raise ValueError("%s plays neither game (aK is Pişti's; weights: 12 for "
                                 "Pişti, 17 for Pis Yedili)" % nm)
            if game not in gs:
                raise ValueError("%s plays %s only" % (nm, " and ".join(
                    {"pisti": "Pişti", "yedili": "Pis Yedili"}[g] for g in gs)))
        elif is_program(nm):
            problem = program_problem(nm)
            if problem:
                raise ValueError("--bots %s: %s" % (nm, problem))
        elif nm not in LEVELS and nm not in REFERENCE:
            raise ValueError("unknown bot %r: one of %s, a lab bot (pimc64, pimcu16), "
                             "or a program path like ./mybot.py"
                             % (nm, ", ".join(LEVELS + REFERENCE)))
    if deals < 1:
        raise ValueError("--deals must be at least 1")
    tasks = [(game, players, tuple(names), s, min(BLOCK, deals - s), seed, target, timeout)
             for s in range(0, deals, BLOCK)]
    prog = Progress(deals, "%s %dp %s" % (game, players, ",".join(names)), progress)
    t0 = time.monotonic()
    if use_ray:
        parts = [_stats(d) for d in ray_map(_ray_block, tasks, jobs,
                                            lambda i: prog.add(tasks[i][4]))]
    elif jobs > 1 and len(tasks) > 1:
        import multiprocessing
        with multiprocessing.get_context("fork").Pool(min(jobs, len(tasks))) as pool:
            parts = []
            for r, task in zip(pool.imap(run_block, tasks), tasks, strict=True):
                parts.append(r)
                prog.add(task[4])
    else:
        parts = [run_block(task, prog.add) for task in tasks]
    total = _Stats()
    for r in parts:  # in deal order: the same figures however the work was shared
        total.merge(r)
    res = summary(game, players, names, deals, seed, total, time.monotonic() - t0)
    if keep_diffs:
        res["diffs"] = total.diffs
    return res


def paired(a, b):
    """Two runs' per-deal differences (``--diffs`` files) compared deal by
    deal: the same game, table, seed and deals (so the same cards) are
    required; returns the dict of the two means and of A's run minus B's,
    with 95% intervals (ValueError when the runs do not pair)."""
    for k in ("game", "players", "seed", "deals"):
        if a.get(k) != b.get(k):
            raise ValueError("the runs do not pair: %s %r and %r (the same game, players, "
                             "seed and deals are needed)" % (k, a.get(k), b.get(k)))
    da, db = a.get("diffs"), b.get("diffs")
    if not isinstance(da, list) or not isinstance(db, list) or len(da) != len(db) or \
            len(da) != a["deals"] or len(da) < 2:
        raise ValueError("a --diffs file holds one difference per deal (2 or more)")
    out = {"game": a["game"], "players": a["players"], "seed": a["seed"], "deals": a["deals"]}
    for key, xs in (("a", da), ("b", db), ("a_minus_b", [x - y for x, y in zip(da, db, strict=True)])):
        m, ci = mean_ci95(xs)
        out[key] = {"mean_diff": m, "ci95": ci}
    out["a"]["bots"], out["b"]["bots"] = a["bots"], b["bots"]
    return out


def mean_ci95(xs):
    """The mean of ``xs`` and the half-width of its 95% interval (None
    where there are too few values)."""
    n = len(xs)
    mean = sum(xs) / n if n else None
    ci = None
    if n > 1:
        var = sum((x - mean) ** 2 for x in xs) / (n - 1)
        ci = 1.96 * math.sqrt(var / n)
    return mean, ci


def summary(game, players, names, deals, seed, st, elapsed):
    """The figures of a finished run as a dict (the --json object)."""
    n = len(st.diffs)
    mean, ci = mean_ci95(st.diffs)
    bots = []
    for b in (0, 1):
        k = st.decisions[b]
        row = {"name": names[b], "decisions": k,
               "ms_per_decision": 1000.0 * st.time[b] / k if k else None,
               "ms_worst": 1000.0 * st.worst[b]}
        if game == "pisti":
            hh = st.bot_hands[b]
            row["pisti_per_hand"] = st.pisti[b] / hh if hh else None
            row["jack_pisti_per_hand"] = st.jpisti[b] / hh if hh else None
        bots.append(row)
    fair = 0.5 if game == "pisti" or players == 2 else 1.0 / players
    return {
        "game": game, "players": players, "bots": list(names), "deals": deals,
        "seed": seed, "paired_deals": n,
        "mean_diff": mean, "ci95": ci,
        "hand_win_rate": st.hand_wins / st.hands if st.hands else None,
        "match_win_rate": st.match_wins / st.matches if st.matches else None,
        "matches": st.matches, "fair_share": fair,
        "ms_per_decision": [r["ms_per_decision"] for r in bots],
        "ms_worst": [r["ms_worst"] for r in bots],
        "per_bot": bots, "errors": st.errors, "seconds": round(elapsed, 2),
    }


def _fmt(x, spec="%.3f"):
    return "-" if x is None else spec % x


def report(res):
    """The figures as readable text."""
    a, b = res["bots"]
    unit = "points" if res["game"] == "pisti" else "penalty points avoided"
    lines = ["%s, %d players, %s vs %s: %d deals (seed %d), %d paired"
             % (res["game"], res["players"], a, b, res["deals"], res["seed"],
                res["paired_deals"]),
             "  mean diff per hand (%s): %s +- %s (95%%)" % (unit, _fmt(res["mean_diff"]),
                                                          _fmt(res["ci95"])),
             "  hand win rate %s, match win rate %s over %d matches (fair share %.3f)"
             % (_fmt(res["hand_win_rate"]), _fmt(res["match_win_rate"]), res["matches"],
                res["fair_share"])]
    for r in res["per_bot"]:
        extra = ""
        if "pisti_per_hand" in r:
            extra = ", pisti/hand %s, jack pisti/hand %s" % (_fmt(r["pisti_per_hand"]),
                                                            _fmt(r["jack_pisti_per_hand"]))
        lines.append("  %-10s %s ms/decision mean, %s ms worst%s"
                     % (r["name"], _fmt(r["ms_per_decision"], "%.4f"), _fmt(r["ms_worst"], "%.2f"),
                        extra))
    for e in res["errors"][:20]:
        lines.append("  ERROR deal %d: %s" % (e["deal"], e["message"]))
    if len(res["errors"]) > 20:
        lines.append("  ... %d more errors" % (len(res["errors"]) - 20))
    return "\n".join(lines)


def plot_ladder(path, rows, title):
    """Draw the level ladder (mean diff vs greedy with its 95% interval) with Pillow."""
    from PIL import Image, ImageDraw
    w, h = 640, 360
    img = Image.new("RGB", (w, h), "white")
    dr = ImageDraw.Draw(img)
    dr.text((10, 8), title, fill="black")
    vals = [r["mean_diff"] or 0.0 for r in rows]
    cis = [r["ci95"] or 0.0 for r in rows]
    lo = min([0.0] + [v - c for v, c in zip(vals, cis, strict=True)])
    hi = max([0.0] + [v + c for v, c in zip(vals, cis, strict=True)])
    span = (hi - lo) or 1.0
    top, bottom = 40, h - 40

    def y(v):
        return bottom - (v - lo) / span * (bottom - top)

    dr.line((50, y(0), w - 10, y(0)), fill="gray")
    dr.text((4, y(0) - 6), "greedy", fill="gray")
    slot = (w - 70) / max(1, len(rows))
    for i, (r, v, c) in enumerate(zip(rows, vals, cis, strict=True)):
        x0 = 60 + i * slot
        x1 = x0 + slot * 0.6
        dr.rectangle((x0, min(y(0), y(v)), x1, max(y(0), y(v))), fill=(70, 110, 180))
        xm = (x0 + x1) / 2
        dr.line((xm, y(v - c), xm, y(v + c)), fill="black", width=2)
        dr.text((x0, bottom + 6), r["bots"][0], fill="black")
        if v >= 0:  # the value above the bar, or beside a bar going down
            dr.text((x0, y(v + c) - 14), "%+.2f" % v, fill="black")
        else:
            dr.text((x1 + 4, y(0) + 4), "%+.2f" % v, fill="black")
    img.save(path)


# Timing under the micropython command: A in the even seats, B in the odd
# ones, swapped every other hand; A's decisions are timed one by one.
_MP_TIMER = """
import time
import random
from pisti_core.match import deal_deck, new_hand
from pisti_core.bots import make_bot
random.seed(%(seed)d)
names = (%(a)r, %(b)r)
n = %(players)d
bots = [[make_bot(%(game)r, names[k], random) for s in range(n)] for k in (0, 1)]
tot = 0
cnt = 0
worst = 0
for i in range(%(hands)d):
    h = new_hand(%(game)r, n, i %% n, deal_deck(%(game)r, n, random.randrange))
    while not h.over:
        s = h.turn
        who = (s + i) %% 2
        o = h.observe(s)
        t0 = time.ticks_us()
        a = bots[who][s].choose(o)
        dt = time.ticks_diff(time.ticks_us(), t0)
        if who == 0:
            tot += dt
            cnt += 1
            if dt > worst:
                worst = dt
        h.play(a)
print(cnt, tot, worst)
"""


def micropython_timing(game, players, names, hands, seed):
    """Mean and worst decision time (ms) of the first bot under the
    ``micropython`` command, pisti_core compiled to .mpy."""
    import tempfile
    from tools import mpy
    for nm in names:
        if nm not in LEVELS and nm not in REFERENCE:
            raise ValueError("--micropython times built-in bots only, not %r" % nm)
    with tempfile.TemporaryDirectory() as out:
        mpy.build(out)
        code = _MP_TIMER % {"seed": seed, "a": names[0], "b": names[1], "players": players,
                            "game": game, "hands": hands}
        r = mpy.run_code(code, path=(out,))
    if r.returncode != 0:
        raise ValueError("micropython failed: %s" % (r.stdout + r.stderr).strip()[-500:])
    cnt, tot, worst = [int(x) for x in r.stdout.split()]
    return {"game": game, "players": players, "bots": list(names), "hands": hands,
            "seed": seed, "interpreter": "micropython", "decisions": cnt,
            "ms_per_decision": tot / 1000.0 / max(cnt, 1), "ms_worst": worst / 1000.0}


def main(argv=None):
    ap = argparse.ArgumentParser(description="Duplicate-format bot arena (see tools/botlab/README.md).")
    ap.add_argument("--game", default="pisti", choices=sorted(_GAMES))
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bots", default="usta,greedy",
                    help="two bots, A,B: levels (%s) or programs (./mybot.py)"
                    % ",".join(LEVELS + REFERENCE))
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--target", type=int, default=None, help="match target (default per game)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="worker processes (results do not depend on it)")
    ap.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                    help="seconds an outside bot may take per decision")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--plot", metavar="FILE.png",
                    help="also run every level against greedy and draw the ladder")
    ap.add_argument("--quiet", action="store_true", help="no progress line")
    ap.add_argument("--progress", action="store_true",
                    help="the progress line even when stderr is no terminal or with --json")
    ap.add_argument("--ray", action="store_true",
                    help="shard the deals over Ray: the cluster at RAY_ADDRESS, or a local "
                         "one with --jobs CPUs (also when RAY_ADDRESS is set); same figures")
    ap.add_argument("--micropython", action="store_true",
                    help="instead: time the first bot's decisions under the micropython "
                         "command (pisti_core as .mpy) over --deals hands")
    ap.add_argument("--diffs", metavar="FILE.json",
                    help="also write the difference of every deal (for --paired)")
    ap.add_argument("--paired", nargs=2, metavar="FILE.json",
                    help="instead: compare two --diffs runs on the same deals, deal by deal")
    a = ap.parse_args(argv)
    if a.paired:
        try:
            runs = []
            for f in a.paired:
                with open(f) as fh:
                    runs.append(json.load(fh))
            res = paired(runs[0], runs[1])
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
            sys.stderr.write("arena: --paired: %s\n" % (e,))
            return 2
        print(json.dumps(res) if a.json else
              "%s %dp, seed %d, %d deals, paired deal by deal:\n  A %s: %+.3f +- %.3f\n"
              "  B %s: %+.3f +- %.3f\n  A - B: %+.3f +- %.3f (95%%)"
              % (res["game"], res["players"], res["seed"], res["deals"],
                 ",".join(res["a"]["bots"]), res["a"]["mean_diff"], res["a"]["ci95"],
                 ",".join(res["b"]["bots"]), res["b"]["mean_diff"], res["b"]["ci95"],
                 res["a_minus_b"]["mean_diff"], res["a_minus_b"]["ci95"]))
        return 0
    names = [x.strip() for x in a.bots.split(",") if x.strip()]
    try:
        if a.micropython:
            if len(names) != 2:
                raise ValueError("--bots takes two names, like usta,greedy")
            res = micropython_timing(a.game, a.players, names, a.deals, a.seed)
            print(json.dumps(res) if a.json else
                  "%s %dp, %s (vs %s) under micropython: %d decisions, %.3f ms mean, "
                  "%.2f ms worst" % (a.game, a.players, names[0], names[1], res["decisions"],
                                     res["ms_per_decision"], res["ms_worst"]))
            return 0
        show = a.progress or (not a.quiet and not a.json and sys.stderr.isatty())
        use_ray = ray_wanted(a.ray)
        res = run(a.game, a.players, names, a.deals, a.seed, a.target, a.jobs, a.timeout,
                  show, use_ray, keep_diffs=bool(a.diffs))
        if a.diffs:
            keep = {k: res[k] for k in ("game", "players", "bots", "seed", "deals")}
            keep["diffs"] = res.pop("diffs")
            try:
                with open(a.diffs, "w") as fh:
                    json.dump(keep, fh)
            except OSError as e:
                raise ValueError("--diffs: %s" % (e,)) from None
        if a.plot:
            rows = [run(a.game, a.players, [lv, "greedy"], a.deals, a.seed, a.target, a.jobs,
                        a.timeout, show, use_ray) for lv in ("random",) + LEVELS]
            res["ladder"] = [{"bot": r["bots"][0], "mean_diff": r["mean_diff"],
                              "ci95": r["ci95"]} for r in rows]
            plot_ladder(a.plot, rows, "%s %dp: mean diff per hand vs greedy, %d deals, seed %d"
                        % (a.game, a.players, a.deals, a.seed))
    except ValueError as e:
        sys.stderr.write("arena: %s\n" % e)
        return 2
    if a.json:
        print(json.dumps(res))
    else:
        print(report(res))
        if a.plot:
            print("ladder written to %s" % a.plot)
    if res["errors"]:
        sys.stdout.flush()
        n = len(res["errors"])
        sys.stderr.write("arena: an outside bot failed %d time%s (%s): the figures count forfeits\n"
                         % (n, "" if n == 1 else "s", "errors in the JSON" if a.json else "the ERROR lines"))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
