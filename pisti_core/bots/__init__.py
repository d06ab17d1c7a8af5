# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.bots`
=================

Bots for both games. A bot is an object with ``choose(obs) -> action`` that
decides from its seat's observation only (T-5), never from the engine state.
Every random choice goes through the ``rng`` it was made with (any object
with ``randrange(n)``), so seeded runs repeat exactly.

Levels: ``acemi`` (novice), ``kalfa`` (journeyman), ``usta`` (master); the
reference bots ``random`` and ``greedy`` are defined exactly so that
measurements compare across time (see each game's module).
"""

LEVELS = ("acemi", "kalfa", "usta")
REFERENCE = ("random", "greedy")


def make_bot(game, level, rng):
    """A bot for ``game`` ("pisti" or "yedili") at ``level`` (one of LEVELS
    or REFERENCE; ValueError otherwise) drawing its random choices from
    ``rng``."""
    # Imported here so that the device loads only the game it plays.
    if game == "pisti":
        from pisti_core.bots.pisti_bots import make
    elif game == "yedili" and level in LEVELS:  # (the board's: the reference bots' module stays unloaded)
        from pisti_core.bots.yedili_heur import HeuristicBot
        return HeuristicBot(level, rng)
    elif game == "yedili":
        from pisti_core.bots.yedili_bots import make
    else:
        raise ValueError("unknown game %r (pisti or yedili)" % (game,))
    return make(level, rng)
