# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.link`
================

Link play over the cables between consoles (RULES.md L-1 .. L-17): the
UARTs (linkport), the set-up from the main menu (linkmenu; a ring's, and
the Join that listens on both cables, ringmenu), the link during a game,
its remote seat (remote; a ring's, ringplay), its rare turns (linkends)
and the link opened again after a boot (relink). Each is loaded only for
link play and forgotten after it.
"""
