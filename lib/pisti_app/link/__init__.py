# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.link`
================

Link play over the cable between consoles (RULES.md L-1 .. L-10): the UART
(linkport), the set-up from the main menu (linkmenu), the link during a game,
its remote seat (remote), its rare turns (linkends) and the link opened again
after a boot (relink). Each is loaded only for link play and forgotten after
it.
"""
