# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
Tune Usta's weights with Optuna on duplicate deals with fixed seeds.

Each trial plays the candidate weights (as the lab bot ``usta:W0:W1:...``)
against ``--against`` (default: today's Usta) in the duplicate arena over
``--deals`` deals from ``--seed``; Optuna's TPE sampler, seeded with
``--seed``, maximises the mean difference. The arena shards each trial's
deals over Ray with ``--ray`` (or RAY_ADDRESS set; usage statistics off),
over ``--jobs`` local processes otherwise: the figures are the same.

The best trial is then checked on fresh deals (``--check-deals`` from seed
``--seed + 1``) against today's Usta; it is worth landing only when that
check's 95% interval lies above zero. The report (``--json``: one object)
gives the command, the seeds, the deals, every trial and the check.

Examples::

    python tools/tune.py --game pisti --players 2 --trials 30 --deals 400 --seed 100
    python tools/tune.py --game yedili --players 4 --trials 20 --deals 200 --ray
    python tools/tune.py --game pisti --players 2 --trials 20 --deals 2000 --spread 0.1

``--spread F`` searches near today's weights only (each within F of its
range): candidates that differ little from Usta differ from it in few
decisions, so their duplicate figures are tight and small gains show.
"""

import argparse
import json
import os
import sys
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(_HERE)
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

from tools import arena
from tools.botlab import weighted_name


def usta_weights(game, players=2):
    """Today's Usta weights (ints) for ``game`` with ``players``."""
    if game == "pisti":
        from pisti_core.bots.pisti_bots import level_weights
        return list(level_weights(4, players))
    from pisti_core.bots.yedili_heur import LEVELS
    return list(LEVELS["usta"])


# The tuned parameters: (index, name, low, high). Pişti's endgame budget
# (index 9) stays: it bounds the decision time on the Pico.
SPACES = {
    "pisti": [(0, "W", 0, 1024), (1, "JV", 0, 4096), (2, "TEMPO", 0, 2048),
              (3, "TK", 0, 1024), (4, "JU", 0, 1024), (5, "NEXT", 0, 2048),
              (6, "ER", 0, 1024), (7, "EJ", 0, 1024), (8, "EJ2", 0, 1024),
              (10, "KEEP", 0, 4096), (11, "PAIR", 0, 2048)],
    "yedili": [(0, "VAL", 0, 40), (1, "VALD", 0, 60), (2, "JKEEP", 0, 200),
               (3, "SEVEN", 0, 100), (4, "SHORT", 0, 60), (5, "MUA", 0, 200),
               (6, "ACE", 0, 120), (7, "NOFOL", 0, 250), (8, "TEN", 0, 120),
               (9, "FAIL", 0, 250), (10, "COVER", 0, 120), (11, "FOLLOW", 0, 100),
               (12, "DRAW", 0, 250), (15, "NAME", 0, 40), (16, "BLOCK", 0, 200)],
}


def candidate(game, params, players=2):
    """Today's Usta weights with ``params`` ({name: value}) put in."""
    w = usta_weights(game, players)
    for i, name, _, _ in SPACES[game]:
        if name in params:
            w[i] = int(params[name])
    return w


def measure(game, players, weights, against, deals, seed, jobs, use_ray):
    """The arena's figures of ``weights`` (as Usta) against ``against``."""
    return arena.run(game, players, [weighted_name("usta", weights), against], deals, seed,
                     jobs=jobs, use_ray=use_ray)


def space(game, spread=None, players=2):
    """The tuned parameters, (index, name, low, high); with ``spread`` (a
    fraction of each range) only today's weight plus or minus that much."""
    out = []
    base = usta_weights(game, players)
    for i, name, lo, hi in SPACES[game]:
        if spread:
            d = max(1, int(spread * (hi - lo)))
            lo, hi = max(lo, base[i] - d), min(hi, base[i] + d)
        out.append((i, name, lo, hi))
    return out


