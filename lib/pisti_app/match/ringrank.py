# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.match.ringrank`
==========================

What a rated ring game (RULES.md L-10 for three or four consoles) records
for this console's person: one result against each other console's
person, loaded only to rank a ring game (:func:`pisti_app.match.ends.rank`).
"""


def pairs(s, outcome):
    """L-10 in a ring: a result against each other console's person who is
    not this person's partner (P-1): at the match's end who of the two
    did better (T-2 between two), before it ``outcome`` (leaving, T-4)."""
    li = s.link_info
    m = s.match
    n = s.players
    out = []
    for j in range(1, n):
        if not li[6][(j + li[1]) % n] or j % m.sides == 0:
            continue  # a bot's seat, or the partner's
        if m.over:
            from pisti_core.table import match_outcome
            out.append(match_outcome(s.game, 2, [m.totals[0], m.totals[j % m.sides]], 0))
        else:
            out.append(outcome)
    return out
