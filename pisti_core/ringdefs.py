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
