# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.table`
==================

The game table (RULES.md T-1 to T-4): what a finished or abandoned rated
match gives the player, and the ranking kept per game, player count and bot
level, packed into a few bytes for the nvm log.
"""

from pisti_core import GAMES, PLAYERS, TEAMS

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


LEVELS = ("acemi", "kalfa", "usta")
# (game index, players): each game's player counts, in order. The packed
# ranking's key bytes number its tables in this order: a saved ranking
# reads back right while the order stays.
MODES = tuple([(g, n) for g in range(len(GAMES)) for n in PLAYERS[g]])
PERSON = "person"  # L-10: rated link games, ranked "against a person" (a table of their own)
_PERSON_KEYS = const(15)  # their key bytes: 15 + the mode's index (after the 3 levels of each mode)
TIMER_MIN = const(30)  # T-3 seconds a move
TIMER_MAX = const(300)
TIMER_DEFAULT = const(60)
_MAGIC = const(0xB7)

WON = "won"
DRAWN = "drawn"
LOST = "lost"


def _places(game, totals):
    # Better first: Pişti the higher total, Pis Yedili the lower (P-13, Y-16).
    return [-t for t in totals] if game == "pisti" else list(totals)


def match_outcome(game, players, totals, seat):
    """T-2: ``(points, 'won'|'drawn'|'lost')`` of ``seat`` for a finished match.

    ``totals`` per side (Pişti) or per seat (Pis Yedili). Two sides: win +1,
    draw 0, loss -1; partners share their side's result. Three or four each for
    themselves: alone first +1, alone last -1, between 0, sharing first 0,
    sharing last -1, all equal 0.
    """
    me = seat % len(totals)  # (P-1: partners share a side)
    key = _places(game, totals)
    best = min(key)
    worst = max(key)
    mine = key[me]
    if len(key) == 2:
        if key[0] == key[1]:
            return 0, DRAWN
        return (1, WON) if mine == best else (-1, LOST)
    if best == worst:  # T-2 Decision: all equal, 0
        return 0, DRAWN
    if mine == best:
        return (1, WON) if key.count(best) == 1 else (0, DRAWN)
    if mine == worst:
        return -1, LOST
    return 0, DRAWN


def leave_branch(game, players, totals, hands_done, seat):
    """T-4: which case leaving a rated match now is, as a short key:
    'first_hand', 'alone_first', 'not_first' (each for themselves) or
    'team_ahead', 'team_level', 'team_behind' (Pişti partnerships)."""
    if hands_done == 0:  # the first hand (or a one-hand game)
        return "first_hand"
    key = _places(game, totals)
    me = seat % len(totals)  # (P-1: partners share a side)
    best = min(key)
    if players in TEAMS[GAMES.index(game)]:
        if key[0] == key[1]:
            return "team_level"
        return "team_ahead" if key[me] == best else "team_behind"
    return "alone_first" if key[me] == best and key.count(best) == 1 else "not_first"


def leave_outcome(game, players, totals, hands_done, seat):
    """T-4: what leaving a rated match costs ``seat``: ``None`` (nothing is
    recorded) or ``(-1, 'lost')``. ``totals`` are those of the completed hands."""
    if leave_branch(game, players, totals, hands_done, seat) in ("alone_first", "team_ahead"):
        # Alone in first place; in a partnership the team ahead (the partner
        # would get +1, the player nothing).
        return None
    return -1, LOST  # the first hand, not alone first, a level or trailing team


def leave_terms(s, seat=0):
    """T-4: ``(leave_outcome, leave_branch)`` of leaving the rated game
    ``s`` now (anything with game, players, totals and hands_done)."""
    args = (s.game, s.players, s.totals, s.hands_done, seat)
    return leave_outcome(*args), leave_branch(*args)


def leave_text(outcome):
    """Short words for the confirmation before leaving: what it will cost."""
    return "not recorded" if outcome is None else "a loss (-1)"


class Ranking:
    """Per ``(game, players, level)``: played, won, drawn, lost, points.

    ``stamp`` (0..65535) names the last rated game recorded, so that a
    result saved just before a power cut is not counted twice when the game
    it closed is found again at the next start (the app numbers its rated
    games ``stamp + 1``)."""

    def __init__(self):
        self.rows = {}
        self.stamp = 0

    @staticmethod
    def key(game, players, level):
        """The ranking key, e.g. ``'pisti:2:usta'``."""
        return "%s:%d:%s" % (game, players, level)

    def get(self, game, players, level):
        """``[played, won, drawn, lost, points]`` for that table (zeros if new)."""
        return list(self.rows.get(self.key(game, players, level), (0, 0, 0, 0, 0)))

    def record(self, game, players, level, outcome):
        """Add one rated result ``(points, 'won'|'drawn'|'lost')`` (T-1)."""
        pts, res = outcome
        row = self.get(game, players, level)
        row[0] += 1
        row[1 + (WON, DRAWN, LOST).index(res)] += 1
        row[4] += pts
        self.rows[self.key(game, players, level)] = tuple(row)

    def as_dict(self):
        """Plain data keyed ``GAME:PLAYERS:LEVEL``, sorted keys."""
        out = {}
        for k in sorted(self.rows):
            r = self.rows[k]
            out[k] = {"played": r[0], "won": r[1], "drawn": r[2], "lost": r[3], "points": r[4]}
        return out

    def to_bytes(self):
        """Packed: magic, count, per row a key byte and five 16-bit values,
        then the 16-bit stamp."""
        out = bytearray([_MAGIC, 0])
        n = 0
        for mi in range(len(MODES)):
            g, p = MODES[mi]
            for li in range(4):
                r = self.rows.get(self.key(GAMES[g], p, LEVELS[li] if li < 3 else PERSON))
                if r is None:
                    continue
                out.append(mi * 3 + li if li < 3 else _PERSON_KEYS + mi)
                for v in r:
                    v &= 0xFFFF  # points may be negative: two's complement
                    out.append(v >> 8)
                    out.append(v & 0xFF)
                n += 1
        out[1] = n
        out.append(self.stamp >> 8 & 0xFF)
        out.append(self.stamp & 0xFF)
        return bytes(out)

    @classmethod
    def from_bytes(cls, data):
        """The ranking packed by :meth:`to_bytes`; ValueError if it is not one."""
        r = cls()
        if data is None or len(data) == 0:
            return r
        if len(data) < 2 or data[0] != _MAGIC or len(data) not in (2 + data[1] * 11, 4 + data[1] * 11):
            raise ValueError("not a pisti ranking record")
        if len(data) == 4 + data[1] * 11:  # with the stamp (without: an older record)
            r.stamp = data[-2] << 8 | data[-1]
        for i in range(data[1]):
            b = 2 + i * 11
            k = data[b]
            if k >= _PERSON_KEYS + len(MODES):
                raise ValueError("ranking record names an unknown table %d" % k)
            g, p = MODES[k // 3] if k < _PERSON_KEYS else MODES[k - _PERSON_KEYS]
            row = []
            for j in range(5):
                v = data[b + 1 + 2 * j] << 8 | data[b + 2 + 2 * j]
                row.append(v - 0x10000 if v >= 0x8000 else v)
            if row[0] != row[1] + row[2] + row[3] or row[0] < 0:
                raise ValueError("ranking record does not add up")
            r.rows[r.key(GAMES[g], p, LEVELS[k % 3] if k < _PERSON_KEYS else PERSON)] = tuple(row)
        return r
