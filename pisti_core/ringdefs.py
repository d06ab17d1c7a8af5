# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.ringdefs`
=====================

The names every part of a ring shares (RULES.md L-11 .. L-17): the
protocol's number, the message types, the timings and the phases a status
names. Small, so that :mod:`pisti_core.ringgame` compiles with what it
imports in a small heap; :mod:`pisti_core.ringproto` names them too.
"""

from pisti_core.linkchan import const
from pisti_core.linkrec import b16, u16

ALL = const(255)  # the destination of a message for every console

RING_PROTOCOL = 2  # L-11: the two-console link is protocol 1
MAX_CONSOLES = 4

# ring message types (linkchan's HELLO opens each cable's session, with the same bytes)
RING_HELLO = const(16)
OFFER = const(17)
JOIN = const(18)
COMMIT = const(19)
REVEAL = const(20)
ACTION = const(21)
NEED = const(22)
RECORD = const(23)
STATUS = const(24)
LEAVE = const(25)

# timings (milliseconds)
LOST_MS = const(20000)  # L-15: a console not heard for longer is shown lost
GONE_MS = const(180000)  # L-16: ... and for longer than this has left
STATUS_MS = const(8000)  # L-13: a console quiet this long says where it stands
CATCHUP_MS = const(8000)  # L-13: behind another console and stalled this long: ask for its record
RESYNC_MS = const(20000)  # a record asked for and not complete in this long: ask again
DEAL_REPEAT_MS = const(12000)  # L-14: a deal not complete in this long: the commitment (and bytes) again

# phases as a status names them (and the Lockstep's phases, pisti_core.linkrec, by index)
JOINED = "joined"  # a guest that joined, waiting for the other people to join
LEFT = "left"  # this console's person left the table (T-4, L-16)
PHASES = ("connect", "offered", "setup", "joined", "deal", "play", "resync", "over", "failed", "declined", "left")


# -- the host's table (L-12) -------------------------------------------------------
class RingSetup:
    """The host's table: ``RingSetup(game, players, target, rated, people,
    levels, timer)``. ``people[seat]`` is the console id (1..254) of the
    person at ``seat`` in the host's numbering, 0 for a bot; the host's own
    person sits at seat 0. ``levels[seat]`` names each bot's level, None for
    a person. ValueError for a table that cannot be played."""

    def __init__(self, game, players, target, rated, people, levels, timer=60):
        from pisti_core.ringcheck import target as checked  # (made before a game only: its code not kept)
        self.target = checked(game, players, target, people, levels, timer)
        self.game = game
        self.players = players
        self.rated = bool(rated)
        self.people = tuple(people)
        self.levels = tuple(levels)
        self.timer = timer

    def seat_of(self, cid):
        """The seat (host's numbering) of console ``cid``'s person, -1 if it
        has none."""
        for s in range(self.players):
            if self.people[s] == cid:
                return s
        return -1

    def consoles(self):
        """The ids of the seated consoles, in seat order."""
        return [c for c in self.people if c]


def added(out, x):
    """``out`` with ``x`` added: a new list in place of the shared empty tuple
    (a ring's polls and checks run every tick and allocate nothing until
    something comes)."""
    if not out:
        out = []
    out.append(x)
    return out


# -- the status (L-13, L-16) ----------------------------------------------------------
def status(pos, phase, left, table_tag, joined):
    """A quiet console's status: ``pos`` as in :func:`hello` (or None),
    ``phase`` (a :data:`PHASES` name), ``left`` the mask of the seats whose
    people left (host's numbering), the tag of its table (0: none), and 1 if
    it joined that table."""
    hd, step, dg = pos or (0, 0, 0)
    return (b16(hd) + b16(step) + b16(dg >> 16) + b16(dg & 0xFFFF)
            + bytes((PHASES.index(phase), left, joined)) + b16(table_tag))


def parse_status(p):
    """``(pos, phase, left, tag, joined)`` of a :func:`status`."""
    return ((u16(p, 0), u16(p, 2), u16(p, 4) << 16 | u16(p, 6)), PHASES[p[8]], p[9], u16(p, 11), p[10])
