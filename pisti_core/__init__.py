# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core`
============

Rules, bots and records of the pisti console: pure logic that runs on
CircuitPython, MicroPython and CPython alike (no hardware imports).

Also here, declared once, each game's description: what the rules, the
menus, the settings, the saves and the screens ask of a game. Game ``g``
is entry ``g`` of each table below, and ``g`` is also the game's number in
the saves, the settings, the rankings and the link's frames. Plain tuples
in the package itself, and few names: every module of ours imports the
package anyway, and on the board each module, and each name a module
holds, is heap.
"""

__version__ = "0.1.0"

GAMES = ("pisti", "yedili")  # the key
PLAYERS = ((2, 4), (2, 3, 4))  # the player counts allowed (P-1, Y-1)
DECKS = ((1, 1), (1, 2, 2))  # the decks dealt for each of those counts (Y-1)
TEAMS = ((4,), ())  # the counts that play in two partnerships (P-1)
TARGETS = ((101, 151), (101,))  # the targets a match may go to, the default last (P-2, Y-16)
