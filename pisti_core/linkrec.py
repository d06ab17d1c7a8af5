# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.linkrec`
====================

The link's names (RULES.md L-1 .. L-9) that every part of it shares: the
roles, the message types and the phases, :class:`LinkError`, the host's
:class:`Setup`, and the game's record in the host's numbering with its
digest. Small, so that each link module compiles in a small heap; the
Lockstep (:mod:`pisti_core.linkgame`) holds them while a hand is played.
"""

from pisti_core import GAMES
from pisti_core.linkchan import const

HOST = 0
GUEST = 1
_REC = const(1)  # record layout version

# message types (HELLO and ACK: pisti_core.linkchan)
OFFER = const(2)
JOIN = const(3)
COMMIT = const(4)
REVEAL = const(5)
ACTION = const(6)
NEED = const(7)
RECORD = const(8)
BYE = const(9)

# phases
CONNECT = "connect"  # no hello from the other console yet
OFFERED = "offered"  # guest: an offer waits for join or decline
SETUP = "setup"  # host: waiting for the guest's answer
DEAL = "deal"
PLAY = "play"
RESYNC = "resync"  # waiting for the other console's record
OVER = "over"
FAILED = "failed"
DECLINED = "declined"


class LinkError(Exception):
    """A link that cannot go on: ``key`` names the reason for the screens
    ('version', 'role', 'garbled', 'deal', 'record', 'bye'); the text says
    it in English."""

    def __init__(self, key, text):
        super().__init__(text)  # (MicroPython: Exception has no __init__ attribute)
        self.key = key
        self.text = text


class Setup:
    """The host's choice: ``Setup(game, players, target, rated, guest_seat,
    levels, timer)``; ``levels[seat]`` in the host's numbering, None for a
    person (the host's seat 0 and ``guest_seat``). ValueError for a game
    that cannot be played (the checks of a match, P-1, P-2, Y-1)."""

    def __init__(self, game, players, target, rated, guest_seat, levels, timer=60):
        from pisti_core.match import Match
        m = Match(game, players, target, 0)
        if not 0 < guest_seat < players:
            raise ValueError("the guest sits at seat 1..%d, not %r" % (players - 1, guest_seat))
        if len(levels) != players:
            raise ValueError("one level per seat: %d seats, %d levels" % (players, len(levels)))
        for s in range(players):
            if (levels[s] is None) != (s == 0 or s == guest_seat):
                raise ValueError("seat %d: the people sit at 0 and %d, bots elsewhere" % (s, guest_seat))
        self.game = game
        self.players = players
        self.target = m.target
        self.rated = bool(rated)
        self.guest_seat = guest_seat
        self.levels = tuple(levels)
        self.timer = timer


def b16(v):
    """``v`` as two bytes, high first (the link's 16-bit fields)."""
    return bytes((v >> 8 & 255, v & 255))


def u16(p, i):
    """The 16-bit field of ``p`` at ``i``, high byte first."""
    return p[i] << 8 | p[i + 1]


# -- the record and its digest (L-5, L-9) ----------------------------------------------
def record(m, hands_done, rot):
    """The game ``m`` (a Match in local numbering) as bytes in the host's
    numbering: layout, game, players, target (2), first dealer, hands done
    (2), dealer, 1 if the match is over, totals per side (2 each), then the
    hand's deck and actions (nothing when no hand is dealt).
    :func:`pisti_core.linkproto.load` reads it back."""
    n = m.players
    out = bytearray((_REC, GAMES.index(m.game), n, m.target & 255, m.target >> 8,
                     (m.first_dealer + rot) % n, hands_done >> 8 & 255, hands_done & 255,
                     (m.dealer + rot) % n, 1 if m.over else 0))
    sides = m.sides
    for j in range(sides):
        v = m.totals[(j - rot) % sides]  # (seat s is on side s % sides, P-1)
        v &= 0xFFFF
        out.append(v >> 8)
        out.append(v & 255)
    h = m.hand
    if h is not None:
        out.extend(h.deck)
        out.extend(h.actions)
    return bytes(out)


def digest(m, hands_done, rot):
    """CRC-32 of :func:`record` (L-5)."""
    import binascii
    return binascii.crc32(record(m, hands_done, rot)) & 0xFFFFFFFF
