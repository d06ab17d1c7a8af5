# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.stats`
=================

The statistics a card-game player expects (issue 19), per game: matches
and hands played and won, piştis and Jack piştis made (Pişti: by your
side, in four players your team), the current and the best winning streak.
Practice and rated games alike count (a demo never does); a rated match
left (T-4) is a match played and lost. Kept in the saves as a record of
their own (:meth:`pisti_app.saves.Saves.read_stats`); imported only while
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

from pisti_app.util import const

_MAGIC = const(0x5A)
_VERSION = const(1)
_LEN = const(37)
FIELDS = ("matches", "won", "hands", "hands_won", "pistis", "jack_pistis", "streak", "best")
NOTICE = "nvm: the saved statistics did not read; they start again"


def blob(data):
    """A working copy of the statistics blob ``data`` (zeros for None)."""
    if data is None:
        out = bytearray(_LEN)
        out[0] = _MAGIC
        out[1] = _VERSION
        return out
    return bytearray(data)


def _get(b, g, i):
    k = 5 + 16 * g + 2 * i
    return b[k] << 8 | b[k + 1]


def _set(b, g, i, v):
    v = 65535 if v > 65535 else v
    k = 5 + 16 * g + 2 * i
    b[k] = v >> 8
    b[k + 1] = v & 255


def valid(data):
    """True when ``data`` is a statistics blob this build reads and its
    numbers agree (won <= played, streak <= best <= won)."""
    if len(data) != _LEN or data[0] != _MAGIC or data[1] != _VERSION:
        return False
    for g in (0, 1):
        m, w, h, hw, _, _, cur, best = [_get(data, g, i) for i in range(8)]
        if w > m or hw > h or cur > best or best > w or (g and _get(data, g, 4) + _get(data, g, 5)):
            return False
    return True


def as_dict(data):
    """``{'pisti': {field: n, ...}, 'yedili': {...}}`` (Pis Yedili has no piştis)."""
    out = {}
    for g in (0, 1):
        d = {}
        for i in range(8):
            if g == 0 or i not in (4, 5):
                d[FIELDS[i]] = _get(data, g, i)
        out["yedili" if g else "pisti"] = d
    return out


def _match(b, g, won):
    _set(b, g, 0, _get(b, g, 0) + 1)
    if won:
        _set(b, g, 1, _get(b, g, 1) + 1)
        cur = _get(b, g, 6) + 1
        _set(b, g, 6, cur)
        if cur > _get(b, g, 7):
            _set(b, g, 7, cur)
    else:
        _set(b, g, 6, 0)


def count(app, s, left=False):
    """Count into the saves the hand of ``s`` (a GameSession) just ended and,
    if it ended the match, the match; ``left``: the rated match ``s`` (a
    session or a Kept) was left (T-4), a match lost."""
    sv = app.saves
    b = sv.read_stats()
    g = 1 if s.game == "yedili" else 0
    if left:
        _match(b, g, False)
        sv.write_stats(b)
        return
    from pisti_core.nvlog import crc16
    h = s.last
    c = crc16(h.deck)
    n = s.hands_done & 255
    if b[2] == c >> 8 and b[3] == c & 255 and b[4] == n:
        return  # counted before a power cut (T-6)
    b[2] = c >> 8
    b[3] = c & 255
    b[4] = n
    m = s.match
    _set(b, g, 2, _get(b, g, 2) + 1)
    if g:
        won = h.winner == 0
    else:
        pts = m.history[-1][3]
        won = pts[0] > pts[1]
        _set(b, g, 4, _get(b, g, 4) + h.pistis[0])
        _set(b, g, 5, _get(b, g, 5) + h.jpistis[0])
    if won:
        _set(b, g, 3, _get(b, g, 3) + 1)
    if m.over:
        w = m.winners()
        _match(b, g, len(w) == 1 and w[0] == 0)
    sv.write_stats(b)
