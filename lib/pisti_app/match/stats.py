# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.match.stats`
=======================

The statistics a card-game player expects, per game: matches
and hands played and won, piştis and Jack piştis made (Pişti: by your
side, in four players your team), the current and the best winning streak.
Practice and rated games alike count (a demo never does); a rated match
left (T-4) is a match played and lost. Kept in the saves as a record of
their own (``Store.stats``, :func:`load`); imported only while
a hand's end is counted or the statistics page is built, then unloaded.

Blob (version 1), 16-bit counters big-endian, each stopping at 65535::

    0x5A 1  last hand counted (3: CRC-16 of its deck, hands done & 255)
    Pişti, then Pis Yedili: matches  won  hands  hands_won  pistis
    jack_pistis  streak  best

The last hand counted makes a power cut harmless (T-6): the statistics
are written before the next deal (or the match's end) is saved, so a cut
between the two replays a finished hand whose count is already in, and it
is not counted twice.
"""

from pisti_core import GAMES

from pisti_app.util import const

_MAGIC = const(0x5A)
_VERSION = const(1)
_LEN = const(37)
# Counters by index: matches, won, hands, hands_won, pistis, jack_pistis,
# streak, best (names in pisti_app.status, for the simulator only).


def blank(data=None):
    """A working copy of the statistics blob ``data`` (zeros for None)."""
    if data is None:
        data = bytearray(_LEN)
        data[0] = _MAGIC
        data[1] = _VERSION
        return data
    return bytearray(data)


def get(b, g, i):
    """Counter ``i`` of game ``g`` (0 Pişti, 1 Pis Yedili) in the blob ``b``."""
    k = 5 + 16 * g + 2 * i
    return b[k] << 8 | b[k + 1]


def _put(b, g, i, v):
    v = 65535 if v > 65535 else v
    k = 5 + 16 * g + 2 * i
    b[k] = v >> 8
    b[k + 1] = v & 255


def add(b, g, i, n=1):
    _put(b, g, i, get(b, g, i) + n)


def ok(data):
    """True when ``data`` is a statistics blob this build reads and its
    numbers agree (won <= played, streak <= best <= won)."""
    if len(data) != _LEN or data[0] != _MAGIC or data[1] != _VERSION:
        return False
    for g in (0, 1):
        v = [get(data, g, i) for i in range(8)]
        if v[1] > v[0] or v[3] > v[2] or v[6] > v[7] or v[7] > v[1] or (g and v[4] + v[5]):
            return False
    return True


def load(sv):
    """(blob, reset) from the saves ``sv`` (:class:`pisti_app.match.saves.Saves`):
    a record that does not read is reset to zeros and saved so, alone (the
    ranking and the game stay), with a notice (``reset`` True)."""
    data = sv.store.stats
    if data is None or ok(data):
        return blank(data), False
    sv.flag("nvm: the saved statistics did not read; they start again")
    data = blank()
    sv.store.put_stats(data)
    return data, True


def _end(b, g, won):
    # A match played: won (the streak grows) or not (it ends).
    add(b, g, 0)
    if won:
        add(b, g, 1)
        add(b, g, 6)
        if get(b, g, 6) > get(b, g, 7):
            _put(b, g, 7, get(b, g, 6))
    else:
        _put(b, g, 6, 0)


def count(app, s, left=False):
    """Count into the saves the hand of ``s`` (a GameSession) just ended and,
    if it ended the match, the match; ``left``: the rated match ``s`` (a
    session or a Kept) was left (T-4), a match lost. Never for a demo."""
    if getattr(app, "demo", None) or getattr(s, "demo", None):
        return
    sv = app.saves
    b = load(sv)[0]
    g = GAMES.index(s.game)
    if not left:
        from pisti_core.crc import crc16
        h = s.last
        c = crc16(h.deck)
        n = s.hands_done & 255
        if b[2] == c >> 8 and b[3] == c & 255 and b[4] == n:
            return  # counted before a power cut (T-6)
        b[2] = c >> 8
        b[3] = c & 255
        b[4] = n
        m = s.match
        add(b, g, 2)
        if g:
            won = h.winner == 0
        else:
            pts = m.history[-1][3]
            won = pts[0] > pts[1]
            add(b, g, 4, h.pistis[0])
            add(b, g, 5, h.jpistis[0])
        if won:
            add(b, g, 3)
        if m.over:
            w = m.winners()
            _end(b, g, len(w) == 1 and w[0] == 0)
    else:
        _end(b, g, False)
    sv.store.put_stats(b)
