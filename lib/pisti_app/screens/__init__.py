# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.screens`
===================

What the console shows, one screen a module, each a view: it draws what the
app and the match in play (pisti_app.match.play) hold and turns keys into
requests to them. The base of every screen (screen), the title screen
(splash), the list menus (menu) and their contents (menus), text pages (info,
stats_page), questions and notices (confirm), the card tables (table, the
parts both share; pisti_table; yedili_table with yedili_parts and
yedili_compact), the ends of a hand and of a match (results with results_pisti
and results_yedili, match_end), and what they draw with: gfx (palettes, text
as tiles on the 1-bit OLED), sprites (the cards), battdraw and battmark (the
battery mark of the title bars).
"""
