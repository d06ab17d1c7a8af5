# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
The bot lab: desktop-only bots (never deployed to the device), selectable by
name in tools/arena.py like the levels.

* ``pimcN``: determinized search (PIMC) over N sampled worlds with fast
  rollouts (:mod:`tools.botlab.pimc_pisti`); ``pimcuN``: Usta rollouts;
  ``pimcfN``: rollouts by a policy that does not peek at the world's hands;
  a suffix ``hK`` (``pimc16h1``) stops each rollout K deals on and scores
  the points and cards taken so far. ``pimcg...`` (``pimcgu16h1``): Usta,
  overruled by that search when its best card beats Usta's by more than
  ``zK`` tenths of a standard error, paired over the worlds (default z20:
  2.0); ``aK`` (``pimcgu32a8``, Pişti only) searches sequentially: K
  worlds first, doubled up to N while the choice is close; in Pis Yedili
  (:mod:`tools.botlab.pimc_yedili`) with rollouts to the hand's end,
  ``greedy`` in every seat (``u``: Usta). The others play Pişti only.
* ``pimcg.../usta:W0:W1:...``: that guarded search over Usta with those
  weights (its own card and its rollouts), a reference that stays where it
  is when Usta's weights move: in Pişti e.g. the reference over Usta's
  weights without ``_KEEP`` and ``_PAIR``; in Pis Yedili, over hand-set
  weights.
* ``usta:W0:W1:...`` / ``kalfa:...``: the level with other weights, as
  tools/tune.py tries them (Pişti: the 12 ints of ``pisti_bots.WEIGHTS``;
  Pis Yedili: the 17 bytes of ``yedili_heur.LEVELS``).
"""

import random
import re

_PIMC = re.compile(r"^pimc(g?)([uf]?)([0-9]+)(?:h([0-9]))?(?:z([0-9]+))?(?:a([0-9]+))?$")
_WEIGHTED = re.compile(r"^(usta|kalfa):([0-9]+(?::[0-9]+)*)$")
_SIZES = {"pisti": 12, "yedili": 17}


def _base(name):
    """``pimcg.../usta:W0:...`` -> (``pimcg...``, ``usta:W0:...``); else (name, None)."""
    if name.startswith("pimcg") and "/" in name:
        head, tail = name.split("/", 1)
        if _WEIGHTED.match(tail) and tail.startswith("usta:"):
            return head, tail
    return name, None


def is_lab(name):
    """Whether ``name`` names a lab bot (``pimc64``, ``pimcu16``, ``pimcg16h1``, ``usta:...``)."""
    name = _base(name)[0]
    m = _PIMC.match(name)
    if m:
        return 1 <= int(m.group(3)) <= 4096
    return bool(_WEIGHTED.match(name))


def games_of(name):
    """The games a lab bot plays."""
    name, base = _base(name)
    m = _PIMC.match(name)
    if base:  # the game whose number of weights it gives (the sequential aK: Pişti only)
        n = base.count(":")
        return tuple(g for g in ("pisti", "yedili")
                     if _SIZES[g] == n and (g == "pisti" or not (m and m.group(6))))
    return ("pisti",) if m and not m.group(1) else ("pisti", "yedili")


def weighted_name(level, weights):
    """The lab name of ``level`` with ``weights`` (ints)."""
    return level + ":" + ":".join(str(int(x)) for x in weights)


def make(name, game, rng):
    """The lab bot ``name`` for ``game``; ValueError for what does not exist."""
    name, base = _base(name)
    if base:  # the guarded search over another Usta (its own card and its rollouts)
        g = make(name, game, rng)
        u = make(base, game, rng)
        g.usta = u
        if game == "yedili":  # its rollouts take the weights of g.usta
            return g
        w = list(u.w)
        w[9] = 0  # no endgame solver inside rollouts, as Pimc's own Usta
        g.pimc._usta = type(u)(random.Random(0), 4, tuple(w))
        return g
    m = _PIMC.match(name)
    if m and is_lab(name):
        roll = {"u": "usta", "f": "fair"}.get(m.group(2), "fast")
        if m.group(1):  # Usta overruled by the search
            if game == "yedili":
                from tools.botlab.pimc_yedili import Guarded
            else:
                from tools.botlab.pimc_pisti import Guarded
            args = (int(m.group(3)), roll, int(m.group(4) or 0), int(m.group(5) or 20) / 10.0)
            if m.group(6):
                if game == "yedili":
                    raise ValueError("%s: the sequential search (aK) plays Pişti only" % (name,))
                args += (int(m.group(6)),)
            return Guarded(rng, *args)
        if game != "pisti":
            raise ValueError("%s plays Pişti only (pimcg... plays Pis Yedili too)" % (name,))
        from tools.botlab.pimc_pisti import Pimc
        return Pimc(rng, int(m.group(3)), roll, horizon=int(m.group(4) or 0))
    m = _WEIGHTED.match(name)
    if m:
        w = [int(x) for x in m.group(2).split(":")]
        if len(w) != _SIZES.get(game, -1):
            raise ValueError("%s: %s takes %d weights, not %d"
                             % (name, game, _SIZES.get(game, 0), len(w)))
        if game == "pisti":
            from pisti_core.bots.pisti_bots import Bot
            return Bot(rng, 4 if m.group(1) == "usta" else 3, tuple(w))
        if max(w) > 255:
            raise ValueError("%s: Pis Yedili weights are bytes (0..255)" % (name,))
        from pisti_core.bots.yedili_heur import HeuristicBot
        return HeuristicBot(m.group(1), rng, bytes(w))
    raise ValueError("unknown lab bot %r (pimcN, pimcuN, pimcgN with N worlds 1..4096, "
                     "or usta:W0:W1:...)" % (name,))
