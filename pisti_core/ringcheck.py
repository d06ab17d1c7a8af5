# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.ringcheck`
======================

Whether a ring's table can be played (RULES.md L-12): checked when a
:class:`pisti_core.ringdefs.RingSetup` is made (the host's table, an offer
read off the cable, a save's), which happens before a game and after a
boot only; a module of its own so that a console at its table does not
keep this code.
"""

from pisti_core.match import Match


def target(game, players, target, people, levels, timer):
    """The table's target (the game's default for None, P-2), or
    ValueError naming what is wrong."""
    m = Match(game, players, target, 0)
    if len(people) != players or len(levels) != players:
        raise ValueError("one console id and one level per seat: %d seats" % players)
    ids = [c for c in people if c]
    if not people[0] or len(ids) < 2 or len(set(ids)) != len(ids):
        raise ValueError("the host sits at seat 0 with at least one other console, each once: %r" % (people,))
    for s in range(players):
        if not 0 <= people[s] <= 254:  # (255: pisti_core.ringdefs.ALL, every console)
            raise ValueError("a console id is 1..254, not %r" % (people[s],))
        if (levels[s] is None) != (people[s] != 0):
            raise ValueError("seat %d: a person has no level, a bot has one" % s)
    if not 30 <= timer <= 300:
        raise ValueError("the move timer is 30 to 300 seconds (T-3), not %r" % (timer,))
    return m.target