def tune(game, players, trials, deals, seed, against="usta", check_deals=None, jobs=1,
         use_ray=False, progress=False, spread=None):
    """Run the study; returns the report dict."""
    os.environ.setdefault("OPTUNA_DISABLE_TELEMETRY", "1")
    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    if game not in SPACES:
        raise ValueError("unknown game %r (pisti or yedili)" % (game,))
    if trials < 1 or deals < 1:
        raise ValueError("--trials and --deals must be at least 1")
    if spread is not None and not 0 < spread <= 1:
        raise ValueError("--spread is a fraction of each range, 0 < spread <= 1")
    dims = space(game, spread, players)
    base = usta_weights(game, players)
    rows = []
    prog = arena.Progress(trials, "tune %s %dp" % (game, players), progress, unit="trials")

    def objective(trial):
        params = {name: trial.suggest_int(name, lo, hi) for _, name, lo, hi in dims}
        w = candidate(game, params, players)
        r = measure(game, players, w, against, deals, seed, jobs, use_ray)
        rows.append({"trial": trial.number, "weights": w, "mean_diff": r["mean_diff"],
                     "ci95": r["ci95"]})
        prog.add(1)
        return r["mean_diff"]

    study = optuna.create_study(direction="maximize",
                                sampler=optuna.samplers.TPESampler(seed=seed))
    # Today's weights are the first trial: the study starts from them.
    study.enqueue_trial({name: base[i] for i, name, _, _ in SPACES[game]})
    t0 = time.monotonic()
    study.optimize(objective, n_trials=trials)
    best = candidate(game, study.best_params, players)
    out = {"game": game, "players": players, "against": against, "trials": trials,
           "deals": deals, "seed": seed, "spread": spread, "before": base, "best": best,
           "best_mean_diff": study.best_value, "rows": rows}
    if check_deals:
        r = measure(game, players, best, "usta", check_deals, seed + 1, jobs, use_ray)
        out["check"] = {"deals": check_deals, "seed": seed + 1, "against": "usta",
                        "mean_diff": r["mean_diff"], "ci95": r["ci95"]}
        out["better"] = bool(best != base and r["ci95"] is not None
                             and r["mean_diff"] - r["ci95"] > 0)
    out["seconds"] = round(time.monotonic() - t0, 1)
    return out


def report(res):
    """The study as readable text."""
    lines = ["tune %s %dp against %s: %d trials x %d deals (seed %d)"
             % (res["game"], res["players"], res["against"], res["trials"], res["deals"],
                res["seed"]),
             "  before: %s" % ",".join(map(str, res["before"])),
             "  best:   %s  (%+.3f in its trial)" % (",".join(map(str, res["best"])),
                                                    res["best_mean_diff"])]
    if "check" in res:
        c = res["check"]
        lines.append("  check: best vs usta %+.3f +- %.3f over %d fresh deals (seed %d): %s"
                     % (c["mean_diff"], c["ci95"] or 0.0, c["deals"], c["seed"],
                        "better, worth landing" if res["better"] else "not shown better"))
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description="Tune Usta's weights with Optuna (tools/botlab/README.md).")
    ap.add_argument("--game", default="pisti", choices=sorted(SPACES))
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--against", default="usta", help="the opponent in the trials")
    ap.add_argument("--trials", type=int, default=30)
    ap.add_argument("--deals", type=int, default=400, help="duplicate deals a trial")
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--check-deals", type=int, default=1000,
                    help="fresh deals (seed + 1) checking the best against usta; 0: none")
    ap.add_argument("--spread", type=float, default=None,
                    help="search only today's weights plus or minus this fraction of each "
                         "range (a local search; default: the whole ranges)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--ray", action="store_true", help="each trial's deals over Ray")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--quiet", action="store_true", help="no progress line")
    a = ap.parse_args(argv)
    show = not a.quiet and not a.json and sys.stderr.isatty()
    try:
        res = tune(a.game, a.players, a.trials, a.deals, a.seed, a.against, a.check_deals,
                   a.jobs, arena.ray_wanted(a.ray), show, a.spread)
    except ValueError as e:
        sys.stderr.write("tune: %s\n" % e)
        return 2
    res["command"] = "python tools/tune.py " + " ".join(sys.argv[1:] if argv is None else argv)
    print(json.dumps(res) if a.json else report(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
