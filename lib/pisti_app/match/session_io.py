# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.match.session_io`
============================

Reading a saved game back into a :class:`pisti_app.match.session.GameSession`
(the header layout is in :mod:`pisti_app.match.session`, which writes it; the
offsets and lengths a reader needs are here: :data:`FIXED`,
:func:`deck_len`). Loaded only to restore a game (at boot and on
Continue), and unloaded by :func:`restore` once it has read one.
"""

from pisti_core import GAMES
from pisti_core.cards import decks
from pisti_core.match import Match

from pisti_app.match.session import HUMAN, LEVELS, MAGIC, UNDO, VERSION, GameSession
from pisti_app.util import const, forget

FIXED = const(10)  # header bytes before the levels
_LINK = const(20)  # a link game's bytes after the deck (role, guest seat, timer, key)
_RING = const(2)  # and a ring game's after them (ring id, session byte), then a console id per seat
_CHECKING = const(0)  # true for tools/apicheck.py only: the board compiles its blocks away


def deck_len(game, players):
    """The header's deck bytes for ``game`` with ``players``: 52 card ids a deck."""
    return 52 * decks(game, players)


def from_bytes(data, below=None):
    """A session from :meth:`GameSession.to_bytes`'s bytes (header length,
    header, actions); ValueError if they are not one."""
    if not data or data[0] + 1 > len(data):
        raise ValueError("not a saved pisti game")
    n = data[0] + 1
    return restore(data[1:n], data[n:], below)


def restore(header, actions, below=None):
    """The session saved as ``header`` and ``actions`` (``below(n)``: the
    match's chance); ValueError if they are not a game this build can play
    to the same point. Unloads this module (:func:`pisti_app.util.forget`)."""
    try:
        return _read(header, actions, below)
    finally:
        forget("pisti_app.match.session_io")


def _read(header, actions, below):
    d = bytes(header)
    if len(d) < FIXED or d[0] != MAGIC:
        raise ValueError("not a saved pisti game")
    if d[1] != VERSION:
        raise ValueError("saved game version %d is not supported" % d[1])
    if d[2] > 15 or d[2] & 12 == 8:
        raise ValueError("saved game has unknown flags")
    game = GAMES[d[2] & 1]
    players = d[3]
    if below is None:  # (ValueError for a player count, target or dealer the game has not)
        m = Match(game, players, d[4], d[5])
    else:
        m = Match(game, players, d[4], d[5], below=below)
    sides = m.sides
    size = deck_len(game, players)
    p = FIXED + players + 2 * sides
    link = _LINK if d[2] & 4 else 0
    if d[2] & 8:
        link += _RING + players
    if len(d) != p + size + link:
        raise ValueError("saved game header is %d bytes, expected %d" % (len(d), p + size + link))
    done = d[6] << 8 | d[7]
    levels = []
    for i in range(FIXED, FIXED + players):
        v = d[i]
        if v != HUMAN and v >= len(LEVELS):
            raise ValueError("saved game names an unknown bot level")
        levels.append(None if v == HUMAN else LEVELS[v])
    s = GameSession(m, levels, (d[2] & 2) != 0, d[8] << 8 | d[9], done)
    q = FIXED + players
    for i in range(sides):
        v = d[q + 2 * i] << 8 | d[q + 2 * i + 1]
        m.totals[i] = v - 0x10000 if v >= 0x8000 else v
    m.dealer = (m.first_dealer + done) % players  # P-3, Y-2: the deal passes on
    if link:  # a link game (L-9): the link is opened again on Continue
        q = p + size
        ring = d[2] & 8
        if d[q] > 1 or not (0 <= d[q + 1] < players if ring else 0 < d[q + 1] < players):
            raise ValueError("saved link game names no seat for the other console")
        s.linked = True
        s.link_info = (d[q], d[q + 1], d[q + 2] << 8 | d[q + 3], d[q + 4:q + _LINK])
        if ring:  # (RULES.md L-17)
            q += _LINK
            s.link_info = s.link_info + (d[q], d[q + 1], d[q + 2:q + 2 + players])
    h = m.deal(d[p:p + size])
    for a in actions:
        if a == UNDO:
            if not s.undo():
                raise ValueError("saved game undoes a decision that was never taken")
            h = m.hand
            if _CHECKING:
                assert h  # undo() replays the hand in play
        else:
            h.apply(a)
    return s
