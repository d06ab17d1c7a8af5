# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.ringview`
=====================

What the screens ask of a ring (RULES.md L-12, L-15, L-16): the consoles
heard (the host seats people from them), the consoles lost and the time
left to them, and what a rated game records for this console's person.
Each function takes the :class:`pisti_core.ringgame.RingLock` (``lk``).
"""

from pisti_core import ringdefs as R


def consoles(lk, now):
    """The ring ids heard within :data:`pisti_core.ringdefs.LOST_MS`, this console's first
    (the host seats people from these, L-12)."""
    out = [lk.me]
    for cid in lk.nonces:
        t = lk.net.since(cid, now)
        if cid != lk.me and 0 <= t <= R.LOST_MS:
            out.append(cid)
    return out


def lost(lk, now):
    """The seated consoles not heard for :data:`pisti_core.ringdefs.LOST_MS` (L-15), whose
    people have not left; a shared empty tuple when none (the screens ask at every tick: nothing
    allocated then)."""
    out = ()
    if lk.setup is not None and lk.started:
        for s in range(lk.setup.players):
            cid = lk.setup.people[s]
            if cid and cid != lk.me and not lk.left >> s & 1 and lk.net.since(cid, now) > R.LOST_MS:
                out = R.added(out, cid)
    return out


def left_ms(lk, cid, now):
    """Milliseconds of L-16's 3 minutes left to console ``cid``."""
    return max(0, R.GONE_MS - lk.net.since(cid, now))


def outcome(lk):
    """What this console records for its own person, rated games only, as
    ``(points, word)``: T-2 at the match's end; T-4's cost of leaving
    when its person left (L-16); None otherwise."""
    s, m = lk.setup, lk.match
    if s is None or not s.rated or m is None:
        return None
    from pisti_core.table import leave_outcome, match_outcome
    if m.over:
        return match_outcome(m.game, m.players, m.totals, 0)
    if lk.left_me:
        return leave_outcome(m.game, m.players, m.totals, lk.hands_done, 0)
    return None
