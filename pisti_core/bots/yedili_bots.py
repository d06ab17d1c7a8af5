# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.bots.yedili_bots`
=============================

Pis Yedili bots: ``make(level, rng)`` for the reference bots ``random`` and
``greedy`` (here) and the levels ``acemi``, ``kalfa`` and ``usta`` (in
:mod:`pisti_core.bots.yedili_heur`, which a board loads alone: the reference
bots are the desktop's).

A bot is ``choose(obs) -> action``: it decides from the seat's
:class:`~pisti_core.yedili_obs.YediliObs` alone (T-5) and takes every random
choice from ``rng.randrange``, so a seeded run repeats exactly. Bots keep no
memory between calls: a position is decided the same way after an undo or
in a resumed match.

``random``: a uniformly random legal action, Muamele picks included.

``greedy``: a uniformly random playable card; draw only when no card is
playable; pass when the drawn card does not help. The corners, exactly:

* Opening round (Y-3): a uniformly random plain club from the hand, or draw
  when it holds none (the only legal action then).
* Play-again after an Ace or a twin (Y-9, Y-10): a uniformly random playable
  card, or draw when none is playable; after that draw the drawn card is
  played when playable, otherwise pass.
* A pending draw (Y-6): a uniformly random seven when holding one (only
  sevens are playable then), otherwise take the draw; the normal turn that
  follows is played as above.
* After a draw (Y-5): a uniformly random playable card, otherwise pass.
* A Jack is one card among the playable ones, whatever it may name. It names
  the suit of which the hand holds the most non-Jack cards once the Jack has
  left it; ties (all four when no non-Jack card is left) are broken uniformly
  at random.
* Muamele picks (Y-15): a uniformly random position.

"Uniformly random" is ``rng.randrange(k)`` over the k choices, drawn only
when k > 1, in this order: legal actions as ``obs.legal()`` lists them;
playable cards as :func:`playable` lists them; suits C D H S.
"""

from pisti_core.bots.yedili_heur import pick, playable  # (re-exported)

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


# The engine's codes (pisti_core.yedili), repeated so that the bots compile
# without the engine's source in a small heap; tests check they agree.
_JACK_BASE = const(64)
_DRAW = const(80)
_PASS = const(81)
_MUAMELE = const(4)


class RefBot:
    """A reference bot: ``RefBot("random" | "greedy", rng)``."""

    def __init__(self, level, rng):
        self.level = level
        self.rng = rng

    def choose(self, obs):
        """The action of this reference bot in ``obs`` (module docstring)."""
        legal = obs.legal()
        rng = self.rng
        if self.level == "random" or obs.phase == _MUAMELE:
            return pick(legal, rng)
        cards = playable(legal)
        if not cards:
            return _DRAW if _DRAW in legal else _PASS
        c = pick(cards, rng)
        if c >> 2 != 10:
            return c
        n = [0, 0, 0, 0]
        skip = c
        for x in obs.hand:
            if x == skip:
                skip = -1  # one copy of the Jack played leaves the hand
            elif x >> 2 != 10:
                n[x & 3] += 1
        best = max(n)
        return _JACK_BASE + (c & 3) * 4 + pick([s for s in range(4) if n[s] == best], rng)


def make(level, rng):
    """A Pis Yedili bot: ``level`` is random, greedy, acemi, kalfa or usta;
    every random choice comes from ``rng.randrange``."""
    if level == "random" or level == "greedy":
        return RefBot(level, rng)
    if level == "acemi" or level == "kalfa" or level == "usta":
        from pisti_core.bots.yedili_heur import HeuristicBot
        return HeuristicBot(level, rng)
    raise ValueError("unknown Pis Yedili bot %r (random, greedy, acemi, kalfa or usta)"
                     % (level,))
