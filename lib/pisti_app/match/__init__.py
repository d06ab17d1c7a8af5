# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.match`
=================

The match in play, in one place: play (Play: the session, the seats, the
saves, the move timer, the link), begin (a match begins: new, continued, at
boot), ends (a hand's and a match's end: scoring, the next deal, ranking),
leaving (the person's ways out, T-4), the game and its save (session,
session_io), the move timer (movetimer), the demo that plays itself (demo);
and what a match leaves: the saves in the nvm (saves), the saves and ranking
as the app holds them (records), the statistics (stats) and a ring game's
results against each other person (ringrank).
"""
